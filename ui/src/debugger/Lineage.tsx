// The open run's lineage, beside the run card: the run it was forked from (with the step, and what
// changed and where it left the recording, from the store), "Compare with parent", and
// the runs forked from it, each opening in the debugger.
import { ArrowUpRight, GitBranch, GitCompareArrows, Loader2 } from "lucide-react";
import type { ForkCommands } from "../commands/fork";
import type { RunCommands } from "../commands/run";
import { useQuery } from "../hooks/useQuery";
import { OutcomeBadge } from "../run/badges";
import { describeDivergence } from "../run/fork";
import { shortRunId } from "../run/ids";
import { useDebugger } from "../store/debugger";
import { useFork } from "../store/fork";
import { useRun } from "../store/run";
import type { AgentLookups } from "./lookups";
import "../styles/fork.css";

/** Runs made close together share their first characters (time-ordered ids): the end tells them apart. */
const short = (id: string) => shortRunId(id);

export function Lineage({ commands, fork, lookups }: { commands: RunCommands; fork: ForkCommands; lookups: AgentLookups }) {
  const summary = useDebugger((s) => s.overview?.summary);
  const runsVersion = useRun((s) => s.runsVersion);
  const made = useFork((s) => s.made);
  const runId = summary?.id ?? null;
  const forks = useQuery(["run_forks", runId, runsVersion], () => commands.platform.search_runs({ parent: runId as string, limit: 20 }), {
    enabled: runId !== null,
    keepPrevious: (prev) => prev[1] === runId,
  });
  if (!summary) return null;
  const parent = summary.parent ?? null;
  // What the fork changed and where it left the recording: kept with the run in the store.
  const info = summary.fork ?? made[summary.id];
  const page = forks.data;

  return (
    <section className="side-section lineage" data-testid="lineage" data-run={summary.id} data-parent={parent ?? undefined}>
      <header className="side-head">
        <GitBranch size={13} className="muted" />
        <h3>Lineage</h3>
        {page && page.total > 0 && (
          <span className="side-meta" data-testid="lineage-fork-count">
            {page.total} {page.total === 1 ? "fork" : "forks"}
          </span>
        )}
      </header>
      {parent && (
        <div className="lineage-parent">
          <div className="lineage-line">
            <span className="muted">Forked from</span>
            <button
              type="button"
              className="lineage-link mono"
              data-testid="lineage-parent"
              data-run={parent}
              title={`Open the parent run ${parent}${summary.forked_at != null ? ` at step ${summary.forked_at}` : ""}`}
              onClick={() => void commands.openRun(parent, summary.forked_at != null ? { step: summary.forked_at } : {})}
            >
              {short(parent)} <ArrowUpRight size={11} />
            </button>
            {summary.forked_at != null && (
              <span className="muted" data-testid="lineage-forked-at">
                at step {summary.forked_at}
              </span>
            )}
          </div>
          {info && (
            <div className="lineage-info" data-testid="lineage-info">
              {info.changes.length > 0 && (
                <ul className="lineage-changes" aria-label="What changed">
                  {info.changes.map((c) => (
                    <li key={c}>{c}</li>
                  ))}
                </ul>
              )}
              <div className="lineage-divergence" data-testid="lineage-divergence" data-agent={info.divergence?.agent} data-call={info.divergence?.call}>
                The fork {describeDivergence(info.divergence, lookups.agentName)}.
              </div>
            </div>
          )}
          <button
            type="button"
            className="btn btn-secondary btn-sm lineage-compare"
            data-testid="lineage-compare"
            title="Both runs' transfers side by side, lined up by (from, to, occurrence)"
            onClick={() => fork.compareWithParent(parent, summary.id)}
          >
            <GitCompareArrows size={13} /> Compare with parent
          </button>
        </div>
      )}
      {forks.error ? (
        <div className="text-error lineage-error" role="alert" data-testid="lineage-error" data-code={forks.error.code}>
          Could not list the forks: {forks.error.message}{" "}
          <button className="btn btn-secondary btn-xs" onClick={() => void forks.refresh()} disabled={forks.loading}>
            Retry
          </button>
        </div>
      ) : !page ? (
        <div className="muted small">
          <Loader2 size={12} className="spin" /> Looking for forks…
        </div>
      ) : page.runs.length === 0 ? (
        !parent && <div className="muted small lineage-empty">No forks yet. Fork from here… re-runs this run from a step with a change.</div>
      ) : (
        <ul className="lineage-forks" data-testid="lineage-forks" aria-label="Runs forked from this one">
          {page.runs.map((r) => {
            const known = r.fork ?? made[r.id];
            const d = known?.divergence;
            return (
              <li key={r.id} className="lineage-fork" data-testid="lineage-fork" data-run={r.id} data-status={r.outcome.status}>
                <button type="button" className="lineage-fork-open" onClick={() => void commands.openRun(r.id, r.forked_at != null ? { step: r.forked_at } : {})} title={`Open the fork ${r.id}`}>
                  <span className="lineage-line">
                    <span className="mono">{short(r.id)}</span>
                    {r.forked_at != null && <span className="muted">at step {r.forked_at}</span>}
                    <OutcomeBadge status={r.outcome.status} />
                  </span>
                  {r.final_output && <span className="lineage-answer">{r.final_output}</span>}
                  {known && <span className="lineage-fork-div muted">{describeDivergence(d ?? null, lookups.agentName)}</span>}
                </button>
                <button
                  type="button"
                  className="icon-btn lineage-fork-compare"
                  data-testid="lineage-fork-compare"
                  aria-label={`Compare ${short(r.id)} with this run`}
                  title="Compare this run with the fork"
                  onClick={() => fork.compareWithParent(summary.id, r.id)}
                >
                  <GitCompareArrows size={13} />
                </button>
              </li>
            );
          })}
          {page.total > page.runs.length && <li className="muted small">and {page.total - page.runs.length} more (Runs list)</li>}
        </ul>
      )}
    </section>
  );
}

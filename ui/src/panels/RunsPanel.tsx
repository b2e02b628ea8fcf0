// The Runs tab: the saved runs of the open topology (by name), newest first. Open one in the
// debugger, delete one, or pick two and compare their transfers.
import { Bug, Columns2, Pin, RefreshCw, Trash2 } from "lucide-react";
import { useMemo, useState } from "react";
import { useQuery } from "../hooks/useQuery";
import { OutcomeBadge } from "../run/badges";
import type { RunCommands } from "../commands/run";
import { durationMs, formatDuration, formatTokens, formatWhen } from "../run/format";
import { formatLabel, runSource } from "../run/source";
import { num } from "../run/types";
import { useDesigner } from "../store/designer";
import { useRun } from "../store/run";
import { useUi } from "../store/ui";

export function RunsPanel({ commands }: { commands: RunCommands }) {
  const name = useDesigner((s) => s.topology?.name);
  const version = useRun((s) => s.runsVersion);
  const [chosen, setChosen] = useState<string[]>([]);

  const { platform } = commands;
  // A finished or deleted run bumps the version: the list is asked again, the old one shown meanwhile.
  const list = useQuery(["list_runs", name, version], () => platform.list_runs({ topology: name }), {
    enabled: name !== undefined,
    keepPrevious: (prev) => prev[1] === name,
  });
  const runs = list.data ?? null;
  // Runs that are gone (deleted, another topology) are no longer picked.
  const picked = useMemo(() => chosen.filter((id) => runs?.some((r) => r.id === id)), [chosen, runs]);

  const toggle = (id: string) => setChosen(picked.includes(id) ? picked.filter((x) => x !== id) : [...picked.slice(-1), id]);

  if (!name) return null;
  return (
    <div className="runs-panel" data-testid="runs-panel">
      <div className="run-toolbar">
        <span className="runs-title">
          Runs of <strong>{name}</strong>
          {runs && <span className="muted"> · {runs.length}</span>}
        </span>
        <div className="spacer" />
        <span className="muted small">{picked.length === 2 ? "2 runs picked" : "Pick two runs to compare their transfers"}</span>
        <button
          className="btn btn-secondary btn-sm"
          data-testid="runs-compare"
          disabled={picked.length !== 2}
          onClick={() => useUi.getState().setCompare([picked[0] as string, picked[1] as string])}
        >
          <Columns2 size={13} /> Compare
        </button>
        <button className="icon-btn sm" aria-label="Refresh" title="Refresh" onClick={() => void list.refresh()} aria-busy={list.loading}>
          <RefreshCw size={13} className={list.loading ? "spin" : undefined} />
        </button>
      </div>
      {list.error && (
        <div className="pane-empty text-error" role="alert" data-testid="runs-error" data-code={list.error.code}>
          Could not list runs: {list.error.message}
        </div>
      )}
      {!runs && !list.error && <div className="pane-empty">Loading the runs…</div>}
      {runs && runs.length === 0 && <div className="pane-empty">No saved runs of this topology yet. Start one in the Run tab (F5).</div>}
      {runs && runs.length > 0 && (
        <div className="runs-table-wrap">
          <table className="runs-table" data-testid="runs-list">
            <thead>
              <tr>
                <th className="col-pick" aria-label="Pick to compare" />
                <th>Outcome</th>
                <th>Scenario</th>
                <th>Started</th>
                <th className="num">Duration</th>
                <th className="num">Tokens</th>
                <th className="num">Steps</th>
                <th className="num">Transfers</th>
                <th className="num">Lost facts</th>
                <th aria-label="Actions" />
              </tr>
            </thead>
            <tbody>
              {runs.map((r) => {
                const on = picked.includes(r.id);
                const label = `Run of ${r.scenario} (${formatWhen(r.started_at)})`;
                return (
                  <tr key={r.id} className={on ? "is-picked" : undefined} data-testid="run-row" data-run={r.id} data-status={r.outcome.status} onDoubleClick={() => void commands.openRun(r.id)}>
                    <td className="col-pick">
                      <input type="checkbox" checked={on} onChange={() => toggle(r.id)} aria-label={`Pick ${label} to compare`} data-testid="run-pick" />
                    </td>
                    <td className="col-outcome">
                      <OutcomeBadge status={r.outcome.status} />
                      <span className="run-reason" title={r.outcome.reason}>
                        {r.outcome.reason}
                      </span>
                    </td>
                    <td>
                      {r.scenario}
                      {(() => {
                        const src = runSource(r);
                        return src ? (
                          <span className="run-imported" data-testid="run-imported" title={[`Imported from ${formatLabel(src.format)}`, src.file, ...src.notes].filter(Boolean).join("\n")}>
                            {src.format}
                          </span>
                        ) : null;
                      })()}
                    </td>
                    <td title={r.started_at}>{formatWhen(r.started_at)}</td>
                    <td className="num">{formatDuration(durationMs(r.started_at, r.ended_at))}</td>
                    <td className="num">{formatTokens(num(r.input_tokens) + num(r.output_tokens))}</td>
                    <td className="num">{r.steps.toLocaleString()}</td>
                    <td className="num">{r.transfers}</td>
                    <td className={`num${r.lost_facts > 0 ? " lost" : ""}`}>
                      {r.lost_facts > 0 && <Pin size={11} />} {r.lost_facts}
                    </td>
                    <td className="col-actions">
                      <button className="btn btn-ghost btn-sm" data-testid="run-open" onClick={() => void commands.openRun(r.id)} title="Open in the debugger">
                        <Bug size={13} /> Open
                      </button>
                      <button className="icon-btn sm danger" data-testid="run-delete" aria-label={`Delete ${label}`} title="Delete" onClick={() => void commands.deleteRun(r.id, label)}>
                        <Trash2 size={13} />
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

// Two runs compared, of one topology or of two (ticket-reopen against ticket-supervisor): their
// outcomes and final answers, their topology versions, and their transfers lined up by route and
// occurrence (not by index), with what only one run did marked as such. A row opens both
// transfers' diffs side by side.
import { AlertOctagon, ArrowLeft, ChevronLeft, ChevronRight, Pin } from "lucide-react";
import { useMemo, useState } from "react";
import { DiffView } from "../debugger/DiffView";
import { agentLookups, type AgentLookups } from "../debugger/lookups";
import { useQuery } from "../hooks/useQuery";
import { OutcomeBadge } from "../run/badges";
import { alignTransfers, compareCounts, compareEndings, compareTopologies, topologyFingerprint, type CompareLine } from "../run/compare";
import { durationMs, formatDuration, formatTokens, formatWhen } from "../run/format";
import { decodeOverview, num, type RunOverview, type RunSummary, type TransferBrief } from "../run/types";
import type { Platform } from "../platform/types";
import { useUi } from "../store/ui";
import { Modal } from "./Modal";
import "../styles/diff.css";
import { shortRunId } from "../run/ids";

const SIDES = ["A", "B"] as const;

/** A run as a picker shows it: topology, scenario, when, outcome and the end of its id (ids made in the same minute share their start). */
/** A run in a picker: what tells it apart (its short id, a fork's parent), then where and how it ended. */
const runLabel = (r: RunSummary) => {
  const parent = r.parent ?? r.fork?.parent;
  const fork = parent ? ` · fork of ${shortRunId(parent)}` : "";
  return `${shortRunId(r.id)}${fork} · ${r.topology} · ${r.scenario} · ${formatWhen(r.started_at)} · ${r.outcome.status}`;
};

const ordinal = (n: number) => ["1st", "2nd", "3rd"][n] ?? `${n + 1}th`;

export function CompareDialog({ platform, runs, onClose }: { platform: Platform; runs: [string, string]; onClose: () => void }) {
  const [a, b] = runs;
  const overviews = useQuery(["compare", a, b], () => Promise.all([platform.run_overview({ run_id: a }), platform.run_overview({ run_id: b })]).then(([x, y]) => [decodeOverview(x), decodeOverview(y)] as [RunOverview, RunOverview]));
  const data = overviews.data ?? null;
  const error = overviews.error;
  const [open, setOpen] = useState<number | null>(null);

  const lines = useMemo(() => (data ? alignTransfers(data[0].transfers, data[1].transfers) : []), [data]);
  const lookups = useMemo(() => (data ? data.map((o) => agentLookups(o.topology, o.steps)) : []), [data]) as AgentLookups[];
  const line = open !== null ? lines[open] : undefined;
  // An agent's name from whichever run knows it (the runs may be of different topologies).
  const names = useMemo(() => {
    const [la, lb] = lookups;
    return (id: string) => {
      const x = la?.agentName(id) ?? id;
      return x !== id ? x : (lb?.agentName(id) ?? id);
    };
  }, [lookups]);

  return (
    <Modal
      title="Compare runs"
      subtitle="Outcomes, answers, topology versions, and the transfers lined up by route; open a row for both diffs."
      onClose={onClose}
      width={1400}
      testId="compare-view"
    >
      {error && (
        <div className="pane-empty text-error" role="alert" data-testid="compare-error" data-code={error.code}>
          Could not load the runs: {error.message}{" "}
          <button className="btn btn-secondary btn-sm" onClick={() => void overviews.refresh()}>
            Retry
          </button>
        </div>
      )}
      {!data && !error && <div className="pane-empty">Loading…</div>}
      {data && line && (
        <PairView
          platform={platform}
          runs={data}
          lookups={lookups}
          names={names}
          line={line}
          index={open as number}
          count={lines.length}
          onMove={setOpen}
          onBack={() => setOpen(null)}
        />
      )}
      {data && !line && <Overview platform={platform} data={data} lines={lines} lookups={lookups} names={names} onOpen={setOpen} />}
    </Modal>
  );
}

function Overview({
  platform,
  data,
  lines,
  lookups,
  names,
  onOpen,
}: {
  platform: Platform;
  data: [RunOverview, RunOverview];
  lines: CompareLine[];
  lookups: AgentLookups[];
  names: (id: string) => string;
  onOpen: (i: number) => void;
}) {
  const [sa, sb] = [data[0].summary, data[1].summary];
  const endings = compareEndings(sa, sb);
  const topo = compareTopologies(data[0].topology, data[1].topology, sa.topology, sb.topology);
  const counts = compareCounts(lines);
  return (
    <div className="compare-body">
      <div className="compare-grid">
        {data.map((o, side) => (
          <RunCard key={side} platform={platform} overview={o} side={side as 0 | 1} other={data[1 - side]!.summary} />
        ))}
      </div>
      <div className="compare-verdicts" data-testid="compare-verdicts">
        <span className={`verdict ${endings.sameOutcome ? "is-same" : "is-diff"}`} data-testid="verdict-outcome" data-same={endings.sameOutcome}>
          {endings.sameOutcome ? `Same outcome (${sa.outcome.status})` : `Outcomes differ: ${sa.outcome.status} / ${sb.outcome.status}`}
        </span>
        <span className={`verdict ${endings.sameAnswer ? "is-same" : "is-diff"}`} data-testid="verdict-answer" data-same={endings.sameAnswer}>
          {endings.sameAnswer ? "Same final answer" : "Final answers differ"}
        </span>
        <TopologyVerdict topo={topo} a={sa} b={sb} />
      </div>
      <div className="compare-legend" data-testid="compare-legend">
        <span className="legend-title">Columns</span>
        <span>
          <b className="count-chip c-carried">C</b> Carried
        </span>
        <span>
          <b className="count-chip c-transformed">T</b> Transformed
        </span>
        <span>
          <b className="count-chip c-dropped">D</b> Dropped, or <b className="count-chip c-withheld">D</b> withheld at a delegation (the caller keeps
          them)
        </span>
        <span>
          <b className="count-chip c-added">A</b> Added
        </span>
        <span className="legend-sep" />
        <span>
          <b className="match-chip m-differ">≠</b> differs
        </span>
        <span>
          <b className="match-chip m-only">A only</b> one run only
        </span>
        <span className="muted" data-testid="compare-counts">
          {counts.same} same · {counts.differ} differ · {counts.onlyA} only in A · {counts.onlyB} only in B
        </span>
      </div>
      <div className="compare-grid compare-tables">
        {SIDES.map((_, side) => (
          <TransferTable key={side} side={side as 0 | 1} lines={lines} lookups={lookups[side]!} names={names} onOpen={onOpen} />
        ))}
      </div>
    </div>
  );
}

function RunCard({ platform, overview, side, other }: { platform: Platform; overview: RunOverview; side: 0 | 1; other: RunSummary }) {
  const s = overview.summary;
  const fp = topologyFingerprint(overview.topology);
  const label = SIDES[side];
  const picks = useQuery(["compare_pick_runs"], () => platform.list_runs({ limit: 100 }), { staleTime: 5000 });
  const choose = (id: string) => {
    const cur = useUi.getState().compare;
    if (!cur || !id) return;
    // Picking the other side's run swaps the two.
    const otherSide = cur[1 - side] === id ? cur[side] : cur[1 - side];
    useUi.getState().setCompare(side === 0 ? [id, otherSide as string] : [otherSide as string, id]);
  };
  return (
    <section className="compare-col compare-card" data-testid="compare-run" data-run={s.id} data-side={label}>
      <header className="compare-head">
        <span className="side-badge" aria-label={`Run ${label}`}>
          {label}
        </span>
        <span className="compare-topology" data-testid="compare-topology" title={`Topology ${s.topology}`}>
          {s.topology}
        </span>
        {fp && (
          <span className="version-chip mono" data-testid="compare-version" title="Fingerprint of the topology version this run ran (its saved definition, node positions aside)">
            v {fp}
          </span>
        )}
        <span className="spacer" />
        <select
          className="compare-pick"
          aria-label={`Compare another run as ${label}`}
          data-testid={`compare-pick-${label.toLowerCase()}`}
          value={s.id}
          onChange={(e) => choose(e.target.value)}
        >
          <option value={s.id}>{`Run ${label}: ${runLabel(s)}`}</option>
          {(picks.data ?? [])
            .filter((r) => r.id !== s.id)
            .map((r) => (
              <option key={r.id} value={r.id}>
                {r.id === other.id ? `${runLabel(r)} (now ${SIDES[1 - side]}: swaps the two)` : runLabel(r)}
              </option>
            ))}
        </select>
      </header>
      <div className="compare-meta">
        <OutcomeBadge status={s.outcome.status} />
        <span className="compare-reason" title={s.outcome.reason}>
          {s.outcome.reason}
        </span>
      </div>
      <div className="compare-meta muted small">
        {s.scenario} · {formatWhen(s.started_at)} · {s.steps} steps · {s.transfers} transfers · {formatTokens(num(s.input_tokens) + num(s.output_tokens))} tokens ·{" "}
        {formatDuration(durationMs(s.started_at, s.ended_at))}
        {s.lost_facts > 0 && <span className="text-error"> · {s.lost_facts} fact lost</span>}
      </div>
      <div className="compare-answer" data-testid="compare-answer" data-side={label}>
        <span className="compare-answer-label">Final answer{s.owner ? ` · ${agentLookups(overview.topology, overview.steps).agentName(s.owner)}` : ""}</span>
        {s.final_output ? <p>{s.final_output}</p> : <p className="muted">No final answer ({s.outcome.status}).</p>}
      </div>
      {picks.error && (
        <div className="text-error small" role="alert" data-testid="compare-pick-error" data-code={picks.error.code}>
          Could not list other runs: {picks.error.message}{" "}
          <button className="btn btn-ghost btn-sm" onClick={() => void picks.refresh()}>
            Retry
          </button>
        </div>
      )}
    </section>
  );
}

function TopologyVerdict({ topo, a, b }: { topo: ReturnType<typeof compareTopologies>; a: RunSummary; b: RunSummary }) {
  const parts: [string, string[]][] = [
    ["Agents only in A", topo.agentsOnlyA],
    ["Agents only in B", topo.agentsOnlyB],
    ["Edges only in A", topo.edgesOnlyA],
    ["Edges only in B", topo.edgesOnlyB],
    ["Policies changed (A → B)", topo.policyChanged],
  ];
  const text = topo.sameVersion
    ? "Same topology version"
    : topo.sameName
      ? `Same topology (${a.topology}), different versions`
      : `Different topologies: ${a.topology} (A) and ${b.topology} (B)`;
  const detail = parts.filter(([, v]) => v.length > 0);
  return (
    <span className={`verdict ${topo.sameVersion ? "is-same" : "is-diff"}`} data-testid="verdict-topology" data-same={topo.sameVersion}>
      {text}
      {detail.length > 0 && (
        <details className="verdict-details">
          <summary>what differs</summary>
          <dl>
            {detail.map(([k, v]) => (
              <div key={k}>
                <dt>{k}: </dt>
                <dd>{v.join(", ")}</dd>
              </div>
            ))}
          </dl>
        </details>
      )}
    </span>
  );
}

function countCell(t: TransferBrief, k: "carried" | "transformed" | "dropped" | "added") {
  const withheld = k === "dropped" && t.kind === "delegation";
  const n = t[k];
  return (
    <td className={`num${n > 0 ? ` n-${withheld ? "withheld" : k}` : ""}`} title={`${n} ${withheld ? "withheld by the caller (a delegation)" : k}`}>
      {n}
    </td>
  );
}

function TransferTable({
  side,
  lines,
  lookups,
  names,
  onOpen,
}: {
  side: 0 | 1;
  lines: CompareLine[];
  lookups: AgentLookups;
  names: (id: string) => string;
  onOpen: (i: number) => void;
}) {
  const label = SIDES[side];
  const otherLabel = SIDES[1 - side];
  const { agentName, palette } = lookups;
  return (
    <section className="compare-col">
      <table className="transfer-table compare-table" data-testid="transfer-table" data-side={label}>
        <colgroup>
          <col className="w-match" />
          <col className="w-index" />
          <col />
          <col className="w-policy" />
          <col className="w-num" />
          <col className="w-num" />
          <col className="w-num" />
          <col className="w-num" />
          <col className="w-facts" />
          <col className="w-open" />
        </colgroup>
        <thead>
          <tr>
            <th title="How this line compares with the other run">Match</th>
            <th title="Transfer number and step">#</th>
            <th>Transfer ({label})</th>
            <th>Policy</th>
            <th className="num">
              <abbr title="Carried: the same item on both sides">C</abbr>
            </th>
            <th className="num">
              <abbr title="Transformed: the receiver gets it in another form">T</abbr>
            </th>
            <th className="num">
              <abbr title="Dropped: the receiver gets it in no form (at a delegation: withheld, the caller keeps it)">D</abbr>
            </th>
            <th className="num">
              <abbr title="Added: new on the receiver's side">A</abbr>
            </th>
            <th>Facts</th>
            <th aria-label="Open" />
          </tr>
        </thead>
        <tbody>
          {lines.map((l, i) => {
            const t = side === 0 ? l.a : l.b;
            const both = l.a && l.b;
            const match = both ? (l.same ? "same" : "differ") : l.a ? "only-a" : "only-b";
            const open = () => onOpen(i);
            if (!t) {
              return (
                <tr key={l.key} className="is-missing" data-testid="transfer-row-missing" data-line={i} data-key={l.key} onClick={open}>
                  <td colSpan={10} className="muted">
                    <span className="match-chip m-none">—</span> no {names(l.from)} → {names(l.to)} ({ordinal(l.occurrence)}) in this run · only in {otherLabel}
                  </td>
                </tr>
              );
            }
            return (
              <tr
                key={l.key}
                className={`is-${match}`}
                data-testid="transfer-row"
                data-index={t.index}
                data-line={i}
                data-key={l.key}
                data-match={match}
                onClick={open}
              >
                <td>
                  {match === "same" && (
                    <span className="match-chip m-same" title="The other run made the same transfer, with the same diff counts and facts">
                      =
                    </span>
                  )}
                  {match === "differ" && (
                    <span className="match-chip m-differ" title="The other run made this transfer differently (policy, counts or facts)">
                      ≠
                    </span>
                  )}
                  {!both && (
                    <span className="match-chip m-only" title={`Only run ${label} made this transfer`}>
                      {label} only
                    </span>
                  )}
                </td>
                <td className="mono" title={`transfer T${t.index} at step ${t.step}`}>
                  T{t.index} <span className="muted small">s{t.step}</span>
                </td>
                <td className="compare-route" title={`${agentName(t.from)} → ${agentName(t.to)} · ${t.kind}${l.occurrence ? ` · ${ordinal(l.occurrence)} time` : ""}`}>
                  <span className={`kind-dot kind-${t.kind}`} />
                  <span style={{ color: palette(t.from) }}>{agentName(t.from)}</span>
                  <span className="muted"> → </span>
                  <span style={{ color: palette(t.to) }}>{agentName(t.to)}</span>
                  {l.occurrence > 0 && <span className="muted small"> ({ordinal(l.occurrence)})</span>}
                </td>
                <td className="mono small compare-policy" title={t.policy}>
                  {t.policy}
                </td>
                {countCell(t, "carried")}
                {countCell(t, "transformed")}
                {countCell(t, "dropped")}
                {countCell(t, "added")}
                <td>
                  {t.facts.length === 0 && <span className="muted">—</span>}
                  {t.facts.map((f) => (
                    <span key={f.id} className={`fact-mini fact-${f.status}`} title={`${f.id}: ${f.status}`}>
                      <Pin size={10} /> {f.status}
                    </span>
                  ))}
                </td>
                <td>
                  <button
                    type="button"
                    className="icon-btn sm"
                    data-testid="compare-open"
                    aria-label={`Open the diffs of ${agentName(t.from)} → ${agentName(t.to)}`}
                    title="Open both runs' diffs of this transfer"
                    onClick={(e) => {
                      e.stopPropagation();
                      open();
                    }}
                  >
                    <ChevronRight size={14} />
                  </button>
                </td>
              </tr>
            );
          })}
          {lines.length === 0 && (
            <tr>
              <td colSpan={10} className="muted">
                Neither run made a transfer.
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </section>
  );
}

function PairView({
  platform,
  runs,
  lookups,
  names,
  line,
  index,
  count,
  onMove,
  onBack,
}: {
  platform: Platform;
  runs: [RunOverview, RunOverview];
  lookups: AgentLookups[];
  names: (id: string) => string;
  line: CompareLine;
  index: number;
  count: number;
  onMove: (i: number) => void;
  onBack: () => void;
}) {
  const name = names;
  return (
    <div className="compare-pair" data-testid="compare-pair" data-key={line.key}>
      <div className="compare-pair-head">
        <button className="btn btn-secondary btn-sm" data-testid="compare-back" onClick={onBack} autoFocus>
          <ArrowLeft size={13} /> All transfers
        </button>
        <strong className="compare-pair-title">
          {name(line.from)} → {name(line.to)} <span className="muted">({ordinal(line.occurrence)})</span>
        </strong>
        <span className="muted small">
          A: {line.a ? `T${line.a.index} · step ${line.a.step}` : "none"} · B: {line.b ? `T${line.b.index} · step ${line.b.step}` : "none"} ·{" "}
          {line.a && line.b ? (line.same ? "the same" : "they differ") : `only in ${line.a ? "A" : "B"}`}
        </span>
        <span className="spacer" />
        <button className="icon-btn sm" aria-label="Previous transfer" data-testid="compare-prev" disabled={index === 0} onClick={() => onMove(index - 1)}>
          <ChevronLeft size={14} />
        </button>
        <span className="muted small">
          {index + 1} / {count}
        </span>
        <button className="icon-btn sm" aria-label="Next transfer" data-testid="compare-next" disabled={index >= count - 1} onClick={() => onMove(index + 1)}>
          <ChevronRight size={14} />
        </button>
      </div>
      <div className={`compare-pair-grid${line.a && line.b ? "" : line.a ? " only-a" : " only-b"}`}>
        {runs.map((o, side) => (
          <PairSide
            key={`${side}:${o.summary.id}:${line.key}`}
            platform={platform}
            overview={o}
            label={SIDES[side]}
            transfer={side === 0 ? line.a : line.b}
            line={line}
            lookups={lookups[side]!}
            names={names}
          />
        ))}
      </div>
    </div>
  );
}

function PairSide({
  platform,
  overview,
  label,
  transfer,
  line,
  lookups,
  names,
}: {
  platform: Platform;
  overview: RunOverview;
  label: string;
  transfer: TransferBrief | null;
  line: CompareLine;
  lookups: AgentLookups;
  names: (id: string) => string;
}) {
  const id = overview.summary.id;
  const view = useQuery(["transfer_view", id, transfer?.index ?? -1], () => platform.transfer_view({ run_id: id, index: transfer?.index ?? 0 }), {
    enabled: transfer !== null,
    staleTime: Infinity,
  });
  return (
    <section className="compare-pair-side" data-testid="compare-side" data-side={label} data-run={id}>
      <header className="compare-pair-side-head">
        <span className="side-badge">{label}</span>
        <span className="compare-topology" title={overview.summary.topology}>
          {overview.summary.topology}
        </span>
        <span className="muted small">run {shortRunId(id)}</span>
      </header>
      {!transfer ? (
        <div className="pane-empty" data-testid="compare-diff-missing">
          Run {label} made no transfer from {names(line.from)} to {names(line.to)} ({ordinal(line.occurrence)}).
        </div>
      ) : view.error ? (
        <div className="pane-empty text-error" role="alert" data-testid="compare-diff-error" data-code={view.error.code}>
          <AlertOctagon size={14} /> Could not load transfer T{transfer.index}: {view.error.message}{" "}
          <button className="btn btn-secondary btn-sm" onClick={() => void view.refresh()}>
            Retry
          </button>
        </div>
      ) : !view.data ? (
        <div className="pane-empty">Loading transfer T{transfer.index}…</div>
      ) : (
        <DiffView view={view.data} lookups={lookups} defaultMode="unified" testId="compare-diff" />
      )}
    </section>
  );
}

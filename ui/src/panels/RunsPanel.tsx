// The Runs tab: the saved runs of the open topology (by name), newest first. Open one in the
// debugger, delete one, or pick two and compare their transfers. The Capture switch listens for
// a running system's traces: while it is on, the runs saved from them (of any topology) are listed
// first, as they arrive. "All runs…" opens the Runs home (every run in the store). At narrow widths
// the columns read least (duration, tokens, steps, transfers) give way; Open stays in view.
import "../styles/runs.css";
import { Bug, Columns2, RefreshCw, Rows3, Trash2 } from "lucide-react";
import { useMemo, useState } from "react";
import { useCapture } from "../hooks/useCapture";
import { useQuery } from "../hooks/useQuery";
import type { RunCommands } from "../commands/run";
import { CAPTURED_SCAN, capturedRuns } from "../run/capture";
import { durationMs, formatDuration, formatTokens, formatWhen } from "../run/format";
import { num, type RunSummary } from "../run/types";
import { useDesigner } from "../store/designer";
import { useRun } from "../store/run";
import { useUi } from "../store/ui";
import { useRunsHome } from "../store/runsHome";
import { CaptureBar, CaptureSwitch } from "./Capture";
import { LostFacts, RunOutcome, RunSourceTag } from "./runCells";

const COLUMNS = 10;

export function RunsPanel({ commands }: { commands: RunCommands }) {
  const name = useDesigner((s) => s.topology?.name);
  const version = useRun((s) => s.runsVersion);
  const [chosen, setChosen] = useState<string[]>([]);
  const capture = useCapture(commands);

  const { platform } = commands;
  const status = capture.status;
  const endpoint = status?.on ? status.endpoint : null;
  // What capture has saved so far: when it moves, the lists are asked again, so captured runs
  // appear as they are saved (a trace is saved about 2 s after its root span arrives).
  const saved = [status?.runs ?? 0, status?.transfers ?? 0];
  // A finished or deleted run bumps the version: the list is asked again, the old one shown meanwhile.
  const list = useQuery(["list_runs", name, version, ...saved], () => platform.list_runs({ topology: name }), {
    enabled: name !== undefined,
    keepPrevious: (prev) => prev[1] === name,
  });
  // The runs that came in through the endpoint, whatever their topology (the newest runs are looked through).
  const capturedList = useQuery(
    ["captured_runs", endpoint, version, ...saved],
    async () => capturedRuns(await platform.list_runs({ limit: CAPTURED_SCAN }), endpoint ?? ""),
    { enabled: endpoint !== null, keepPrevious: (prev) => prev[1] === endpoint },
  );
  const runs = list.data ?? null;
  const captured = endpoint !== null ? (capturedList.data ?? null) : null;
  // Runs that are gone (deleted, another topology) are no longer picked.
  const picked = useMemo(
    () => chosen.filter((id) => runs?.some((r) => r.id === id) || captured?.some((r) => r.id === id)),
    [chosen, runs, captured],
  );

  const toggle = (id: string) => setChosen(picked.includes(id) ? picked.filter((x) => x !== id) : [...picked.slice(-1), id]);
  const refresh = () => {
    void list.refresh();
    if (endpoint !== null) void capturedList.refresh();
  };

  if (!name) return null;
  const capturing = endpoint !== null;
  const row = (r: RunSummary, showTopology = false) => (
    <RunRow key={r.id} run={r} commands={commands} picked={picked.includes(r.id)} onPick={() => toggle(r.id)} showTopology={showTopology} />
  );
  return (
    <div className="runs-panel" data-testid="runs-panel">
      <div className="run-toolbar">
        <span className="runs-title">
          Runs of <strong>{name}</strong>
          {runs && <span className="muted"> · {runs.length}</span>}
        </span>
        <div className="toolbar-divider" />
        <CaptureSwitch capture={capture} />
        <div className="spacer" />
        <button className="btn btn-ghost btn-sm runs-all" data-testid="runs-all" onClick={() => useRunsHome.getState().show()} title="Every run in the store: of every topology, imported and captured">
          <Rows3 size={13} /> All runs…
        </button>
        <span className="muted small runs-pick-hint">{picked.length === 2 ? "2 runs picked" : "Pick two runs to compare their transfers"}</span>
        <button
          className="btn btn-secondary btn-sm"
          data-testid="runs-compare"
          disabled={picked.length !== 2}
          onClick={() => useUi.getState().setCompare([picked[0] as string, picked[1] as string])}
        >
          <Columns2 size={13} /> Compare
        </button>
        <button className="icon-btn sm" aria-label="Refresh" title="Refresh" onClick={refresh} aria-busy={list.loading}>
          <RefreshCw size={13} className={list.loading ? "spin" : undefined} />
        </button>
      </div>
      <CaptureBar capture={capture} />
      {list.error && (
        <div className="pane-empty text-error" role="alert" data-testid="runs-error" data-code={list.error.code}>
          Could not list runs: {list.error.message}
        </div>
      )}
      {capturing && capturedList.error && (
        <div className="pane-empty text-error" role="alert" data-testid="captured-error" data-code={capturedList.error.code}>
          Could not list the captured runs: {capturedList.error.message}
        </div>
      )}
      {!runs && !list.error && !capturing && <div className="pane-empty">Loading the runs…</div>}
      {runs && runs.length === 0 && !capturing && <div className="pane-empty">No saved runs of this topology yet. Start one in the Run tab (F5).</div>}
      {(capturing || (runs && runs.length > 0)) && (
        <div className="runs-table-wrap">
          <table className="runs-table" data-testid="runs-list">
            <thead>
              <tr>
                <th className="col-pick" aria-label="Pick to compare" />
                <th>Outcome</th>
                <th className="col-scenario">{capturing ? "Scenario / trace" : "Scenario"}</th>
                <th>Started</th>
                <th className="num col-duration">Duration</th>
                <th className="num col-tokens">Tokens</th>
                <th className="num col-steps">Steps</th>
                <th className="num col-transfers">Transfers</th>
                <th className="num col-lost">Lost facts</th>
                <th className="col-actions" aria-label="Actions" />
              </tr>
            </thead>
            {capturing && (
              <tbody data-testid="captured-list" data-count={captured?.length ?? ""}>
                <tr className="runs-group">
                  <td colSpan={COLUMNS}>
                    Captured at this endpoint{captured && <span className="muted"> · {captured.length}</span>}
                    <span className="muted small"> (newest first, of any topology)</span>
                  </td>
                </tr>
                {captured === null ? (
                  <tr className="runs-group-empty">
                    <td colSpan={COLUMNS}>{capturedList.error ? "—" : "Loading the captured runs…"}</td>
                  </tr>
                ) : captured.length === 0 ? (
                  <tr className="runs-group-empty" data-testid="captured-empty">
                    <td colSpan={COLUMNS}>Nothing captured yet: send traces to the endpoint above. A trace is saved as a run about 2 s after its root span arrives.</td>
                  </tr>
                ) : (
                  captured.map((r) => row(r, true))
                )}
              </tbody>
            )}
            <tbody>
              {capturing && (
                <tr className="runs-group">
                  <td colSpan={COLUMNS}>
                    Runs of <strong>{name}</strong>
                  </td>
                </tr>
              )}
              {capturing && runs && runs.length === 0 && (
                <tr className="runs-group-empty">
                  <td colSpan={COLUMNS}>No saved runs of this topology yet.</td>
                </tr>
              )}
              {runs?.map((r) => row(r))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

/** One saved run: its outcome, where it came from, its size; open, delete or pick it. */
function RunRow({
  run: r,
  commands,
  picked: on,
  onPick,
  showTopology,
}: {
  run: RunSummary;
  commands: RunCommands;
  picked: boolean;
  onPick: () => void;
  /** Name the run's topology too (captured runs, of any topology). */
  showTopology: boolean;
}) {
  const label = `Run of ${r.scenario} (${formatWhen(r.started_at)})`;
  return (
    <tr className={on ? "is-picked" : undefined} data-testid="run-row" data-run={r.id} data-status={r.outcome.status} onDoubleClick={() => void commands.openRun(r.id)}>
      <td className="col-pick">
        <input type="checkbox" checked={on} onChange={onPick} aria-label={`Pick ${label} to compare`} data-testid="run-pick" />
      </td>
      <td className="col-outcome">
        <RunOutcome run={r} />
      </td>
      <td className="col-scenario" title={showTopology ? undefined : r.scenario}>
        {showTopology ? (
          <span className="run-topology" data-testid="run-topology" title={`Topology: ${r.topology} · scenario: ${r.scenario}`}>
            {r.topology}
          </span>
        ) : (
          r.scenario
        )}
        <RunSourceTag run={r} />
      </td>
      <td title={r.started_at}>{formatWhen(r.started_at)}</td>
      <td className="num col-duration">{formatDuration(durationMs(r.started_at, r.ended_at))}</td>
      <td className="num col-tokens">{formatTokens(num(r.input_tokens) + num(r.output_tokens))}</td>
      <td className="num col-steps">{r.steps.toLocaleString()}</td>
      <td className="num col-transfers">{r.transfers}</td>
      <td className={`num col-lost${r.lost_facts > 0 ? " lost" : ""}`} data-testid="run-lost">
        <LostFacts run={r} />
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
}

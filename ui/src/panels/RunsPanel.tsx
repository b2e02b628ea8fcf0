// The Runs tab: the saved runs of the open topology (by name), newest first. Open one in the
// debugger, delete one, or pick two and compare their transfers.
import { Bug, Columns2, Pin, RefreshCw, Trash2 } from "lucide-react";
import { useCallback, useEffect, useState } from "react";
import { OutcomeBadge } from "../run/badges";
import type { RunCommands } from "../commands/run";
import { durationMs, formatDuration, formatTokens, formatWhen } from "../run/format";
import { formatLabel, runSource } from "../run/source";
import { num, type RunSummary } from "../run/types";
import { useDesigner } from "../store/designer";
import { useRun } from "../store/run";
import { useUi } from "../store/ui";

export function RunsPanel({ commands }: { commands: RunCommands }) {
  const name = useDesigner((s) => s.topology?.name);
  const version = useRun((s) => s.runsVersion);
  const [runs, setRuns] = useState<RunSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [picked, setPicked] = useState<string[]>([]);
  const [tick, setTick] = useState(0);

  const { platform } = commands;
  useEffect(() => {
    if (!name) return;
    let stale = false;
    platform
      .list_runs({ topology: name })
      .then((r) => {
        if (stale) return;
        setRuns(r);
        setError(null);
        setPicked((p) => p.filter((id) => r.some((x) => x.id === id)));
      })
      .catch((e: unknown) => !stale && setError(e instanceof Error ? e.message : String(e)));
    return () => {
      stale = true;
    };
  }, [platform, name, version, tick]);

  const toggle = useCallback((id: string) => {
    setPicked((p) => (p.includes(id) ? p.filter((x) => x !== id) : [...p.slice(-1), id]));
  }, []);

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
        <button className="icon-btn sm" aria-label="Refresh" title="Refresh" onClick={() => setTick(tick + 1)}>
          <RefreshCw size={13} />
        </button>
      </div>
      {error && <div className="pane-empty text-error">Could not list runs: {error}</div>}
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

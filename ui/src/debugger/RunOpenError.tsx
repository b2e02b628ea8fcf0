// What the debugger shows when a run cannot be opened (`?run=` with a wrong or deleted id, a store
// that failed): what happened in plain words, the backend's code, and the ways out: every run (the
// Runs home), the editor, or trying again when the failure was not "no such run".
import "../styles/runs.css";
import { AlertTriangle, ArrowLeft, RefreshCw, Rows3, SearchX } from "lucide-react";
import type { RunCommands } from "../commands/run";
import { useDesigner } from "../store/designer";
import { useRunsHome } from "../store/runsHome";

/** The code at the end of a message the run commands built (`… (store.no_run)`), and the text before it. */
function splitCode(error: string): { text: string; code: string | null } {
  const m = /^([\s\S]*?)\s*\(([a-z_]+\.[a-z_.]+)\)$/.exec(error.trim());
  return m ? { text: m[1] as string, code: m[2] as string } : { text: error, code: null };
}

export function RunOpenError({ commands, runId, error }: { commands: RunCommands; runId: string | null; error: string }) {
  const hasDoc = useDesigner((s) => s.topology !== null);
  const { text, code } = splitCode(error);
  const missing = code === "store.no_run";
  const allRuns = () => {
    commands.exitDebugger();
    useRunsHome.getState().show();
  };
  return (
    <div className="debugger run-open-error" data-testid="debugger">
      <div className="run-open-error-card" role="alert" data-testid="run-open-error" data-code={code ?? ""}>
        <h2>
          {missing ? <SearchX size={18} className="text-error" /> : <AlertTriangle size={18} className="text-error" />}
          {missing ? "No such run" : "Could not open this run"}
        </h2>
        {missing ? (
          <p>
            The store holds no run with the id <span className="mono" data-testid="run-open-error-id">{runId}</span>. It may have been deleted, or the link or id is
            wrong. Every run in the store is listed under Runs.
          </p>
        ) : (
          <p>
            Run <span className="mono" data-testid="run-open-error-id">{runId}</span> could not be opened: {text}
          </p>
        )}
        {code && <div className="mono muted small">{code}</div>}
        <div className="run-open-error-actions">
          <button className="btn btn-primary btn-sm" data-testid="run-open-error-runs" onClick={allRuns}>
            <Rows3 size={14} /> All runs
          </button>
          <button className="btn btn-secondary btn-sm" data-testid="run-open-error-back" onClick={commands.exitDebugger}>
            <ArrowLeft size={14} /> {hasDoc ? "Back to the editor" : "Back to the start"}
          </button>
          {!missing && runId && (
            <button className="btn btn-ghost btn-sm" data-testid="run-open-error-retry" onClick={() => void commands.openRun(runId)}>
              <RefreshCw size={14} /> Try again
            </button>
          )}
        </div>
      </div>
    </div>
  );
}

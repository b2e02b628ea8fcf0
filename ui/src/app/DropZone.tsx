// A trace file dropped anywhere on the window (editor, debugger, Runs home, in either host) is
// imported from its content and its first run opens in the debugger. While a file is dragged over
// the window an overlay says what a drop does; a refused or failed import keeps its message and
// code in the overlay (nothing was imported), with "Import again" for a file imported before.
import "../styles/runs.css";
import { AlertOctagon, FileUp, Loader2 } from "lucide-react";
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import type { RunCommands } from "../commands/run";
import { useUploadCommands, type TraceFile, type UploadOptions } from "../commands/upload";
import { toPlatformError } from "../platform/types";
import { duplicateOf } from "../run/upload";
import { useRunsHome } from "../store/runsHome";

type DropState =
  | { kind: "idle" }
  | { kind: "dragging" }
  | { kind: "importing"; name: string }
  | { kind: "error"; name: string; code: string; message: string; files: TraceFile[] };

const hasFiles = (e: DragEvent) => Array.from(e.dataTransfer?.types ?? []).includes("Files");

export function DropZone({ run }: { run: RunCommands }) {
  const upload = useUploadCommands(run);
  const [state, setState] = useState<DropState>({ kind: "idle" });
  const depth = useRef(0);
  const busy = useRef(false);

  async function importFiles(files: TraceFile[], opts: UploadOptions = {}) {
    if (busy.current) return;
    busy.current = true;
    const name = files.length === 1 ? (files[0] as TraceFile).name : `${files.length} files`;
    setState({ kind: "importing", name });
    try {
      await upload.importFiles(files, opts);
      setState({ kind: "idle" });
    } catch (e) {
      const err = toPlatformError(e);
      setState({ kind: "error", name, code: err.code, message: err.message, files });
    } finally {
      busy.current = false;
    }
  }
  const importRef = useRef(importFiles);
  useEffect(() => {
    importRef.current = importFiles;
  });

  useEffect(() => {
    const enter = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth.current += 1;
      if (!busy.current) setState((s) => (s.kind === "idle" || s.kind === "error" ? { kind: "dragging" } : s));
    };
    const over = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault(); // a drop is allowed here (the browser would otherwise open the file)
      if (e.dataTransfer) e.dataTransfer.dropEffect = "copy";
    };
    const leave = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setState((s) => (s.kind === "dragging" ? { kind: "idle" } : s));
    };
    const drop = (e: DragEvent) => {
      if (!hasFiles(e) && !(e.dataTransfer?.files.length ?? 0)) return;
      e.preventDefault();
      depth.current = 0;
      const files = Array.from(e.dataTransfer?.files ?? []);
      if (files.length === 0) {
        setState((s) => (s.kind === "dragging" ? { kind: "idle" } : s));
        return;
      }
      void importRef.current(files);
    };
    window.addEventListener("dragenter", enter);
    window.addEventListener("dragover", over);
    window.addEventListener("dragleave", leave);
    window.addEventListener("drop", drop);
    return () => {
      window.removeEventListener("dragenter", enter);
      window.removeEventListener("dragover", over);
      window.removeEventListener("dragleave", leave);
      window.removeEventListener("drop", drop);
    };
  }, []);

  const close = () => setState({ kind: "idle" });
  // Listening from the moment the error shows (a layout effect, before the browser paints it), so
  // an Escape pressed at once is never missed.
  useLayoutEffect(() => {
    if (state.kind !== "error") return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") {
        e.preventDefault();
        e.stopImmediatePropagation();
        setState({ kind: "idle" });
      }
    };
    window.addEventListener("keydown", onKey, true);
    return () => window.removeEventListener("keydown", onKey, true);
  }, [state.kind]);

  if (state.kind === "idle") return null;
  if (state.kind === "dragging") {
    return (
      <div className="drop-overlay is-dragging" data-testid="drop-overlay" data-state="dragging">
        <div className="drop-card">
          <FileUp size={28} className="drop-icon" />
          <h3>Drop a trace file to import it</h3>
          <div className="muted">OpenAI Agents SDK, OTLP JSON, Google ADK, AutoGen, Langfuse (.json, .jsonl or .txt). Its first run opens in the debugger.</div>
        </div>
      </div>
    );
  }
  if (state.kind === "importing") {
    return (
      <div className="drop-overlay" data-testid="drop-overlay" data-state="importing">
        <div className="drop-card" role="status">
          <Loader2 size={26} className="spin drop-icon" />
          <h3>Importing {state.name}…</h3>
        </div>
      </div>
    );
  }
  const earlier = state.code === "import.duplicate" ? duplicateOf(state.message) : null;
  return (
    <div className="drop-overlay" data-testid="drop-overlay" data-state="error" onClick={(e) => e.target === e.currentTarget && close()}>
      <div className="drop-card is-error" role="alert" data-testid="drop-error" data-code={state.code} aria-labelledby="drop-error-title">
        <div className="drop-error-head">
          <AlertOctagon size={18} className="drop-icon" />
          <h3 id="drop-error-title">Could not import {state.name}</h3>
        </div>
        <div className="drop-error-msg" data-testid="drop-error-message">
          {state.message}
        </div>
        <div className="mono muted small" data-testid="drop-error-code">
          {state.code}
        </div>
        <div className="drop-actions">
          {earlier && (
            <button
              className="btn btn-secondary btn-sm"
              data-testid="drop-open-earlier"
              onClick={() => {
                close();
                useRunsHome.getState().hide();
                void run.openRun(earlier);
              }}
            >
              Open the earlier run
            </button>
          )}
          {state.code === "import.duplicate" && (
            <button className="btn btn-primary btn-sm" data-testid="drop-import-again" onClick={() => void importFiles(state.files, { again: true })}>
              Import again
            </button>
          )}
          <button className="btn btn-ghost btn-sm" data-testid="drop-close" onClick={close} autoFocus>
            Close
          </button>
        </div>
      </div>
    </div>
  );
}

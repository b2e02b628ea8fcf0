// File → Open trace… where there is no native dialog (the browser): pick a JSON file the backend
// lists, or type a path (JSON Lines files are not listed), then import it; or choose any file on
// this computer ("Choose a file…"), whose content is sent (`import_trace_upload`), wherever it is.
// The importer's error (format, line or byte, what it expected) stays in the dialog so the path or
// format can be fixed; a file imported before can be imported again.
import "../styles/runs.css";
import { Activity, FolderUp, Loader2, Upload } from "lucide-react";
import { useCallback, useId, useMemo, useRef, useState } from "react";
import type { Platform } from "../platform/types";
import { TRACE_FORMATS, type TraceFormat } from "../platform/types";
import { TRACE_LABELS } from "../platform/catalog";
import { useFileList } from "../hooks/queries";
import { isTraceCandidate } from "../commands/open-file";
import { FileRows, ImportError } from "./FilePick";
import type { RunCommands } from "../commands/run";
import { useUploadCommands, type TraceFile } from "../commands/upload";
import { toPlatformError } from "../platform/types";
import { TRACE_ACCEPT } from "../run/upload";
import { useUi } from "../store/ui";
import { Modal } from "./Modal";


export function TraceDialog({ platform, run }: { platform: Platform; run: RunCommands }) {
  const close = useCallback(() => useUi.getState().openDialog(null), []);
  const list = useFileList();
  const files = useMemo(() => list.data?.filter((x) => isTraceCandidate(x.path)) ?? null, [list.data]);
  const listError = list.error;
  const [path, setPath] = useState("");
  const [format, setFormat] = useState<TraceFormat>("auto");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ code: string; message: string; file?: TraceFile } | null>(null);
  const pathId = useId();
  const formatId = useId();
  const upload = useUploadCommands(run);
  const picker = useRef<HTMLInputElement>(null);

  async function importChosen(file: TraceFile, again = false) {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await upload.importFiles([file], { from: format, again });
    } catch (e) {
      const err = toPlatformError(e);
      setError({ code: err.code, message: err.message, file });
    } finally {
      setBusy(false);
    }
  }

  async function importPath(p: string) {
    const target = p.trim();
    if (!target || busy) return;
    setPath(target);
    setBusy(true);
    setError(null);
    try {
      await run.importTraceOrThrow(target, format);
    } catch (e) {
      const code = e && typeof e === "object" && "code" in e ? String((e as { code: unknown }).code) : "import.failed";
      const message = e && typeof e === "object" && "message" in e ? String((e as { message: unknown }).message) : String(e);
      setError({ code, message });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      title="Open trace"
      subtitle="Import a run recorded by the OpenAI Agents SDK, OpenTelemetry (OTLP JSON) or Google ADK, and debug it"
      onClose={close}
      width={640}
      testId="trace-dialog"
      footer={
        <>
          <span className="muted small">Its runs are saved to the store; the first opens in the debugger.</span>
          <div className="spacer" />
          <button className="btn btn-ghost" onClick={close}>
            Cancel
          </button>
          <button className="btn btn-primary" data-testid="trace-import" disabled={busy || path.trim() === ""} onClick={() => void importPath(path)}>
            {busy ? <Loader2 size={15} className="spin" /> : <Upload size={15} />} Import
          </button>
        </>
      }
    >
      <div className="file-list trace-files" data-testid="trace-files">
        <div className="file-group">{platform.kind === "http" ? "JSON files under the folder Baton serves" : "JSON files"}</div>
        {listError && (
          <div className="file-error" role="alert" data-code={listError.code}>
            Could not list files: {listError.message}
          </div>
        )}
        {!listError && files === null && <div className="file-loading">Loading…</div>}
        {files !== null && files.length === 0 && <div className="file-loading">No JSON files here. Type the path of a trace below.</div>}
        {files && (
          <FileRows
            files={files}
            active={path}
            icon={<Activity size={16} />}
            testId="trace-file"
            onPick={(p) => {
              setPath(p);
              setError(null);
            }}
            onOpen={(p) => void importPath(p)}
          />
        )}
      </div>
      <div className="trace-upload">
        <input
          ref={picker}
          type="file"
          accept={TRACE_ACCEPT}
          hidden
          data-testid="trace-upload-input"
          onChange={(e) => {
            const f = e.target.files?.[0];
            e.target.value = ""; // the same file can be chosen again
            if (f) void importChosen(f);
          }}
        />
        <button className="btn btn-secondary btn-sm" data-testid="trace-upload" disabled={busy} onClick={() => picker.current?.click()}>
          <FolderUp size={14} /> Choose a file…
        </button>
        <span className="muted small">Any trace file on this computer (.json, .jsonl, .txt), or drop one on the window.</span>
      </div>
      <div className="trace-fields">
        <div className="field trace-path">
          <label className="field-label" htmlFor={pathId}>
            Trace file
          </label>
          <input
            id={pathId}
            className="input mono"
            placeholder={platform.kind === "http" ? "traces/run.jsonl (relative to the served folder)" : "path/to/trace.json"}
            value={path}
            spellCheck={false}
            data-testid="trace-path-input"
            onChange={(e) => {
              setPath(e.target.value);
              setError(null);
            }}
            onKeyDown={(e) => {
              if (e.key === "Enter") void importPath(path);
            }}
          />
        </div>
        <div className="field trace-format">
          <label className="field-label" htmlFor={formatId}>
            Format
          </label>
          <select id={formatId} className="select" value={format} data-testid="trace-format" onChange={(e) => setFormat(e.target.value as TraceFormat)}>
            {TRACE_FORMATS.map((f) => (
              <option key={f} value={f}>
                {TRACE_LABELS[f]}
              </option>
            ))}
          </select>
        </div>
      </div>
      {error && (
        <ImportError error={error} title="Could not import this file" testId="trace-error">
          {error.file && error.code === "import.duplicate" && (
            <div className="trace-error-actions">
              <button className="btn btn-secondary btn-sm" data-testid="trace-import-again" disabled={busy} onClick={() => void importChosen(error.file as TraceFile, true)}>
                Import again
              </button>
            </div>
          )}
        </ImportError>
      )}
    </Modal>
  );
}

// File → Import from code: pick (or type) an Agents SDK or ADK module, an ADK agent folder or an
// Agent Config YAML, choose the framework and entry when the code does not say, and open its
// agents as an unsaved topology. The backend's error (syntax, a missing dependency, no agents,
// two candidate entries) stays in the dialog with what was typed, so it can be fixed and retried.
import { FileCode2, FolderOpen, Loader2, Upload } from "lucide-react";
import { useCallback, useId, useMemo, useState } from "react";
import type { Commands } from "../commands/designer";
import { FileRows, ImportError } from "./FilePick";
import { codeCandidates } from "../commands/open-file";
import { useFileList } from "../hooks/queries";
import { useUi } from "../store/ui";
import { Modal } from "./Modal";


const FRAMEWORKS = [
  { value: "", label: "Whichever the code builds" },
  { value: "openai-agents", label: "OpenAI Agents SDK" },
  { value: "adk", label: "Google ADK" },
  { value: "langgraph", label: "LangGraph" },
  { value: "crewai", label: "CrewAI" },
];

type Failure = { code: string; message: string };

function failure(e: unknown): Failure {
  const o = e && typeof e === "object" ? (e as Record<string, unknown>) : {};
  return { code: "code" in o ? String(o.code) : "code.read", message: "message" in o ? String(o.message) : String(e) };
}

export function ImportCodeDialog({ commands }: { commands: Commands }) {
  const close = useCallback(() => useUi.getState().openDialog(null), []);
  const list = useFileList();
  const files = useMemo(() => (list.data ? codeCandidates(list.data) : null), [list.data]);
  const [path, setPath] = useState("");
  const [framework, setFramework] = useState("");
  const [entry, setEntry] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Failure | null>(null);
  const pathId = useId();
  const frameworkId = useId();
  const entryId = useId();
  const http = commands.platform.kind === "http";

  async function importPath(p: string, trustCode = false) {
    const target = p.trim();
    if (!target || busy) return;
    setPath(target);
    setBusy(true);
    setError(null);
    try {
      await commands.importCodeOrThrow(target, { framework, entry: entry.trim(), trustCode });
    } catch (e) {
      setError(failure(e));
    } finally {
      setBusy(false);
    }
  }

  async function browse() {
    const chosen = await commands.chooseCodePath();
    if (chosen) {
      setPath(chosen);
      setError(null);
    }
  }

  return (
    <Modal
      title="Import from code"
      subtitle="The agents an OpenAI Agents SDK or Google ADK module builds, read without running them, become a topology"
      onClose={close}
      width={640}
      testId="code-dialog"
      footer={
        <>
          {commands.platform.dialogs && (
            <button className="btn btn-secondary" data-testid="code-browse" onClick={() => void browse()}>
              <FolderOpen size={15} /> Browse…
            </button>
          )}
          <span className="muted small">It opens unsaved; nothing is written.</span>
          <div className="spacer" />
          <button className="btn btn-ghost" onClick={close}>
            Cancel
          </button>
          <button className="btn btn-primary" data-testid="code-import" disabled={busy || path.trim() === ""} onClick={() => void importPath(path)}>
            {busy ? <Loader2 size={15} className="spin" /> : <Upload size={15} />} Import
          </button>
        </>
      }
    >
      <div className="file-list trace-files" data-testid="code-files">
        <div className="file-group">{http ? "Python modules and root_agent.yaml under the folder Baton serves" : "Python modules and root_agent.yaml"}</div>
        {list.error && (
          <div className="file-error" role="alert" data-code={list.error.code}>
            Could not list files: {list.error.message}
          </div>
        )}
        {!list.error && files === null && <div className="file-loading">Loading…</div>}
        {files !== null && files.length === 0 && <div className="file-loading">No agent code listed here. Type its path below{commands.platform.dialogs ? " or browse" : ""}.</div>}
        {files && (
          <FileRows
            files={files}
            active={path}
            icon={<FileCode2 size={16} />}
            testId="code-file"
            onPick={(p) => {
              setPath(p);
              setError(null);
            }}
            onOpen={(p) => void importPath(p)}
          />
        )}
      </div>
      <div className="trace-fields">
        <div className="field trace-path">
          <label className="field-label" htmlFor={pathId}>
            Module, agent folder or root_agent.yaml
          </label>
          <input
            id={pathId}
            className="input mono"
            placeholder={http ? "agents/app.py (relative to the served folder)" : "path/to/app.py"}
            value={path}
            spellCheck={false}
            data-testid="code-path-input"
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
          <label className="field-label" htmlFor={frameworkId}>
            Framework
          </label>
          <select id={frameworkId} className="select" value={framework} data-testid="code-framework" onChange={(e) => setFramework(e.target.value)}>
            {FRAMEWORKS.map((f) => (
              <option key={f.value} value={f.value}>
                {f.label}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className="field">
        <label className="field-label" htmlFor={entryId}>
          Entry agent <span className="muted">(when the code has no root_agent and several agents could start)</span>
        </label>
        <input id={entryId} className="input mono" placeholder="root_agent" value={entry} spellCheck={false} data-testid="code-entry" onChange={(e) => setEntry(e.target.value)} />
      </div>
      <p className="muted small">
        The module is imported by the Python beside it (a <span className="mono">.venv</span> next to the file), else by <span className="mono">$BATON_PYTHON</span> or{" "}
        <span className="mono">python3</span>. No agent runs and no model is called; the module is imported in a sandbox with no network and read-only files.
      </p>
      {error && (
        <ImportError error={error} title="Could not import this code" testId="code-error" />
      )}
      {error?.code === "code.sandbox" && (
        <div className="row">
          <button type="button" className="btn" data-testid="code-trust" disabled={busy} onClick={() => void importPath(path, true)}>
            Import without the sandbox — I trust this code
          </button>
        </div>
      )}
    </Modal>
  );
}

// File → Import from code: pick (or type) an Agents SDK or ADK module, an ADK agent folder or an
// Agent Config YAML, choose the framework and entry when the code does not say, and open its
// agents as an unsaved topology. The backend's error (syntax, a missing dependency, no agents,
// two candidate entries) stays in the dialog with what was typed, so it can be fixed and retried.
import { FileCode2, FolderOpen, Loader2, Upload } from "lucide-react";
import { useCallback, useEffect, useId, useMemo, useState } from "react";
import type { Commands } from "../commands/designer";
import { FileRows, ImportError } from "./FilePick";
import { codeCandidates } from "../commands/open-file";
import { useFileList } from "../hooks/queries";
import { useQuery } from "../hooks/useQuery";
import { interpreterLabel, lastPython, preselect, rememberPython } from "./interpreters";
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
  const pythonId = useId();
  const http = commands.platform.kind === "http";
  // The interpreters found for the path typed (asked once typing pauses), the last used preselected.
  const [asked, setAsked] = useState("");
  useEffect(() => {
    const t = setTimeout(() => setAsked(path.trim()), 300);
    return () => clearTimeout(t);
  }, [path]);
  const found = useQuery(["code_interpreters", asked], () => commands.platform.code_interpreters({ path: asked }), { enabled: asked !== "" });
  const last = asked ? lastPython(asked) : null;
  const [picked, setPicked] = useState<{ module: string; python: string } | null>(null);
  const python = picked?.module === asked ? picked.python : preselect(found.data ?? [], last);

  async function importPath(p: string, trustCode = false) {
    const target = p.trim();
    if (!target || busy) return;
    setPath(target);
    setBusy(true);
    setError(null);
    try {
      // The default (the first found) is not named: the backend finds it again.
      const chosen = target === asked && python && python !== found.data?.[0]?.path ? python : undefined;
      await commands.importCodeOrThrow(target, { framework, entry: entry.trim(), trustCode, python: chosen });
      if (target === asked && python) rememberPython(target, python);
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
      <div className="field">
        <label className="field-label" htmlFor={pythonId}>
          Python <span className="muted">(one with your framework installed: a virtual environment beside or above the module, $BATON_PYTHON, python3)</span>
        </label>
        <select
          id={pythonId}
          className="select mono"
          value={python}
          disabled={!found.data || found.data.length === 0}
          data-testid="code-python"
          onChange={(e) => setPicked({ module: asked, python: e.target.value })}
        >
          {!found.data && <option value="">{asked ? (found.error ? `Could not list interpreters: ${found.error.message}` : "Looking…") : "Pick a module first"}</option>}
          {(found.data ?? []).map((i) => (
            <option key={i.path} value={i.path}>
              {interpreterLabel(i, last)}
            </option>
          ))}
        </select>
      </div>
      <p className="muted small">No agent runs and no model is called; the module is imported in a sandbox with no network and read-only files.</p>
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

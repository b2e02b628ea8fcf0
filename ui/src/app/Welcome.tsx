import { Clock, FileCode2, FilePlus2, FolderOpen, Rows3, ScrollText } from "lucide-react";
import { useFileList } from "../hooks/queries";
import { BatonMark } from "../topbar/brand";
import { MOD } from "../topbar/keys";
import { useUi } from "../store/ui";
import { useRunsHome } from "../store/runsHome";
import type { RunCommands } from "../commands/run";
import type { Commands } from "../commands/designer";

/** What the window shows before a topology is open. */
export function Welcome({ commands, run }: { commands: Commands; run: RunCommands }) {
  const recent = useUi((s) => s.recent);
  const list = useFileList();
  const files = list.data ?? [];
  return (
    <div className="welcome" data-testid="welcome">
      <div className="welcome-card">
        <div className="welcome-head">
          <BatonMark size={40} />
          <div>
            <h1>Baton</h1>
            <p>Design multi-agent topologies: who hands off, who delegates, and what context crosses.</p>
          </div>
        </div>
        <div className="welcome-actions">
          <button className="welcome-action" data-testid="welcome-new" onClick={() => void commands.newTopology()}>
            <FilePlus2 size={18} />
            <span>New topology</span>
            <kbd>{MOD}N</kbd>
          </button>
          <button className="welcome-action" data-testid="welcome-open" onClick={commands.showOpen}>
            <FolderOpen size={18} />
            <span>Open…</span>
            <kbd>{MOD}O</kbd>
          </button>
          <button className="welcome-action" data-testid="welcome-open-trace" onClick={() => void run.openTrace()} title="Import a trace (OpenAI Agents SDK, OTLP, ADK) and debug it">
            <ScrollText size={18} />
            <span>Open trace…</span>
            <kbd>{MOD}⇧O</kbd>
          </button>
        </div>
        <div className="welcome-list">
          <h4>Runs</h4>
          <button className="welcome-file" data-testid="welcome-runs" onClick={() => useRunsHome.getState().show()}>
            <Rows3 size={14} /> <span>All runs</span> <span className="file-path">Baton's own, imported and captured</span>
          </button>
        </div>
        {recent.length > 0 && (
          <div className="welcome-list">
            <h4>Recent</h4>
            {recent.slice(0, 5).map((r) => (
              <button key={r.path} className="welcome-file" onClick={() => void commands.openPath(r.path)}>
                <Clock size={14} /> <span>{r.name}</span> {r.path !== r.name && <span className="file-path">{r.path}</span>}
              </button>
            ))}
          </div>
        )}
        {list.error && (
          <div className="welcome-list">
            <h4>{commands.platform.kind === "http" ? "Files" : "Examples"}</h4>
            <div className="file-error" role="alert" data-testid="welcome-files-error" data-code={list.error.code}>
              Could not list files: {list.error.message}{" "}
              <button className="btn btn-ghost btn-sm" onClick={() => void list.refresh()} disabled={list.loading}>
                Retry
              </button>
            </div>
          </div>
        )}
        {files.length > 0 && (
          <div className="welcome-list">
            <h4>{commands.platform.kind === "http" ? "Files" : "Examples"}</h4>
            {files.slice(0, 8).map((f) => (
              <button key={f.path} className="welcome-file" data-testid="welcome-file" onClick={() => void commands.openPath(f.path)}>
                <FileCode2 size={14} /> <span>{f.name}</span> {f.path !== f.name && <span className="file-path">{f.path}</span>}
              </button>
            ))}
          </div>
        )}
      </div>
    </div>
  );
}

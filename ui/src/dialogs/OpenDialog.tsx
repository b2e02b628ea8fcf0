import { Clock, FileCode2, FileJson, FolderOpen, RefreshCw, Search } from "lucide-react";
import { useCallback, useMemo, useState } from "react";
import type { Commands } from "../commands/designer";
import { useFileList } from "../hooks/queries";
import { useUi } from "../store/ui";
import { Modal } from "./Modal";

function FileIcon({ path }: { path: string }) {
  return /\.json$/i.test(path) ? <FileJson size={16} /> : <FileCode2 size={16} />;
}

export function OpenDialog({ commands }: { commands: Commands }) {
  const close = useCallback(() => useUi.getState().openDialog(null), []);
  const recent = useUi((s) => s.recent);
  const list = useFileList();
  // The list also holds agent code (for Import from code); a topology is YAML or JSON.
  const files = useMemo(() => list.data?.filter((f) => !/\.py$/i.test(f.path)) ?? null, [list.data]);
  const error = list.error;
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);

  const q = query.trim().toLowerCase();
  const shown = useMemo(() => (files ?? []).filter((f) => !q || f.path.toLowerCase().includes(q)), [files, q]);
  const recentShown = recent.filter((r) => !q || r.path.toLowerCase().includes(q)).slice(0, 4);
  const all = [...recentShown, ...shown];

  const open = (path: string) => void commands.openPath(path);

  return (
    <Modal
      title="Open topology"
      subtitle={commands.platform.kind === "http" ? "Files under the folder Baton serves" : "Examples and recent files"}
      onClose={close}
      width={600}
      testId="open-dialog"
      footer={
        <>
          {commands.platform.dialogs && (
            <button className="btn btn-secondary" data-testid="open-browse" onClick={() => void commands.browseNative()}>
              <FolderOpen size={15} /> Browse…
            </button>
          )}
          <div className="spacer" />
          <button className="btn btn-ghost" onClick={close}>
            Cancel
          </button>
          <button className="btn btn-primary" disabled={all.length === 0} onClick={() => all[active] && open(all[active].path)}>
            Open
          </button>
        </>
      }
    >
      <div className="search-box">
        <Search size={15} className="muted" />
        <input
          autoFocus
          className="input input-bare"
          placeholder="Filter files…"
          value={query}
          data-testid="open-filter"
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
          onKeyDown={(e) => {
            if (e.key === "ArrowDown") {
              e.preventDefault();
              setActive((a) => Math.min(a + 1, all.length - 1));
            }
            if (e.key === "ArrowUp") {
              e.preventDefault();
              setActive((a) => Math.max(a - 1, 0));
            }
            if (e.key === "Enter" && all[active]) open(all[active].path);
          }}
        />
        <button className="icon-btn sm" aria-label="Refresh" onClick={() => void list.refresh()} aria-busy={list.loading}>
          <RefreshCw size={14} className={list.loading ? "spin" : undefined} />
        </button>
      </div>
      <div className="file-list" data-testid="file-list">
        {recentShown.length > 0 && <div className="file-group">Recent</div>}
        {recentShown.map((f, i) => (
          <button key={`r-${f.path}`} className={`file-row${active === i ? " is-active" : ""}`} onMouseEnter={() => setActive(i)} onClick={() => open(f.path)} data-testid="open-recent">
            <Clock size={16} className="muted" />
            <span className="file-name">{f.name}</span>
            {f.path !== f.name && <span className="file-path">{f.path}</span>}
          </button>
        ))}
        <div className="file-group">{commands.platform.kind === "tauri" ? "Examples" : "Files"}</div>
        {error && (
          <div className="file-error" role="alert" data-code={error.code}>
            Could not list files: {error.message}
          </div>
        )}
        {!error && files === null && <div className="file-loading">Loading…</div>}
        {files !== null && shown.length === 0 && <div className="file-loading">No topology files{q ? " match" : ""}.</div>}
        {shown.map((f, j) => {
          const i = recentShown.length + j;
          return (
            <button
              key={f.path}
              className={`file-row${active === i ? " is-active" : ""}`}
              onMouseEnter={() => setActive(i)}
              onClick={() => open(f.path)}
              data-testid="open-file"
              data-path={f.path}
            >
              <FileIcon path={f.path} />
              <span className="file-name">{f.name}</span>
              {f.path !== f.name && <span className="file-path">{f.path}</span>}
            </button>
          );
        })}
      </div>
    </Modal>
  );
}

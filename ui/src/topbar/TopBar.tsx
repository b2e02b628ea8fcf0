import {
  ArrowLeft,
  ChevronDown,
  Loader2,
  Play,
  Clock,
  FilePlus2,
  FolderOpen,
  GitMerge,
  LayoutDashboard,
  Maximize,
  Redo2,
  Save,
  ScrollText,
  Settings,
  Share,
  Undo2,
  FileCode2,
} from "lucide-react";
import { useEffect, useRef, useState, type ReactNode } from "react";
import type { Commands } from "../commands/designer";
import { OutcomeBadge } from "../run/badges";
import { EndingBadge } from "../run/EndingBadge";
import type { RunCommands } from "../commands/run";
import { isActive } from "../run/live";
import { runBlocker } from "../run/blocker";
import { useDebugger } from "../store/debugger";
import { useRun } from "../store/run";
import { fileName } from "../recent";
import { selectCanRedo, selectCanUndo, selectDirty, useDesigner } from "../store/designer";
import { useUi } from "../store/ui";
import { BatonMark } from "./brand";
import { RunsHomeButton } from "./RunsHomeButton";
import { MOD } from "./keys";
import { shortRunId } from "../run/ids";


function Tip({ label, keys }: { label: string; keys?: string }) {
  return (
    <span className="tip" role="tooltip">
      {label}
      {keys && <kbd>{keys}</kbd>}
    </span>
  );
}

function IconButton({
  testId,
  label,
  keys,
  onClick,
  disabled,
  children,
}: {
  testId: string;
  label: string;
  keys?: string;
  onClick: () => void;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <button className="icon-btn has-tip" data-testid={testId} aria-label={label} onClick={onClick} disabled={disabled}>
      {children}
      <Tip label={label} keys={keys} />
    </button>
  );
}

export function TopBar({ commands, run }: { commands: Commands; run: RunCommands }) {
  const debug = useDebugger((s) => s.mode === "debug");
  return debug ? <DebugTopBar commands={commands} run={run} /> : <DesignTopBar commands={commands} run={run} />;
}

function OpenTraceButton({ run }: { run: RunCommands }) {
  return (
    <IconButton testId="menu-open-trace" label="Open trace…" keys={`${MOD}Shift+O`} onClick={() => void run.openTrace()}>
      <ScrollText size={16} />
    </IconButton>
  );
}

function SettingsButton({ commands }: { commands: Commands }) {
  return (
    <IconButton testId="settings-open" label="Settings: model providers" onClick={commands.showSettings}>
      <Settings size={16} />
    </IconButton>
  );
}

function DebugTopBar({ commands, run }: { commands: Commands; run: RunCommands }) {
  const overview = useDebugger((s) => s.overview);
  const runId = useDebugger((s) => s.runId);
  const error = useDebugger((s) => s.error);
  const s = overview?.summary;
  useEffect(() => {
    document.title = s ? `Run of ${s.topology} — Baton` : "Baton";
  }, [s]);
  return (
    <header className="topbar is-debug" data-testid="topbar">
      <div className="brand">
        <BatonMark />
        <span className="brand-name">Baton</span>
      </div>
      <div className="topbar-sep" />
      <button className="btn btn-secondary btn-sm" data-testid="debug-exit" onClick={run.exitDebugger} title="Back to the editor (Esc)">
        <ArrowLeft size={14} /> Back to editor <kbd>Esc</kbd>
      </button>
      <span className="debug-mode-pill">Debugging</span>
      <RunsHomeButton />
      <div className="doc-title" data-testid="doc-title">
        {s ? (
          <>
            <span className="doc-name">{s.topology}</span>
            <span className="doc-topology-name">
              scenario {s.scenario} · run <span className="mono">{shortRunId(runId ?? "")}</span>
            </span>
            <OutcomeBadge status={s.outcome.status} />
            <EndingBadge run={s} />
          </>
        ) : error ? (
          <span className="text-error" data-testid="doc-title-error">
            Run not opened
          </span>
        ) : (
          <span className="busy">Opening run…</span>
        )}
      </div>
      <div className="toolbar-group right">
        <OpenTraceButton run={run} />
        <SettingsButton commands={commands} />
      </div>
    </header>
  );
}

function DesignTopBar({ commands, run }: { commands: Commands; run: RunCommands }) {
  const live = useRun((s) => s.live);
  const useLive = useRun((s) => s.useLive);
  const running = isActive(live);
  const topology = useDesigner((s) => s.topology);
  const blocked = runBlocker(topology, live);
  const path = useDesigner((s) => s.path);
  const dirty = useDesigner(selectDirty);
  const canUndo = useDesigner(selectCanUndo);
  const canRedo = useDesigner(selectCanRedo);
  const busy = useUi((s) => s.busy);
  const hasDoc = topology !== null;
  const title = path ? fileName(path) : hasDoc ? "Untitled" : "";

  useEffect(() => {
    document.title = hasDoc ? `${dirty ? "● " : ""}${title} — Baton` : "Baton";
  }, [hasDoc, dirty, title]);

  return (
    <header className="topbar" data-testid="topbar">
      <div className="brand">
        <BatonMark />
        <span className="brand-name">Baton</span>
      </div>
      <div className="topbar-sep" />
      <div className="toolbar-group">
        <IconButton testId="menu-new" label="New topology" keys={`${MOD}N`} onClick={() => void commands.newTopology()}>
          <FilePlus2 size={16} />
        </IconButton>
        <IconButton testId="menu-open" label="Open…" keys={`${MOD}O`} onClick={commands.showOpen}>
          <FolderOpen size={16} />
        </IconButton>
        <RecentMenu commands={commands} />
        <OpenTraceButton run={run} />
        <RunsHomeButton />
        <IconButton testId="menu-import-code" label="Import from code…" onClick={commands.showImportCode}>
          <FileCode2 size={16} />
        </IconButton>
        <IconButton testId="menu-save" label="Save" keys={`${MOD}S`} onClick={() => void commands.save()} disabled={!hasDoc}>
          <Save size={16} />
        </IconButton>
        <button className="btn btn-ghost btn-sm" data-testid="menu-save-as" onClick={() => void commands.saveAs()} disabled={!hasDoc} title={`Save As (${MOD}Shift+S)`}>
          Save As…
        </button>
      </div>
      <div className="topbar-sep" />
      <div className="toolbar-group">
        <IconButton testId="undo" label="Undo" keys={`${MOD}Z`} onClick={commands.undo} disabled={!canUndo}>
          <Undo2 size={16} />
        </IconButton>
        <IconButton testId="redo" label="Redo" keys={`${MOD}Shift+Z`} onClick={commands.redo} disabled={!canRedo}>
          <Redo2 size={16} />
        </IconButton>
      </div>
      <div className="topbar-sep" />
      <div className="toolbar-group">
        <IconButton testId="auto-layout" label="Auto-layout" keys="L" onClick={() => void commands.layout()} disabled={!hasDoc}>
          <LayoutDashboard size={16} />
        </IconButton>
        <IconButton testId="fit-view" label="Fit view" keys="F" onClick={commands.fitView} disabled={!hasDoc}>
          <Maximize size={16} />
        </IconButton>
      </div>

      <div className="doc-title" data-testid="doc-title" title={path ?? undefined}>
        {hasDoc && (
          <>
            <span className="doc-name">{title}</span>
            {dirty && <span className="dirty-dot" data-testid="dirty-marker" aria-label="unsaved changes" title="Unsaved changes" />}
            {topology.name && <span className="doc-topology-name">{topology.name}</span>}
          </>
        )}
        {busy && <span className="busy">{busy}</span>}
      </div>

      <div className="toolbar-group right">
        <button
          className="btn btn-secondary"
          data-testid="refactor-supervisor"
          disabled={!hasDoc}
          onClick={() => void commands.refactorSupervisor()}
          title="Replace a handoff chain (the selected edges, or the longest chain from the entry) with a supervisor that delegates and keeps ownership"
        >
          <GitMerge size={15} /> Refactor to supervisor
        </button>
        {/* A disabled button gets no pointer events: the wrapper carries why, as a tooltip. */}
        <span className="run-control" title={blocked ?? undefined} data-testid="topbar-run-wrap">
          <button
            className="btn btn-run"
            data-testid="topbar-run"
            disabled={blocked !== null}
            data-blocked={blocked ?? undefined}
            aria-description={blocked ?? undefined}
            onClick={() => void run.startRun()}
            title={blocked ?? (useLive ? "Run the topology on its scenario with real providers (F5)" : "Run the topology on its scenario with mock models (F5)")}
          >
            {running ? <Loader2 size={15} className="spin" /> : <Play size={15} />} Run
          </button>
        </span>
        <button className="btn btn-primary" data-testid="export-open" disabled={!hasDoc} onClick={commands.showExport} title={`Export (${MOD}E)`}>
          <Share size={15} /> Export
        </button>
        <div className="topbar-sep" />
        <SettingsButton commands={commands} />
      </div>
    </header>
  );
}

function RecentMenu({ commands }: { commands: Commands }) {
  const recent = useUi((s) => s.recent);
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const close = (e: MouseEvent) => {
      if (!ref.current?.contains(e.target as Node)) setOpen(false);
    };
    const esc = (e: KeyboardEvent) => e.key === "Escape" && setOpen(false);
    window.addEventListener("mousedown", close);
    window.addEventListener("keydown", esc);
    return () => {
      window.removeEventListener("mousedown", close);
      window.removeEventListener("keydown", esc);
    };
  }, [open]);
  return (
    <div className="menu-anchor" ref={ref}>
      <button className="icon-btn narrow has-tip" data-testid="menu-recent" aria-label="Open recent" aria-expanded={open} onClick={() => setOpen(!open)}>
        <ChevronDown size={14} />
        {!open && <Tip label="Open recent" />}
      </button>
      {open && (
        <div className="menu" role="menu">
          <div className="menu-label">Recent files</div>
          {recent.length === 0 && <div className="menu-empty">Nothing opened yet</div>}
          {recent.map((r) => (
            <button
              key={r.path}
              role="menuitem"
              className="menu-item"
              data-testid="recent-item"
              onClick={() => {
                setOpen(false);
                void commands.openPath(r.path);
              }}
            >
              <Clock size={14} className="muted" />
              <span className="menu-item-name">{r.name}</span>
              <span className="menu-item-path">{r.path}</span>
            </button>
          ))}
        </div>
      )}
    </div>
  );
}

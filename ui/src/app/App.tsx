import { ReactFlowProvider } from "@xyflow/react";
import { useEffect } from "react";
import { SettingsDialog } from "../dialogs/SettingsDialog";
import { TraceDialog } from "../dialogs/TraceDialog";
import { Debugger } from "../debugger/Debugger";
import { useDebuggerKeys } from "../debugger/useDebuggerKeys";
import { CompareDialog } from "../dialogs/CompareDialog";
import { useRunCommands } from "../commands/run";
import { useDebugger } from "../store/debugger";
import { Canvas } from "../canvas/Canvas";
import { ExportDialog } from "../dialogs/ExportDialog";
import { OpenDialog } from "../dialogs/OpenDialog";
import { ImportCodeDialog } from "../dialogs/ImportCodeDialog";
import { RefactorPreviewDialog } from "../dialogs/RefactorPreviewDialog";
import { ConfirmDialog, PathPromptDialog } from "../dialogs/PromptDialogs";
import { useLint } from "../hooks/useLint";
import { isModalOpen, useShortcuts } from "../hooks/useShortcuts";
import { useUnsavedGuard } from "../hooks/useUnsavedGuard";
import { useSheetKeys } from "../hooks/useSheetKeys";
import { useRunUrl } from "../hooks/useRunUrl";
import { ShortcutSheet } from "../dialogs/ShortcutSheet";
import { CommandPaletteHost } from "../dialogs/CommandPalette";
import { Inspector } from "../inspector/Inspector";
import { BottomPanel } from "../panels/BottomPanel";
import type { Platform } from "../platform/types";
import { useDesigner } from "../store/designer";
import { useUi } from "../store/ui";
import { TopBar } from "../topbar/TopBar";
import { useCommands } from "../commands/designer";
import { PlatformProvider } from "./platform-context";
import { StatusBar } from "./StatusBar";
import { Toasts } from "./Toasts";
import { Welcome } from "./Welcome";
import { DropZone } from "./DropZone";
import { RunsHome } from "../panels/RunsHome";
import { useRunsHome } from "../store/runsHome";

export function App({ platform }: { platform: Platform }) {
  return (
    <PlatformProvider platform={platform}>
      <ReactFlowProvider>
        <Shell />
      </ReactFlowProvider>
    </PlatformProvider>
  );
}

/**
 * The address follows the debugger's step; in a component of its own, since it reads the cursor:
 * a step renders it, not the whole window (issue #32 item 2).
 */
function RunUrl() {
  useRunUrl();
  return null;
}

/** Platforms whose start-up (command-line file, `?open=`) has run. */
const started = new WeakSet<Platform>();

function Shell() {
  const commands = useCommands();
  const run = useRunCommands();
  const hasDoc = useDesigner((s) => s.topology !== null);
  const debug = useDebugger((s) => s.mode === "debug");
  const dialog = useUi((s) => s.dialog);
  const compare = useUi((s) => s.compare);
  const home = useRunsHome((s) => s.open);
  useLint();
  useShortcuts(commands, run);
  useDebuggerKeys(run, debug && !home, isModalOpen);
  useUnsavedGuard(commands);
  useSheetKeys();

  // At start: the file the app was given on its command line (a topology, or a trace to debug);
  // in the browser, `?open=PATH` and `?run=ID[&step=N]` (links, screenshots, tests).
  useEffect(() => {
    if (started.has(commands.platform)) return; // once per platform, even under StrictMode
    started.add(commands.platform);
    const q = new URLSearchParams(window.location.search);
    const path = q.get("open");
    if (path) void commands.openPath(path, { skipGuard: true });
    const runId = q.get("run");
    if (runId) void run.openRun(runId, { step: Number(q.get("step") ?? 0) || 0 });
    if (path || runId) return;
    void commands.platform
      .initial_file()
      .then((file) => (file ? commands.openTopologyOrTraceFile(file, run.importTraceOrThrow) : false))
      .catch((e: unknown) => useUi.getState().notify("error", "Could not read the command line", e instanceof Error ? e.message : String(e)));
  }, [commands, run]);

  return (
    <div className={`app${debug ? " is-debug" : ""}`} data-testid="app" data-platform={commands.platform.kind} data-mode={debug ? "debug" : "design"}>
      <RunUrl />
      <TopBar commands={commands} run={run} />
      <div className="workspace">
        {home ? (
          <RunsHome run={run} />
        ) : debug ? (
          <Debugger commands={run} onEditTopology={() => void commands.editRunTopology()} />
        ) : hasDoc ? (
          <>
            <main className="main-column">
              <Canvas />
              <BottomPanel run={run} />
            </main>
            <Inspector />
          </>
        ) : (
          <Welcome commands={commands} run={run} />
        )}
      </div>
      <StatusBar commands={commands} />
      {compare && <CompareDialog platform={run.platform} runs={compare} onClose={() => useUi.getState().setCompare(null)} />}
      {dialog === "open" && <OpenDialog commands={commands} />}
      {dialog === "trace" && <TraceDialog platform={commands.platform} run={run} />}
      {dialog === "code" && <ImportCodeDialog commands={commands} />}
      {dialog === "settings" && <SettingsDialog platform={commands.platform} />}
      {dialog === "export" && hasDoc && <ExportDialog commands={commands} />}
      {dialog === "shortcuts" && <ShortcutSheet mode={debug ? "debug" : "design"} />}
      {dialog === "palette" && <CommandPaletteHost commands={commands} run={run} />}
      <RefactorPreviewDialog />
      <ConfirmDialog />
      <PathPromptDialog />
      <DropZone run={run} />
      <Toasts />
    </div>
  );
}

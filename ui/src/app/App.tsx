import { ReactFlowProvider } from "@xyflow/react";
import { useEffect } from "react";
import { Canvas } from "../canvas/Canvas";
import { ExportDialog } from "../dialogs/ExportDialog";
import { OpenDialog } from "../dialogs/OpenDialog";
import { ConfirmDialog, PathPromptDialog } from "../dialogs/PromptDialogs";
import { useLint } from "../hooks/useLint";
import { useShortcuts } from "../hooks/useShortcuts";
import { useUnsavedGuard } from "../hooks/useUnsavedGuard";
import { Inspector } from "../inspector/Inspector";
import { BottomPanel } from "../panels/BottomPanel";
import type { Platform } from "../platform/types";
import { useDesigner } from "../store/designer";
import { useUi } from "../store/ui";
import { TopBar } from "../topbar/TopBar";
import { useCommands } from "./commands";
import { PlatformProvider } from "./platform-context";
import { StatusBar } from "./StatusBar";
import { Toasts } from "./Toasts";
import { Welcome } from "./Welcome";

export function App({ platform }: { platform: Platform }) {
  return (
    <PlatformProvider platform={platform}>
      <ReactFlowProvider>
        <Shell />
      </ReactFlowProvider>
    </PlatformProvider>
  );
}

function Shell() {
  const commands = useCommands();
  const hasDoc = useDesigner((s) => s.topology !== null);
  const dialog = useUi((s) => s.dialog);
  useLint();
  useShortcuts(commands);
  useUnsavedGuard(commands);

  // `?open=PATH` opens a file at start (links, screenshots, tests).
  useEffect(() => {
    const path = new URLSearchParams(window.location.search).get("open");
    if (path) void commands.openPath(path, { skipGuard: true });
  }, [commands]);

  return (
    <div className="app" data-testid="app" data-platform={commands.platform.kind}>
      <TopBar commands={commands} />
      <div className="workspace">
        {hasDoc ? (
          <>
            <main className="main-column">
              <Canvas />
              <BottomPanel />
            </main>
            <Inspector />
          </>
        ) : (
          <Welcome commands={commands} />
        )}
      </div>
      <StatusBar commands={commands} />
      {dialog === "open" && <OpenDialog commands={commands} />}
      {dialog === "export" && hasDoc && <ExportDialog commands={commands} />}
      <ConfirmDialog />
      <PathPromptDialog />
      <Toasts />
    </div>
  );
}

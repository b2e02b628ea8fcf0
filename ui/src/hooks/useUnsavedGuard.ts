// Warn before the page or window closes with unsaved changes.
import { useEffect } from "react";
import type { Commands } from "../commands/designer";
import { selectDirty, useDesigner } from "../store/designer";

export function useUnsavedGuard(commands: Commands) {
  useEffect(() => {
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      if (selectDirty(useDesigner.getState())) {
        e.preventDefault();
        e.returnValue = "";
      }
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => window.removeEventListener("beforeunload", onBeforeUnload);
  }, []);

  // In the desktop shell, the window's close button asks the same question as New/Open.
  useEffect(() => {
    if (commands.platform.kind !== "tauri") return;
    let unlisten: (() => void) | undefined;
    let disposed = false;
    void import("@tauri-apps/api/window").then(({ getCurrentWindow }) => {
      const win = getCurrentWindow();
      void win
        .onCloseRequested(async (event) => {
          if (!selectDirty(useDesigner.getState())) return;
          event.preventDefault();
          if (await commands.guardUnsaved("close Baton")) await win.destroy();
        })
        .then((u) => {
          if (disposed) u();
          else unlisten = u;
        });
    });
    return () => {
      disposed = true;
      unlisten?.();
    };
  }, [commands]);
}

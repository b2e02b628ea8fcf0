// `?` opens the shortcut sheet, Ctrl/⌘+K the command palette (again: closes it), in both modes;
// `?` waits while a field has the keyboard, Ctrl/⌘+K does not.
import { useEffect } from "react";
import { useUi } from "../store/ui";
import { isEditable, isModalOpen } from "./useShortcuts";

export function useSheetKeys() {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const ui = useUi.getState();
      const mod = e.ctrlKey || e.metaKey;
      if (mod && !e.altKey && !e.shiftKey && e.key.toLowerCase() === "k") {
        if (ui.dialog === "palette") {
          e.preventDefault();
          ui.openDialog(null);
          return;
        }
        if (isModalOpen()) return;
        e.preventDefault();
        ui.openDialog("palette");
        return;
      }
      if (e.key === "?" && !mod && !e.altKey && !isEditable(e.target)) {
        if (ui.dialog === "shortcuts") {
          e.preventDefault();
          ui.openDialog(null);
          return;
        }
        if (isModalOpen()) return;
        e.preventDefault();
        ui.openDialog("shortcuts");
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}

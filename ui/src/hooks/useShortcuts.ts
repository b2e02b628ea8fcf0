// Global keyboard shortcuts. Delete is React Flow's (it knows the canvas selection).
import { useEffect } from "react";
import type { Commands } from "../app/commands";
import { useUi } from "../store/ui";

export function isEditable(el: EventTarget | null): boolean {
  if (!(el instanceof HTMLElement)) return false;
  const tag = el.tagName;
  return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || el.isContentEditable;
}

export function useShortcuts(commands: Commands) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const mod = e.ctrlKey || e.metaKey;
      const key = e.key.toLowerCase();
      const ui = useUi.getState();
      const modal = ui.dialog !== null || ui.confirm !== null;
      if (mod && !e.altKey) {
        if (key === "s") {
          e.preventDefault();
          if (!modal) void (e.shiftKey ? commands.saveAs() : commands.save());
        } else if (key === "o") {
          e.preventDefault();
          if (!modal) commands.showOpen();
        } else if (key === "n") {
          e.preventDefault();
          if (!modal) void commands.newTopology();
        } else if (key === "e") {
          e.preventDefault();
          if (!modal) commands.showExport();
        } else if ((key === "z" && e.shiftKey) || key === "y") {
          if (modal) return;
          e.preventDefault();
          commands.redo();
        } else if (key === "z") {
          if (modal) return;
          e.preventDefault();
          commands.undo();
        } else if (key === "a" && !isEditable(e.target)) {
          if (modal) return;
          e.preventDefault();
          commands.selectAll();
        }
        return;
      }
      if (modal || isEditable(e.target) || e.altKey) return;
      if (key === "escape") {
        commands.clearSelection();
      } else if (key === "l") {
        e.preventDefault();
        void commands.layout();
      } else if (key === "f") {
        e.preventDefault();
        commands.fitView();
      } else if (key === "a" && e.shiftKey) {
        e.preventDefault();
        commands.addAgent("agent");
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [commands]);
}

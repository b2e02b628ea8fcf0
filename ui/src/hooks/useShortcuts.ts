// Global keyboard shortcuts. Delete is React Flow's (it knows the canvas selection).
import { useEffect } from "react";
import type { Commands } from "../commands/designer";
import type { RunCommands } from "../commands/run";
import { useDebugger } from "../store/debugger";
import { useUi } from "../store/ui";

export function isEditable(el: EventTarget | null): boolean {
  if (!(el instanceof HTMLElement)) return false;
  const tag = el.tagName;
  return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || el.isContentEditable;
}

/** Whether a modal dialog is up (shortcuts then leave the keyboard to it). */
export function isModalOpen(): boolean {
  const ui = useUi.getState();
  return ui.dialog !== null || ui.confirm !== null || ui.compare !== null;
}

export function useShortcuts(commands: Commands, run: RunCommands) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const mod = e.ctrlKey || e.metaKey;
      const key = e.key.toLowerCase();
      const modal = isModalOpen();
      // Debug mode has its own keys (useDebuggerKeys); the document is not on screen.
      if (useDebugger.getState().mode === "debug") {
        if (mod && (key === "s" || key === "o" || key === "n" || key === "e")) e.preventDefault();
        if (mod && key === "o" && e.shiftKey && !modal) void run.openTrace();
        return;
      }
      if (e.key === "F5" && !mod) {
        e.preventDefault();
        if (!modal) void run.startRun();
        return;
      }
      if (e.key === "F9" && !mod) {
        e.preventDefault();
        if (!modal) run.toggleBreakpoint();
        return;
      }
      if (mod && !e.altKey) {
        if (key === "s") {
          e.preventDefault();
          if (!modal) void (e.shiftKey ? commands.saveAs() : commands.save());
        } else if (key === "o") {
          e.preventDefault();
          if (!modal) {
            if (e.shiftKey) void run.openTrace();
            else commands.showOpen();
          }
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
  }, [commands, run]);
}

import { useEffect } from "react";
import type { RunCommands } from "../commands/run";

/** Debug-mode keys: ←/→ step, N/Shift+N next/previous transfer, Home/End, Esc back to the editor. */
export function useDebuggerKeys(commands: RunCommands, enabled: boolean, isModal: () => boolean) {
  useEffect(() => {
    if (!enabled) return;
    const onKey = (e: KeyboardEvent) => {
      if (isModal() || e.ctrlKey || e.metaKey || e.altKey) return;
      const el = e.target as HTMLElement | null;
      const tag = el?.tagName;
      if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || el?.isContentEditable) return;
      switch (e.key) {
        case "ArrowRight":
          commands.stepBy(1);
          break;
        case "ArrowLeft":
          commands.stepBy(-1);
          break;
        case "n":
        case "N":
          if (e.shiftKey) commands.prevTransfer();
          else commands.nextTransfer();
          break;
        case "Home":
          commands.home();
          break;
        case "End":
          commands.end();
          break;
        case "Escape":
          commands.exitDebugger();
          break;
        default:
          return;
      }
      e.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [commands, enabled, isModal]);
}

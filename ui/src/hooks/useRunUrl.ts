// The address follows the debugger: `?run=ID&step=N` while a run is open (so a reload or a copied
// link opens the same step), without them in the editor. It is replaced, never pushed: stepping
// adds no history entries. Other parameters (the launch token, `open=`) stay as they are. While
// stepping, the address catches up once the keys rest (replacing it costs a few ms a step).
import { useEffect, useRef } from "react";
import { useDebugger } from "../store/debugger";

/** The address for `runId` at `step` (null: the editor), from the current one. */
export function runUrl(href: string, runId: string | null, step: number): string {
  const url = new URL(href);
  if (runId) {
    url.searchParams.set("run", runId);
    url.searchParams.set("step", String(step));
  } else {
    url.searchParams.delete("run");
    url.searchParams.delete("step");
  }
  return url.toString();
}

/** How long the cursor rests before the address follows it. */
export const STEP_URL_DELAY_MS = 150;

export function useRunUrl() {
  const mode = useDebugger((s) => s.mode);
  const runId = useDebugger((s) => s.runId);
  const cursor = useDebugger((s) => s.cursor);
  const loaded = useDebugger((s) => s.overview !== null);
  // The editor drops the run only after one was shown: at start, `?run=` is still to be opened.
  const shown = useRef(false);
  useEffect(() => {
    if (typeof window === "undefined" || !window.history?.replaceState) return;
    // While a run's overview loads, the address keeps the step it was opened at.
    if (mode === "debug" && (!runId || !loaded)) return;
    if (mode === "design" && !shown.current) return;
    shown.current = mode === "debug";
    const replace = () => {
      const next = runUrl(window.location.href, mode === "debug" ? runId : null, cursor);
      if (next !== window.location.href) window.history.replaceState(window.history.state, "", next);
    };
    // Another run, or the editor: at once. Only the step moved: once it rests.
    const sameRun = mode === "debug" && new URLSearchParams(window.location.search).get("run") === runId;
    if (!sameRun) return replace();
    const timer = window.setTimeout(replace, STEP_URL_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [mode, runId, cursor, loaded]);
  // The app going away (a test's unmount) leaves no run in the address for the next one to open.
  useEffect(
    () => () => {
      if (!shown.current || typeof window === "undefined") return;
      shown.current = false;
      window.history.replaceState(window.history.state, "", runUrl(window.location.href, null, 0));
    },
    [],
  );
}

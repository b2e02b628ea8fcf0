// The debugger follows a run still in progress. A run saved while its trace arrives (live capture
// replaces it about once a second) is asked again every second while it stays open and running;
// a run this window executes is read again when its events arrive (no polling: they stream
// already, `useRun().live`), by its end only (`refreshRun` reads `run_tail`). Nothing is asked for a run that has ended or left the store; opening
// another run or leaving the debugger stops it.
import { useEffect, useRef } from "react";
import type { RunCommands } from "../commands/run";
import { isActive } from "../run/live";
import { FOLLOW_EVENTS_MS, FOLLOW_POLL_MS } from "../run/progress";
import { useDebugger } from "../store/debugger";
import { useRun } from "../store/run";

/** How the open run is followed: polled, driven by this window's events, or not at all. */
export type FollowSource = "poll" | "events" | null;

export function useFollowRun(commands: RunCommands): FollowSource {
  const runId = useDebugger((s) => s.runId);
  // Running as last read, and still in the store.
  const running = useDebugger((s) => s.overview?.summary.outcome.status === "running" && !s.progress?.gone);
  // The run the engine executes in this window, while its events stream: what changed of it.
  const events = useRun((s) => (s.live && runId && s.live.runId === runId && isActive(s.live) ? `${s.live.steps.length}:${s.live.transfers.length}:${s.live.status}` : null));
  const native = events !== null;

  useEffect(() => {
    if (!runId || !running || native) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    // The next tick is set once an answer is in (a slow backend is not asked twice at once).
    const tick = () => {
      void commands.refreshRun(runId).finally(() => {
        if (!stopped) timer = setTimeout(tick, FOLLOW_POLL_MS);
      });
    };
    timer = setTimeout(tick, FOLLOW_POLL_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [commands, runId, running, native]);

  // Events come in bursts: the overview is read at most every FOLLOW_EVENTS_MS while they do.
  const later = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => {
    if (!runId || !running || events === null || later.current) return;
    later.current = setTimeout(() => {
      later.current = null;
      void commands.refreshRun(runId);
    }, FOLLOW_EVENTS_MS);
  }, [commands, runId, running, events]);
  useEffect(
    () => () => {
      if (later.current) clearTimeout(later.current);
      later.current = null;
    },
    [],
  );

  return !running ? null : native ? "events" : "poll";
}

// The Run panel's state: per-topology settings (scenario, breakpoints), the simulated latency,
// and the live run, folded from its events in batches; the Runs tab's capture port.
import { create } from "zustand";
import { reduceLive, type LiveRun } from "../run/live";
import type { RunStreamEvent } from "../platform/types";
import { DEFAULT_CAPTURE_PORT } from "../run/capture";

export const LATENCIES = [0, 100, 250, 500, 1000] as const;

type RunStore = {
  /** Chosen scenario per topology name. */
  scenario: Record<string, string>;
  /** Breakpoint edge ids per topology name. */
  breakpoints: Record<string, string[]>;
  /** Simulated latency of each mock model call (0: none). */
  latencyMs: number;
  /** Run on each agent's configured real provider instead of the mock scripts. */
  useLive: boolean;
  live: LiveRun | null;
  /** Identifies the live run's event stream (events of an older stream are ignored). */
  liveToken: number;
  /** Bumped when a run finishes or is deleted, so run lists refresh. */
  runsVersion: number;
  /** The port the Capture switch listens on (0: a free one the system picks). */
  capturePort: number;
  /** The newest fork made in this window, and the run it was forked from. */
  lastFork: { runId: string; parent: string } | null;

  setScenario(topology: string, name: string): void;
  toggleBreakpoint(topology: string, edge: string): void;
  setBreakpoints(topology: string, edges: string[]): void;
  setLatency(ms: number): void;
  setUseLive(on: boolean): void;
  begin(live: LiveRun): number;
  apply(token: number, events: RunStreamEvent[]): void;
  clearLive(): void;
  bumpRuns(): void;
  setCapturePort(port: number): void;
  setLastFork(fork: { runId: string; parent: string } | null): void;
};

export const useRun = create<RunStore>()((set, get) => ({
  scenario: {},
  breakpoints: {},
  latencyMs: 0,
  useLive: false,
  live: null,
  liveToken: 0,
  runsVersion: 0,
  capturePort: DEFAULT_CAPTURE_PORT,
  lastFork: null,

  setLastFork(fork) {
    set({ lastFork: fork });
  },

  setScenario(topology, name) {
    set({ scenario: { ...get().scenario, [topology]: name } });
  },
  toggleBreakpoint(topology, edge) {
    const cur = get().breakpoints[topology] ?? [];
    const next = cur.includes(edge) ? cur.filter((e) => e !== edge) : [...cur, edge];
    set({ breakpoints: { ...get().breakpoints, [topology]: next } });
  },
  setBreakpoints(topology, edges) {
    set({ breakpoints: { ...get().breakpoints, [topology]: edges } });
  },
  setLatency(latencyMs) {
    set({ latencyMs });
  },
  setUseLive(useLive) {
    set({ useLive });
  },
  begin(live) {
    set({ lastFork: null });
    const token = get().liveToken + 1;
    set({ live, liveToken: token });
    return token;
  },
  apply(token, events) {
    const { live, liveToken } = get();
    if (!live || token !== liveToken) return;
    const next = reduceLive(live, events);
    if (next === live) return;
    const finished = next.status === "finished" && live.status !== "finished";
    set({ live: next, ...(finished ? { runsVersion: get().runsVersion + 1 } : {}) });
  },
  clearLive() {
    set({ live: null, liveToken: get().liveToken + 1 });
  },
  bumpRuns() {
    set({ runsVersion: get().runsVersion + 1 });
  },
  setCapturePort(capturePort) {
    set({ capturePort });
  },
}));

const NO_BREAKPOINTS: string[] = [];

export function selectBreakpoints(topology: string | undefined) {
  return (s: RunStore) => (topology ? (s.breakpoints[topology] ?? NO_BREAKPOINTS) : NO_BREAKPOINTS);
}

// The debugger's state: which run is open (debug mode), its overview (steps and transfers
// without contexts), the cursor, and a cache of step views fetched from the store on demand.
// The cache lives outside React state: the debugger reads the current step through `useQuery`.
import { create } from "zustand";
import type { PinnedFact } from "../bindings/PinnedFact";
import type { Topology } from "../model/types";
import { indexFacts, runFacts, type FactIndex } from "../run/facts";
import { Lru } from "../run/lru";
import type { RunOverview, StepView } from "../run/types";

export type DetailTab = "diff" | "context";

export type DebuggerState = {
  mode: "design" | "debug";
  runId: string | null;
  overview: RunOverview | null;
  /** The run's topology, laid out for the canvas (null for traces recorded without one). */
  topology: Topology | null;
  facts: PinnedFact[];
  factIndex: FactIndex;
  /** Steps of the transfers, ascending. */
  transferSteps: number[];
  loading: boolean;
  error: string | null;
  cursor: number;
  detailTab: DetailTab;
  /** A diff item to flash (after a source link was followed). */
  flash: { id: string; seq: number } | null;

  /** Shows the debugger for a run whose overview is still loading. */
  begin(runId: string): void;
  load(runId: string, overview: RunOverview, topology: Topology | null, cursor?: number): void;
  fail(message: string): void;
  exit(): void;
  setCursor(step: number): void;
  setDetailTab(tab: DetailTab): void;
  flashItem(id: string): void;
};

/** Step views by `runId:step`; bounded by count and by the items they hold. */
export const stepCache = new Lru<string, StepView>(48, 60_000, (v) => v.context.length + v.output.length + (v.transfer?.items.length ?? 0) + 1);

export const cacheKey = (runId: string, step: number) => `${runId}:${step}`;

let flashSeq = 0;

export const useDebugger = create<DebuggerState>()((set, get) => ({
  mode: "design",
  runId: null,
  overview: null,
  topology: null,
  facts: [],
  factIndex: new Map(),
  transferSteps: [],
  loading: false,
  error: null,
  cursor: 0,
  detailTab: "diff",
  flash: null,

  begin(runId) {
    set({
      mode: "debug",
      runId,
      overview: null,
      topology: null,
      facts: [],
      factIndex: new Map(),
      transferSteps: [],
      loading: true,
      error: null,
      cursor: 0,
      flash: null,
    });
  },
  load(runId, overview, topology, cursor = 0) {
    if (get().runId !== runId) return;
    const transfers = [...overview.transfers].sort((a, b) => a.step - b.step);
    set({
      overview: { ...overview, transfers },
      topology,
      facts: runFacts(topology?.facts, transfers),
      factIndex: indexFacts(transfers),
      transferSteps: transfers.map((t) => t.step),
      loading: false,
      error: null,
      cursor: Math.max(0, Math.min(cursor, overview.steps.length - 1)),
    });
  },
  fail(message) {
    set({ loading: false, error: message });
  },
  exit() {
    stepCache.clear();
    set({ mode: "design", runId: null, overview: null, topology: null, loading: false, error: null, flash: null });
  },
  setCursor(step) {
    const n = get().overview?.steps.length ?? 0;
    const c = Math.max(0, Math.min(step, n - 1));
    if (c !== get().cursor) set({ cursor: c, flash: null });
  },
  setDetailTab(detailTab) {
    set({ detailTab });
  },
  flashItem(id) {
    set({ flash: { id, seq: ++flashSeq } });
  },
}));

/** The nearest transfer step after (dir 1) or before (dir -1) `step`; null when none. */
export function neighbourTransfer(steps: readonly number[], step: number, dir: 1 | -1): number | null {
  let lo = 0;
  let hi = steps.length;
  // first index with steps[i] > step
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((steps[mid] as number) > step) hi = mid;
    else lo = mid + 1;
  }
  if (dir === 1) return lo < steps.length ? (steps[lo] as number) : null;
  // last index with steps[i] < step
  let i = lo - 1;
  while (i >= 0 && (steps[i] as number) >= step) i--;
  return i >= 0 ? (steps[i] as number) : null;
}

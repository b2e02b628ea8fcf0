// The debugger's state: which run is open (debug mode), its overview (steps and transfers
// without contexts), the cursor, and a cache of step views fetched from the store on demand.
// The cache lives outside React state: the debugger reads the current step through `useQuery`.
// A run opened while still running is followed: its overview is replaced as it grows (`update`),
// the cursor kept where it is, or on the newest step when `progress.follow` says so.
import { create } from "zustand";
import type { OutcomeStatus } from "../bindings/OutcomeStatus";
import type { PinnedFact } from "../bindings/PinnedFact";
import type { RunMark } from "../bindings/RunMark";
import type { Topology } from "../model/types";
import { indexFacts, runFacts, type FactIndex } from "../run/facts";
import { Lru } from "../run/lru";
import type { RunOverview, StepView } from "../run/types";

/** The step detail's tab: a transfer's diff or every policy at a handoff (what-if), the context, a model call's exchange, or a picture of the whole run (fact map, waterfall, suspects). */
export type DetailTab = "diff" | "whatif" | "context" | "call" | "facts" | "waterfall" | "suspects";

/** A run that was still running when it was opened, refreshed as it grows. */
export type RunProgress = {
  /** On the last step, move to the newest one as steps arrive. */
  follow: boolean;
  /** Why the last refresh failed (the last good overview stays); null once one succeeds. */
  error: string | null;
  /** The status the run ended with, once a refresh saw it end (it is no longer asked then). */
  ended: OutcomeStatus | null;
  /**
   * The store no longer holds it (deleted, or a captured trace that joined an earlier run of its
   * conversation when it was saved): the last view stays, it is no longer asked.
   */
  gone: boolean;
};

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
  /** Set when the run was running when opened; null for a run that had ended. */
  progress: RunProgress | null;
  /** Bumped when cached step views were dropped (a newer overview): the shown step is asked again if it was. */
  viewsRevision: number;

  /** Shows the debugger for a run whose overview is still loading. */
  begin(runId: string): void;
  load(runId: string, overview: RunOverview, topology: Topology | null, cursor?: number): void;
  /**
   * A newer overview of the open run (still running, or just ended): the cursor stays, or moves
   * to the newest step when it was on the last one and `progress.follow` is on. `viewsDropped`:
   * cached step views were dropped.
   */
  update(runId: string, overview: RunOverview, topology: Topology | null, viewsDropped: boolean): void;
  /** Why a refresh of the open run failed (the view stays, with a note); null: the last one worked. */
  setProgressError(runId: string, error: string | null): void;
  /** The open run is no longer in the store: it is no longer followed. */
  setProgressGone(runId: string): void;
  /** Follow the newest step (the cursor moves there now), or stay put. */
  setFollow(on: boolean): void;
  /** The open run's mark as the store now holds it (a person marked it good or bad, or cleared it). */
  setMark(runId: string, mark: RunMark | null): void;
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
  progress: null,
  viewsRevision: 0,

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
      progress: null,
    });
  },
  load(runId, overview, topology, cursor = 0) {
    if (get().runId !== runId) return;
    const c = Math.max(0, Math.min(cursor, overview.steps.length - 1));
    const running = overview.summary.outcome.status === "running";
    set({
      ...derive(overview, topology),
      loading: false,
      error: null,
      cursor: c,
      // Following by default when the run opens on its newest step.
      progress: running ? { follow: c >= overview.steps.length - 1, error: null, ended: null, gone: false } : null,
    });
  },
  update(runId, overview, topology, viewsDropped) {
    const s = get();
    if (s.runId !== runId || !s.overview) return;
    const n = overview.steps.length;
    const atEnd = s.cursor >= s.overview.steps.length - 1;
    const follow = s.progress?.follow ?? false;
    const cursor = Math.max(0, follow && atEnd ? n - 1 : Math.min(s.cursor, n - 1));
    const status = overview.summary.outcome.status;
    set({
      ...derive(overview, topology),
      cursor,
      flash: cursor === s.cursor ? s.flash : null,
      progress: { follow, error: null, ended: status === "running" ? null : status, gone: false },
      ...(viewsDropped ? { viewsRevision: s.viewsRevision + 1 } : {}),
    });
  },
  setProgressError(runId, error) {
    const { runId: open, progress } = get();
    if (open === runId && progress && progress.error !== error) set({ progress: { ...progress, error } });
  },
  setProgressGone(runId) {
    const { runId: open, progress } = get();
    if (open === runId && progress && !progress.ended) set({ progress: { ...progress, gone: true, follow: false, error: null } });
  },
  setFollow(on) {
    const { progress, overview, cursor } = get();
    if (!progress || progress.ended || progress.gone || !overview) return;
    const last = Math.max(0, overview.steps.length - 1);
    set({ progress: { ...progress, follow: on }, ...(on && cursor !== last ? { cursor: last, flash: null } : {}) });
  },
  setMark(runId, mark) {
    const { runId: open, overview } = get();
    if (open === runId && overview) set({ overview: { ...overview, summary: { ...overview.summary, mark } } });
  },
  fail(message) {
    set({ loading: false, error: message });
  },
  exit() {
    stepCache.clear();
    set({ mode: "design", runId: null, overview: null, topology: null, loading: false, error: null, flash: null, progress: null });
  },
  setCursor(step) {
    const { overview, cursor, progress } = get();
    const n = overview?.steps.length ?? 0;
    const c = Math.max(0, Math.min(step, n - 1));
    if (c === cursor) return;
    // While the run grows, moving off the last step stops following it; moving onto it follows.
    const follow = progress && !progress.ended && !progress.gone ? { progress: { ...progress, follow: c >= n - 1 } } : {};
    set({ cursor: c, flash: null, ...follow });
  },
  setDetailTab(detailTab) {
    set({ detailTab });
  },
  flashItem(id) {
    set({ flash: { id, seq: ++flashSeq } });
  },
}));

/** What the debugger shows of an overview: transfers by step, the facts and their index. */
function derive(overview: RunOverview, topology: Topology | null) {
  const transfers = [...overview.transfers].sort((a, b) => a.step - b.step);
  return {
    overview: { ...overview, transfers },
    topology,
    facts: runFacts(topology?.facts, transfers),
    factIndex: indexFacts(transfers),
    transferSteps: transfers.map((t) => t.step),
  };
}

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

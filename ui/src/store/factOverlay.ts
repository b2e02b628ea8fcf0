// Facts pinned on an imported or captured run, which has no topology file to hold them: kept per
// run id in localStorage. The backend checks facts only when a trace is imported (`baton trace
// import --facts`), so these are a list to carry there, never checks of their own.
import { create } from "zustand";
import type { PinnedFact } from "../bindings/PinnedFact";

export const OVERLAY_PREFIX = "baton.factOverlay.";

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

function isFact(v: unknown): v is PinnedFact {
  return !!v && typeof v === "object" && typeof (v as PinnedFact).id === "string" && typeof (v as PinnedFact).text === "string";
}

/** Every run's overlay found in storage (entries that do not parse are skipped). */
export function readOverlays(s: Storage | undefined = storage()): Record<string, PinnedFact[]> {
  const out: Record<string, PinnedFact[]> = {};
  if (!s) return out;
  for (let i = 0; i < s.length; i++) {
    const key = s.key(i);
    if (!key?.startsWith(OVERLAY_PREFIX)) continue;
    try {
      const v: unknown = JSON.parse(s.getItem(key) ?? "[]");
      if (Array.isArray(v)) out[key.slice(OVERLAY_PREFIX.length)] = v.filter(isFact);
    } catch {
      /* not ours, or damaged: ignored */
    }
  }
  return out;
}

function write(runId: string, facts: PinnedFact[]) {
  const s = storage();
  try {
    if (facts.length === 0) s?.removeItem(OVERLAY_PREFIX + runId);
    else s?.setItem(OVERLAY_PREFIX + runId, JSON.stringify(facts));
  } catch {
    /* storage refused (private mode, full): the overlay lasts this session */
  }
}

const NONE: readonly PinnedFact[] = [];

export type FactOverlayState = {
  byRun: Record<string, PinnedFact[]>;
  /** Adds the fact to the run's overlay (a fact with the same id is replaced). */
  pin(runId: string, fact: PinnedFact): void;
  unpin(runId: string, factId: string): void;
  /** Reads storage again (another tab, tests). */
  reload(): void;
};

export const useFactOverlay = create<FactOverlayState>()((set, get) => ({
  byRun: readOverlays(),
  pin(runId, fact) {
    const facts = [...(get().byRun[runId] ?? []).filter((f) => f.id !== fact.id), fact];
    write(runId, facts);
    set({ byRun: { ...get().byRun, [runId]: facts } });
  },
  unpin(runId, factId) {
    const facts = (get().byRun[runId] ?? []).filter((f) => f.id !== factId);
    write(runId, facts);
    const byRun = { ...get().byRun };
    if (facts.length) byRun[runId] = facts;
    else delete byRun[runId];
    set({ byRun });
  },
  reload() {
    set({ byRun: readOverlays() });
  },
}));

/** The run's overlay facts (a stable empty list when there are none). */
export function overlayOf(s: FactOverlayState, runId: string | null): readonly PinnedFact[] {
  return (runId && s.byRun[runId]) || NONE;
}

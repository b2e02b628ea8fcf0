// The timeline's search and kind filters (pure): which steps a query and a set of kinds keep.
import { STEP_LABELS } from "./format";
import type { StepList, Steps } from "./steps";
import type { StepBrief, StepKind } from "./types";

export type KindFilter = { id: string; label: string; kinds: readonly StepKind[] };

export const KIND_FILTERS: readonly KindFilter[] = [
  { id: "model", label: "Model", kinds: ["model_call"] },
  { id: "tool", label: "Tool", kinds: ["tool_call"] },
  { id: "handoff", label: "Handoff", kinds: ["handoff"] },
  { id: "delegation", label: "Delegation", kinds: ["delegation", "delegation_return"] },
  { id: "guard", label: "Guard", kinds: ["guard", "guardrail"] },
  { id: "final", label: "Final", kinds: ["final"] },
];

export type StepFilter = {
  query: string;
  /** Ids of `KIND_FILTERS`; empty: every kind. */
  kinds: ReadonlySet<string>;
};

export const NO_FILTER: StepFilter = { query: "", kinds: new Set() };

export const isFiltering = (f: StepFilter) => f.query.trim() !== "" || f.kinds.size > 0;

/**
 * The steps a filter keeps, in order. The query matches (case-insensitively) the step's detail,
 * its agent's id or name, its kind, or `#N` / `N` its index; every word of it must match.
 */
export function filterSteps(steps: Steps, f: StepFilter, agentName: (id: string) => string = (id) => id): StepList {
  if (!isFiltering(f)) return steps;
  const kinds = new Set<StepKind>(KIND_FILTERS.filter((k) => f.kinds.has(k.id)).flatMap((k) => k.kinds));
  const kindOk = steps.kinds.map((k) => kinds.size === 0 || kinds.has(k));
  const words = f.query.trim().toLowerCase().split(/\s+/).filter(Boolean);
  // What a query searches in an agent (its id and name) and a kind (its label and name), once each.
  const agentHay = steps.names.map((id) => `${id}\n${agentName(id)}`.toLowerCase());
  const kindHay = steps.kinds.map((k) => `${STEP_LABELS[k]}\n${k}`.toLowerCase());
  const keep: number[] = [];
  for (let i = 0; i < steps.length; i++) {
    if (!kindOk[steps.kind[i] as number]) continue;
    if (words.length > 0) {
      const index = steps.first + i;
      const hay = `${(steps.detail[i] as string).toLowerCase()}\n${agentHay[steps.agent[i] as number]}\n${agentHay[steps.owner[i] as number]}\n${kindHay[steps.kind[i] as number]}`;
      const all = words.every((w) => {
        const n = /^#?(\d+)$/.exec(w);
        if (n && Number(n[1]) === index) return true;
        return !w.startsWith("#") && hay.includes(w);
      });
      if (!all) continue;
    }
    keep.push(i);
  }
  return { length: keep.length, at: (i) => (i >= 0 && i < keep.length ? steps.at(keep[i] as number) : undefined) };
}

/** Counts per kind filter over all steps (what each chip would keep on its own). */
export function kindCounts(steps: Steps): Map<string, number> {
  const of = new Map<StepKind, string>();
  for (const k of KIND_FILTERS) for (const kind of k.kinds) of.set(kind, k.id);
  const perKind = new Array<number>(steps.kinds.length).fill(0);
  for (let i = 0; i < steps.length; i++) perKind[steps.kind[i] as number]++;
  const out = new Map<string, number>(KIND_FILTERS.map((k) => [k.id, 0]));
  steps.kinds.forEach((kind, k) => {
    const id = of.get(kind);
    if (id) out.set(id, (out.get(id) ?? 0) + (perKind[k] as number));
  });
  return out;
}

/** The visible step nearest after (dir 1) or before (dir -1) `current`; null when none (a binary search: the list is in step order). */
export function neighbourVisible(visible: StepList, current: number, dir: 1 | -1): number | null {
  const index = (i: number) => (visible.at(i) as StepBrief).index;
  // first position whose step is after `current`
  let lo = 0;
  let hi = visible.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (index(mid) > current) hi = mid;
    else lo = mid + 1;
  }
  if (dir === 1) return lo < visible.length ? index(lo) : null;
  let i = lo - 1;
  while (i >= 0 && index(i) >= current) i--;
  return i >= 0 ? index(i) : null;
}

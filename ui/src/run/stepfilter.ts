// The timeline's search and kind filters (pure): which steps a query and a set of kinds keep.
import { STEP_LABELS } from "./format";
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
export function filterSteps(steps: readonly StepBrief[], f: StepFilter, agentName: (id: string) => string = (id) => id): readonly StepBrief[] {
  if (!isFiltering(f)) return steps;
  const kinds = new Set<StepKind>(KIND_FILTERS.filter((k) => f.kinds.has(k.id)).flatMap((k) => k.kinds));
  const words = f.query.trim().toLowerCase().split(/\s+/).filter(Boolean);
  return steps.filter((s) => {
    if (kinds.size > 0 && !kinds.has(s.kind)) return false;
    if (words.length === 0) return true;
    const hay = `${s.detail}\n${s.agent}\n${agentName(s.agent)}\n${s.owner}\n${agentName(s.owner)}\n${STEP_LABELS[s.kind]}\n${s.kind}`.toLowerCase();
    return words.every((w) => {
      const n = /^#?(\d+)$/.exec(w);
      if (n && Number(n[1]) === s.index) return true;
      return !w.startsWith("#") && hay.includes(w);
    });
  });
}

/** Counts per kind filter over all steps (what each chip would keep on its own). */
export function kindCounts(steps: readonly StepBrief[]): Map<string, number> {
  const of = new Map<StepKind, string>();
  for (const k of KIND_FILTERS) for (const kind of k.kinds) of.set(kind, k.id);
  const out = new Map<string, number>(KIND_FILTERS.map((k) => [k.id, 0]));
  for (const s of steps) {
    const id = of.get(s.kind);
    if (id) out.set(id, (out.get(id) ?? 0) + 1);
  }
  return out;
}

/** The visible step nearest after (dir 1) or before (dir -1) `current`; null when none. */
export function neighbourVisible(visible: readonly StepBrief[], current: number, dir: 1 | -1): number | null {
  if (dir === 1) {
    for (const s of visible) if (s.index > current) return s.index;
    return null;
  }
  for (let i = visible.length - 1; i >= 0; i--) if ((visible[i] as StepBrief).index < current) return (visible[i] as StepBrief).index;
  return null;
}

// Pinned facts through a run: each fact's status at a step is its status at the most recent
// transfer at or before that step; before any transfer checked it, it is simply held by its
// holders (or by nobody).
import type { PinnedFact } from "../bindings/PinnedFact";
import type { FactStatus, TransferBrief } from "./types";

export type FactAtStep = {
  fact: PinnedFact;
  /** A transfer's status, or `held` before any transfer checked the fact. */
  status: FactStatus | "held";
  /** The transfer that set the status (null while `held`). */
  transfer: TransferBrief | null;
  /** Every transfer where the fact was lost, in run order. */
  lostAt: TransferBrief[];
};

/** The last index in `transfers` (sorted by step) whose step is at or before `step`; -1 when none. */
export function lastTransferAtOrBefore(transfers: readonly TransferBrief[], step: number): number {
  let lo = 0;
  let hi = transfers.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((transfers[mid] as TransferBrief).step <= step) {
      found = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return found;
}

/** Facts named by the topology, plus any the transfers check that the topology does not name. */
export function runFacts(topologyFacts: readonly PinnedFact[] | undefined, transfers: readonly TransferBrief[]): PinnedFact[] {
  const out = [...(topologyFacts ?? [])];
  const known = new Set(out.map((f) => f.id));
  for (const t of transfers) {
    for (const c of t.facts) {
      if (!known.has(c.id)) {
        known.add(c.id);
        out.push({ id: c.id, text: "", holders: [] });
      }
    }
  }
  return out;
}

export type FactIndex = Map<string, { checks: { transfer: TransferBrief; status: FactStatus }[]; lost: TransferBrief[] }>;

/** Per fact, the transfers that checked it (in order) and those that lost it. Build once per run. */
export function indexFacts(transfers: readonly TransferBrief[]): FactIndex {
  const idx: FactIndex = new Map();
  for (const t of transfers) {
    for (const c of t.facts) {
      let e = idx.get(c.id);
      if (!e) idx.set(c.id, (e = { checks: [], lost: [] }));
      e.checks.push({ transfer: t, status: c.status });
      if (c.status === "lost") e.lost.push(t);
    }
  }
  return idx;
}

export function factsAtStep(facts: readonly PinnedFact[], index: FactIndex, step: number): FactAtStep[] {
  return facts.map((fact) => {
    const e = index.get(fact.id);
    const checks = e?.checks ?? [];
    // binary search over this fact's checks (sorted by step)
    let lo = 0;
    let hi = checks.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if ((checks[mid] as (typeof checks)[number]).transfer.step <= step) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    const hit = found >= 0 ? checks[found] : undefined;
    return { fact, status: hit ? hit.status : "held", transfer: hit?.transfer ?? null, lostAt: e?.lost ?? [] };
  });
}

// A run opened while it is still running (a captured trace whose spans keep arriving, or a run
// this window executes): how often it is asked again, and which cached step views a newer
// overview may have made stale.
import type { RunOverview, RunTail } from "./types";

/** How often the overview of a captured run still arriving is asked again (ms). */
export const FOLLOW_POLL_MS = 1000;

/** How long a run this window executes waits after its events before it is read again (ms). */
export const FOLLOW_EVENTS_MS = 250;

export const isRunning = (o: RunOverview | null | undefined): boolean => o?.summary.outcome.status === "running";

// The same object (a prefix kept from a tail read) is the same without a look inside.
const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

/** Where a tail read starts for a run shown as `prev`: its last step and last transfer (either may have grown). */
export function tailFrom(prev: RunOverview): { from_step: number; from_transfer: number } {
  return { from_step: Math.max(0, prev.steps.length - 1), from_transfer: Math.max(0, prev.transfers.length - 1) };
}

/**
 * `prev` with a tail read from `tailFrom(prev)` appended, its earlier briefs kept as they are
 * (the same objects); null when the tail does not start where `prev` ends as `prev` has it (the
 * run was rebuilt, as a captured trace may be, or shrank): then the whole overview is read again.
 */
export function appendTail(prev: RunOverview, tail: RunTail): RunOverview | null {
  // The boundary: the step and transfer the tail starts at must be as `prev` has them, or grown
  // in place (the last step's brief is rewritten as it completes: only its identity must hold).
  const transferKey = (t: unknown) => (t ? JSON.stringify([(t as { index: number }).index, (t as { step: number }).step, (t as { from: string }).from, (t as { to: string }).to]) : "");
  if (tail.from_step > prev.steps.length || tail.from_transfer > prev.transfers.length) return null;
  const p = prev.steps;
  const at = tail.from_step;
  if (at < p.length && (tail.steps.length === 0 || p.first + at !== tail.steps.first || p.kindOf(at) !== tail.steps.kindOf(0) || p.agentOf(at) !== tail.steps.agentOf(0))) return null;
  const t0 = tail.from_transfer < prev.transfers.length ? prev.transfers[tail.from_transfer] : undefined;
  if (t0 !== undefined && transferKey(t0) !== transferKey(tail.transfers[0])) return null;
  return {
    summary: tail.summary,
    topology: same(prev.topology, tail.topology) ? prev.topology : tail.topology,
    steps: p.spliced(at, tail.steps),
    transfers: [...prev.transfers.slice(0, tail.from_transfer), ...tail.transfers],
  };
}

/**
 * The first step whose cached view may be stale once `prev` became `next`; null when nothing
 * changed. Steps added after the previous last step leave the earlier views alone (the last one
 * may have grown); a change before it (a step changed, inserted or gone, a transfer changed or
 * gone: a replaced run may amend its earlier steps) makes every view stale (0).
 */
export function staleFrom(prev: RunOverview, next: RunOverview): number | null {
  const n0 = prev.steps.length;
  const n1 = next.steps.length;
  const last = Math.max(0, n0 - 1);
  if (n1 < n0) return 0;
  for (let i = 0; i < last; i++) if (!prev.steps.sameAt(i, next.steps)) return 0;
  const byIndex = new Map(next.transfers.map((t) => [t.index, t]));
  let transfers = next.transfers.length !== prev.transfers.length;
  for (const t of prev.transfers) {
    if (same(t, byIndex.get(t.index))) continue;
    if (t.step < last) return 0;
    transfers = true;
  }
  if (transfers || n1 !== n0 || !(n0 === 0 ? n1 === 0 : prev.steps.sameAt(last, next.steps)) || !same(prev.summary, next.summary) || !same(prev.topology, next.topology)) {
    return last;
  }
  return null;
}

// A run opened while it is still running (a captured trace whose spans keep arriving, or a run
// this window executes): how often it is asked again, and which cached step views a newer
// overview may have made stale.
import type { RunOverview } from "./types";

/** How often the overview of a captured run still arriving is asked again (ms). */
export const FOLLOW_POLL_MS = 1000;

/** How long a run this window executes waits after its events before it is read again (ms). */
export const FOLLOW_EVENTS_MS = 250;

export const isRunning = (o: RunOverview | null | undefined): boolean => o?.summary.outcome.status === "running";

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

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
  for (let i = 0; i < last; i++) if (!same(prev.steps[i], next.steps[i])) return 0;
  const byIndex = new Map(next.transfers.map((t) => [t.index, t]));
  let transfers = next.transfers.length !== prev.transfers.length;
  for (const t of prev.transfers) {
    if (same(t, byIndex.get(t.index))) continue;
    if (t.step < last) return 0;
    transfers = true;
  }
  if (transfers || n1 !== n0 || !same(prev.steps[last], next.steps[last]) || !same(prev.summary, next.summary) || !same(prev.topology, next.topology)) {
    return last;
  }
  return null;
}

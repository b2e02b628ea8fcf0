// Step briefs as the backend sends them, by column (issue #32): what a stand-in backend answers
// and what tests feed `Steps`. Below `run/` so the platform's stand-ins can build overviews.
import type { StepBrief } from "../bindings/StepBrief";
import type { StepColumns } from "../bindings/StepColumns";
import type { StepKind } from "../bindings/StepKind";

/** A table of values each kept once, and a value's position in it. */
function interner<T>() {
  const table: T[] = [];
  const at = new Map<T, number>();
  return { table, of: (x: T) => at.get(x) ?? (at.set(x, table.length), table.push(x), table.length - 1) };
}

/** Briefs as the backend sends them, by column (agent ids, kinds and details once each). */
export function columnsOf(briefs: readonly StepBrief[]): StepColumns {
  const names = interner<string>();
  const kinds = interner<StepKind>();
  const details = interner<string>();
  return {
    first: briefs[0]?.index ?? 0,
    names: names.table,
    kinds: kinds.table,
    kind: briefs.map((b) => kinds.of(b.kind)),
    agent: briefs.map((b) => names.of(b.agent)),
    owner: briefs.map((b) => names.of(b.owner)),
    depth: briefs.map((b) => b.depth),
    transfer: briefs.map((b) => b.transfer),
    details: details.table,
    detail: briefs.map((b) => details.of(b.detail)),
    tokens: briefs.map((b) => (b.tokens === null ? null : Number(b.tokens))),
    context_len: briefs.map((b) => b.context_len),
    start_ms: briefs.map((b) => b.start_ms),
    duration_ms: briefs.map((b) => b.duration_ms),
  };
}

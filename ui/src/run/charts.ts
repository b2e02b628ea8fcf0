// The numbers behind the debugger's pictures (pure): context size per step with the transfers
// marked, the pinned fact × transfer map, and the timing waterfall's rows.
import type { PinnedFact } from "../bindings/PinnedFact";
import type { Steps } from "./steps";
import type { EdgeKind, FactStatus, StepKind, TransferBrief } from "./types";

// ---------- context size per step ----------

/** Items on the sender's side of a transfer, and on the receiver's. */
export const senderItems = (t: TransferBrief) => t.carried + t.transformed + t.dropped;
export const receiverItems = (t: TransferBrief) => t.carried + t.transformed + t.added;

export type TransferMark = {
  transfer: number;
  step: number;
  kind: EdgeKind;
  from: string;
  to: string;
  edge: string;
  /** Items the sender held when it handed over, and what the receiver sees. */
  before: number;
  after: number;
  /** Facts lost at this transfer. */
  lost: string[];
  /** A guard's escalation (a handoff with no edge of the topology). */
  escalation: boolean;
};

export type ContextSeries = {
  /**
   * x positions (step indices; a transfer adds a point half a step before it: the sender's
   * context as it handed over), with the items seen there and a model call's tokens.
   */
  x: number[];
  items: (number | null)[];
  tokens: (number | null)[];
  /** The step each point belongs to (a transfer's "before" point belongs to the transfer step). */
  stepOf: number[];
  marks: TransferMark[];
  /** Whether any step says how many items it saw (older stores do not), and any model call its tokens. */
  hasItems: boolean;
  hasTokens: boolean;
  maxItems: number;
  /** The transfer with the largest drop in items (null when none drops). */
  biggestDrop: TransferMark | null;
};

export function transferMarks(transfers: readonly TransferBrief[]): TransferMark[] {
  return [...transfers]
    .sort((a, b) => a.step - b.step)
    .map((t) => ({
      transfer: t.index,
      step: t.step,
      kind: t.kind,
      from: t.from,
      to: t.to,
      edge: t.edge,
      before: senderItems(t),
      after: receiverItems(t),
      lost: t.facts.filter((f) => f.status === "lost").map((f) => f.id),
      escalation: t.edge === "",
    }));
}

export function contextSeries(steps: Steps, transfers: readonly TransferBrief[]): ContextSeries {
  const marks = transferMarks(transfers);
  const byStep = new Map(marks.map((m) => [m.step, m]));
  const x: number[] = [];
  const items: (number | null)[] = [];
  const tokens: (number | null)[] = [];
  const stepOf: number[] = [];
  let hasItems = false;
  let hasTokens = false;
  let maxItems = 0;
  const modelCall = steps.kinds.indexOf("model_call");
  for (let i = 0; i < steps.length; i++) {
    const index = steps.first + i;
    const n = steps.contextLenAt(i);
    const m = byStep.get(index);
    if (m && n !== null) {
      x.push(index - 0.5);
      items.push(m.before);
      tokens.push(null);
      stepOf.push(index);
      maxItems = Math.max(maxItems, m.before);
    }
    if (n !== null) hasItems = true;
    const t = steps.tokens[i] as number;
    const tok = steps.kind[i] === modelCall && Number.isFinite(t) ? t : null;
    if (tok !== null) hasTokens = true;
    x.push(index);
    items.push(n);
    tokens.push(tok);
    stepOf.push(index);
    if (n !== null) maxItems = Math.max(maxItems, n);
  }
  let biggestDrop: TransferMark | null = null;
  for (const m of marks) if (m.before > m.after && (!biggestDrop || m.before - m.after > biggestDrop.before - biggestDrop.after)) biggestDrop = m;
  return { x, items, tokens, stepOf, marks, hasItems, hasTokens, maxItems, biggestDrop };
}

/** Points the chart draws at most before it thins them (a few per pixel of a wide chart). */
export const CHART_POINTS = 8000;

/**
 * The same series thinned for drawing (M4: per bucket of consecutive points, the first, the last
 * and each line's lowest and highest), so 100,000 steps draw as fast as 8,000 and look the same:
 * every peak and dip stays. Short series come back as they are.
 */
export function thinned(s: ContextSeries, max = CHART_POINTS): ContextSeries {
  const n = s.x.length;
  if (n <= max) return s;
  const buckets = Math.floor(max / 6);
  const keep: number[] = [];
  for (let b = 0; b < buckets; b++) {
    const from = Math.floor((b * n) / buckets);
    const to = Math.floor(((b + 1) * n) / buckets);
    if (to <= from) continue;
    const picks = new Set([from, to - 1]);
    for (const line of [s.items, s.tokens]) {
      let lo = -1;
      let hi = -1;
      for (let i = from; i < to; i++) {
        const v = line[i];
        if (v === null || v === undefined) continue;
        if (lo < 0 || v < (line[lo] as number)) lo = i;
        if (hi < 0 || v > (line[hi] as number)) hi = i;
      }
      if (lo >= 0) picks.add(lo);
      if (hi >= 0) picks.add(hi);
    }
    keep.push(...[...picks].sort((a, b) => a - b));
  }
  return {
    ...s,
    x: keep.map((i) => s.x[i] as number),
    items: keep.map((i) => s.items[i] ?? null),
    tokens: keep.map((i) => s.tokens[i] ?? null),
    stepOf: keep.map((i) => s.stepOf[i] as number),
  };
}

/** The point nearest to x (a step index, fractional from a pointer), as the step it belongs to. */
export function nearestStep(series: Pick<ContextSeries, "x" | "stepOf">, at: number): number | null {
  const { x, stepOf } = series;
  if (x.length === 0) return null;
  let lo = 0;
  let hi = x.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((x[mid] as number) < at) lo = mid + 1;
    else hi = mid;
  }
  const i = lo > 0 && Math.abs((x[lo - 1] as number) - at) <= Math.abs((x[lo] as number) - at) ? lo - 1 : lo;
  return stepOf[i] ?? null;
}

// ---------- the fact × transfer map ----------

/**
 * A fact's fate at one transfer, as the map shows it. `withheld`: a delegation's nested agent
 * works without it while the caller keeps it (a delegation passes only its tool input);
 * `not_held`: neither side had it; `unchecked`: the transfer recorded no check of it.
 */
export type FactCell = "carried" | "transformed" | "lost" | "withheld" | "added" | "not_held" | "unchecked";

export const FACT_CELL_LABELS: Record<FactCell, string> = {
  carried: "carried",
  transformed: "transformed",
  lost: "lost",
  withheld: "withheld",
  added: "added",
  not_held: "not held",
  unchecked: "not checked",
};

export function factCell(kind: EdgeKind, status: FactStatus | undefined): FactCell {
  if (status === undefined) return "unchecked";
  if (status === "absent") return "not_held";
  if (status === "lost" && kind === "delegation") return "withheld";
  return status;
}

export type FactMap = {
  columns: TransferBrief[];
  rows: { fact: PinnedFact; cells: FactCell[]; lost: number }[];
};

export function factMap(facts: readonly PinnedFact[], transfers: readonly TransferBrief[]): FactMap {
  const columns = [...transfers].sort((a, b) => a.step - b.step);
  const rows = facts.map((fact) => {
    const cells = columns.map((t) => factCell(t.kind, t.facts.find((c) => c.id === fact.id)?.status));
    return { fact, cells, lost: cells.filter((c) => c === "lost").length };
  });
  return { columns, rows };
}

// ---------- the timing waterfall ----------

export type WaterfallRow = {
  step: number;
  kind: StepKind;
  agent: string;
  depth: number;
  detail: string;
  /** ms from the run's start; null: this step kept no time. */
  start: number | null;
  end: number | null;
  /** A delegation's whole span: from the call to the caller getting the answer back. */
  span: { start: number; end: number } | null;
};

export type Waterfall = {
  rows: WaterfallRow[];
  /** Steps with a time, and the run's extent in ms (the earliest start is 0). */
  timed: number;
  origin: number;
  total: number;
  ticks: number[];
};

/** Round tick values (1, 2 or 5 × 10^k apart) from 0 to at least `total`, about `count` of them. */
export function niceTicks(total: number, count = 5): number[] {
  if (!(total > 0)) return [0];
  const raw = total / count;
  const p = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * p).find((s) => s >= raw) ?? 10 * p;
  const out: number[] = [];
  for (let v = 0; v < total + step / 2; v += step) out.push(Number(v.toPrecision(12)));
  return out;
}

export function waterfall(steps: Steps): Waterfall {
  let origin = Infinity;
  let last = -Infinity;
  let timed = 0;
  const rows: WaterfallRow[] = new Array(steps.length);
  for (let i = 0; i < steps.length; i++) {
    const t = steps.timeAt(i);
    if (t) {
      timed++;
      origin = Math.min(origin, t.start);
      last = Math.max(last, t.end);
    }
    rows[i] = { step: steps.first + i, kind: steps.kindOf(i), agent: steps.agentOf(i), depth: steps.depth[i] as number, detail: steps.detail[i] as string, start: t?.start ?? null, end: t?.end ?? null, span: null };
  }
  // A delegation's span: from its step to the end of the return at the caller's depth.
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i] as WaterfallRow;
    if (r.kind !== "delegation" || r.start === null) continue;
    let end = r.end as number;
    for (let j = i + 1; j < rows.length; j++) {
      const q = rows[j] as WaterfallRow;
      if (q.end !== null) end = Math.max(end, q.end);
      if (q.kind === "delegation_return" && q.depth === r.depth - 1) break;
    }
    r.span = { start: r.start, end };
  }
  if (timed === 0) return { rows, timed, origin: 0, total: 0, ticks: [] };
  const total = Math.max(0, last - origin);
  return { rows, timed, origin, total, ticks: niceTicks(total, 4) };
}

/** Where a bar sits in the chart, as fractions of its width (a zero-length step still shows). */
export function barBox(w: Pick<Waterfall, "origin" | "total">, start: number, end: number): { left: number; width: number } {
  if (!(w.total > 0)) return { left: 0, width: 0 };
  return { left: (start - w.origin) / w.total, width: (end - start) / w.total };
}

// A run's step briefs by column (issue #32): the overview's steps as typed arrays (times, sizes,
// kinds, agents) and two string tables, decoded once from the backend's `StepColumns`. Whole-run
// views (the context chart, the filters, the path on the canvas) read the columns; a view of one
// step asks `at(i)`, which builds that step's brief once and keeps it (the same object each time,
// as React selectors need).
import type { StepColumns } from "../bindings/StepColumns";
import type { StepBrief } from "../bindings/StepBrief";
import type { StepKind } from "../bindings/StepKind";
import { columnsOf } from "../platform/stepColumns";

/** What a list of steps is to the views that show one row at a time: an array or `Steps`. */
export type StepList = { readonly length: number; at(i: number): StepBrief | undefined };

const NONE = -1;

/** `(number | null)[]` as a Float64Array, null as NaN. */
function floats(xs: readonly (number | null)[]): Float64Array {
  const out = new Float64Array(xs.length);
  for (let i = 0; i < xs.length; i++) out[i] = xs[i] ?? NaN;
  return out;
}

/** `(number | null)[]` as an Int32Array, null as -1. */
function ints(xs: readonly (number | null)[]): Int32Array {
  const out = new Int32Array(xs.length);
  for (let i = 0; i < xs.length; i++) out[i] = xs[i] ?? NONE;
  return out;
}

const orNull = (v: number) => (Number.isNaN(v) ? null : v);
const intOrNull = (v: number) => (v === NONE ? null : v);

/** A table of strings (agent ids or kinds) with each one's position, for joining two tables. */
function table<T>(xs: readonly T[]): Map<T, number> {
  return new Map(xs.map((x, i) => [x, i]));
}

/** The columns a `Steps` holds, decoded. */
type Cols = {
  first: number;
  names: readonly string[];
  kinds: readonly StepKind[];
  kind: Uint8Array;
  agent: Uint32Array;
  owner: Uint32Array;
  depth: Uint32Array;
  transfer: Int32Array;
  detail: readonly string[];
  tokens: Float64Array;
  contextLen: Int32Array;
  start: Float64Array;
  duration: Float64Array;
};

export class Steps implements StepList {
  readonly length: number;
  /** The first step's index; position `i` holds step `first + i`. */
  readonly first: number;
  /** Agent ids `agent` and `owner` point into. */
  readonly names: readonly string[];
  /** Step kinds `kind` points into. */
  readonly kinds: readonly StepKind[];
  readonly kind: Uint8Array;
  readonly agent: Uint32Array;
  readonly owner: Uint32Array;
  readonly depth: Uint32Array;
  /** The transfer a step made; -1: none. */
  readonly transfer: Int32Array;
  readonly detail: readonly string[];
  /** Tokens of a model call; NaN: none. */
  readonly tokens: Float64Array;
  /** Items the acting agent sees; -1: not kept. */
  readonly contextLen: Int32Array;
  /** Milliseconds from the run's start; NaN: not recorded. */
  readonly start: Float64Array;
  readonly duration: Float64Array;
  private readonly briefs: (StepBrief | undefined)[] = [];

  private constructor(c: Cols) {
    this.first = c.first;
    this.names = c.names;
    this.kinds = c.kinds;
    this.kind = c.kind;
    this.agent = c.agent;
    this.owner = c.owner;
    this.depth = c.depth;
    this.transfer = c.transfer;
    this.detail = c.detail;
    this.tokens = c.tokens;
    this.contextLen = c.contextLen;
    this.start = c.start;
    this.duration = c.duration;
    this.length = c.kind.length;
  }

  /** The backend's columns, decoded. */
  static from(c: StepColumns): Steps {
    return new Steps({
      first: c.first,
      names: c.names,
      kinds: c.kinds,
      kind: Uint8Array.from(c.kind),
      agent: Uint32Array.from(c.agent),
      owner: Uint32Array.from(c.owner),
      depth: Uint32Array.from(c.depth),
      transfer: ints(c.transfer),
      // the details table's strings, shared by the steps that say the same
      detail: Array.from(c.detail, (d) => c.details[d] ?? ""),
      tokens: floats(c.tokens),
      contextLen: ints(c.context_len),
      start: floats(c.start_ms),
      duration: floats(c.duration_ms),
    });
  }

  /** Briefs numbered one after another from the first (a stand-in backend's, a test's). */
  static of(briefs: readonly StepBrief[]): Steps {
    return Steps.from(columnsOf(briefs));
  }

  /** The agent acting at position `i`. */
  agentOf(i: number): string {
    return this.names[this.agent[i] as number] as string;
  }

  kindOf(i: number): StepKind {
    return this.kinds[this.kind[i] as number] as StepKind;
  }

  contextLenAt(i: number): number | null {
    return intOrNull(this.contextLen[i] as number);
  }

  /** Start and end (ms from the run's start) of position `i` (no duration: a point); null when its time was not recorded. */
  timeAt(i: number): { start: number; end: number } | null {
    const s = this.start[i] as number;
    if (!Number.isFinite(s)) return null;
    const d = this.duration[i] as number;
    return { start: s, end: s + (Number.isFinite(d) ? Math.max(0, d) : 0) };
  }

  /** The agents that act, each once, in the order they first act. */
  actingAgents(): string[] {
    const seen = new Uint8Array(this.names.length);
    const out: string[] = [];
    for (let i = 0; i < this.length; i++) {
      const a = this.agent[i] as number;
      if (!seen[a]) {
        seen[a] = 1;
        out.push(this.names[a] as string);
      }
    }
    return out;
  }

  /** Position `i` as a brief (built once, the same object after). */
  at(i: number): StepBrief | undefined {
    if (!(i >= 0 && i < this.length)) return undefined;
    let b = this.briefs[i];
    if (!b) {
      b = {
        index: this.first + i,
        kind: this.kindOf(i),
        agent: this.agentOf(i),
        owner: this.names[this.owner[i] as number] as string,
        depth: this.depth[i] as number,
        transfer: intOrNull(this.transfer[i] as number),
        detail: this.detail[i] as string,
        tokens: orNull(this.tokens[i] as number),
        context_len: this.contextLenAt(i),
        start_ms: orNull(this.start[i] as number),
        duration_ms: orNull(this.duration[i] as number),
      };
      this.briefs[i] = b;
    }
    return b;
  }

  /** Whether position `i` here and position `j` of `other` hold the same brief (no brief built). */
  sameAt(i: number, other: Steps, j = i): boolean {
    const same = (a: number, b: number) => a === b || (Number.isNaN(a) && Number.isNaN(b));
    return (
      i < this.length &&
      j < other.length &&
      this.first + i === other.first + j &&
      this.kindOf(i) === other.kindOf(j) &&
      this.agentOf(i) === other.agentOf(j) &&
      this.names[this.owner[i] as number] === other.names[other.owner[j] as number] &&
      this.depth[i] === other.depth[j] &&
      this.transfer[i] === other.transfer[j] &&
      this.detail[i] === other.detail[j] &&
      same(this.tokens[i] as number, other.tokens[j] as number) &&
      this.contextLen[i] === other.contextLen[j] &&
      same(this.start[i] as number, other.start[j] as number) &&
      same(this.duration[i] as number, other.duration[j] as number)
    );
  }

  /** The first `keep` steps here followed by `tail` (whose first step is step `first + keep`). */
  spliced(keep: number, tail: Steps): Steps {
    const k = Math.max(0, Math.min(keep, this.length));
    const n = k + tail.length;
    const names = [...this.names];
    const nameAt = table(names);
    const nameMap = tail.names.map((x) => nameAt.get(x) ?? (nameAt.set(x, names.length), names.push(x), names.length - 1));
    const kinds = [...this.kinds];
    const kindAt = table(kinds);
    const kindMap = tail.kinds.map((x) => kindAt.get(x) ?? (kindAt.set(x, kinds.length), kinds.push(x), kinds.length - 1));
    function join<A extends Uint8Array | Uint32Array | Int32Array | Float64Array>(mk: new (n: number) => A, a: A, b: A, map?: readonly number[]): A {
      const out = new mk(n);
      out.set(a.subarray(0, k));
      if (map) for (let i = 0; i < b.length; i++) out[k + i] = map[b[i] as number] as number;
      else out.set(b, k);
      return out;
    }
    const kept = this.length > 0 ? this.first : tail.first - k;
    const spliced = new Steps({
      first: kept,
      names,
      kinds,
      kind: join(Uint8Array, this.kind, tail.kind, kindMap),
      agent: join(Uint32Array, this.agent, tail.agent, nameMap),
      owner: join(Uint32Array, this.owner, tail.owner, nameMap),
      depth: join(Uint32Array, this.depth, tail.depth),
      transfer: join(Int32Array, this.transfer, tail.transfer),
      detail: [...this.detail.slice(0, k), ...tail.detail],
      tokens: join(Float64Array, this.tokens, tail.tokens),
      contextLen: join(Int32Array, this.contextLen, tail.contextLen),
      start: join(Float64Array, this.start, tail.start),
      duration: join(Float64Array, this.duration, tail.duration),
    });
    // The kept steps' briefs stay the same objects (a view showing one keeps it).
    for (let i = 0; i < k; i++) spliced.briefs[i] = this.briefs[i];
    return spliced;
  }

  /** Back to the backend's columns (a stand-in backend's answers). */
  toColumns(): StepColumns {
    return columnsOf(briefsOf(this));
  }
}

export { columnsOf };

/** Every step of a list as a brief, in order (tests, small lists). */
export const briefsOf = (l: StepList): StepBrief[] => Array.from({ length: l.length }, (_, i) => l.at(i) as StepBrief);

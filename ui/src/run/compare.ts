// Comparing two runs, possibly of different topologies: transfers lined up by (from, to,
// occurrence) rather than by index, their answers and outcomes, and the topology versions.
import type { Topology } from "../bindings/Topology";
import type { RunSummary, TransferBrief } from "./types";
import { policyLabel } from "../model/topology";

/** One line of the comparison: a transfer both runs made (a and b), or one only one run made. */
export type CompareLine = {
  /** `from→to#n`: the n-th (from 0) transfer from `from` to `to` in its run. */
  key: string;
  from: string;
  to: string;
  occurrence: number;
  a: TransferBrief | null;
  b: TransferBrief | null;
  /** Both runs made it, with the same kind, policy, counts and fact statuses. */
  same: boolean;
};

/** Each transfer's key: its route and how many transfers of that route came before it. */
export function transferKeys(transfers: readonly TransferBrief[]): string[] {
  const seen = new Map<string, number>();
  return transfers.map((t) => {
    const route = `${t.from}→${t.to}`;
    const n = seen.get(route) ?? 0;
    seen.set(route, n + 1);
    return `${route}#${n}`;
  });
}

export function sameTransfer(a: TransferBrief | null | undefined, b: TransferBrief | null | undefined): boolean {
  if (!a || !b) return false;
  return (
    a.from === b.from &&
    a.to === b.to &&
    a.kind === b.kind &&
    a.policy === b.policy &&
    a.carried === b.carried &&
    a.transformed === b.transformed &&
    a.dropped === b.dropped &&
    a.added === b.added &&
    JSON.stringify(a.facts) === JSON.stringify(b.facts)
  );
}

/**
 * Lines up two runs' transfers. A transfer of A and one of B share a line when they have the same
 * key (route and occurrence). Lines follow A's order; a transfer only B made comes after the
 * A lines that follow the last transfer before it that both runs made (so between two shared
 * transfers, A's own come first, then B's own, as a diff shows deletions before insertions).
 */
export function alignTransfers(a: readonly TransferBrief[], b: readonly TransferBrief[]): CompareLine[] {
  const keysA = transferKeys(a);
  const keysB = transferKeys(b);
  const aIndexOf = new Map(keysA.map((k, i) => [k, i]));
  const bIndexOf = new Map(keysB.map((k, i) => [k, i]));
  const route = (t: TransferBrief) => ({ from: t.from, to: t.to });
  const occ = (k: string) => Number(k.slice(k.lastIndexOf("#") + 1));

  type Placed = { pos: number; order: number; line: CompareLine };
  const placed: Placed[] = keysA.map((key, i) => {
    const ta = a[i] as TransferBrief;
    const j = bIndexOf.get(key);
    const tb = j === undefined ? null : (b[j] as TransferBrief);
    return { pos: i, order: -1, line: { key, ...route(ta), occurrence: occ(key), a: ta, b: tb, same: sameTransfer(ta, tb) } };
  });
  // A indices of the shared lines, ascending.
  const sharedA = keysA.map((k, i) => (bIndexOf.has(k) ? i : -1)).filter((i) => i >= 0);
  let lastShared = -1; // A index of the latest shared transfer seen in B's order
  keysB.forEach((key, j) => {
    const i = aIndexOf.get(key);
    if (i !== undefined) {
      lastShared = i;
      return;
    }
    const next = sharedA.find((x) => x > lastShared) ?? a.length;
    const tb = b[j] as TransferBrief;
    placed.push({ pos: next - 0.5, order: j, line: { key, ...route(tb), occurrence: occ(key), a: null, b: tb, same: false } });
  });
  placed.sort((x, y) => x.pos - y.pos || x.order - y.order);
  return placed.map((p) => p.line);
}

/** Counts of a comparison's lines: shared and the same, shared but different, only in A, only in B. */
export function compareCounts(lines: readonly CompareLine[]): { same: number; differ: number; onlyA: number; onlyB: number } {
  const c = { same: 0, differ: 0, onlyA: 0, onlyB: 0 };
  for (const l of lines) {
    if (l.a && l.b) c[l.same ? "same" : "differ"]++;
    else if (l.a) c.onlyA++;
    else c.onlyB++;
  }
  return c;
}

/** JSON with object keys sorted, so two equal topologies give the same text whatever their key order. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (v && typeof v === "object") {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(v) ?? "null";
}

/**
 * A short fingerprint of a topology version (FNV-1a over its canonical JSON, node positions left
 * out since they do not change a run). Equal topologies give equal fingerprints.
 */
export function topologyFingerprint(t: Topology | null): string | null {
  if (!t) return null;
  const text = canonical({ ...t, layout: undefined });
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, "0");
}

export type TopologyComparison = {
  sameName: boolean;
  /** Both topologies known and equal (same fingerprint). */
  sameVersion: boolean;
  agentsOnlyA: string[];
  agentsOnlyB: string[];
  /** Edges as `from → to (kind)`. */
  edgesOnlyA: string[];
  edgesOnlyB: string[];
  /** Edges both have whose policy differs: `from → to: policyA → policyB`. */
  policyChanged: string[];
};

const edgeLabel = (e: Topology["edges"][number]) => `${e.from} → ${e.to} (${e.kind})`;
/** The policy as the topology file and the canvas write it (`fields(ticket,status)`), not its JSON. */
const policyText = (e: Topology["edges"][number]) => policyLabel(e.policy);

export function compareTopologies(a: Topology | null, b: Topology | null, nameA: string, nameB: string): TopologyComparison {
  const agentsA = new Set(a?.agents.map((x) => x.id) ?? []);
  const agentsB = new Set(b?.agents.map((x) => x.id) ?? []);
  const edgesA = new Map((a?.edges ?? []).map((e) => [edgeLabel(e), e]));
  const edgesB = new Map((b?.edges ?? []).map((e) => [edgeLabel(e), e]));
  const policyChanged: string[] = [];
  for (const [k, ea] of edgesA) {
    const eb = edgesB.get(k);
    if (eb && policyText(ea) !== policyText(eb)) policyChanged.push(`${ea.from} → ${ea.to}: ${policyText(ea)} → ${policyText(eb)}`);
  }
  const fa = topologyFingerprint(a);
  return {
    sameName: nameA === nameB,
    sameVersion: fa !== null && fa === topologyFingerprint(b),
    agentsOnlyA: [...agentsA].filter((x) => !agentsB.has(x)),
    agentsOnlyB: [...agentsB].filter((x) => !agentsA.has(x)),
    edgesOnlyA: [...edgesA.keys()].filter((k) => !edgesB.has(k)),
    edgesOnlyB: [...edgesB.keys()].filter((k) => !edgesA.has(k)),
    policyChanged,
  };
}

/** Whether two runs ended the same way and gave the same final answer (whitespace aside). */
export function compareEndings(a: RunSummary, b: RunSummary): { sameOutcome: boolean; sameAnswer: boolean } {
  const norm = (s: string | null) => (s ?? "").trim().replace(/\s+/g, " ");
  return { sameOutcome: a.outcome.status === b.outcome.status, sameAnswer: norm(a.final_output) === norm(b.final_output) };
}

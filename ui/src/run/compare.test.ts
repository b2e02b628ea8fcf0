// Comparing runs: transfers lined up by (from, to, occurrence), topology versions, endings.
import { describe, expect, it } from "vitest";
import { RECORDED_RUNS } from "../platform/mock-runs";
import type { Topology } from "../bindings/Topology";
import { alignTransfers, compareCounts, compareEndings, compareTopologies, topologyFingerprint, transferKeys } from "./compare";
import type { RunSummary, TransferBrief } from "./types";

const brief = (index: number, from: string, to: string, extra: Partial<TransferBrief> = {}): TransferBrief => ({
  index,
  step: index * 2 + 1,
  kind: "handoff",
  from,
  to,
  edge: `${from}->${to}`,
  policy: "full",
  carried: 1,
  transformed: 0,
  dropped: 0,
  added: 1,
  facts: [],
  ...extra,
});

const briefs = (run: string): TransferBrief[] =>
  RECORDED_RUNS[run]!.transfers.map((t, index) => ({
    index,
    step: t.step,
    kind: t.kind,
    from: t.from,
    to: t.to,
    edge: t.edge,
    policy: t.policy,
    carried: t.carried.length,
    transformed: t.transformed.length,
    dropped: t.dropped.length,
    added: t.added.length,
    facts: t.facts,
  }));

/** Lines as `key a/b` with each side's transfer index or `-`. */
const shape = (lines: ReturnType<typeof alignTransfers>) => lines.map((l) => `${l.key} ${l.a ? `T${l.a.index}` : "-"}/${l.b ? `T${l.b.index}` : "-"}`);

describe("lining transfers up", () => {
  it("keys a transfer by its route and how many times that route came before", () => {
    expect(transferKeys([brief(0, "a", "b"), brief(1, "b", "a"), brief(2, "a", "b")])).toEqual(["a→b#0", "b→a#0", "a→b#1"]);
  });

  it("matches the same route's n-th occurrence, not the same index", () => {
    // A: a→b, b→a, a→b; B: a→b, a→b, b→c. The second a→b is T2 in A and T1 in B; b→a is A's own,
    // b→c is B's own, after the last transfer both made.
    const a = [brief(0, "a", "b"), brief(1, "b", "a"), brief(2, "a", "b")];
    const b = [brief(0, "a", "b"), brief(1, "a", "b"), brief(2, "b", "c")];
    const lines = alignTransfers(a, b);
    expect(shape(lines)).toEqual(["a→b#0 T0/T0", "b→a#0 T1/-", "a→b#1 T2/T1", "b→c#0 -/T2"]);
    expect(compareCounts(lines)).toEqual({ same: 2, differ: 0, onlyA: 1, onlyB: 1 });
  });

  it("between two shared transfers, A's own come first, then B's own", () => {
    const a = [brief(0, "a", "b"), brief(1, "b", "x"), brief(2, "b", "c")];
    const b = [brief(0, "a", "b"), brief(1, "b", "y"), brief(2, "b", "c")];
    expect(shape(alignTransfers(a, b))).toEqual(["a→b#0 T0/T0", "b→x#0 T1/-", "b→y#0 -/T1", "b→c#0 T2/T2"]);
  });

  it("keeps every shared transfer matched even when the runs made them in another order", () => {
    const a = [brief(0, "x", "y"), brief(1, "y", "z")];
    const b = [brief(0, "y", "z"), brief(1, "x", "y"), brief(2, "q", "r")];
    // q→r comes after x→y in B; x→y is A's first line, so q→r follows it
    expect(shape(alignTransfers(a, b))).toEqual(["x→y#0 T0/T1", "q→r#0 -/T2", "y→z#0 T1/T0"]);
  });

  it("marks a shared transfer that differs (another policy, other counts or fact statuses)", () => {
    const a = [brief(0, "a", "b"), brief(1, "b", "c", { policy: "full" })];
    const b = [brief(0, "a", "b"), brief(1, "b", "c", { policy: "none", carried: 0, dropped: 3 })];
    const lines = alignTransfers(a, b);
    expect(lines.map((l) => l.same)).toEqual([true, false]);
    expect(compareCounts(lines)).toEqual({ same: 1, differ: 1, onlyA: 0, onlyB: 0 });
  });

  it("ticket-reopen against ticket-supervisor (the README's before and after): no transfer in common", () => {
    // examples/ticket-reopen.yaml hands off triage → resolution → verification;
    // examples/ticket-supervisor.yaml has the supervisor delegate to triage, resolution, verification.
    const lines = alignTransfers(briefs("ticket-reopen"), briefs("ticket-supervisor"));
    expect(shape(lines)).toEqual([
      "triage→resolution#0 T0/-",
      "resolution→verification#0 T1/-",
      "supervisor→triage#0 -/T0",
      "supervisor→resolution#0 -/T1",
      "supervisor→verification#0 -/T2",
    ]);
    expect(compareCounts(lines)).toEqual({ same: 0, differ: 0, onlyA: 2, onlyB: 3 });
  });

  it("a run against itself: every transfer the same", () => {
    const t = briefs("ticket-reopen");
    const lines = alignTransfers(t, t);
    expect(lines.map((l) => l.same)).toEqual([true, true]);
  });

  it("neither run made a transfer", () => {
    expect(alignTransfers([], [])).toEqual([]);
  });
});

describe("topology versions", () => {
  const reopen = RECORDED_RUNS["ticket-reopen"]!.topology as Topology;
  const supervisor = RECORDED_RUNS["ticket-supervisor"]!.topology as Topology;

  it("one fingerprint per version, whatever the key order or node positions", () => {
    const shuffled = Object.fromEntries(Object.entries(reopen).reverse()) as Topology;
    const moved: Topology = { ...reopen, layout: { triage: { x: 1, y: 2 } } };
    expect(topologyFingerprint(reopen)).toMatch(/^[0-9a-f]{8}$/);
    expect(topologyFingerprint(shuffled)).toBe(topologyFingerprint(reopen));
    expect(topologyFingerprint(moved)).toBe(topologyFingerprint(reopen));
    const edited: Topology = { ...reopen, edges: reopen.edges.map((e, i) => (i === 1 ? { ...e, policy: "full" } : e)) };
    expect(topologyFingerprint(edited)).not.toBe(topologyFingerprint(reopen));
    expect(topologyFingerprint(null)).toBeNull();
  });

  it("a policy changed on one edge", () => {
    const edited: Topology = { ...reopen, edges: reopen.edges.map((e, i) => (i === 1 ? { ...e, policy: "full" } : e)) };
    const c = compareTopologies(reopen, edited, "ticket-reopen", "ticket-reopen");
    expect(c).toMatchObject({ sameName: true, sameVersion: false, agentsOnlyA: [], agentsOnlyB: [], edgesOnlyA: [], edgesOnlyB: [] });
    expect(c.policyChanged).toHaveLength(1);
    expect(c.policyChanged[0]).toBe("resolution → verification: fields(ticket,status) → full");
  });

  it("ticket-reopen against ticket-supervisor: the supervisor is new, handoffs became delegations", () => {
    const c = compareTopologies(reopen, supervisor, "ticket-reopen", "ticket-supervisor");
    expect(c.sameName).toBe(false);
    expect(c.sameVersion).toBe(false);
    expect(c.agentsOnlyA).toEqual([]);
    expect(c.agentsOnlyB).toEqual(["supervisor"]);
    expect(c.edgesOnlyA).toEqual(["triage → resolution (handoff)", "resolution → verification (handoff)"]);
    expect(c.edgesOnlyB).toEqual(["supervisor → triage (delegation)", "supervisor → resolution (delegation)", "supervisor → verification (delegation)"]);
  });
});

describe("endings", () => {
  const summary = (status: RunSummary["outcome"]["status"], final_output: string | null) =>
    ({ outcome: { status, reason: "" }, final_output }) as RunSummary;

  it("ticket-reopen and ticket-supervisor both complete, with different answers", () => {
    const a = RECORDED_RUNS["ticket-reopen"]!.summary;
    const b = RECORDED_RUNS["ticket-supervisor"]!.summary;
    expect(compareEndings(a, b)).toEqual({ sameOutcome: true, sameAnswer: false });
  });

  it("the same answer up to whitespace", () => {
    expect(compareEndings(summary("completed", "Done.\n"), summary("stopped", " Done."))).toEqual({ sameOutcome: false, sameAnswer: true });
  });
});

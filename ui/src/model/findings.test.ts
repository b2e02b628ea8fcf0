// Finding text (backtick runs) and the fixes the Problems panel applies. The messages are the
// ones the lint rules write (src/lint/rules/*.rs), the topologies small ones a person can read.
import { describe, expect, it } from "vitest";
import type { Finding, Topology } from "./types";
import { FIXABLE, findingFix, messageRuns } from "./findings";

const finding = (code: Finding["code"], message: string, agents: string[] = [], edges: string[] = []): Finding => ({
  code,
  severity: "error",
  message,
  agents,
  edges,
});

function two(): Topology {
  return {
    version: 1,
    name: "t",
    entry: "gone",
    agents: [
      { id: "triage", name: "Triage", model: { provider: "mock", name: "mock" } },
      { id: "billing", name: "Billing", model: null },
      { id: "human", name: "Human Agent", kind: "human", model: null },
    ],
    edges: [
      { id: "triage->billing", kind: "handoff", from: "triage", to: "billing" },
      { id: "triage->ghost", kind: "handoff", from: "triage", to: "ghost" },
      { id: "billing->human", kind: "delegation", from: "billing", to: "human" },
      { id: "human->triage", kind: "handoff", from: "human", to: "triage" },
    ],
    guards: { max_turns: 10, max_handoffs: 0, on_revisit: "escalate" },
    layout: { triage: { x: 0, y: 0 }, billing: { x: 300, y: 40 } },
  };
}

describe("finding text", () => {
  it("splits `code` from text, as missing-entry writes it", () => {
    expect(messageRuns("the entry agent 'x' does not exist; set `entry` to one of the agents' ids")).toEqual([
      { text: "the entry agent 'x' does not exist; set ", code: false },
      { text: "entry", code: true },
      { text: " to one of the agents' ids", code: false },
    ]);
  });

  it("keeps an unpaired backtick and empty pairs as text", () => {
    expect(messageRuns("a `b")).toEqual([{ text: "a `b", code: false }]);
    expect(messageRuns("x `` y `z`")).toEqual([
      { text: "x `` y ", code: false },
      { text: "z", code: true },
    ]);
    expect(messageRuns("Set `model: {provider, name}`")).toEqual([
      { text: "Set ", code: false },
      { text: "model: {provider, name}", code: true },
    ]);
  });
});

describe("fixes", () => {
  it("missing-entry: the one agent nothing leads to becomes the entry", () => {
    const t = two();
    const fix = findingFix(t, finding("missing-entry", "the entry agent 'gone' does not exist", ["gone"]));
    expect(fix?.kind).toBe("choose-entry");
    // Every agent has an incoming edge (the human hands back to triage): the agents with a model are offered.
    expect(fix?.kind === "choose-entry" && fix.candidates).toEqual(["triage", "billing"]);
    const noLoop: Topology = { ...t, edges: t.edges.filter((e) => e.id !== "human->triage") };
    const one = findingFix(noLoop, finding("missing-entry", "", ["gone"]));
    expect(one?.label).toBe("Make Triage the entry");
    expect(one?.kind === "edit" && one.apply(noLoop).entry).toBe("triage");
  });

  it("missing-agent and human-outgoing-edge: delete the edge the finding names", () => {
    const t = two();
    const fix = findingFix(t, finding("missing-agent", "the handoff triage → ghost names agent(s) that do not exist: ghost", ["ghost"], ["triage->ghost"]));
    expect(fix?.label).toBe("Delete the edge");
    expect(fix?.kind === "edit" && fix.apply(t).edges.map((e) => e.id)).toEqual(["triage->billing", "billing->human", "human->triage"]);
    const h = findingFix(t, finding("human-outgoing-edge", "", ["human"], ["human->triage"]));
    expect(h?.kind === "edit" && h.apply(t).edges.some((e) => e.id === "human->triage")).toBe(false);
  });

  it("delegation-to-human becomes a handoff; missing-model gets the mock model", () => {
    const t = two();
    const d = findingFix(t, finding("delegation-to-human", "", ["billing", "human"], ["billing->human"]));
    expect(d?.kind === "edit" && d.apply(t).edges.find((e) => e.id === "billing->human")?.kind).toBe("handoff");
    const m = findingFix(t, finding("missing-model", "Billing has no model", ["billing"]));
    expect(m?.kind === "edit" && m.apply(t).agents.find((a) => a.id === "billing")?.model).toEqual({ provider: "mock", name: "mock" });
  });

  it("escalate-without-human points escalate_to at the human, or adds one", () => {
    const t = two();
    const f = finding("escalate-without-human", "guards.on_revisit is escalate but there is no human agent");
    const fix = findingFix(t, f);
    expect(fix?.label).toBe("Escalate to Human Agent");
    expect(fix?.kind === "edit" && fix.apply(t).guards.escalate_to).toBe("human");
    const noHuman: Topology = { ...t, agents: t.agents.filter((a) => a.kind !== "human") };
    const add = findingFix(noHuman, f);
    const after = add?.kind === "edit" ? add.apply(noHuman) : noHuman;
    const human = after.agents.find((a) => a.kind === "human");
    expect(human).toBeDefined();
    expect(after.guards.escalate_to).toBe(human?.id);
  });

  it("zero-limit: max_handoffs 0 is removed, last_n 0 becomes none, max_turns 0 has no exact fix", () => {
    const t = two();
    const h = findingFix(t, finding("zero-limit", "guards.max_handoffs is 0: the first handoff stops the run; remove it or allow at least one"));
    expect(h?.kind === "edit" && h.apply(t).guards.max_handoffs).toBeNull();
    const n = findingFix(t, finding("zero-limit", "the handoff Triage → Billing keeps the last 0 items", ["triage", "billing"], ["triage->billing"]));
    expect(n?.kind === "edit" && n.apply(t).edges[0]?.policy).toBe("none");
    expect(findingFix(t, finding("zero-limit", "guards.max_turns is 0: no model call can run"))).toBeNull();
  });

  it("verify-handoff offers the supervisor refactor of its edge; other rules have no fix", () => {
    const t = two();
    expect(findingFix(t, finding("verify-handoff", "", ["billing"], ["triage->billing"]))).toEqual({ kind: "refactor", label: "Refactor to a supervisor", edges: ["triage->billing"] });
    // ticket-reopen's chain: triage → resolution → verification, flagged at its last edge.
    const chain: Topology = {
      ...t,
      entry: "triage",
      agents: [{ id: "triage", name: "Triage" }, { id: "resolution", name: "Resolution" }, { id: "verification", name: "Verification" }],
      edges: [
        { id: "triage->resolution", kind: "handoff", from: "triage", to: "resolution" },
        { id: "resolution->verification", kind: "handoff", from: "resolution", to: "verification", acceptance: "verify" },
      ],
    };
    expect(findingFix(chain, finding("verify-handoff", "", ["verification"], ["resolution->verification"]))).toMatchObject({ edges: ["triage->resolution", "resolution->verification"] });
    // A fact that cannot cross the fields handoff: the same refactor (the supervisor keeps the fact).
    expect(findingFix(chain, finding("fact-cannot-cross", "", ["resolution", "verification"], ["resolution->verification"]))).toMatchObject({ kind: "refactor" });
    for (const code of ["handoff-cycle", "unreachable-agent", "duplicate-tool", "script-unknown-tool"] as const) {
      expect(findingFix(t, finding(code, "", ["triage"], ["triage->billing"]))).toBeNull();
      expect(FIXABLE as readonly string[]).not.toContain(code);
    }
  });
});

import { describe, expect, it } from "vitest";
import {
  addAgent,
  addEdge,
  checkAgentId,
  defaultToolName,
  edgeLabel,
  longestHandoffChain,
  normalizeTopology,
  orderChain,
  policyChoice,
  policyFor,
  policyLabel,
  removeAgents,
  renameAgent,
  setAgentKind,
  setEdgeKind,
  uniqueEdgeId,
} from "./topology";
import type { Topology } from "./types";

function topo(): Topology {
  return {
    version: 1,
    name: "t",
    entry: "a",
    agents: [
      { id: "a", name: "Alpha", model: { provider: "mock", name: "mock" } },
      { id: "b", name: "Billing Desk", model: { provider: "mock", name: "mock" } },
      { id: "c", name: "Charlie", kind: "human", model: null },
    ],
    edges: [
      { kind: "handoff", from: "a", to: "b" },
      { kind: "handoff", from: "a", to: "b" },
      { id: "custom", kind: "handoff", from: "b", to: "c" },
    ],
    facts: [{ id: "f", text: "x", holders: ["b"] }],
    guards: { max_turns: 10, on_revisit: "escalate", escalate_to: "c" },
    scenarios: [{ name: "s", input: "hi", scripts: { b: [] } }],
    layout: { a: { x: 0, y: 0 }, b: { x: 300, y: 0 } },
  };
}

describe("edge ids", () => {
  it("fills missing ids like the backend: from->to, then #2", () => {
    const t = normalizeTopology(topo());
    expect(t.edges.map((e) => e.id)).toEqual(["a->b", "a->b#2", "custom"]);
  });

  it("gives new edges a unique id in the same scheme", () => {
    const t = normalizeTopology(topo());
    expect(uniqueEdgeId(t, "a", "b")).toBe("a->b#3");
    expect(uniqueEdgeId(t, "b", "a")).toBe("b->a");
    const [next, id] = addEdge(t, "c", "a", "delegation");
    expect(id).toBe("c->a");
    expect(next.edges.at(-1)).toEqual({ id: "c->a", kind: "delegation", from: "c", to: "a" });
  });

  it("leaves an already normalised topology untouched (same object)", () => {
    const t = normalizeTopology(topo());
    expect(normalizeTopology(t)).toBe(t);
  });
});

describe("agents", () => {
  it("adds agents with unique ids and names, humans without a model", () => {
    let t = topo();
    let id;
    [t, id] = addAgent(t, { kind: "agent", position: { x: 5, y: 6 } });
    expect(id).toBe("agent");
    [t, id] = addAgent(t, { kind: "agent" });
    expect(id).toBe("agent-2");
    expect(t.agents.at(-1)?.name).toBe("Agent 2");
    [t, id] = addAgent(t, { kind: "human" });
    expect(t.agents.at(-1)).toMatchObject({ id: "human", kind: "human", model: null });
    expect(t.layout?.agent).toEqual({ x: 5, y: 6 });
  });

  it("makes the first agent of an empty topology the entry", () => {
    const empty: Topology = { ...topo(), agents: [], edges: [], entry: "" };
    const [t, id] = addAgent(empty);
    expect(t.entry).toBe(id);
  });

  it("renames an id everywhere, including default edge ids, but keeps custom edge ids", () => {
    const t = renameAgent(normalizeTopology(topo()), "b", "billing");
    expect(t.agents.map((a) => a.id)).toEqual(["a", "billing", "c"]);
    expect(t.edges.map((e) => [e.id, e.from, e.to])).toEqual([
      ["a->billing", "a", "billing"],
      ["a->billing#2", "a", "billing"],
      ["custom", "billing", "c"],
    ]);
    expect(t.facts?.[0]?.holders).toEqual(["billing"]);
    expect(t.layout?.billing).toEqual({ x: 300, y: 0 });
    expect(t.layout?.b).toBeUndefined();
    expect(Object.keys(t.scenarios?.[0]?.scripts ?? {})).toEqual(["billing"]);
    const t2 = renameAgent(t, "a", "entry");
    expect(t2.entry).toBe("entry");
    const t3 = renameAgent(t2, "c", "person");
    expect(t3.guards.escalate_to).toBe("person");
  });

  it("refuses a rename to a taken, empty or malformed id", () => {
    const t = topo();
    expect(checkAgentId(t, "a", "b")).toEqual({ ok: false, reason: "'b' is taken." });
    expect(checkAgentId(t, "a", "").ok).toBe(false);
    expect(checkAgentId(t, "a", "has space").ok).toBe(false);
    expect(checkAgentId(t, "a", "alpha_1").ok).toBe(true);
    expect(renameAgent(t, "a", "b")).toBe(t);
  });

  it("deletes agents with their edges, layout, holders, scripts and guard references", () => {
    const t = removeAgents(normalizeTopology(topo()), ["b", "c"]);
    expect(t.agents.map((a) => a.id)).toEqual(["a"]);
    expect(t.edges).toEqual([]);
    expect(t.layout).toEqual({ a: { x: 0, y: 0 } });
    expect(t.facts?.[0]?.holders).toEqual([]);
    expect(t.scenarios?.[0]?.scripts).toEqual({});
    expect(t.guards.escalate_to).toBeNull();
    const t2 = removeAgents(t, ["a"]);
    expect(t2.entry).toBe("");
  });

  it("changing kind to human drops the model, and back gives a mock one", () => {
    const a = topo().agents[0]!;
    const h = setAgentKind(a, "human");
    expect(h.model).toBeNull();
    expect(setAgentKind(h, "supervisor").model).toEqual({ provider: "mock", name: "mock" });
  });
});

describe("labels", () => {
  it("formats policies as the backend does", () => {
    expect(policyLabel(undefined)).toBe("full");
    expect(policyLabel("remove_tools")).toBe("remove_tools");
    expect(policyLabel({ last_n: 3 })).toBe("last_n(3)");
    expect(policyLabel({ fields: [{ name: "ticket", type: "string" }, { name: "status", type: "string" }] })).toBe(
      "fields(ticket,status)",
    );
  });

  it("labels handoffs with their policy and delegations as delegates", () => {
    expect(edgeLabel({ kind: "handoff", from: "a", to: "b", policy: { last_n: 3 } })).toBe("handoff · last_n(3)");
    expect(edgeLabel({ kind: "handoff", from: "a", to: "b" })).toBe("handoff · full");
    expect(edgeLabel({ kind: "delegation", from: "a", to: "b", policy: "none" })).toBe("delegates");
  });

  it("derives default tool names like the SDK", () => {
    const t = topo();
    expect(defaultToolName(t, { kind: "handoff", to: "b" })).toBe("transfer_to_billing_desk");
    expect(defaultToolName(t, { kind: "delegation", to: "b" })).toBe("billing_desk");
  });

  it("switches policies keeping parameters that fit", () => {
    expect(policyFor("last_n", "full")).toEqual({ last_n: 3 });
    expect(policyFor("last_n", { last_n: 7 })).toEqual({ last_n: 7 });
    expect(policyFor("none", { last_n: 7 })).toBe("none");
    expect(policyChoice({ fields: [] })).toBe("fields");
  });

  it("a delegation carries no policy", () => {
    const e = setEdgeKind({ kind: "handoff", from: "a", to: "b", policy: "none" }, "delegation");
    expect(e).toEqual({ kind: "delegation", from: "a", to: "b" });
  });
});

describe("chains", () => {
  const chainTopo = (): Topology =>
    normalizeTopology({
      ...topo(),
      edges: [
        { kind: "handoff", from: "a", to: "b" },
        { kind: "handoff", from: "b", to: "c" },
        { kind: "delegation", from: "a", to: "c" },
      ],
    });

  it("finds the longest handoff chain from the entry", () => {
    expect(longestHandoffChain(chainTopo())).toEqual(["a->b", "b->c"]);
  });

  it("orders selected edges into a chain, and rejects non-chains", () => {
    const t = chainTopo();
    expect(orderChain(t, ["b->c", "a->b"])).toEqual(["a->b", "b->c"]);
    expect(orderChain(t, ["a->c"])).toBeNull();
    expect(orderChain(t, ["nope"])).toBeNull();
  });
});

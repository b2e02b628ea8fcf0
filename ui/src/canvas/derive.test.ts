import { describe, expect, it } from "vitest";
import { normalizeTopology } from "../model/topology";
import { FIXTURES } from "../platform/fixtures";
import { createFlowDeriver, deriveFlow } from "./derive";
import { lintMarks } from "./lint";

describe("canvas derivation", () => {
  const t = normalizeTopology(FIXTURES["handoff-loop.yaml"]!);

  it("one node per agent, typed by kind, entry marked", () => {
    const { nodes } = deriveFlow(t, { agents: ["billing"], edges: [] }, [], {});
    expect(nodes.map((n) => [n.id, n.type])).toEqual([
      ["triage", "agent"],
      ["billing", "agent"],
      ["technical", "agent"],
      ["human", "human"],
    ]);
    expect(nodes.find((n) => n.id === "triage")?.data.isEntry).toBe(true);
    expect(nodes.find((n) => n.id === "billing")?.selected).toBe(true);
  });

  it("edges are typed by kind, labelled, and carry the worst finding", () => {
    const findings = [
      { code: "handoff-cycle" as const, severity: "warning" as const, message: "", agents: ["billing", "technical"], edges: ["billing->technical"] },
      { code: "missing-model" as const, severity: "error" as const, message: "", agents: ["billing"], edges: [] },
    ];
    const { nodes, edges } = deriveFlow(t, { agents: [], edges: [] }, findings, {});
    const e = edges.find((x) => x.id === "billing->technical");
    expect(e?.type).toBe("handoff");
    expect(e?.data?.label).toBe("handoff · full");
    expect(e?.data?.lint?.severity).toBe("warning");
    expect(nodes.find((n) => n.id === "billing")?.data.lint).toEqual({ severity: "error", count: 2, codes: ["handoff-cycle", "missing-model"] });
    expect(nodes.find((n) => n.id === "triage")?.data.lint).toBeNull();
  });

  it("fans out parallel edges between the same two agents", () => {
    const twice = normalizeTopology({
      ...t,
      edges: [...t.edges, { kind: "delegation", from: "billing", to: "technical" }],
    });
    const { edges } = deriveFlow(twice, { agents: [], edges: [] }, [], {});
    const par = edges.filter((e) => e.source === "billing" && e.target === "technical").map((e) => e.data?.parallel);
    expect(par).toEqual([-0.5, 0.5]);
    expect(edges.find((e) => e.id === "billing->technical#2")?.type).toBe("delegation");
  });

  it("lint marks index findings by agent and edge", () => {
    const m = lintMarks([{ code: "missing-model", severity: "info", message: "", agents: ["a"], edges: ["e"] }]);
    expect(m.agents.get("a")?.severity).toBe("info");
    expect(m.edges.get("e")?.count).toBe(1);
  });

  it("puts the backend's fact flow on its edges, and nothing on the others", () => {
    const t = normalizeTopology(FIXTURES["ticket-reopen.yaml"]!);
    const factFlow = [{ edge: "resolution->verification", facts: [{ fact: "resolved-meaning", crossing: "blocked" as const }] }];
    const { edges } = deriveFlow(t, { agents: [], edges: [] }, [], {}, { factFlow });
    expect(edges.find((e) => e.id === "resolution->verification")?.data?.facts).toEqual([{ fact: "resolved-meaning", crossing: "blocked" }]);
    expect(edges.find((e) => e.id === "triage->resolution")?.data?.facts).toBeUndefined();
  });

  it("a deriver keeps unchanged nodes and edges the same objects, and renews what changed", () => {
    const derive = createFlowDeriver();
    const sizes = { triage: { width: 240, height: 96 } };
    const finding = { code: "missing-model" as const, severity: "error" as const, message: "", agents: ["billing"], edges: ["billing->technical"] };
    const a = derive(t, { agents: [], edges: [] }, [finding], sizes);
    // Select one agent: only its node is new.
    const b = derive(t, { agents: ["technical"], edges: [] }, [{ ...finding }], sizes);
    expect(b.nodes.filter((n, i) => n !== a.nodes[i]).map((n) => n.id)).toEqual(["technical"]);
    expect(b.nodes.find((n) => n.id === "technical")?.selected).toBe(true);
    expect(b.edges.every((e, i) => e === a.edges[i])).toBe(true);
    // Select an edge, move an agent, measure another: those, and nothing else.
    const moved = { ...t, layout: { ...t.layout, human: { x: 999, y: 9 } } };
    const c = derive(moved, { agents: ["technical"], edges: ["billing->technical"] }, [finding], { ...sizes, billing: { width: 250, height: 100 } });
    expect(c.nodes.filter((n, i) => n !== b.nodes[i]).map((n) => n.id).sort()).toEqual(["billing", "human"]);
    expect(c.nodes.find((n) => n.id === "billing")?.measured).toEqual({ width: 250, height: 100 });
    expect(c.edges.filter((e, i) => e !== b.edges[i]).map((e) => e.id)).toEqual(["billing->technical"]);
    // A finding gone: its marks go, on a new node and edge.
    const d = derive(moved, { agents: ["technical"], edges: ["billing->technical"] }, [], { ...sizes, billing: { width: 250, height: 100 } });
    expect(d.nodes.find((n) => n.id === "billing")?.data.lint).toBeNull();
    expect(d.edges.find((e) => e.id === "billing->technical")?.data?.lint).toBeNull();
    expect(d.nodes.filter((n, i) => n !== c.nodes[i]).map((n) => n.id)).toEqual(["billing"]);
    // The same answer as deriveFlow's.
    expect(d).toEqual(deriveFlow(moved, { agents: ["technical"], edges: ["billing->technical"] }, [], { ...sizes, billing: { width: 250, height: 100 } }));
  });

  it("a large drawing's agents not yet measured come with the default card's size and handles; a small one's do not", () => {
    const agents = Array.from({ length: 200 }, (_, i) => ({ id: `a${i}`, name: `Agent ${i}`, instructions: "", model: { provider: "mock" as const, name: "mock" } }));
    const big = normalizeTopology({ ...t, agents, entry: "a0", edges: [{ kind: "handoff", from: "a0", to: "a1" }], facts: [], guardrails: [] });
    const { nodes } = deriveFlow(big, { agents: [], edges: [] }, [], { a1: { width: 250, height: 120 } });
    const a0 = nodes.find((n) => n.id === "a0")!;
    expect(a0.measured).toEqual({ width: 232, height: 100 });
    expect(a0.handles?.map((h) => [h.type, h.position, h.x, h.y])).toEqual([
      ["target", "left", -5.5, 44.5],
      ["source", "right", 226.5, 44.5],
    ]);
    // Measured: its own size, and React Flow's own handles.
    const a1 = nodes.find((n) => n.id === "a1")!;
    expect(a1.measured).toEqual({ width: 250, height: 120 });
    expect(a1.handles).toBeUndefined();
    const small = deriveFlow(t, { agents: [], edges: [] }, [], {});
    expect(small.nodes.every((n) => n.handles === undefined && n.measured === undefined)).toBe(true);
  });
});

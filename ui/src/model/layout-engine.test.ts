// The layout engine: small graphs go to ELK with the designer's options, large ones to the
// breadth-first layering (every agent placed, one layer right of who reaches it first, no
// overlaps, separate parts stacked), and the main-thread fallback where there is no Worker.
import { describe, expect, it } from "vitest";
import { FIXTURES } from "../platform/fixtures";
import { computeLayout, elkGraph, isLarge, LARGE_GRAPH, layeredLayout, type ElkLike, type LayoutRequest } from "./layout-engine";
import { autoLayout, layoutRequest } from "./layout";
import { normalizeTopology } from "./topology";

/** The shape of ui/bench/fixtures.mjs's scale topology: a chain, a delegation two ahead, a handoff ten back. */
function scale(n: number): LayoutRequest {
  const nodes = Array.from({ length: n }, (_, i) => ({ id: `a${i}`, width: 240, height: 96 }));
  const edges: LayoutRequest["edges"] = [];
  for (let i = 0; i < n; i++) {
    for (const to of [(i + 1) % n, (i + 2) % n, (i + n - 10) % n]) {
      if (to !== i) edges.push({ id: `a${i}->a${to}`, from: `a${i}`, to: `a${to}`, label: { text: "handoff · full", width: 120, height: 26 } });
    }
  }
  return { nodes, edges };
}

const size = { width: 240, height: 96 };
const overlaps = (a: { x: number; y: number }, b: { x: number; y: number }) =>
  a.x < b.x + size.width && b.x < a.x + size.width && a.y < b.y + size.height && b.y < a.y + size.height;

describe("layout engine", () => {
  it("sends small graphs to ELK with the options the designer always used, large ones to the layering", async () => {
    const small = layoutRequest(normalizeTopology(FIXTURES["ticket-reopen.yaml"]!));
    expect(isLarge(small)).toBe(false);
    expect(isLarge(scale(LARGE_GRAPH.nodes + 1))).toBe(true);
    const g = elkGraph(small);
    expect(g.layoutOptions["elk.edgeRouting"]).toBe("SPLINES");
    expect(g.layoutOptions["elk.layered.nodePlacement.strategy"]).toBe("BRANDES_KOEPF");
    expect(g.edges.every((e) => e.labels.length === 1 && e.labels[0]!.width > 0)).toBe(true);
    const asked: string[] = [];
    const fakeElk: ElkLike = {
      layout: async (graph) => {
        asked.push(graph.id);
        return { children: graph.children.map((c, i) => ({ id: c.id, x: i * 10.4, y: 3.6 })) };
      },
    };
    const s = await computeLayout(small, async () => fakeElk);
    expect(s.engine).toBe("elk");
    expect(s.positions[small.nodes[1]!.id]).toEqual({ x: 10, y: 4 });
    const l = await computeLayout(scale(400), async () => fakeElk);
    expect(l.engine).toBe("layers");
    expect(asked).toEqual(["root"]);
  });

  it("layers a 1,000-agent graph from the entry: every agent placed, one layer right of who reaches it first, no overlaps", () => {
    const r = scale(1000);
    const p = layeredLayout(r);
    expect(Object.keys(p)).toHaveLength(1000);
    const xs = [...new Set(Object.values(p).map((q) => q.x))].sort((a, b) => a - b);
    expect(xs.length).toBeGreaterThan(20);
    expect(p.a0!.x).toBe(xs[0]);
    // a0 is the only agent in the first layer; a1 (its handoff) in the second.
    expect(Object.values(p).filter((q) => q.x === xs[0])).toHaveLength(1);
    expect(p.a1!.x).toBe(xs[1]);
    // No two cards of one layer overlap.
    const byX = new Map<number, { x: number; y: number }[]>();
    for (const q of Object.values(p)) byX.set(q.x, [...(byX.get(q.x) ?? []), q]);
    for (const col of byX.values()) {
      const sorted = [...col].sort((a, b) => a.y - b.y);
      for (let i = 1; i < sorted.length; i++) expect(overlaps(sorted[i - 1]!, sorted[i]!)).toBe(false);
    }
  });

  it("stacks separate parts below one another, the entry's first, and places loose agents", () => {
    const r: LayoutRequest = {
      nodes: ["e", "b", "x", "y", "lone"].map((id) => ({ id, ...size })),
      edges: [
        { id: "1", from: "e", to: "b", label: { text: "", width: 60, height: 26 } },
        { id: "2", from: "x", to: "y", label: { text: "", width: 60, height: 26 } },
        { id: "3", from: "y", to: "y", label: { text: "", width: 60, height: 26 } },
        { id: "4", from: "y", to: "ghost", label: { text: "", width: 60, height: 26 } },
      ],
    };
    const p = layeredLayout(r);
    expect(p.e!.x).toBeLessThan(p.b!.x);
    expect(p.x!.x).toBeLessThan(p.y!.x);
    expect(p.x!.y).toBeGreaterThan(p.e!.y + size.height);
    expect(p.lone!.y).toBeGreaterThan(p.x!.y + size.height);
    // An agent that only hands to the part already laid out goes one layer left of it (not left of 0).
    const q = layeredLayout({ nodes: ["e", "b", "c"].map((id) => ({ id, ...size })), edges: [
      { id: "1", from: "e", to: "b", label: { text: "", width: 60, height: 26 } },
      { id: "2", from: "c", to: "b", label: { text: "", width: 60, height: 26 } },
    ] });
    expect(q.c!.x).toBe(q.e!.x);
  });

  it("lays out on the main thread where there is no Worker (here), entry first", async () => {
    expect(typeof Worker === "undefined" || typeof Worker === "function").toBe(true);
    const t = normalizeTopology(FIXTURES["ticket-reopen.yaml"]!);
    const p = await autoLayout(t);
    expect(Object.keys(p).sort()).toEqual(t.agents.map((a) => a.id).sort());
    const minX = Math.min(...Object.values(p).map((q) => q.x));
    expect(p[t.entry]!.x).toBe(minX);
  });
});

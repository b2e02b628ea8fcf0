// The layout computation itself, shared by the layout worker (layout.worker.ts) and the
// main-thread fallback (layout.ts, where there is no Worker): a plain graph in, positions out.
// Small graphs go to ELK's layered algorithm (splines, label room, Brandes-Köpf); large ones to
// a breadth-first layering of our own, linear in the graph's size: ELK layered took 23 s on the
// generated 1,000-agent, 3,000-edge topology (its long back edges become ~20,000 dummy nodes;
// ~2.5 s even with polyline routing, longest-path layering, no crossing minimisation and only
// the edges between adjacent layers), and the bound is 1 s.
import type { Position } from "./types";

export type LayoutNode = { id: string; width: number; height: number };
export type LayoutEdge = { id: string; from: string; to: string; label: { text: string; width: number; height: number } };
/** `nodes` in model order with the entry first (it goes in the first layer). */
export type LayoutRequest = { nodes: LayoutNode[]; edges: LayoutEdge[] };
export type LayoutEngine = "elk" | "layers";
export type LayoutResult = { positions: Record<string, Position>; engine: LayoutEngine };

type ElkGraph = {
  id: string;
  layoutOptions: Record<string, string>;
  children: { id: string; width: number; height: number }[];
  edges: { id: string; sources: string[]; targets: string[]; labels: { text: string; width: number; height: number }[] }[];
};
type ElkOut = { children?: { id: string; x?: number; y?: number }[] };
export type ElkLike = { layout(g: ElkGraph): Promise<ElkOut> };

/** Above either size a graph is laid out by `layeredLayout`, not ELK. */
export const LARGE_GRAPH = { nodes: 150, edges: 450 } as const;

export function isLarge(r: LayoutRequest): boolean {
  return r.nodes.length > LARGE_GRAPH.nodes || r.edges.length > LARGE_GRAPH.edges;
}

/** The edges a layout considers: between two known, distinct agents. */
function usable(r: LayoutRequest): LayoutEdge[] {
  const ids = new Set(r.nodes.map((n) => n.id));
  return r.edges.filter((e) => ids.has(e.from) && ids.has(e.to) && e.from !== e.to);
}

export function elkGraph(r: LayoutRequest): ElkGraph {
  return {
    id: "root",
    layoutOptions: {
      "elk.algorithm": "layered",
      "elk.direction": "RIGHT",
      "elk.edgeRouting": "SPLINES",
      "elk.layered.spacing.nodeNodeBetweenLayers": "36",
      "elk.layered.spacing.edgeNodeBetweenLayers": "24",
      "elk.edgeLabels.placement": "CENTER",
      "elk.spacing.edgeLabel": "6",
      "elk.spacing.nodeNode": "72",
      "elk.layered.considerModelOrder.strategy": "NODES_AND_EDGES",
      "elk.layered.cycleBreaking.strategy": "MODEL_ORDER",
      "elk.layered.nodePlacement.strategy": "BRANDES_KOEPF",
      "elk.separateConnectedComponents": "true",
      "elk.spacing.componentComponent": "80",
    },
    children: r.nodes.map((n) => ({ id: n.id, width: n.width, height: n.height })),
    // Each edge's label reserves its room, so only the gaps with long labels grow.
    edges: usable(r).map((e) => ({ id: e.id, sources: [e.from], targets: [e.to], labels: [e.label] })),
  };
}

export async function elkLayout(r: LayoutRequest, elk: ElkLike): Promise<Record<string, Position>> {
  const out = await elk.layout(elkGraph(r));
  const positions: Record<string, Position> = {};
  for (const c of out.children ?? []) positions[c.id] = { x: Math.round(c.x ?? 0), y: Math.round(c.y ?? 0) };
  return positions;
}

/** Spacing of `layeredLayout`, close to ELK's look: room between layers for the edge labels. */
const PAD = 12;
const NODE_GAP = 48;
const COMPONENT_GAP = 80;
const MIN_LAYER_GAP = 96;
const MAX_LAYER_GAP = 240;
const SWEEPS = 4;

/**
 * Layers by breadth-first distance from the entry (then from the first agent, in model order,
 * of each part it does not reach), so every agent sits one layer right of the nearest agent that
 * hands to it; agents ordered within a layer by the barycentre of their neighbours in the
 * adjacent layers (a few sweeps each way), each layer's column centred; separate parts stacked
 * below one another. Linear in nodes + edges (times the sweeps, plus a sort per layer).
 */
export function layeredLayout(r: LayoutRequest): Record<string, Position> {
  const n = r.nodes.length;
  const index = new Map(r.nodes.map((node, i) => [node.id, i]));
  const out: number[][] = Array.from({ length: n }, () => []);
  const nbr: number[][] = Array.from({ length: n }, () => []);
  // Components (union-find).
  const parent = Array.from({ length: n }, (_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!;
      i = parent[i]!;
    }
    return i;
  };
  let widest = 0;
  for (const e of usable(r)) {
    const a = index.get(e.from)!;
    const b = index.get(e.to)!;
    out[a]!.push(b);
    nbr[a]!.push(b);
    nbr[b]!.push(a);
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
    widest = Math.max(widest, e.label.width);
  }
  const layerGap = Math.min(MAX_LAYER_GAP, Math.max(MIN_LAYER_GAP, widest + 40));
  const comps = new Map<number, number[]>();
  for (let i = 0; i < n; i++) {
    const c = find(i);
    const list = comps.get(c);
    if (list) list.push(i);
    else comps.set(c, [i]);
  }

  const positions: Record<string, Position> = {};
  let top = PAD;
  // Map keys are in insertion order: the entry's part first, then by first agent.
  for (const members of comps.values()) {
    const depth = new Map<number, number>();
    const order: number[] = [];
    for (const root of members) {
      if (depth.has(root)) continue;
      let d = Infinity;
      for (const v of out[root]!) if (depth.has(v)) d = Math.min(d, depth.get(v)! - 1);
      depth.set(root, Number.isFinite(d) ? Math.max(0, d) : 0);
      order.push(root);
      for (let k = order.length - 1; k < order.length; k++) {
        const u = order[k]!;
        for (const v of out[u]!) {
          if (depth.has(v)) continue;
          depth.set(v, depth.get(u)! + 1);
          order.push(v);
        }
      }
    }
    const layers: number[][] = [];
    for (const u of order) (layers[depth.get(u)!] ??= []).push(u);
    const pos = new Map<number, number>();
    const renumber = (layer: number[]) => layer.forEach((u, i) => pos.set(u, i));
    for (const l of layers) if (l) renumber(l);
    const sweep = (l: number[], side: number) => {
      const key = new Map<number, number>();
      for (const u of l) {
        let sum = 0;
        let count = 0;
        for (const v of nbr[u]!) {
          if (depth.get(v) === side) {
            sum += pos.get(v)!;
            count++;
          }
        }
        key.set(u, count ? sum / count : pos.get(u)!);
      }
      l.sort((a, b) => key.get(a)! - key.get(b)! || pos.get(a)! - pos.get(b)!);
      renumber(l);
    };
    for (let s = 0; s < SWEEPS; s++) {
      if (s % 2 === 0) for (let d = 1; d < layers.length; d++) sweep(layers[d] ?? [], d - 1);
      else for (let d = layers.length - 2; d >= 0; d--) sweep(layers[d] ?? [], d + 1);
    }

    // x: each layer as wide as its widest agent; y: each layer's column centred on one line.
    const size = (u: number) => r.nodes[u]!;
    const heights = layers.map((l) => (l ?? []).reduce((h, u) => h + size(u).height, 0) + Math.max(0, (l?.length ?? 0) - 1) * NODE_GAP);
    const tallest = Math.max(0, ...heights);
    let x = PAD;
    for (let d = 0; d < layers.length; d++) {
      const l = layers[d] ?? [];
      let y = top + (tallest - heights[d]!) / 2;
      let w = 0;
      for (const u of l) {
        positions[r.nodes[u]!.id] = { x: Math.round(x), y: Math.round(y) };
        y += size(u).height + NODE_GAP;
        w = Math.max(w, size(u).width);
      }
      x += w + layerGap;
    }
    const bottom = top + tallest;
    top = bottom + COMPONENT_GAP;
  }
  return positions;
}

/** Lays a graph out with the engine its size calls for; `loadElk` only runs for small graphs. */
export async function computeLayout(r: LayoutRequest, loadElk: () => Promise<ElkLike>): Promise<LayoutResult> {
  if (isLarge(r)) return { positions: layeredLayout(r), engine: "layers" };
  return { positions: await elkLayout(r, await loadElk()), engine: "elk" };
}

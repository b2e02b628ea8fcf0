// Auto-layout with ELK's layered algorithm, left to right (graph algorithms stay out of components).
import type { Edge, Position, Topology } from "./types";
import { edgeId, edgeLabel, setPositions, unplacedAgents } from "./topology";

import { DEFAULT_NODE_SIZE } from "./sizes";

export { DEFAULT_NODE_SIZE };

type Elk = InstanceType<typeof import("elkjs/lib/elk.bundled.js").default>;
let elk: Promise<Elk> | null = null;

/** ELK is large (about 1.4 MB): it loads on the first layout, not with the page. */
function loadElk(): Promise<Elk> {
  elk ??= import("elkjs/lib/elk.bundled.js").then(({ default: ELK }) => new ELK());
  return elk;
}

export type Sizes = Record<string, { width: number; height: number }>;

/** The drawn label's size, estimated (≈ 6 px a character at 11 px, plus icon, padding, badge). */
export function labelSize(e: Edge): { width: number; height: number } {
  return { width: Math.round(edgeLabel(e).length * 6 + 36 + (e.acceptance === "verify" ? 58 : 0)), height: 26 };
}

/** Positions for every agent, entry first, handoffs and delegations flowing left to right. */
export async function autoLayout(t: Topology, sizes: Sizes = {}): Promise<Record<string, Position>> {
  const ids = new Set(t.agents.map((a) => a.id));
  // Entry first so ELK's model order puts it in the first layer.
  const agents = [...t.agents].sort((a, b) => Number(b.id === t.entry) - Number(a.id === t.entry));
  const graph = {
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
    children: agents.map((a) => ({
      id: a.id,
      width: sizes[a.id]?.width ?? DEFAULT_NODE_SIZE.width,
      height: sizes[a.id]?.height ?? DEFAULT_NODE_SIZE.height,
    })),
    edges: t.edges
      .filter((e) => ids.has(e.from) && ids.has(e.to) && e.from !== e.to)
      // Each edge's label reserves its room, so only the gaps with long labels grow.
      .map((e) => ({ id: edgeId(e), sources: [e.from], targets: [e.to], labels: [{ text: edgeLabel(e), ...labelSize(e) }] })),
  };
  const out = await (await loadElk()).layout(graph);
  const positions: Record<string, Position> = {};
  for (const c of out.children ?? []) {
    positions[c.id] = { x: Math.round(c.x ?? 0), y: Math.round(c.y ?? 0) };
  }
  return positions;
}

/** Lays out agents that have no position yet (all of them, with ELK, when any is missing). */
export async function withLayout(t: Topology, sizes: Sizes = {}): Promise<Topology> {
  if (unplacedAgents(t).length === 0) return t;
  return setPositions(t, await autoLayout(t, sizes));
}

// Auto-layout with ELK's layered algorithm, left to right (graph algorithms stay out of components).
import ELK from "elkjs/lib/elk.bundled.js";
import type { Position, Topology } from "./types";
import { edgeId } from "./topology";

export const DEFAULT_NODE_SIZE = { width: 248, height: 104 };

const elk = new ELK();

export type Sizes = Record<string, { width: number; height: number }>;

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
      "elk.layered.spacing.nodeNodeBetweenLayers": "140",
      "elk.spacing.nodeNode": "64",
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
      .map((e) => ({ id: edgeId(e), sources: [e.from], targets: [e.to] })),
  };
  const out = await elk.layout(graph);
  const positions: Record<string, Position> = {};
  for (const c of out.children ?? []) {
    positions[c.id] = { x: Math.round(c.x ?? 0), y: Math.round(c.y ?? 0) };
  }
  return positions;
}

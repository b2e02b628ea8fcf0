// Where the debugger puts its agents and its view when a run opens: the topology's layers wrapped
// onto as many rows as show the graph largest at a zoom that keeps every name whole (wrap.ts,
// legible.ts), the view centred on it, or, when even that cannot show it all in the pane, its
// start (the entry) at the top left and the rest a pan away. Very large graphs keep their layout
// and are fitted whole (`fitWhole`).
import type { ReactFlowInstance, Viewport } from "@xyflow/react";
import { labelScaleAt } from "./edges/geometry";
import { cardPx, legibleFloor } from "./legible";
import { wordBreaks } from "./nodes/wordBreaks";
import type { AgentFlowNode, TransferFlowEdge } from "./types";
import { chooseWrap, layersOf, type Px, type WrapChoice, type WrapGaps } from "./wrap";

/** Screen margins: the zoom controls on the left, the run tag above the first row. */
export const MARGIN = { left: 56, right: 14, top: 28, bottom: 8 } as const;
/** Screen gaps: an edge chip (~56 px, ~28 more with a lost fact) and 8 px either side; a row's
 * corridor chip and the run tag of the row below; a backward edge's lane (TransferEdge: 30 px
 * below the nodes, 29 px a lane) and half its chip. */
const GAP = { layer: 72, lossy: 28, stack: 18, row: 64, lane: 30, laneStep: 29, chipHalf: 12 } as const;

/** Each piece of a name, its width at a 1 px font (the name's own font where a canvas can measure, else an estimate). */
export function namePieces(name: string): number[] {
  const ctx = measurer();
  return wordBreaks(name).map((p) => (ctx ? ctx.measureText(p).width / 100 : p.length * 0.62));
}

let ctx2d: CanvasRenderingContext2D | null | undefined;
function measurer(): CanvasRenderingContext2D | null {
  if (ctx2d !== undefined) return ctx2d;
  try {
    ctx2d = document.createElement("canvas").getContext("2d");
  } catch {
    ctx2d = null;
  }
  if (ctx2d) ctx2d.font = `620 100px "Inter Variable", Inter, ui-sans-serif, system-ui, sans-serif`;
  return ctx2d;
}

/** Whether an edge goes to an earlier (or the same) layer, so is drawn below the nodes. */
function backwardLanes(edges: readonly TransferFlowEdge[], layerOf: Map<string, number>): number {
  let lanes = 0;
  for (const e of edges) {
    const a = layerOf.get(e.source);
    const b = layerOf.get(e.target);
    if (a !== undefined && b !== undefined && b <= a) lanes = Math.max(lanes, 1 + Math.abs(e.data?.parallel ?? 0));
  }
  return lanes;
}

export function wrapGaps(edges: readonly TransferFlowEdge[], layerOf: Map<string, number>): WrapGaps {
  const lanes = backwardLanes(edges, layerOf);
  const lossy = edges.some((e) => (e.data?.path?.lost.length ?? 0) > 0);
  return {
    layer: GAP.layer + (lossy ? GAP.lossy : 0),
    stack: GAP.stack,
    row: GAP.row,
    below: lanes > 0 ? GAP.lane + (lanes - 1) * GAP.laneStep + GAP.chipHalf + 4 : 0,
  };
}

/** The wrapped layout and the view onto it, for a pane of `pane` screen pixels. */
export function legibleLayout(nodes: readonly AgentFlowNode[], edges: readonly TransferFlowEdge[], pane: Px): { choice: WrapChoice; viewport: Viewport } {
  const layers = layersOf(Object.fromEntries(nodes.map((n) => [n.id, n.position])));
  const layerOf = new Map(layers.flatMap((ids, i) => ids.map((id) => [id, i] as const)));
  const pieces = new Map(nodes.map((n) => [n.id, namePieces(n.data.agent.name || n.id)]));
  const room = { w: pane.w - MARGIN.left - MARGIN.right, h: pane.h - MARGIN.top - MARGIN.bottom };
  const choice = chooseWrap({
    layers,
    size: (id, z) => cardPx(pieces.get(id) ?? [], z),
    gaps: wrapGaps(edges, layerOf),
    room,
    minZoom: Math.max(0.2, legibleFloor([...pieces.values()], 1)),
    maxZoom: 1,
  });
  // centred where it fits; its start at the top left where it does not
  const x = MARGIN.left + Math.max(0, (room.w - choice.width) / 2);
  const y = MARGIN.top + Math.max(0, (room.h - choice.height) / 2);
  return { choice, viewport: { x, y, zoom: choice.zoom } };
}

/**
 * A very large graph, fitted whole as laid out: its nodes and the lanes below them that backward
 * edges (and an escalation) take, so those edges and their labels are not cut off at the bottom.
 */
export function fitWhole(flow: ReactFlowInstance, nodes: readonly AgentFlowNode[], edges: readonly TransferFlowEdge[], pane: Px): void {
  const b = flow.getNodesBounds(nodes.map((n) => n.id));
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const lanes = edges.reduce((m, e) => {
    const a = byId.get(e.source);
    const t = byId.get(e.target);
    const backward = !!a && !!t && t.position.x < a.position.x + (a.measured?.width ?? 232) + 24;
    return backward ? Math.max(m, 1 + Math.abs(e.data?.parallel ?? 0)) : m;
  }, 0);
  const { w, h } = pane;
  // the lanes and their labels grow with the label scale, which grows as the zoom shrinks
  const z0 = Math.min(1, Math.min(w / b.width, h / b.height) / 1.3);
  const sc = labelScaleAt(z0);
  const extra = lanes > 0 ? 44 + (lanes - 1) * 26 * sc + 22 * sc : 0;
  const bh = b.height + extra;
  const zoom = Math.max(0.2, Math.min(1, Math.min(w / b.width, h / bh) / 1.3));
  void flow.setViewport({ x: w / 2 - (b.x + b.width / 2) * zoom, y: h / 2 - (b.y + bh / 2) * zoom, zoom });
}

/**
 * How far to pan (screen pixels) so that a box on screen (`left`, `top`, `w`, `h`) comes inside
 * a pane of `pane` less its margins: 0 on an axis where it is inside already; its start first
 * where it is larger than the room.
 */
export function panInto(box: { left: number; top: number; w: number; h: number }, pane: Px): { dx: number; dy: number } {
  const axis = (start: number, size: number, lo: number, hi: number) => (start < lo || size > hi - lo ? lo - start : start + size > hi ? hi - (start + size) : 0);
  return {
    dx: axis(box.left, box.w, MARGIN.left, pane.w - MARGIN.right),
    dy: axis(box.top, box.h, MARGIN.top, pane.h - MARGIN.bottom),
  };
}

// Auto-layout, left to right (graph algorithms stay out of components): ELK's layered algorithm
// for small graphs, a breadth-first layering for large ones (layout-engine.ts), computed in a
// Web Worker (layout.worker.ts) so the window keeps drawing; on the main thread only where there
// is no Worker (Vitest's happy-dom) or the worker cannot start.
import type { Edge, Position, Topology } from "./types";
import { edgeId, edgeLabel, setPositions, unplacedAgents } from "./topology";
import { computeLayout, type ElkLike, type LayoutRequest, type LayoutResult } from "./layout-engine";

import { DEFAULT_NODE_SIZE } from "./sizes";

export { DEFAULT_NODE_SIZE };

export type Sizes = Record<string, { width: number; height: number }>;

/** The drawn label's size, estimated (≈ 6 px a character at 11 px, plus icon, padding, badge). */
export function labelSize(e: Edge): { width: number; height: number } {
  return { width: Math.round(edgeLabel(e).length * 6 + 36 + (e.acceptance === "verify" ? 58 : 0)), height: 26 };
}

/** What the layout needs of a topology: the agents' sizes (entry first) and the edges' labels. */
export function layoutRequest(t: Topology, sizes: Sizes = {}): LayoutRequest {
  // Entry first, so it goes in the first layer (ELK's model order; the BFS's root).
  const agents = [...t.agents].sort((a, b) => Number(b.id === t.entry) - Number(a.id === t.entry));
  return {
    nodes: agents.map((a) => ({
      id: a.id,
      width: sizes[a.id]?.width ?? DEFAULT_NODE_SIZE.width,
      height: sizes[a.id]?.height ?? DEFAULT_NODE_SIZE.height,
    })),
    edges: t.edges.map((e) => ({ id: edgeId(e), from: e.from, to: e.to, label: { text: edgeLabel(e), ...labelSize(e) } })),
  };
}

type Pending = { request: LayoutRequest; resolve: (r: LayoutResult) => void; reject: (e: Error) => void };

let worker: Worker | null | undefined;
let seq = 0;
const pending = new Map<number, Pending>();

/** The layout worker, started on first use; null where there is none (or it failed to start). */
function layoutWorker(): Worker | null {
  if (worker !== undefined) return worker;
  if (typeof Worker === "undefined") return (worker = null);
  try {
    worker = new Worker(new URL("./layout.worker.ts", import.meta.url), { type: "module", name: "baton-layout" });
  } catch {
    return (worker = null);
  }
  worker.onmessage = (e: MessageEvent<{ id: number; result?: LayoutResult; error?: string }>) => {
    const p = pending.get(e.data.id);
    if (!p) return;
    pending.delete(e.data.id);
    if (e.data.result) p.resolve(e.data.result);
    else p.reject(new Error(e.data.error ?? "auto-layout failed"));
  };
  // The script did not load or the worker died: lay out on the main thread from now on.
  worker.onerror = (e) => {
    e.preventDefault();
    worker?.terminate();
    worker = null;
    const waiting = [...pending.values()];
    pending.clear();
    for (const p of waiting) mainThread(p.request).then(p.resolve, p.reject);
  };
  return worker;
}

let elk: Promise<ElkLike> | null = null;

/** The fallback: the same computation here, ELK (about 1.4 MB) loaded on its first use. */
async function mainThread(request: LayoutRequest): Promise<LayoutResult> {
  return computeLayout(request, () => {
    elk ??= import("elkjs/lib/elk.bundled.js").then(({ default: ELK }) => new ELK() as unknown as ElkLike);
    return elk;
  });
}

function compute(request: LayoutRequest): Promise<LayoutResult & { thread: "worker" | "main" }> {
  const w = layoutWorker();
  if (!w) return mainThread(request).then((r) => ({ ...r, thread: "main" as const }));
  const id = ++seq;
  return new Promise<LayoutResult>((resolve, reject) => {
    pending.set(id, { request, resolve, reject });
    w.postMessage({ id, request });
  }).then((r) => ({ ...r, thread: worker ? ("worker" as const) : ("main" as const) }));
}

let warmed = false;

/**
 * Starts the layout worker and has it load ELK while something else is awaited (a run's overview
 * on its way, whose topology will be laid out next): a two-agent graph is laid out and dropped.
 * Once per window; on a graph of the size runs have, the real layout then takes milliseconds
 * instead of ELK's first load (issue #32: 480 ms of opening a run).
 */
export function warmLayout(): void {
  if (warmed) return;
  warmed = true;
  const node = (id: string) => ({ id, ...DEFAULT_NODE_SIZE });
  const request: LayoutRequest = { nodes: [node("a"), node("b")], edges: [{ id: "a-b", from: "a", to: "b", label: { text: "", width: 36, height: 26 } }] };
  compute(request).catch(() => undefined);
}

/** Positions for every agent, entry first, handoffs and delegations flowing left to right. */
export async function autoLayout(t: Topology, sizes: Sizes = {}): Promise<Record<string, Position>> {
  const request = layoutRequest(t, sizes);
  const start = performance.now();
  const { positions, engine, thread } = await compute(request);
  const ms = performance.now() - start;
  // The bench and the browser tests read it from the performance timeline.
  try {
    performance.measure("baton:layout", { start, end: start + ms, detail: { engine, thread, nodes: request.nodes.length, edges: request.edges.length } });
  } catch {
    /* no User Timing (old engines): the figure is only for the bench */
  }
  return positions;
}

/** Lays out agents that have no position yet (all of them when any is missing). */
export async function withLayout(t: Topology, sizes: Sizes = {}): Promise<Topology> {
  if (unplacedAgents(t).length === 0) return t;
  return setPositions(t, await autoLayout(t, sizes));
}

// Topology → React Flow nodes and edges (pure; `createFlowDeriver` keeps unchanged ones identical).
import { Position } from "@xyflow/react";
import type { EdgeFact } from "../bindings/EdgeFact";
import type { EdgeFlow } from "../bindings/EdgeFlow";
import type { Finding, Topology } from "../model/types";
import { agentKind, edgeId, edgeLabel } from "../model/topology";
import { LARGE_GRAPH } from "../model/layout-engine";
import { DEFAULT_NODE_SIZE } from "../model/sizes";
import { guardrailBadge } from "../model/guardrails";
import type { Selection } from "../store/designer";
import { lintMarks } from "./lint";
import type { AgentFlowNode, AgentNodeData, LintMark, TransferFlowEdge } from "./types";

/** What a run adds to the drawing: who owns the conversation, the transfer under way, breakpoints. */
export type RunOverlay = {
  owner?: string | null;
  acting?: string | null;
  activeEdge?: string | null;
  activeKey?: string | number;
  pausedEdge?: string | null;
  /** Design time: the pinned facts each edge's sender may have, and what the edge does with them. */
  factFlow?: readonly EdgeFlow[];
  breakpoints?: ReadonlySet<string>;
  readOnly?: boolean;
};

/** NodeCard's handles: 11 px squares (app.css `.node-handle`), centred on the card's sides. */
const HANDLE = 11;

type NodeEntry = { node: AgentFlowNode; sizeKey: string };
type EdgeEntry = { edge: TransferFlowEdge };

const sameLint = (a: LintMark | null, b: LintMark | null) =>
  a === b || (!!a && !!b && a.severity === b.severity && a.count === b.count && a.codes.join("\u0000") === b.codes.join("\u0000"));
const sameFacts = (a: readonly EdgeFact[] | undefined, b: readonly EdgeFact[] | undefined) =>
  a === b || (!!a && !!b && a.length === b.length && a.every((f, i) => f.fact === b[i]!.fact && f.crossing === b[i]!.crossing));
const sameGuardrails = (a: AgentNodeData["guardrails"], b: AgentNodeData["guardrails"]) =>
  a === b || (!!a && !!b && a.input === b.input && a.output === b.output && a.title === b.title);
const sameRun = (a: AgentNodeData["run"], b: AgentNodeData["run"]) =>
  a === b || (!!a && !!b && a.owner === b.owner && a.acting === b.acting && a.dim === b.dim);

function sameNode(a: AgentFlowNode, b: AgentFlowNode): boolean {
  return (
    a.type === b.type &&
    a.position.x === b.position.x &&
    a.position.y === b.position.y &&
    a.selected === b.selected &&
    a.data.agent === b.data.agent &&
    a.data.isEntry === b.data.isEntry &&
    a.data.toolCount === b.data.toolCount &&
    a.data.facts === b.data.facts &&
    sameLint(a.data.lint, b.data.lint) &&
    sameGuardrails(a.data.guardrails, b.data.guardrails) &&
    sameRun(a.data.run, b.data.run)
  );
}

function sameEdge(a: TransferFlowEdge, b: TransferFlowEdge): boolean {
  const x = a.data!;
  const y = b.data!;
  return (
    a.type === b.type &&
    a.source === b.source &&
    a.target === b.target &&
    a.selected === b.selected &&
    x.edge === y.edge &&
    x.label === y.label &&
    x.parallel === y.parallel &&
    x.breakpoint === y.breakpoint &&
    x.paused === y.paused &&
    x.active === y.active &&
    x.activeKey === y.activeKey &&
    x.readOnly === y.readOnly &&
    sameLint(x.lint, y.lint) &&
    sameFacts(x.facts, y.facts)
  );
}

export type FlowDeriver = (
  t: Topology,
  selection: Selection,
  findings: readonly Finding[],
  sizes: Record<string, { width: number; height: number }>,
  overlay?: RunOverlay,
) => { nodes: AgentFlowNode[]; edges: TransferFlowEdge[] };

/**
 * A `deriveFlow` that remembers its last answer: a node or edge whose inputs did not change is the
 * same object as before, so a selection (or a lint, a drag) re-renders only what it changed —
 * React Flow keeps an unchanged element's internals and its memoised component skips.
 */
export function createFlowDeriver(): FlowDeriver {
  let nodeCache = new Map<string, NodeEntry>();
  let edgeCache = new Map<string, EdgeEntry>();
  return (t, selection, findings, sizes, overlay = {}) => {
    const fresh = deriveFlow(t, selection, findings, sizes, overlay);
    const nextNodes = new Map<string, NodeEntry>();
    const nodes = fresh.nodes.map((n) => {
      const size = sizes[n.id];
      const sizeKey = size ? `${size.width}x${size.height}` : "";
      const old = nodeCache.get(n.id);
      const node = old && old.sizeKey === sizeKey && sameNode(old.node, n) ? old.node : n;
      nextNodes.set(n.id, { node, sizeKey });
      return node;
    });
    const nextEdges = new Map<string, EdgeEntry>();
    const edges = fresh.edges.map((e) => {
      const old = edgeCache.get(e.id);
      const edge = old && sameEdge(old.edge, e) ? old.edge : e;
      nextEdges.set(e.id, { edge });
      return edge;
    });
    nodeCache = nextNodes;
    edgeCache = nextEdges;
    return { nodes, edges };
  };
}

export function deriveFlow(
  t: Topology,
  selection: Selection,
  findings: readonly Finding[],
  sizes: Record<string, { width: number; height: number }>,
  overlay: RunOverlay = {},
): { nodes: AgentFlowNode[]; edges: TransferFlowEdge[] } {
  const running = !!(overlay.owner || overlay.acting);
  const marks = lintMarks(findings);
  const selectedAgents = new Set(selection.agents);
  const selectedEdges = new Set(selection.edges);
  const factCount = new Map<string, number>();
  for (const f of t.facts ?? []) for (const h of f.holders ?? []) factCount.set(h, (factCount.get(h) ?? 0) + 1);

  // A large drawing mounts only the agents in view (onlyRenderVisibleElements), but React Flow
  // mounts every agent it has not measured once, to find its handles: an agent not yet measured
  // gets the default card's size and handles (NodeCard's: 11 px, centred on the left and right
  // sides), so opening 1,000 agents mounts the ones in view, not all of them. Mounted, it is
  // measured as usual (a card of another size reports its own, and `nodeSizes` keeps it).
  const large = t.agents.length > LARGE_GRAPH.nodes || t.edges.length > LARGE_GRAPH.edges;
  const { width: W, height: H } = DEFAULT_NODE_SIZE;
  const unmeasured = () => ({
    // as measured, so fitting the view counts it too
    measured: { width: W, height: H },
    handles: [
      { type: "target" as const, position: Position.Left, x: -HANDLE / 2, y: H / 2 - HANDLE / 2, width: HANDLE, height: HANDLE },
      { type: "source" as const, position: Position.Right, x: W - HANDLE / 2, y: H / 2 - HANDLE / 2, width: HANDLE, height: HANDLE },
    ],
  });
  const nodes: AgentFlowNode[] = t.agents.map((a, i) => {
    const guardrails = guardrailBadge(t, a.id);
    const pos = t.layout?.[a.id] ?? { x: i * (DEFAULT_NODE_SIZE.width + 120), y: 0 };
    const size = sizes[a.id];
    return {
      id: a.id,
      type: agentKind(a),
      position: { x: pos.x, y: pos.y },
      selected: selectedAgents.has(a.id),
      // React Flow's node element carries the id the first design named (`agent-node-<id>`);
      // the card inside keeps `node-<id>`.
      domAttributes: { "data-testid": `agent-node-${a.id}` } as Record<string, string>,
      ...(size ? { measured: size } : large ? unmeasured() : {}),
      data: {
        agent: a,
        isEntry: a.id === t.entry,
        lint: marks.agents.get(a.id) ?? null,
        toolCount: a.tools?.length ?? 0,
        facts: factCount.get(a.id) ?? 0,
        ...(guardrails ? { guardrails } : {}),
        ...(running
          ? {
              run: {
                owner: a.id === overlay.owner,
                acting: a.id === overlay.acting,
                dim: a.id !== overlay.owner && a.id !== overlay.acting,
              },
            }
          : {}),
      },
    };
  });

  // Fan out edges that join the same pair of agents (in either direction).
  const pairCount = new Map<string, number>();
  const pairSeen = new Map<string, number>();
  for (const e of t.edges) {
    const k = `${e.from}\u0000${e.to}`;
    pairCount.set(k, (pairCount.get(k) ?? 0) + 1);
  }
  const known = new Set(t.agents.map((a) => a.id));
  const flowOf = new Map((overlay.factFlow ?? []).map((f) => [f.edge, f.facts]));
  const edges: TransferFlowEdge[] = t.edges
    .filter((e) => known.has(e.from) && known.has(e.to))
    .map((e) => {
      const id = edgeId(e);
      const k = `${e.from}\u0000${e.to}`;
      const n = pairCount.get(k) ?? 1;
      const i = pairSeen.get(k) ?? 0;
      pairSeen.set(k, i + 1);
      return {
        id,
        type: e.kind,
        source: e.from,
        target: e.to,
        selected: selectedEdges.has(id),
        domAttributes: { "data-testid": `edge-${id}` } as Record<string, string>,
        data: {
          edge: e,
          label: edgeLabel(e),
          lint: marks.edges.get(id) ?? null,
          parallel: n > 1 ? i - (n - 1) / 2 : 0,
          breakpoint: overlay.breakpoints?.has(id) ?? false,
          paused: overlay.pausedEdge === id,
          active: overlay.activeEdge === id,
          activeKey: overlay.activeKey,
          readOnly: overlay.readOnly ?? false,
          ...(flowOf.has(id) ? { facts: flowOf.get(id) } : {}),
        },
      };
    });
  return { nodes, edges };
}

// The debugger's canvas: the run's topology, read-only, with the owner of the conversation at the
// current step highlighted, the transfer under way animated and breakpoints shown; the path the
// run took (crossings per edge, visits per agent), the edges where a pinned fact was lost, and the
// transfers the topology has no edge for (a guard's escalation), so no agent the run reached floats.
// Below full zoom, labels are scaled up to stay legible (>= 11 px on screen) and nodes simplified.
import { Background, BackgroundVariant, Controls, ReactFlow, useNodesInitialized, useReactFlow, useStore, type NodeChange } from "@xyflow/react";
import { useCallback, useEffect, useMemo, useRef } from "react";
import { edgeId } from "../model/topology";
import { runPath } from "../run/path";
import "../styles/charts.css";
import { EMPTY_SELECTION } from "../store/designer";
import { useDebugger } from "../store/debugger";
import { selectBreakpoints, useRun } from "../store/run";
import { useUi } from "../store/ui";
import { useTheme } from "../store/theme";
import { deriveFlow } from "./derive";
import { DelegationEdge } from "./edges/DelegationEdge";
import { HandoffEdge } from "./edges/HandoffEdge";
import { labelScaleAt } from "./edges/geometry";
import { EdgeMarkers } from "./edges/Markers";
import { AgentNode } from "./nodes/AgentNode";
import { HumanNode } from "./nodes/HumanNode";
import { SupervisorNode } from "./nodes/SupervisorNode";
import { withActiveTransfer, withRunMark } from "./runHighlight";
import type { AgentFlowNode, TransferFlowEdge } from "./types";

/** The zooms below which nodes show less (labels scale by `labelScaleAt`). */
const FAR_ZOOM = 1.05;
const VERY_FAR_ZOOM = 0.7;

type Flow = { nodes: AgentFlowNode[]; edges: TransferFlowEdge[] };

/**
 * The run's path on the drawing: crossings and lost facts per edge (edges never crossed dimmed),
 * visits per agent, and an edge for each transfer the topology has none for.
 */
function withPath(flow: Flow, path: ReturnType<typeof runPath>): Flow {
  const nodes = flow.nodes.map((n) => ({ ...n, data: { ...n.data, path: path.agents.get(n.id) ?? { visits: 0, steps: 0 } } }));
  const known = new Set(flow.nodes.map((n) => n.id));
  const edges: TransferFlowEdge[] = flow.edges.map((e) => {
    const u = path.edges.get(e.id);
    return { ...e, data: { ...e.data!, path: { count: u?.count ?? 0, lost: u?.lost ?? [], extra: null } } };
  });
  for (const x of path.extra) {
    if (!known.has(x.from) || !known.has(x.to)) continue;
    edges.push({
      id: x.id,
      type: x.kind,
      source: x.from,
      target: x.to,
      selected: false,
      domAttributes: { "data-testid": `edge-${x.id}` } as Record<string, string>,
      data: {
        edge: { id: x.id, kind: x.kind, from: x.from, to: x.to },
        label: x.escalation ? "escalation (guard)" : "not in the topology",
        lint: null,
        // a lane of its own below the nodes, apart from the topology's own backward edges
        parallel: 1,
        readOnly: true,
        path: { count: x.count, lost: x.lost, extra: x.escalation ? "escalation" : "unlisted" },
      },
    });
  }
  return { nodes, edges };
}

// The step's highlight (owner, acting agent, the transfer under way) reaches each node and edge
// by its id (runHighlight): the nodes and edges given to React Flow stay the same as the cursor moves.
const nodeTypes = { agent: withRunMark(AgentNode), supervisor: withRunMark(SupervisorNode), human: withRunMark(HumanNode) };
const edgeTypes = { handoff: withActiveTransfer(HandoffEdge), delegation: withActiveTransfer(DelegationEdge) };

export function DebugCanvas() {
  const topology = useDebugger((s) => s.topology);
  const overview = useDebugger((s) => s.overview);
  const runId = useDebugger((s) => s.runId);
  const nodeSizes = useUi((s) => s.nodeSizes);
  const theme = useTheme((s) => s.theme);
  const breakpoints = useRun(selectBreakpoints(topology?.name));
  const flow = useReactFlow();

  const overlay = useMemo(() => ({ breakpoints: new Set(breakpoints), readOnly: true }), [breakpoints]);
  const path = useMemo(
    () => (topology && overview ? runPath(new Set(topology.edges.map(edgeId)), overview.steps, overview.transfers) : null),
    [topology, overview],
  );
  const { nodes, edges } = useMemo(() => {
    if (!topology) return { nodes: [], edges: [] };
    const flow = deriveFlow(topology, EMPTY_SELECTION, [], nodeSizes, overlay);
    return path ? withPath(flow, path) : flow;
  }, [topology, nodeSizes, overlay, path]);
  const zoom = useStore((s) => s.transform[2]);
  // The smallest label is 10 px: scaled so that it shows at 11 px or more at any zoom.
  const labelScale = labelScaleAt(zoom);
  const far = zoom < FAR_ZOOM;

  const onNodesChange = useCallback((changes: NodeChange<AgentFlowNode>[]) => {
    const sizes: Record<string, { width: number; height: number }> = {};
    for (const c of changes) {
      if (c.type === "dimensions" && c.dimensions) {
        const cur = useUi.getState().nodeSizes[c.id];
        if (!cur || cur.width !== c.dimensions.width || cur.height !== c.dimensions.height) sizes[c.id] = c.dimensions;
      }
    }
    if (Object.keys(sizes).length) useUi.getState().setNodeSizes(sizes);
  }, []);

  const initialized = useNodesInitialized();
  const fitted = useRef<string | null>(null);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (initialized && runId && fitted.current !== runId && nodes.length > 0) {
      fitted.current = runId;
      // Fit the nodes and the lanes below them that backward edges (and an escalation) take, so
      // those edges and their labels are not cut off at the canvas's bottom.
      const el = box.current;
      const b = flow.getNodesBounds(nodes.map((n) => n.id));
      const byId = new Map(nodes.map((n) => [n.id, n]));
      const lanes = edges.reduce((m, e) => {
        const a = byId.get(e.source);
        const t = byId.get(e.target);
        const backward = !!a && !!t && t.position.x < a.position.x + (a.measured?.width ?? 232) + 24;
        return backward ? Math.max(m, 1 + Math.abs(e.data?.parallel ?? 0)) : m;
      }, 0);
      if (!el || el.clientWidth === 0 || el.clientHeight === 0) {
        void flow.fitView({ padding: 0.16, maxZoom: 1 });
        return;
      }
      const w = el.clientWidth;
      const h = el.clientHeight;
      // the lanes and their labels grow with the label scale, which grows as the zoom shrinks
      const z0 = Math.min(1, Math.min(w / b.width, h / b.height) / 1.3);
      const sc = labelScaleAt(z0);
      const extra = lanes > 0 ? 44 + (lanes - 1) * 26 * sc + 22 * sc : 0;
      const bh = b.height + extra;
      const zoom = Math.max(0.2, Math.min(1, Math.min(w / b.width, h / bh) / 1.3));
      void flow.setViewport({ x: w / 2 - (b.x + b.width / 2) * zoom, y: h / 2 - (b.y + bh / 2) * zoom, zoom });
    }
  }, [initialized, runId, nodes, edges, flow]);

  if (!topology) {
    return (
      <div className="canvas debug-canvas is-empty" data-testid="debug-canvas">
        <div className="pane-empty">This run was recorded without its topology, so there is no graph to show.</div>
      </div>
    );
  }
  return (
    <div
      ref={box}
      className={`canvas debug-canvas${far ? " is-far" : ""}${zoom < VERY_FAR_ZOOM ? " is-very-far" : ""}`}
      data-testid="debug-canvas"
      data-zoom={zoom.toFixed(3)}
      style={{ ["--dbg-label-scale" as string]: labelScale.toFixed(3) }}
    >
      <EdgeMarkers />
      <ReactFlow<AgentFlowNode, TransferFlowEdge>
        colorMode={theme}
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        edgeTypes={edgeTypes}
        onNodesChange={onNodesChange}
        nodesDraggable={false}
        nodesConnectable={false}
        elementsSelectable={false}
        deleteKeyCode={null}
        selectionKeyCode={null}
        multiSelectionKeyCode={null}
        zoomOnDoubleClick={false}
        minZoom={0.2}
        maxZoom={1.6}
        proOptions={{ hideAttribution: true }}
        fitViewOptions={{ padding: 0.16, maxZoom: 1 }}
      >
        <Background variant={BackgroundVariant.Dots} gap={20} size={1.3} color="var(--canvas-dots)" />
        <Controls position="bottom-left" showInteractive={false} />
      </ReactFlow>
      <div className="debug-canvas-badge">
        Read-only · run topology
      </div>
    </div>
  );
}

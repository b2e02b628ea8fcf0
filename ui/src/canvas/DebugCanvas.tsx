// The debugger's canvas: the run's topology, read-only, with the owner of the conversation at the
// current step highlighted, the transfer under way animated and breakpoints shown; the path the
// run took (crossings per edge, visits per agent), the edges where a pinned fact was lost, and the
// transfers the topology has no edge for (a guard's escalation), so no agent the run reached floats.
// Below full zoom, labels are scaled up to stay legible (>= 11 px on screen) and nodes simplified;
// a long chain is wrapped onto rows so that its names stay whole in the short pane (debugLayout).
import { Background, BackgroundVariant, Controls, ReactFlow, useNodesInitialized, useReactFlow, useStore, type NodeChange } from "@xyflow/react";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { edgeId } from "../model/topology";
import { runPath } from "../run/path";
import "../styles/charts.css";
import { EMPTY_SELECTION } from "../store/designer";
import { useDebugger } from "../store/debugger";
import { selectBreakpoints, useRun } from "../store/run";
import { useUi } from "../store/ui";
import { useTheme } from "../store/theme";
import { deriveFlow } from "./derive";
import { fitWhole, legibleLayout, panInto } from "./debugLayout";
import { LARGE_GRAPH } from "../model/layout-engine";
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
  // the wrapped layout the view was fitted to, for the run it was made for
  const [placed, setPlaced] = useState<{ runId: string; positions: Record<string, { x: number; y: number }> } | null>(null);

  const overlay = useMemo(() => ({ breakpoints: new Set(breakpoints), readOnly: true }), [breakpoints]);
  const path = useMemo(
    () => (topology && overview ? runPath(new Set(topology.edges.map(edgeId)), overview.steps, overview.transfers) : null),
    [topology, overview],
  );
  const { nodes, edges } = useMemo(() => {
    if (!topology) return { nodes: [], edges: [] };
    const derived = deriveFlow(topology, EMPTY_SELECTION, [], nodeSizes, overlay);
    const at = placed?.runId === runId ? placed.positions : null;
    const flow = at ? { ...derived, nodes: derived.nodes.map((n) => (at[n.id] ? { ...n, position: at[n.id]! } : n)) } : derived;
    return path ? withPath(flow, path) : flow;
  }, [topology, nodeSizes, overlay, path, placed, runId]);
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
      const el = box.current;
      if (!el || el.clientWidth === 0 || el.clientHeight === 0) {
        void flow.fitView({ padding: 0.16, maxZoom: 1 });
        return;
      }
      const pane = { w: el.clientWidth, h: el.clientHeight };
      if (nodes.length > LARGE_GRAPH.nodes) {
        fitWhole(flow, nodes, edges, pane);
        return;
      }
      // Wrapped onto rows, at a zoom that keeps every name whole (a pan away when it cannot all fit).
      const { choice, viewport } = legibleLayout(nodes, edges, pane);
      setPlaced({ runId, positions: choice.positions });
      void flow.setViewport(viewport);
    }
  }, [initialized, runId, nodes, edges, flow]);

  // The agent acting at the current step stays in view (a wrapped chain may still not all fit).
  // Read as one name: the canvas renders again only when it changes, not at every step.
  const focus = useDebugger((s) => {
    const step = s.overview?.steps.at(s.cursor);
    return step?.agent ?? step?.owner ?? null;
  });
  useEffect(() => {
    const el = box.current;
    const n = focus && placed?.runId === runId ? flow.getInternalNode(focus) : undefined;
    if (!el || !n) return;
    const { x, y, zoom } = flow.getViewport();
    const at = n.internals.positionAbsolute;
    const { dx, dy } = panInto({ left: at.x * zoom + x, top: at.y * zoom + y, w: (n.measured.width ?? 0) * zoom, h: (n.measured.height ?? 0) * zoom }, { w: el.clientWidth, h: el.clientHeight });
    if (Math.abs(dx) > 0.5 || Math.abs(dy) > 0.5) void flow.setViewport({ x: x + dx, y: y + dy, zoom }, { duration: 180 });
  }, [focus, placed, runId, flow]);

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

import {
  Background,
  BackgroundVariant,
  ConnectionLineType,
  ControlButton,
  Controls,
  MiniMap,
  ReactFlow,
  SelectionMode,
  useNodesInitialized,
  useReactFlow,
  useStore,
  type Connection,
  type EdgeChange,
  type NodeChange,
  type OnConnectEnd,
} from "@xyflow/react";
import { Map as MapIcon } from "lucide-react";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useCommands } from "../commands/designer";
import { LARGE_GRAPH } from "../model/layout-engine";
import { DEFAULT_NODE_SIZE } from "../model/sizes";
import { connectionRefusal } from "../model/refusals";
import { setPositions } from "../model/topology";
import type { Position } from "../model/types";
import { isActive } from "../run/live";
import { EMPTY_SELECTION, useDesigner } from "../store/designer";
import { useEditor } from "../store/editor";
import { CanvasNotice } from "./CanvasNotice";
import { selectBreakpoints, useRun } from "../store/run";
import { useUi } from "../store/ui";
import { useFactFlow } from "../store/factFlow";
import { useTheme } from "../store/theme";
import { CanvasToolbar } from "./CanvasToolbar";
import "./canvas.css";
import { createFlowDeriver } from "./derive";
import { DelegationEdge } from "./edges/DelegationEdge";
import { FAR_LABEL_ZOOM } from "./edges/TransferEdge";
import { HandoffEdge } from "./edges/HandoffEdge";
import { EdgeMarkers } from "./edges/Markers";
import { EdgeKindChooser } from "./EdgeKindChooser";
import { AgentNode } from "./nodes/AgentNode";
import { HumanNode } from "./nodes/HumanNode";
import { SupervisorNode } from "./nodes/SupervisorNode";
import type { AgentFlowNode, TransferFlowEdge } from "./types";

const nodeTypes = { agent: AgentNode, supervisor: SupervisorNode, human: HumanNode };
const edgeTypes = { handoff: HandoffEdge, delegation: DelegationEdge };

let gestureSeq = 0;

// The minimap's fills: CSS variables (styles/app.css), so they follow the theme.
const MINIMAP_COLORS: Record<string, string> = {
  agent: "var(--minimap-agent)",
  supervisor: "var(--minimap-supervisor)",
  human: "var(--minimap-human)",
};

export function Canvas() {
  const topology = useDesigner((s) => s.topology);
  const selection = useDesigner((s) => s.selection);
  const findings = useDesigner((s) => s.findings);
  const docId = useDesigner((s) => s.docId);
  const nodeSizes = useUi((s) => s.nodeSizes);
  const commands = useCommands();
  const flow = useReactFlow();
  const minimap = useEditor((s) => s.minimap);
  const theme = useTheme((s) => s.theme);
  const gesture = useRef<string | null>(null);
  const pending = useRef<Connection | null>(null);

  const breakpoints = useRun(selectBreakpoints(topology?.name));
  const live = useRun((s) => s.live);
  const factFlow = useFactFlow((s) => s.flows);
  const overlay = useMemo(() => {
    const active = isActive(live) && live?.topology === topology?.name;
    const last = active ? live?.transfers[live.transfers.length - 1] : undefined;
    return {
      breakpoints: new Set(breakpoints),
      owner: active ? live?.owner : null,
      acting: active ? live?.agent : null,
      activeEdge: last?.edge ?? null,
      activeKey: last?.index,
      pausedEdge: active ? (live?.paused?.edge ?? null) : null,
      factFlow,
    };
  }, [breakpoints, live, topology?.name, factFlow]);

  // One deriver per canvas: unchanged nodes and edges stay the same objects between renders.
  const [derive] = useState(createFlowDeriver);
  const { nodes, edges } = useMemo(
    () => (topology ? derive(topology, selection, findings, nodeSizes, overlay) : { nodes: [], edges: [] }),
    [derive, topology, selection, findings, nodeSizes, overlay],
  );
  // A large drawing mounts only what is in view (React Flow's advice for large graphs).
  const large = nodes.length > LARGE_GRAPH.nodes || edges.length > LARGE_GRAPH.edges;
  // Crossing the far zoom re-renders the canvas once; other zoom frames do not.
  const far = useStore((s) => s.transform[2] < FAR_LABEL_ZOOM);

  const onNodesChange = useCallback((changes: NodeChange<AgentFlowNode>[]) => {
    const sizes: Record<string, { width: number; height: number }> = {};
    const moved: Record<string, Position> = {};
    let sel: { agents: Set<string> } | null = null;
    for (const c of changes) {
      if (c.type === "dimensions" && c.dimensions) {
        const cur = useUi.getState().nodeSizes[c.id];
        if (!cur || cur.width !== c.dimensions.width || cur.height !== c.dimensions.height) sizes[c.id] = c.dimensions;
      } else if (c.type === "position" && c.position) {
        moved[c.id] = { x: Math.round(c.position.x), y: Math.round(c.position.y) };
      } else if (c.type === "select") {
        sel ??= { agents: new Set(useDesigner.getState().selection.agents) };
        if (c.selected) sel.agents.add(c.id);
        else sel.agents.delete(c.id);
      }
    }
    if (Object.keys(sizes).length) useUi.getState().setNodeSizes(sizes);
    if (Object.keys(moved).length) {
      const store = useDesigner.getState();
      if (!gesture.current) {
        gesture.current = `gesture:drag:${++gestureSeq}`;
        store.beginGesture(gesture.current);
      }
      store.commit((t) => setPositions(t, moved), { coalesce: gesture.current });
    }
    if (sel) {
      const cur = useDesigner.getState().selection;
      useDesigner.getState().setSelection({ agents: [...sel.agents], edges: cur.edges });
    }
  }, []);

  const onEdgesChange = useCallback((changes: EdgeChange<TransferFlowEdge>[]) => {
    let sel: Set<string> | null = null;
    for (const c of changes) {
      if (c.type === "select") {
        sel ??= new Set(useDesigner.getState().selection.edges);
        if (c.selected) sel.add(c.id);
        else sel.delete(c.id);
      }
    }
    if (sel) {
      const cur = useDesigner.getState().selection;
      useDesigner.getState().setSelection({ agents: cur.agents, edges: [...sel] });
    }
  }, []);

  const onDelete = useCallback(() => {
    useDesigner.getState().deleteSelection();
  }, []);

  const onConnect = useCallback((c: Connection) => {
    pending.current = c;
  }, []);

  const onConnectEnd: OnConnectEnd = useCallback((event, state) => {
    const c = pending.current;
    pending.current = null;
    const p = "changedTouches" in event ? event.changedTouches[0] : event;
    const at = { x: p?.clientX ?? 0, y: p?.clientY ?? 0 };
    const t = useDesigner.getState().topology;
    if (!c) {
      // A drop React Flow did not connect: on the agent it started from (a self-edge) it is
      // refused with why, rather than doing nothing.
      const from = state.fromNode?.id;
      const under = typeof document.elementFromPoint === "function" ? document.elementFromPoint(at.x, at.y)?.closest(".react-flow__node") : null;
      const to = state.toNode?.id ?? under?.getAttribute("data-id") ?? null;
      if (t && from && to === from) useEditor.getState().refuse(connectionRefusal(t, from, from) ?? "", at);
      return;
    }
    const refused = t ? connectionRefusal(t, c.source, c.target) : null;
    if (refused) {
      useEditor.getState().refuse(refused, at);
      return;
    }
    useUi.getState().setPendingConnection({
      from: c.source,
      to: c.target,
      x: p?.clientX ?? 0,
      y: p?.clientY ?? 0,
    });
  }, []);

  // Fit the view whenever a new document is shown, once its nodes have been measured.
  const initialized = useNodesInitialized();
  const fittedDoc = useRef(-1);
  useEffect(() => {
    if (initialized && fittedDoc.current !== docId && nodes.length > 0) {
      fittedDoc.current = docId;
      void flow.fitView(commands.fitOptions());
    }
  }, [initialized, docId, nodes.length, flow, commands]);

  const onDoubleClick = useCallback(
    (e: React.MouseEvent) => {
      const target = e.target as HTMLElement;
      if (!target.classList.contains("react-flow__pane")) return;
      const p = flow.screenToFlowPosition({ x: e.clientX, y: e.clientY });
      commands.addAgent("agent", { x: Math.round(p.x - DEFAULT_NODE_SIZE.width / 2), y: Math.round(p.y - 40) });
    },
    [flow, commands],
  );

  // While a large drawing's view moves it paints less (canvas.css), and while it pans it is one
  // composited layer that each frame only moves (a zoom is better repainted: a layer would be
  // rasterised again, and larger, at every scale). Classes set on the element directly: no React
  // render per gesture.
  const box = useRef<HTMLDivElement>(null);
  const onMoveStart = useCallback((e: MouseEvent | TouchEvent | null) => {
    box.current?.classList.add("is-moving");
    if (e && e.type !== "wheel") box.current?.classList.add("is-panning");
  }, []);
  const onMoveEnd = useCallback(() => box.current?.classList.remove("is-moving", "is-panning"), []);

  if (!topology) return null;

  return (
    <div className={`canvas${large ? " is-large" : ""}${large && far ? " is-far" : ""}`} data-testid="canvas" onDoubleClick={onDoubleClick} ref={box}>
      <EdgeMarkers />
      <ReactFlow<AgentFlowNode, TransferFlowEdge>
        colorMode={theme}
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        edgeTypes={edgeTypes}
        onNodesChange={onNodesChange}
        onEdgesChange={onEdgesChange}
        onDelete={onDelete}
        onNodeDragStop={() => {
          gesture.current = null;
        }}
        onConnect={onConnect}
        onConnectStart={() => useEditor.getState().clearNotice()}
        onConnectEnd={onConnectEnd}
        isValidConnection={(c) => c.source !== c.target}
        onPaneClick={() => {
          useDesigner.getState().setSelection(EMPTY_SELECTION);
          useUi.getState().setPendingConnection(null);
          useEditor.getState().clearNotice();
        }}
        connectionLineType={ConnectionLineType.Bezier}
        connectionLineStyle={{ stroke: "var(--accent)", strokeWidth: 2 }}
        connectionRadius={36}
        deleteKeyCode={["Delete", "Backspace"]}
        multiSelectionKeyCode={["Shift", "Meta", "Control"]}
        selectionKeyCode="Shift"
        selectionMode={SelectionMode.Partial}
        zoomOnDoubleClick={false}
        minZoom={0.2}
        maxZoom={2}
        proOptions={{ hideAttribution: true }}
        onlyRenderVisibleElements={large}
        onMoveStart={large ? onMoveStart : undefined}
        onMoveEnd={onMoveEnd}
        fitView
        fitViewOptions={{ padding: 0.14, maxZoom: 1.1 }}
      >
        {/* Far out on a large drawing the dots are 4 px apart: noise, and a full repaint every pan frame. */}
        {!(large && far) && <Background variant={BackgroundVariant.Dots} gap={20} size={1.3} color="var(--canvas-dots)" />}
        <Controls position="bottom-left" showInteractive={false} onFitView={commands.fitView}>
          <ControlButton
            onClick={() => useEditor.getState().toggleMinimap()}
            title={minimap ? "Hide the minimap" : "Show the minimap"}
            aria-label={minimap ? "Hide the minimap" : "Show the minimap"}
            aria-pressed={minimap}
            data-testid="minimap-toggle"
            className={minimap ? "is-on" : undefined}
          >
            <MapIcon size={14} />
          </ControlButton>
        </Controls>
        {minimap && (
          <MiniMap
            position="bottom-right"
            pannable
            zoomable
            nodeBorderRadius={8}
            nodeColor={(n) => MINIMAP_COLORS[n.type ?? "agent"] ?? "var(--minimap-agent)"}
            maskColor="var(--minimap-mask)"
            style={{ width: 180, height: 120 }}
          />
        )}
      </ReactFlow>
      <CanvasToolbar />
      <EdgeKindChooser />
      <CanvasNotice />
    </div>
  );
}

// The debugger's canvas: the run's topology, read-only, with the owner of the conversation at the
// current step highlighted, the transfer under way animated and breakpoints shown.
import { Background, BackgroundVariant, Controls, ReactFlow, useNodesInitialized, useReactFlow, type NodeChange } from "@xyflow/react";
import { useCallback, useEffect, useMemo, useRef } from "react";
import { EMPTY_SELECTION } from "../store/designer";
import { useDebugger } from "../store/debugger";
import { selectBreakpoints, useRun } from "../store/run";
import { useUi } from "../store/ui";
import { deriveFlow } from "./derive";
import { DelegationEdge } from "./edges/DelegationEdge";
import { HandoffEdge } from "./edges/HandoffEdge";
import { EdgeMarkers } from "./edges/Markers";
import { AgentNode } from "./nodes/AgentNode";
import { HumanNode } from "./nodes/HumanNode";
import { SupervisorNode } from "./nodes/SupervisorNode";
import type { AgentFlowNode, TransferFlowEdge } from "./types";

const nodeTypes = { agent: AgentNode, supervisor: SupervisorNode, human: HumanNode };
const edgeTypes = { handoff: HandoffEdge, delegation: DelegationEdge };

export function DebugCanvas() {
  const topology = useDebugger((s) => s.topology);
  const overview = useDebugger((s) => s.overview);
  const cursor = useDebugger((s) => s.cursor);
  const runId = useDebugger((s) => s.runId);
  const nodeSizes = useUi((s) => s.nodeSizes);
  const breakpoints = useRun(selectBreakpoints(topology?.name));
  const flow = useReactFlow();

  const step = overview?.steps[cursor];
  const transfer = step?.transfer != null ? overview?.transfers.find((t) => t.index === step.transfer) : undefined;
  const overlay = useMemo(
    () => ({
      owner: step?.owner ?? null,
      acting: step?.agent ?? null,
      activeEdge: transfer?.edge || null,
      activeKey: step?.index,
      breakpoints: new Set(breakpoints),
      readOnly: true,
    }),
    [step, transfer, breakpoints],
  );
  const { nodes, edges } = useMemo(
    () => (topology ? deriveFlow(topology, EMPTY_SELECTION, [], nodeSizes, overlay) : { nodes: [], edges: [] }),
    [topology, nodeSizes, overlay],
  );

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
  useEffect(() => {
    if (initialized && runId && fitted.current !== runId && nodes.length > 0) {
      fitted.current = runId;
      void flow.fitView({ padding: 0.16, maxZoom: 1 });
    }
  }, [initialized, runId, nodes.length, flow]);

  if (!topology) {
    return (
      <div className="canvas debug-canvas is-empty" data-testid="debug-canvas">
        <div className="pane-empty">This run was recorded without its topology, so there is no graph to show.</div>
      </div>
    );
  }
  return (
    <div className="canvas debug-canvas" data-testid="debug-canvas">
      <EdgeMarkers />
      <ReactFlow<AgentFlowNode, TransferFlowEdge>
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
        fitView
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

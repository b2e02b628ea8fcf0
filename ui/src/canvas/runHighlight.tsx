// The debugger's step on its canvas: which agents own and act at the current step, and which edge
// carries the transfer under way. Each node and edge reads its own part from the debugger's store,
// so a step renders the cards and edges whose highlight changed, not a new drawing (issue #32
// item 2): the nodes and edges React Flow is given do not change from step to step.
import type { EdgeProps, NodeProps } from "@xyflow/react";
import { memo, useMemo, type ComponentType } from "react";
import { edgeId } from "../model/topology";
import type { Topology } from "../model/types";
import { useDebugger, type DebuggerState } from "../store/debugger";
import type { AgentFlowNode, AgentNodeData, TransferFlowEdge } from "./types";

type RunMark = NonNullable<AgentNodeData["run"]>;

/** The four highlights, one object each, so a selector's answer compares by identity. */
const MARKS = {
  both: { owner: true, acting: true, dim: false },
  owner: { owner: true, acting: false, dim: false },
  acting: { owner: false, acting: true, dim: false },
  idle: { owner: false, acting: false, dim: true },
} satisfies Record<string, RunMark>;

/** How agent `id` is highlighted at the current step (none without a step). */
export function runMarkOf(s: Pick<DebuggerState, "overview" | "cursor">, id: string): RunMark | undefined {
  const step = s.overview?.steps.at(s.cursor);
  if (!step) return undefined;
  const owner = step.owner === id;
  const acting = step.agent === id;
  return owner && acting ? MARKS.both : owner ? MARKS.owner : acting ? MARKS.acting : MARKS.idle;
}

/** The edge ids of a topology (kept per topology: the run's transfers are looked up in it). */
const edgeIdsOf = new WeakMap<Topology, ReadonlySet<string>>();

/** The drawn edge the current step's transfer takes, and the key that restarts its animation. */
type ActiveEdge = { id: string; key: string | number };

let lastActive: { overview: DebuggerState["overview"]; topology: Topology | null; cursor: number; value: ActiveEdge | null } | null = null;

/**
 * The edge under way at the current step: the topology's edge the transfer took (keyed by the
 * step, so each transfer animates anew), or else the edge drawn for a transfer the topology has no
 * edge for (`run:<kind>:<from>-><to>`, keyed by its agents). Worked out once per step, not per edge.
 */
export function activeEdgeOf(s: Pick<DebuggerState, "overview" | "topology" | "cursor">): ActiveEdge | null {
  if (lastActive && lastActive.overview === s.overview && lastActive.topology === s.topology && lastActive.cursor === s.cursor) return lastActive.value;
  const step = s.overview?.steps.at(s.cursor);
  const t = step?.transfer != null ? s.overview?.transfers.find((x) => x.index === step.transfer) : undefined;
  let value: ActiveEdge | null = null;
  if (step && t) {
    let ids = s.topology ? edgeIdsOf.get(s.topology) : undefined;
    if (s.topology && !ids) edgeIdsOf.set(s.topology, (ids = new Set(s.topology.edges.map(edgeId))));
    value = t.edge && ids?.has(t.edge) ? { id: t.edge, key: step.index } : { id: `run:${t.kind}:${t.from}->${t.to}`, key: `${t.from}->${t.to}` };
  }
  lastActive = { overview: s.overview, topology: s.topology, cursor: s.cursor, value };
  return value;
}

/** A node type whose card shows the current step's highlight, read by its own id. */
export function withRunMark(Node: ComponentType<NodeProps<AgentFlowNode>>) {
  function Marked(props: NodeProps<AgentFlowNode>) {
    const run = useDebugger((s) => runMarkOf(s, props.id));
    const data = useMemo(() => (run ? { ...props.data, run } : props.data), [props.data, run]);
    return <Node {...props} data={data} />;
  }
  return memo(Marked);
}

/** An edge type that animates when the current step's transfer takes it, read by its own id. */
export function withActiveTransfer(Edge: ComponentType<EdgeProps<TransferFlowEdge>>) {
  function Active(props: EdgeProps<TransferFlowEdge>) {
    const key = useDebugger((s) => {
      const a = activeEdgeOf(s);
      return a && a.id === props.id ? a.key : null;
    });
    const data = useMemo(() => (props.data ? { ...props.data, active: key !== null, activeKey: key ?? undefined } : props.data), [props.data, key]);
    return <Edge {...props} data={data} />;
  }
  return memo(Active);
}

import type { Edge as FlowEdge, Node as FlowNode } from "@xyflow/react";
import type { EdgeFact } from "../bindings/EdgeFact";
import type { Agent, Edge, Severity } from "../model/types";

export type LintMark = { severity: Severity; count: number; codes: string[] };

export type AgentNodeData = {
  agent: Agent;
  isEntry: boolean;
  lint: LintMark | null;
  toolCount: number;
  /** Holds at least one pinned fact. */
  facts: number;
  /** Its guardrails: how many on input and on output, and a title listing them (absent: none). */
  guardrails?: { input: number; output: number; title: string };
  /** Run state (live run or debugger step); absent when no run is shown. */
  run?: { owner: boolean; acting: boolean; dim: boolean };
  /** Debugger: how often the run gave this agent the conversation, and the steps it acted at. */
  path?: { visits: number; steps: number };
};

/** Debugger: what the run did on an edge (crossings, facts lost), or a transfer the topology has no edge for. */
export type EdgePath = { count: number; lost: string[]; extra: "escalation" | "unlisted" | null };

export type AgentFlowNode = FlowNode<AgentNodeData, "agent" | "supervisor" | "human">;

export type TransferEdgeData = {
  edge: Edge;
  label: string;
  lint: LintMark | null;
  /** Fan-out index among edges joining the same two agents (0 when alone). */
  parallel: number;
  /** A breakpoint pauses runs before this transfer. */
  breakpoint?: boolean;
  /** The run is paused before this transfer. */
  paused?: boolean;
  /** The transfer happening now; `activeKey` changes per transfer, restarting the animation. */
  active?: boolean;
  activeKey?: string | number;
  /** Debug mode: clicking does not select. */
  readOnly?: boolean;
  path?: EdgePath;
  /** Design time: the pinned facts the sender may have, and what this edge does with each. */
  facts?: EdgeFact[];
};

export type TransferFlowEdge = FlowEdge<TransferEdgeData, "handoff" | "delegation">;

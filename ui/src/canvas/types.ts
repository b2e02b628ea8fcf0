import type { Edge as FlowEdge, Node as FlowNode } from "@xyflow/react";
import type { Agent, Edge, Severity } from "../model/types";

export type LintMark = { severity: Severity; count: number; codes: string[] };

export type AgentNodeData = {
  agent: Agent;
  isEntry: boolean;
  lint: LintMark | null;
  toolCount: number;
  /** Holds at least one pinned fact. */
  facts: number;
};

export type AgentFlowNode = FlowNode<AgentNodeData, "agent" | "supervisor" | "human">;

export type TransferEdgeData = {
  edge: Edge;
  label: string;
  lint: LintMark | null;
  /** Fan-out index among edges joining the same two agents (0 when alone). */
  parallel: number;
};

export type TransferFlowEdge = FlowEdge<TransferEdgeData, "handoff" | "delegation">;

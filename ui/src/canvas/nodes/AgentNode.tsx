import type { NodeProps } from "@xyflow/react";
import { Bot } from "lucide-react";
import { memo } from "react";
import type { AgentFlowNode } from "../types";
import { NodeCard } from "./NodeCard";

function AgentNodeImpl({ data, selected }: NodeProps<AgentFlowNode>) {
  return <NodeCard data={data} selected={selected} kindLabel="agent" variant="agent" icon={<Bot size={16} />} />;
}

export const AgentNode = memo(AgentNodeImpl);

import type { NodeProps } from "@xyflow/react";
import { Network } from "lucide-react";
import { memo } from "react";
import type { AgentFlowNode } from "../types";
import { NodeCard } from "./NodeCard";

function SupervisorNodeImpl({ data, selected }: NodeProps<AgentFlowNode>) {
  return (
    <NodeCard data={data} selected={selected} kindLabel="supervisor" variant="supervisor" icon={<Network size={16} />} />
  );
}

export const SupervisorNode = memo(SupervisorNodeImpl);

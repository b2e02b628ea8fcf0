import type { NodeProps } from "@xyflow/react";
import { UserRound } from "lucide-react";
import { memo } from "react";
import type { AgentFlowNode } from "../types";
import { NodeCard } from "./NodeCard";

function HumanNodeImpl({ data, selected }: NodeProps<AgentFlowNode>) {
  return <NodeCard data={data} selected={selected} kindLabel="human" variant="human" icon={<UserRound size={16} />} />;
}

export const HumanNode = memo(HumanNodeImpl);

import type { EdgeProps } from "@xyflow/react";
import { CornerDownRight } from "lucide-react";
import { memo } from "react";
import type { TransferFlowEdge } from "../types";
import { TransferEdge } from "./TransferEdge";

/** A delegation (agent-as-tool): the caller keeps ownership. Dashed, hollow arrowhead, "delegates". */
function DelegationEdgeImpl(props: EdgeProps<TransferFlowEdge>) {
  return <TransferEdge {...props} variant="delegation" icon={<CornerDownRight size={11} strokeWidth={2.4} />} />;
}

export const DelegationEdge = memo(DelegationEdgeImpl);

import type { EdgeProps } from "@xyflow/react";
import { ArrowRightLeft } from "lucide-react";
import { memo } from "react";
import type { TransferFlowEdge } from "../types";
import { TransferEdge } from "./TransferEdge";

/** A handoff: ownership moves. Solid, thick, filled arrowhead, labelled with its context policy. */
function HandoffEdgeImpl(props: EdgeProps<TransferFlowEdge>) {
  return <TransferEdge {...props} variant="handoff" icon={<ArrowRightLeft size={11} strokeWidth={2.4} />} />;
}

export const HandoffEdge = memo(HandoffEdgeImpl);

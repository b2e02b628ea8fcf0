// What handoff and delegation edges share: geometry, label placement, lint marker, selection.
import { BaseEdge, EdgeLabelRenderer, useInternalNode, type EdgeProps } from "@xyflow/react";
import { ShieldCheck } from "lucide-react";
import type { ReactNode } from "react";
import { useDesigner } from "../../store/designer";
import { SeverityIcon } from "../icons";
import type { TransferFlowEdge } from "../types";
import { backwardPath, forwardPath, isBackward } from "./geometry";

export type TransferEdgeProps = EdgeProps<TransferFlowEdge> & {
  variant: "handoff" | "delegation";
  icon: ReactNode;
};

export function TransferEdge(props: TransferEdgeProps) {
  const { id, source, target, sourceX, sourceY, targetX, targetY, data, selected, variant, icon } = props;
  const sourceNode = useInternalNode(source);
  const targetNode = useInternalNode(target);
  const select = useDesigner((s) => s.setSelection);
  const s = { x: sourceX, y: sourceY };
  const t = { x: targetX, y: targetY };
  const parallel = data?.parallel ?? 0;
  let geo;
  if (isBackward(s, t)) {
    const bottom = Math.max(
      (sourceNode?.internals.positionAbsolute.y ?? sourceY) + (sourceNode?.measured.height ?? 0),
      (targetNode?.internals.positionAbsolute.y ?? targetY) + (targetNode?.measured.height ?? 0),
    );
    geo = backwardPath(s, t, bottom, Math.abs(parallel));
  } else {
    geo = forwardPath(s, t, parallel * 34);
  }
  const verify = data?.edge.acceptance === "verify";
  const lint = data?.readOnly ? null : (data?.lint ?? null);
  const active = data?.active ?? false;
  const marker = `url(#baton-arrow-${variant}${selected || active ? "-selected" : lint ? `-${lint.severity}` : ""})`;
  return (
    <>
      <BaseEdge
        id={id}
        path={geo.path}
        markerEnd={marker}
        interactionWidth={22}
        className={`transfer-path transfer-${variant}${selected ? " is-selected" : ""}${active ? " is-active" : ""}${lint ? ` has-${lint.severity}` : ""}`}
      />
      {active && (
        <g key={String(data?.activeKey ?? "")} className="transfer-pulse" data-testid={`edge-active-${id}`}>
          <circle r="6" className="transfer-pulse-dot">
            <animateMotion dur="0.9s" repeatCount="1" fill="freeze" path={geo.path} />
          </circle>
        </g>
      )}
      <EdgeLabelRenderer>
        <div
          className={`edge-label edge-label-${variant}${selected ? " is-selected" : ""}${active ? " is-active" : ""}${lint ? ` has-${lint.severity}` : ""}${data?.readOnly ? " is-readonly" : ""}`}
          style={{ transform: `translate(-50%, -50%) translate(${geo.label.x}px, ${geo.label.y}px)` }}
          data-testid={`edge-label-${id}`}
          data-kind={variant}
          data-breakpoint={data?.breakpoint ? "true" : undefined}
          onClick={(e) => {
            e.stopPropagation();
            if (data?.readOnly) return;
            const cur = useDesigner.getState().selection;
            if (e.shiftKey || e.metaKey || e.ctrlKey) {
              const has = cur.edges.includes(id);
              select({ agents: cur.agents, edges: has ? cur.edges.filter((x) => x !== id) : [...cur.edges, id] });
            } else {
              select({ agents: [], edges: [id] });
            }
          }}
        >
          {data?.breakpoint && (
            <span
              className={`breakpoint-dot${data.paused ? " is-paused" : ""}`}
              data-testid={`breakpoint-dot-${id}`}
              title={data.paused ? "Paused before this transfer" : "Breakpoint: runs pause before this transfer"}
            />
          )}
          {lint && <SeverityIcon severity={lint.severity} size={12} />}
          <span className="edge-label-icon">{icon}</span>
          <span className="edge-label-text">{data?.label}</span>
          {verify && (
            <span className="badge-verify" title="acceptance: verify — the receiver's “done” must be checked" data-testid={`verify-badge-${id}`}>
              <ShieldCheck size={11} strokeWidth={2.4} /> verify
            </span>
          )}
        </div>
      </EdgeLabelRenderer>
    </>
  );
}

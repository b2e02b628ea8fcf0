// What handoff and delegation edges share: geometry, label placement, lint marker, selection.
import { BaseEdge, EdgeLabelRenderer, useStore, type EdgeProps } from "@xyflow/react";
import { Pin, PinOff, ShieldCheck, UserRound } from "lucide-react";
import type { EdgeFact } from "../../bindings/EdgeFact";
import type { ReactNode } from "react";
import { LARGE_GRAPH } from "../../model/layout-engine";
import { useDesigner } from "../../store/designer";
import { SeverityIcon } from "../icons";
import type { TransferFlowEdge } from "../types";
import { backwardPath, forwardPath, isBackward, labelScaleAt } from "./geometry";

export type TransferEdgeProps = EdgeProps<TransferFlowEdge> & {
  variant: "handoff" | "delegation";
  icon: ReactNode;
};

/** Below this zoom a designer label's 11 px text is under 4.5 px on screen: a large drawing's edges go unlabelled. */
export const FAR_LABEL_ZOOM = 0.4;

export function TransferEdge(props: TransferEdgeProps) {
  const { id, source, target, sourceX, sourceY, targetX, targetY, data, selected, variant, icon } = props;
  const select = useDesigner((s) => s.setSelection);
  const s = { x: sourceX, y: sourceY };
  const t = { x: targetX, y: targetY };
  const backward = isBackward(s, t);
  // Every selector here returns a number or a boolean, so a pan or zoom frame (or a change to an
  // agent it joins) re-renders an edge only when what it draws changes; 3,000 of them are mounted.
  // Only the debugger's labels follow the zoom (scaled to stay legible, compact far out).
  const zoom = useStore((st) => (data?.path ? st.transform[2] : 1));
  // Far out on a large drawing, the designer's labels (unreadable there) are not drawn at all.
  const far = useStore((st) => !data?.path && st.transform[2] < FAR_LABEL_ZOOM && (st.nodeLookup.size > LARGE_GRAPH.nodes || st.edges.length > LARGE_GRAPH.edges));
  // Backwards edges detour below both agents.
  const bottom = useStore((st) => {
    if (!backward) return 0;
    const a = st.nodeLookup.get(source);
    const b = st.nodeLookup.get(target);
    return Math.max((a?.internals.positionAbsolute.y ?? sourceY) + (a?.measured.height ?? 0), (b?.internals.positionAbsolute.y ?? targetY) + (b?.measured.height ?? 0));
  });
  // The debugger wraps a long chain onto rows: an edge back to the start of a lower row runs in
  // the corridor between the rows (a share of the gap down, clear of the lower row's run tags).
  const corridor = useStore((st) => {
    if (!backward || !data?.path) return 0;
    const a = st.nodeLookup.get(source);
    const b = st.nodeLookup.get(target);
    if (!a || !b) return 0;
    const aBottom = a.internals.positionAbsolute.y + (a.measured.height ?? 0);
    const bTop = b.internals.positionAbsolute.y;
    return bTop > aBottom + 8 ? aBottom + (bTop - aBottom) * 0.36 : 0;
  });
  const parallel = data?.parallel ?? 0;
  // In the debugger labels are scaled up below full zoom: lanes are spaced as much, and a lane
  // runs 30 px (on screen) below the nodes, so its chip clears them at any zoom.
  const lane = Math.abs(parallel) * (data?.path ? labelScaleAt(zoom) : 1);
  const geo = corridor ? backwardPath(s, t, corridor, lane, 0) : backward ? backwardPath(s, t, bottom, lane, data?.path ? 30 / zoom : 44) : forwardPath(s, t, parallel * 34);
  const verify = data?.edge.acceptance === "verify";
  const lint = data?.readOnly ? null : (data?.lint ?? null);
  const active = data?.active ?? false;
  // Debugger: the run's use of this edge. A label that would not fit between its nodes (on
  // screen, at its legible size) shows only its icon, count and lost mark.
  const path = data?.path;
  const lost = path?.lost ?? [];
  const compact = !!path && !fits(data?.label ?? "", s, t, zoom, backward);
  const runClass = path ? `${path.count > 0 ? " is-taken" : " is-untaken"}${lost.length ? " is-lossy" : ""}${path.extra ? " is-extra" : ""}` : "";
  const marker = `url(#baton-arrow-${variant}${selected || active ? "-selected" : lost.length ? "-error" : lint ? `-${lint.severity}` : ""})`;
  return (
    <>
      <BaseEdge
        id={id}
        path={geo.path}
        markerEnd={marker}
        interactionWidth={22}
        className={`transfer-path transfer-${variant}${selected ? " is-selected" : ""}${active ? " is-active" : ""}${lint ? ` has-${lint.severity}` : ""}${runClass}`}
      />
      {active && (
        <g key={String(data?.activeKey ?? "")} className="transfer-pulse" data-testid={`edge-active-${id}`}>
          <circle r="6" className="transfer-pulse-dot">
            <animateMotion dur="0.9s" repeatCount="1" fill="freeze" path={geo.path} />
          </circle>
        </g>
      )}
      {!far && (
        <EdgeLabelRenderer>
          <div
            className={`edge-label edge-label-${variant}${selected ? " is-selected" : ""}${active ? " is-active" : ""}${lint ? ` has-${lint.severity}` : ""}${data?.readOnly ? " is-readonly" : ""}${runClass}${compact ? " is-compact" : ""}`}
            style={{
              transform: `translate(-50%, -50%) translate(${geo.label.x}px, ${geo.label.y}px)${path ? " scale(var(--dbg-label-scale, 1))" : ""}`,
              // A designer label never covers the agents it joins: its text gives way (whole in the tooltip).
              maxWidth: !path && !backward ? Math.max(96, Math.abs(targetX - sourceX) - 12) : undefined,
            }}
            data-testid={`edge-label-${id}`}
            data-kind={variant}
            data-count={path?.count}
            data-lost={lost.length ? lost.join(" ") : undefined}
            data-extra={path?.extra ?? undefined}
            title={path ? `${data?.label}${path.count ? ` · crossed ${path.count}×` : " · not crossed in this run"}${lost.length ? ` · lost here: ${lost.join(", ")}` : ""}` : data?.label}
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
            <span className="edge-label-icon">{path?.extra === "escalation" ? <UserRound size={11} strokeWidth={2.4} /> : icon}</span>
            {!compact && <span className="edge-label-text">{data?.label}</span>}
            {path && path.count > 0 && (
              <span className="edge-count" data-testid={`edge-count-${id}`}>
                {path.count}×
              </span>
            )}
            {lost.length > 0 && (
              <span className="edge-lost" data-testid={`edge-lost-${id}`} title={`Pinned fact lost here: ${lost.join(", ")}`}>
                <PinOff size={10} strokeWidth={2.6} />
                {compact ? lost.length : `lost ${lost.join(", ")}`}
              </span>
            )}
            {!path && <FactChip id={id} facts={data?.facts} />}
            {verify && !compact && (
              <span className="badge-verify" title="acceptance: verify — the receiver's “done” must be checked" data-testid={`verify-badge-${id}`}>
                <ShieldCheck size={11} strokeWidth={2.4} /> verify
              </span>
            )}
          </div>
        </EdgeLabelRenderer>
      )}
    </>
  );
}

const CROSSING_TEXT: Record<EdgeFact["crossing"], string> = {
  held: "the receiver holds it too",
  if_stated: "crosses only if the sender states it in the conversation",
  blocked: "cannot cross: the policy passes no history",
  withheld: "not passed to the worker; the caller keeps it",
};

/**
 * Design time: the pinned facts the sender may have and what this edge does with them — a red
 * chip when one cannot cross a handoff, grey when it crosses only if stated, kept at delegations.
 */
function FactChip({ id, facts }: { id: string; facts: EdgeFact[] | undefined }) {
  if (!facts || facts.length === 0) return null;
  const blocked = facts.filter((f) => f.crossing === "blocked");
  const state = blocked.length ? "blocked" : facts.every((f) => f.crossing === "held") ? "held" : facts.some((f) => f.crossing === "withheld") ? "withheld" : "if_stated";
  const title = facts.map((f) => `${f.fact}: ${CROSSING_TEXT[f.crossing]}`).join("\n");
  return (
    <span className={`fact-chip is-${state}`} data-testid={`fact-chip-${id}`} data-state={state} data-facts={facts.map((f) => `${f.fact}=${f.crossing}`).join(" ")} title={title}>
      {blocked.length ? <PinOff size={10} strokeWidth={2.6} /> : <Pin size={10} strokeWidth={2.6} />}
      {blocked.length ? `${blocked.length} can't cross` : facts.length}
    </span>
  );
}

/**
 * Whether a label fits between its two nodes on screen at its legible size (about 6.4 px a
 * character at 11 px, plus its icon and badges); an edge routed below the nodes has room.
 */
function fits(label: string, s: { x: number; y: number }, t: { x: number; y: number }, zoom: number, backward: boolean): boolean {
  if (backward) return true;
  // its text is 10 px scaled to 11.2 px on screen below full zoom, and grows with the zoom above
  const need = (label.length * 6.4 + 64) * Math.max(1, zoom / 1.12);
  const room = Math.abs(t.x - s.x) * zoom - 12;
  return need <= room;
}

// The card all agent node types share: header (icon, name, kind), model line, footer chips,
// entry marker, lint marker and the two handles.
import { Handle, Position } from "@xyflow/react";
import { Pin, Play, ShieldCheck, Wrench } from "lucide-react";
import "../../styles/guardrails.css";
import type { ReactNode } from "react";
import { PROVIDER_LABELS } from "../../model/topology";
import { SeverityIcon } from "../icons";
import { wordBreaks } from "./wordBreaks";
import type { AgentNodeData } from "../types";

export function NodeCard({
  data,
  selected,
  kindLabel,
  icon,
  variant,
  children,
}: {
  data: AgentNodeData;
  selected: boolean;
  kindLabel: string;
  icon: ReactNode;
  variant: "agent" | "supervisor" | "human";
  children?: ReactNode;
}) {
  const { agent, isEntry, lint, toolCount, facts, run, path, guardrails } = data;
  const model = agent.model;
  const runClass = run ? `${run.owner ? " run-owner" : ""}${run.acting ? " run-acting" : ""}${run.dim ? " run-dim" : ""}` : "";
  const tagged = Boolean(run && (run.owner || run.acting));
  return (
    <div
      className={`node-card node-${variant}${selected ? " is-selected" : ""}${lint ? ` has-${lint.severity}` : ""}${runClass}`}
      data-testid={`node-${agent.id}`}
      data-kind={variant}
      data-entry={isEntry ? "true" : undefined}
      data-run={run ? (run.acting ? "acting" : run.owner ? "owner" : "idle") : undefined}
      data-visits={path?.visits}
    >
      {tagged && run && (
        <div className="node-run-tag" data-testid={`run-tag-${agent.id}`}>
          {/* one tag for both: the entry marker and the run tag would overlap on a narrow node */}
          {isEntry ? "entry · " : ""}
          {run.acting && run.owner ? "acting · owner" : run.acting ? "acting" : "owner, waiting"}
        </div>
      )}
      <Handle type="target" position={Position.Left} className="node-handle" />
      {isEntry && !tagged && (
        <div className="node-entry" title="Entry agent: receives the user's first message" data-testid="entry-marker">
          <Play size={9} strokeWidth={3} fill="currentColor" /> Entry
        </div>
      )}
      {lint && (
        <div
          className={`node-lint sev-bg-${lint.severity}`}
          title={lint.codes.join(", ")}
          data-testid={`lint-marker-${agent.id}`}
          data-severity={lint.severity}
        >
          <SeverityIcon severity={lint.severity} size={12} />
          {lint.count > 1 && <span>{lint.count}</span>}
        </div>
      )}
      <div className="node-header">
        <div className="node-icon">{icon}</div>
        <div className="node-titles">
          <div className="node-name" title={agent.name || agent.id}>
            {agent.name ? wordBreaks(agent.name).flatMap((part, i) => (i ? [<wbr key={i} />, part] : [part])) : <em className="muted">unnamed</em>}
          </div>
          <div className="node-id" title={agent.id}>
            {agent.id}
          </div>
        </div>
        <span className="node-kind">{kindLabel}</span>
      </div>
      {path && (
        <div
          className={`node-visits${path.visits === 0 && path.steps === 0 ? " is-unvisited" : ""}`}
          data-testid={`node-visits-${agent.id}`}
          title={path.visits === 0 && path.steps === 0 ? "The run never reached this agent" : `Got the conversation ${path.visits}× · acted at ${path.steps} ${path.steps === 1 ? "step" : "steps"}`}
        >
          {path.visits === 0 && path.steps === 0 ? "not reached" : `${path.visits}× · ${path.steps} ${path.steps === 1 ? "step" : "steps"}`}
        </div>
      )}
      <div className="node-body">
        {model ? (
          <div className="node-model" title={`${PROVIDER_LABELS[model.provider]} · ${model.name}`}>
            <span className={`provider-dot provider-${model.provider}`} />
            <span className="node-provider">{model.provider}</span>
            <span className="node-model-sep">/</span>
            <span className="node-model-name">{model.name || "—"}</span>
          </div>
        ) : (
          <div className="node-model muted">{variant === "human" ? "a person takes over" : "no model"}</div>
        )}
        {children}
      </div>
      {(toolCount > 0 || facts > 0 || guardrails) && (
        <div className="node-footer">
          {toolCount > 0 && (
            <span className="chip">
              <Wrench size={11} /> {toolCount} {toolCount === 1 ? "tool" : "tools"}
            </span>
          )}
          {facts > 0 && (
            <span className="chip chip-fact" title="Holds pinned facts">
              <Pin size={11} /> {facts} {facts === 1 ? "fact" : "facts"}
            </span>
          )}
          {guardrails && (
            <span
              className="chip chip-guardrail"
              title={guardrails.title}
              data-testid={`guardrail-badge-${agent.id}`}
              data-input={guardrails.input}
              data-output={guardrails.output}
            >
              <ShieldCheck size={11} />
              {guardrails.input > 0 && <span>{guardrails.input} in</span>}
              {guardrails.input > 0 && guardrails.output > 0 && <span className="chip-sep">·</span>}
              {guardrails.output > 0 && <span>{guardrails.output} out</span>}
            </span>
          )}
        </div>
      )}
      <Handle type="source" position={Position.Right} className="node-handle" />
    </div>
  );
}

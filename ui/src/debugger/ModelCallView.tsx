// A model-call step's call: model, latency, finish reason, tokens and cost where the step holds
// them, and the recorded request and response (`Step.exchange`) as collapsible JSON.
import { useMemo } from "react";
import { callSummary } from "../run/exchange";
import { formatDuration } from "../run/format";
import type { StepBrief, StepView } from "../run/types";
import { useDebugger } from "../store/debugger";
import { JsonView } from "./JsonView";
import "../styles/charts.css";

const latency = (v: number) => (v < 10 ? `${v.toFixed(1)} ms` : formatDuration(v));

export function ModelCallView({ view, brief }: { view: StepView; brief: StepBrief | undefined }) {
  const topology = useDebugger((s) => s.topology);
  const agent = topology?.agents.find((a) => a.id === view.step.agent);
  const configured = agent?.model ? `${agent.model.provider}/${agent.model.name}` : null;
  const c = useMemo(() => callSummary(view.step, brief, configured), [view.step, brief, configured]);
  const rows: [string, string, string][] = [];
  if (c.model) rows.push(["model", "Model", `${c.model}${c.modelFrom === "topology" ? " (the agent's configuration)" : ""}`]);
  if (c.latencyMs !== null) rows.push(["latency", "Latency", latency(c.latencyMs)]);
  if (c.finishReason) rows.push(["finish", "Finish reason", c.finishReason]);
  if (c.inputTokens !== null || c.outputTokens !== null) {
    rows.push(["tokens", "Tokens", `${(c.inputTokens ?? 0).toLocaleString()} in · ${(c.outputTokens ?? 0).toLocaleString()} out`]);
  }
  if (c.cost !== null) rows.push(["cost", "Cost", `$${c.cost.toFixed(c.cost < 0.01 ? 6 : 4)} (as the provider reported it)`]);
  const missing = [c.latencyMs === null && "latency", c.finishReason === null && "finish reason", c.cost === null && "cost"].filter(Boolean);
  return (
    <div className="chart-pane" data-testid="model-call" data-step={view.step.index}>
      <dl className="call-kv">
        {rows.map(([id, label, value]) => (
          <div key={id} style={{ display: "contents" }} data-testid={`call-${id}`}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {missing.length > 0 && (
        <p className="muted" data-testid="call-missing">
          This step does not record its {missing.join(", ")}
          {c.request === null ? ": it has no provider exchange (mock scripts and imported traces keep none)." : "."}
        </p>
      )}
      {c.request !== null && (
        <details className="json-block" open data-testid="call-request">
          <summary>Request</summary>
          <JsonView value={c.request} />
        </details>
      )}
      {c.response !== null && (
        <details className="json-block" open data-testid="call-response">
          <summary>Response</summary>
          <JsonView value={c.response} />
        </details>
      )}
    </div>
  );
}

// What the acting agent sees at a step (its input, for a model call), then what the step made.
import { Eye, FileOutput } from "lucide-react";
import { useCallback, useMemo } from "react";
import { formatTokens } from "../run/format";
import { contextTokens, type Item, type StepView } from "../run/types";
import { ItemCard } from "./ItemCard";
import { provenance } from "./provenance";
import type { AgentLookups } from "./lookups";
import { MeasuredList } from "./MeasuredList";

export function ContextPanel({ view, lookups }: { view: StepView; lookups: AgentLookups }) {
  const { palette, agentName } = lookups;
  const byId = useMemo(() => {
    const m = new Map<string, Item>();
    for (const i of view.transfer?.items ?? []) m.set(i.id, i);
    for (const i of view.context) m.set(i.id, i);
    for (const i of view.output) m.set(i.id, i);
    return m;
  }, [view]);
  const lookup = useCallback((id: string) => byId.get(id), [byId]);
  const tokens = useMemo(() => contextTokens(view.context), [view.context]);
  const agent = agentName(view.step.agent);
  const render = (list: readonly Item[], testId: string) => (i: number) => {
    const item = list[i] as Item;
    return (
      <ItemCard
        item={item}
        color={palette(item.agent)}
        agent={agentName(item.agent)}
        title={provenance(item, agentName, lookup)}
        testId={testId}
      />
    );
  };

  return (
    <div className="context-panel" data-testid="context-panel" data-step={view.step.index}>
      <div className="pane-head">
        <Eye size={14} className="muted" />
        <span className="pane-title">
          What <strong style={{ color: palette(view.step.agent) }}>{agent}</strong> sees
        </span>
        <span className="pane-meta" data-testid="context-tokens" data-tokens={tokens}>
          {view.context.length} {view.context.length === 1 ? "item" : "items"} · ~{formatTokens(tokens)} tokens
        </span>
      </div>
      {view.context.length === 0 ? (
        <div className="pane-empty">This step sees no context.</div>
      ) : (
        <MeasuredList className="context-list" count={view.context.length} render={render(view.context, "context-item")} />
      )}
      <div className="output-section" data-testid="step-output">
        <div className="pane-head sub">
          <FileOutput size={14} className="muted" />
          <span className="pane-title">Output of this step</span>
          <span className="pane-meta">
            {view.output.length} {view.output.length === 1 ? "item" : "items"}
          </span>
        </div>
        {view.output.length === 0 ? (
          <div className="pane-empty">{view.step.detail || "No items created."}</div>
        ) : (
          <MeasuredList className="output-list" count={view.output.length} render={render(view.output, "output-item")} />
        )}
      </div>
    </div>
  );
}

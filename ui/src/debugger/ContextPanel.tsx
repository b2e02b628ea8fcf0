// What the acting agent sees at a step (its input, for a model call), then what the step made.
// A long context is listed whole but loaded a page at a time as it scrolls (useContextPages).
import { Eye, FileOutput } from "lucide-react";
import { memo, useCallback, useMemo } from "react";
import { formatTokens } from "../run/format";
import { contextTokens, type Item, type StepView } from "../run/types";
import { useContextPages } from "./useContextPages";
import { ItemCard } from "./ItemCard";
import { provenance } from "./provenance";
import type { AgentLookups } from "./lookups";
import { MeasuredList } from "./MeasuredList";

/**
 * Memoised: while the next step's view loads, the debugger renders again with the last view, which
 * this panel then skips (issue #32 item 2).
 */
export const ContextPanel = memo(function ContextPanel({ runId, view, lookups }: { runId: string; view: StepView; lookups: AgentLookups }) {
  const { palette, agentName } = lookups;
  const pages = useContextPages(runId, view);
  const paged = view.context_total > view.context.length;
  const byId = useMemo(() => {
    const m = new Map<string, Item>();
    for (const i of view.transfer?.items ?? []) m.set(i.id, i);
    for (const i of view.context) m.set(i.id, i);
    for (const i of view.output) m.set(i.id, i);
    return m;
  }, [view]);
  const lookup = useCallback((id: string) => byId.get(id), [byId]);
  // A paged context's size in tokens would need every item: a model call's counted input stands in.
  const tokens = useMemo(() => (paged ? (view.step.usage?.input_tokens ?? null) : contextTokens(view.context)), [paged, view]);
  const agent = agentName(view.step.agent);
  const render = (list: readonly Item[] | ((i: number) => Item | undefined), testId: string) => (i: number) => {
    const item = typeof list === "function" ? list(i) : list[i];
    if (!item) {
      return (
        <div className="item-card is-loading" data-testid="context-item-loading" data-row={i}>
          Loading item {i + 1}…
        </div>
      );
    }
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
        <span className="pane-meta" data-testid="context-tokens" data-tokens={tokens ?? undefined} data-total={view.context_total}>
          {view.context_total.toLocaleString("en-US")} {view.context_total === 1 ? "item" : "items"}
          {tokens === null ? "" : paged ? ` · ${formatTokens(tokens)} input tokens` : ` · ~${formatTokens(tokens)} tokens`}
        </span>
      </div>
      {pages.error && (
        <div className="pane-error" role="alert" data-testid="context-page-error">
          Part of this context could not be loaded: {pages.error}. Scroll to retry.
        </div>
      )}
      {view.context_total === 0 ? (
        <div className="pane-empty">This step sees no context.</div>
      ) : (
        <MeasuredList
          className="context-list"
          testId="context-list"
          count={view.context_total}
          render={render(paged ? pages.at : view.context, "context-item")}
          onRange={paged ? pages.show : undefined}
        />
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
});

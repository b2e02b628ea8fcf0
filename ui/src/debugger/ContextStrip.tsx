// The debugger's context-size strip: how many items each step's agent saw, so a lossy handoff
// (13 items → 2) shows at a glance; the chart (uPlot) loads lazily, outside the start-up bundle.
import { ChevronDown, ChevronRight, TrendingDown } from "lucide-react";
import { Component, lazy, Suspense, useMemo, useState, type ReactNode } from "react";
import { contextSeries, thinned } from "../run/charts";
import { STEP_LABELS } from "../run/format";
import { useDebugger } from "../store/debugger";
import type { AgentLookups } from "./lookups";
import "../styles/charts.css";

const ContextChart = lazy(() => import("./ContextChart"));

const HEIGHT = 96;

/** A chart that failed to load or draw says so; the debugger goes on. */
export class ChartBoundary extends Component<{ children: ReactNode; what: string }, { error: string | null }> {
  override state = { error: null as string | null };
  static getDerivedStateFromError(e: unknown) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
  override render() {
    if (this.state.error) {
      return (
        <div className="pane-empty text-error" role="alert" data-testid="chart-error">
          Could not show {this.props.what}: {this.state.error}
        </div>
      );
    }
    return this.props.children;
  }
}

export function ContextStrip({ lookups, onPick }: { lookups: AgentLookups; onPick: (step: number) => void }) {
  const overview = useDebugger((s) => s.overview)!;
  const cursor = useDebugger((s) => s.cursor);
  const [open, setOpen] = useState(true);
  const [hover, setHover] = useState<number | null>(null);
  const series = useMemo(() => thinned(contextSeries(overview.steps, overview.transfers)), [overview]);
  const shown = hover ?? cursor;
  const step = overview.steps.at(shown);
  const mark = series.marks.find((m) => m.step === shown);
  const items = step?.context_len ?? null;
  const drop = series.biggestDrop;

  return (
    <section className={`ctx-strip${open ? "" : " is-folded"}`} data-testid="context-chart" data-has-items={series.hasItems ? "true" : "false"} data-max={series.maxItems} aria-label="Context size per step">
      <header className="ctx-strip-head">
        <button type="button" className="icon-btn ctx-fold" aria-expanded={open} aria-label={open ? "Fold the context chart" : "Show the context chart"} onClick={() => setOpen(!open)} data-testid="context-chart-fold">
          {open ? <ChevronDown size={13} /> : <ChevronRight size={13} />}
        </button>
        <h3>Context size</h3>
        <span className="ctx-legend" aria-hidden="true">
          <span className="ctx-key ctx-key-items" /> items seen
          {series.hasTokens && (
            <>
              <span className="ctx-key ctx-key-tokens" /> tokens (model calls)
            </>
          )}
          <span className="ctx-key ctx-key-handoff" /> handoff
          <span className="ctx-key ctx-key-delegation" /> delegation
          <span className="ctx-key ctx-key-lost" /> fact lost
        </span>
        <span className="ctx-readout" data-testid="context-readout" data-step={step?.index}>
          {step && (
            <>
              <span className="mono">#{step.index}</span> {STEP_LABELS[step.kind]} · <span style={{ color: lookups.palette(step.agent) }}>{lookups.agentName(step.agent)}</span>
              {mark ? (
                <>
                  {" "}
                  · <b>{mark.before}</b> → <b>{mark.after}</b> items
                </>
              ) : items !== null ? (
                <>
                  {" "}
                  · <b>{items}</b> {items === 1 ? "item" : "items"}
                </>
              ) : null}
              {step.tokens !== null && <> · {Number(step.tokens).toLocaleString()} tok</>}
            </>
          )}
        </span>
        {!open && drop && (
          <span className="ctx-drop-note" title="The largest drop in context at a transfer">
            <TrendingDown size={12} /> {drop.before} → {drop.after} at step {drop.step}
          </span>
        )}
      </header>
      {open &&
        (series.hasItems || series.hasTokens ? (
          <ChartBoundary what="the context chart">
            <Suspense fallback={<div className="ctx-chart-loading" style={{ height: HEIGHT }} />}>
              <ContextChart
                series={series}
                steps={overview.steps}
                palette={lookups.palette}
                agentName={lookups.agentName}
                onPick={onPick}
                onHover={setHover}
                height={HEIGHT}
              />
            </Suspense>
          </ChartBoundary>
        ) : (
          <div className="pane-empty ctx-none" data-testid="context-chart-none">
            This run&apos;s store kept no context sizes or token counts per step (it was saved before they were kept).
          </div>
        ))}
    </section>
  );
}

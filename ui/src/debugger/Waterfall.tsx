// The timing waterfall: a bar per step from its start to its end (ms from the run's start), the
// steps inside a delegation indented under it with the delegation's whole span behind them, in
// the acting agent's colour; a click moves the cursor. Rows are virtualised (10,000 steps scroll)
// and memoised: a step renders the two rows whose selection moved (issue #32 item 2).
import { useVirtualizer } from "@tanstack/react-virtual";
import { Timer } from "lucide-react";
import { memo, useEffect, useMemo, useRef } from "react";
import { StepKindIcon } from "../run/badges";
import { barBox, waterfall, type Waterfall as WaterfallData, type WaterfallRow as Row } from "../run/charts";
import { Steps } from "../run/steps";
import { formatDuration, STEP_LABELS } from "../run/format";
import { useDebugger } from "../store/debugger";
import type { AgentLookups } from "./lookups";
import "../styles/charts.css";

const ROW = 24;

/** Durations with a decimal below 10 ms (mock runs take fractions of one). */
const ms = (v: number | null) =>
  v !== null && v >= 0 && v < 10 ? (v > 0 && v < 0.05 ? "<0.1 ms" : `${v.toFixed(1)} ms`) : formatDuration(v);

const pct = (f: number) => `${(f * 100).toFixed(3)}%`;

function tickLabel(v: number, total: number): string {
  if (v === 0) return "0";
  if (total >= 2000) return `${(v / 1000).toFixed(v % 1000 === 0 ? 0 : 1)} s`;
  if (total < 10) return `${Number(v.toFixed(2))} ms`;
  return `${Math.round(v)} ms`;
}

export function Waterfall({ lookups, onPick }: { lookups: AgentLookups; onPick: (step: number) => void }) {
  const steps = useDebugger((s) => s.overview?.steps);
  const cursor = useDebugger((s) => s.cursor);
  const w = useMemo(() => waterfall(steps ?? Steps.of([])), [steps]);
  const maxDepth = useMemo(() => w.rows.reduce((m, r) => Math.max(m, r.depth), 0), [w]);
  const scrollRef = useRef<HTMLDivElement>(null);
  // TanStack Virtual hands back an imperative object; the React Compiler skips this component.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: w.rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW,
    overscan: 10,
    initialRect: { width: 600, height: 300 },
  });
  useEffect(() => {
    if (w.timed > 0 && cursor >= 0 && cursor < w.rows.length) virtualizer.scrollToIndex(cursor, { align: "auto" });
  }, [cursor, w.timed, w.rows.length, virtualizer]);

  if (w.timed === 0) {
    return (
      <div className="chart-pane" data-testid="waterfall" data-timed="0">
        <div className="wf-none" data-testid="waterfall-none">
          <Timer size={14} /> No step of this run kept its time, so there is no waterfall to draw. Runs saved before step times were kept have none;
          imported traces have them where the source recorded start and end times (OTLP spans, Agents SDK exports).
        </div>
      </div>
    );
  }
  const { palette, agentName } = lookups;
  const labelW = 220 + Math.min(maxDepth, 4) * 14;
  const gridPct = w.ticks.length > 1 && w.total > 0 ? ((w.ticks[1] as number) / w.total) * 100 : 25;
  return (
    <div
      className="wf"
      data-testid="waterfall"
      data-timed={w.timed}
      data-total={w.total}
      style={{ ["--wf-label-w" as string]: `${labelW}px`, ["--wf-grid" as string]: `${gridPct}%` }}
    >
      <div className="wf-axis" aria-hidden="true">
        <span>
          {w.timed === w.rows.length ? `${w.rows.length} steps` : `${w.timed} of ${w.rows.length} steps timed`} · {ms(w.total)}
        </span>
        <div className="wf-ticks">
          {w.ticks.map((t) => (
            <span key={t} className="wf-tick" style={{ left: pct(t / w.total) }}>
              {tickLabel(t, w.total)}
            </span>
          ))}
        </div>
        <span />
      </div>
      <div className="wf-scroll" ref={scrollRef} role="listbox" aria-label="Steps by time" aria-activedescendant={`wf-row-${cursor}`}>
        <div className="wf-inner" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((v) => {
            const r = w.rows[v.index]!;
            return <WaterfallRow key={v.key as number} w={w} r={r} top={v.start} color={palette(r.agent)} agent={agentName(r.agent)} current={r.step === cursor} onPick={onPick} />;
          })}
        </div>
      </div>
    </div>
  );
}

const WaterfallRow = memo(function WaterfallRow({
  w,
  r,
  top,
  color,
  agent,
  current,
  onPick,
}: {
  w: WaterfallData;
  r: Row;
  top: number;
  color: string;
  agent: string;
  current: boolean;
  onPick: (step: number) => void;
}) {
  const bar = r.start !== null && r.end !== null ? barBox(w, r.start, r.end) : null;
  const span = r.span ? barBox(w, r.span.start, r.span.end) : null;
  const dur = r.start !== null && r.end !== null ? r.end - r.start : null;
  return (
    <div
      id={`wf-row-${r.step}`}
      role="option"
      aria-selected={current}
      className={`wf-row${current ? " is-current" : ""}`}
      style={{ transform: `translateY(${top}px)`, height: ROW }}
      data-testid="waterfall-row"
      data-step={r.step}
      data-kind={r.kind}
      data-agent={r.agent}
      data-depth={r.depth}
      data-start={r.start ?? undefined}
      data-end={r.end ?? undefined}
      onClick={() => onPick(r.step)}
      title={`#${r.step} · ${STEP_LABELS[r.kind]} · ${agent}${dur !== null ? ` · ${ms(dur)} from ${ms(r.start)}` : " · no time recorded"}\n${r.detail}`}
    >
      <span className="wf-label" style={{ paddingLeft: r.depth * 14 }}>
        <span className="tl-index mono">{r.step}</span>
        <StepKindIcon kind={r.kind} size={12} />
        <span className="tl-dot" style={{ background: color }} />
        <span className="wf-label-text">
          <b style={{ color }}>{agent}</b> {r.detail}
        </span>
      </span>
      <span className="wf-track">
        {span && <span className="wf-span" style={{ left: pct(span.left), width: pct(span.width) }} data-testid="waterfall-span" />}
        {bar ? (
          <span className={`wf-bar${bar.width * 1000 < 1 ? " is-instant" : ""}`} data-testid="waterfall-bar" style={{ left: pct(bar.left), width: pct(bar.width), background: color }} />
        ) : (
          <span className="wf-notime">no time</span>
        )}
      </span>
      <span className="wf-dur">{dur !== null ? ms(dur) : "—"}</span>
    </div>
  );
});

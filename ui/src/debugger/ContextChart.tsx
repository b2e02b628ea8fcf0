// The context-size chart itself (uPlot on a canvas, loaded lazily): items each step's agent
// sees, a model call's tokens on the right axis, a mark at each transfer (handoffs solid,
// delegations dashed, a lost fact red, an escalation amber) with a chip saying "13 → 2", and the
// cursor. A click picks the nearest step. Its colours are the theme's (--chart-* and the agents'
// --agent-* variables, read when the chart is drawn; a theme change draws it again). The cursor
// line and the current transfer's chip read the debugger's cursor themselves: a step moves them
// without drawing the chart again (issue #32 item 2).
import { ArrowRightLeft, CornerDownRight, PinOff, UserRound } from "lucide-react";
import { memo, useEffect, useRef, useState } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { nearestStep, type ContextSeries, type TransferMark } from "../run/charts";
import type { AgentPalette } from "../run/palette";
import type { Steps } from "../run/types";
import { useDebugger } from "../store/debugger";
import { useTheme } from "../store/theme";

export type ContextChartProps = {
  series: ContextSeries;
  steps: Steps;
  palette: AgentPalette;
  agentName: (id: string) => string;
  onPick: (step: number) => void;
  onHover: (step: number | null) => void;
  height: number;
};

/** The chart's colours: the --chart-* variables (styles/app.css) as `el` sees them, the light values if unset. */
const LIGHT = {
  line: "#4f46e5",
  tokens: "#94a3b8",
  grid: "#eef0f3",
  axis: "#667085",
  ring: "#ffffff",
  handoff: "#334155",
  delegation: "#0f766e",
  lost: "#dc2626",
  escalation: "#d97706",
};
type Colors = typeof LIGHT;
const VARS: Record<keyof Colors, string> = {
  line: "--chart-items",
  tokens: "--chart-tokens",
  grid: "--chart-grid",
  axis: "--chart-axis",
  ring: "--chart-point-ring",
  handoff: "--chart-handoff",
  delegation: "--chart-delegation",
  lost: "--chart-lost",
  escalation: "--chart-escalation",
};

function chartColors(el: Element): Colors {
  const style = getComputedStyle(el);
  const out = { ...LIGHT };
  for (const k of Object.keys(VARS) as (keyof Colors)[]) out[k] = style.getPropertyValue(VARS[k]).trim() || LIGHT[k];
  return out;
}

/** A colour a canvas can use: `var(--name)` (an agent's colour) as `el` computes it. */
function resolveColor(color: string, style: CSSStyleDeclaration): string {
  const m = /^var\((--[\w-]+)\)$/.exec(color);
  return m ? style.getPropertyValue(m[1] as string).trim() || "#64748b" : color;
}

/** Where the plot sits inside the chart (CSS px) and the x range it shows. */
type Geometry = { left: number; top: number; width: number; height: number; min: number; max: number };

const markColor = (m: TransferMark, c: Colors) => (m.lost.length ? c.lost : m.escalation ? c.escalation : m.kind === "delegation" ? c.delegation : c.handoff);

/** Whether this document can draw on a canvas (a test DOM cannot; uPlot would throw later). */
function canDraw(): boolean {
  try {
    return document.createElement("canvas").getContext("2d") !== null;
  } catch {
    return false;
  }
}

/** The marks that get a chip: lost facts first, then the largest changes, none closer than a chip's width. */
function chipsThatFit(marks: readonly TransferMark[], px: (x: number) => number): TransferMark[] {
  const rank = [...marks].sort((a, b) => b.lost.length - a.lost.length || Math.abs(b.before - b.after) - Math.abs(a.before - a.after) || a.step - b.step);
  const placed: number[] = [];
  const out: TransferMark[] = [];
  for (const m of rank) {
    const x = px(m.step - 0.25);
    if (placed.some((p) => Math.abs(p - x) < 54)) continue;
    placed.push(x);
    out.push(m);
  }
  return out.sort((a, b) => a.step - b.step);
}

function ContextChart({ series, steps, palette, agentName, onPick, onHover, height }: ContextChartProps) {
  const host = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const [geom, setGeom] = useState<Geometry | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const theme = useTheme((s) => s.theme);
  // The latest callbacks and data, read by uPlot's hooks (which are bound once per chart).
  const live = useRef({ series, steps, palette, onPick, onHover });
  useEffect(() => {
    live.current = { series, steps, palette, onPick, onHover };
  });

  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const n = steps.length;
    const min = -0.8;
    const max = Math.max(n - 0.2, 0.8);
    const colors = chartColors(el);
    const geometry = (u: uPlot) => {
      const r = window.devicePixelRatio || 1;
      const g = { left: u.bbox.left / r, top: u.bbox.top / r, width: u.bbox.width / r, height: u.bbox.height / r, min, max };
      setGeom((p) => (p && p.left === g.left && p.width === g.width && p.top === g.top && p.height === g.height && p.min === min && p.max === max ? p : g));
    };
    const drawMarks = (u: uPlot) => {
      const { series: s, steps: st, palette: pal } = live.current;
      const ctx = u.ctx;
      const r = window.devicePixelRatio || 1;
      const top = u.bbox.top;
      const bottom = u.bbox.top + u.bbox.height;
      ctx.save();
      // a mark in the middle of each transfer's drop (or rise)
      for (const m of s.marks) {
        const x = Math.round(u.valToPos(m.step - 0.25, "x", true));
        ctx.strokeStyle = markColor(m, colors);
        ctx.globalAlpha = 0.55;
        ctx.lineWidth = (m.lost.length ? 2 : 1.25) * r;
        ctx.setLineDash(m.kind === "delegation" ? [4 * r, 3 * r] : []);
        ctx.beginPath();
        ctx.moveTo(x, top);
        ctx.lineTo(x, bottom);
        ctx.stroke();
      }
      ctx.setLineDash([]);
      ctx.globalAlpha = 1;
      // the points, in the acting agent's colour (a transfer's before-point in the sender's)
      const items = s.items;
      const fromOf = new Map(s.marks.map((m) => [m.step, m.from]));
      const size = (s.x.length > 400 ? 1.6 : 3.2) * r;
      const style = getComputedStyle(el);
      const agentColor = new Map<string, string>();
      for (let i = 0; i < s.x.length; i++) {
        const v = items[i];
        if (v == null) continue;
        const xv = s.x[i] as number;
        const stepIdx = s.stepOf[i] as number;
        const before = xv !== stepIdx;
        const agent = before ? (fromOf.get(stepIdx) ?? "") : (stepIdx - st.first < st.length ? st.agentOf(stepIdx - st.first) : "");
        let fill = agentColor.get(agent);
        if (fill === undefined) agentColor.set(agent, (fill = resolveColor(pal(agent), style)));
        ctx.fillStyle = fill;
        ctx.strokeStyle = colors.ring;
        ctx.lineWidth = 1 * r;
        ctx.beginPath();
        ctx.arc(u.valToPos(xv, "x", true), u.valToPos(v, "y", true), size, 0, Math.PI * 2);
        ctx.fill();
        if (s.x.length <= 400) ctx.stroke();
      }
      ctx.restore();
    };
    const opts: uPlot.Options = {
      width: Math.max(200, el.clientWidth),
      height,
      legend: { show: false },
      cursor: { y: false, points: { show: false }, drag: { x: false, y: false, setScale: false } },
      select: { show: false, left: 0, top: 0, width: 0, height: 0 },
      padding: [8, 8, 0, 4],
      scales: {
        x: { time: false, range: [min, max] },
        y: { range: (_u, _lo, hi) => [0, Math.max(4, Math.ceil((hi || 1) * 1.15))] },
        tok: { range: (_u, _lo, hi) => [0, Math.max(10, Math.ceil((hi || 1) * 1.15))] },
      },
      axes: [
        {
          stroke: colors.axis,
          grid: { show: false },
          ticks: { stroke: colors.grid, size: 3 },
          size: 22,
          font: "11px Inter Variable, Inter, system-ui, sans-serif",
          incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000],
          values: (_u, vals) => vals.map((v) => (Number.isInteger(v) && v >= 0 ? String(v) : "")),
        },
        {
          stroke: colors.axis,
          grid: { stroke: colors.grid, width: 1 },
          ticks: { show: false },
          size: 34,
          font: "11px Inter Variable, Inter, system-ui, sans-serif",
          incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000],
          values: (_u, vals) => vals.map((v) => (Number.isInteger(v) ? String(v) : "")),
        },
        ...(series.hasTokens
          ? [
              {
                scale: "tok",
                side: 1 as const,
                stroke: colors.tokens,
                grid: { show: false },
                ticks: { show: false },
                size: 40,
                font: "11px Inter Variable, Inter, system-ui, sans-serif",
                values: (_u: uPlot, vals: number[]) => vals.map((v) => (v >= 1000 ? `${(v / 1000).toFixed(1)}k` : String(v))),
              },
            ]
          : []),
      ],
      series: [
        {},
        { label: "items", stroke: colors.line, width: 1.75, points: { show: false }, spanGaps: true },
        { label: "tokens", scale: "tok", stroke: colors.tokens, width: 1, dash: [3, 3], spanGaps: true, points: { show: true, size: 4, stroke: colors.tokens, fill: colors.ring } },
      ],
      hooks: {
        ready: [geometry],
        setSize: [geometry],
        draw: [drawMarks],
        setCursor: [
          (u) => {
            const idx = u.cursor.idx;
            live.current.onHover(idx == null ? null : (live.current.series.stepOf[idx] ?? null));
          },
        ],
      },
    };
    if (!canDraw()) {
      queueMicrotask(() => setFailed("no 2D canvas"));
      return;
    }
    let u: uPlot;
    try {
      u = new uPlot(opts, [series.x, series.items, series.tokens] as uPlot.AlignedData, el);
    } catch (e) {
      // A canvas that cannot draw (no 2D context): say so instead of crashing the debugger.
      queueMicrotask(() => setFailed(e instanceof Error ? e.message : String(e)));
      return;
    }
    plot.current = u;
    const click = (e: MouseEvent) => {
      const rect = u.over.getBoundingClientRect();
      const at = u.posToVal(e.clientX - rect.left, "x");
      const step = nearestStep(live.current.series, at);
      if (step !== null) live.current.onPick(step);
    };
    const leave = () => live.current.onHover(null);
    u.over.addEventListener("click", click);
    u.over.addEventListener("mouseleave", leave);
    const ro = new ResizeObserver(() => {
      const w = Math.max(200, el.clientWidth);
      if (w !== u.width) u.setSize({ width: w, height });
    });
    ro.observe(el);
    return () => {
      ro.disconnect();
      u.over.removeEventListener("click", click);
      u.over.removeEventListener("mouseleave", leave);
      u.destroy();
      plot.current = null;
    };
    // A new chart when the data, its height or the theme change; the cursor moves without one.
  }, [series, steps, height, theme]);

  if (failed) {
    return (
      <div className="ctx-chart-failed pane-empty" data-testid="context-chart-failed">
        The chart could not be drawn here ({failed}).
      </div>
    );
  }
  const px = (x: number) => (geom ? geom.left + ((x - geom.min) / (geom.max - geom.min)) * geom.width : 0);
  return (
    <div
      className="ctx-chart"
      data-testid="context-chart-plot"
      data-plot-left={geom?.left}
      data-plot-width={geom?.width}
      data-x-min={geom?.min}
      data-x-max={geom?.max}
    >
      <div ref={host} className="ctx-chart-host" style={{ height }} />
      {geom && (
        <>
          <ChartCursor geom={geom} px={px} />
          <Chips marks={series.marks} geom={geom} px={px} agentName={agentName} onPick={onPick} />
        </>
      )}
    </div>
  );
}

export default memo(ContextChart);

/** The cursor's line over the plot. */
function ChartCursor({ geom, px }: { geom: Geometry; px: (x: number) => number }) {
  const cursor = useDebugger((s) => s.cursor);
  return <div className="ctx-cursor" data-testid="context-chart-cursor" data-step={cursor} style={{ left: px(cursor), top: geom.top, height: geom.height }} aria-hidden="true" />;
}

/** The transfers' chips that fit; the one at the cursor marked (they render when the cursor reaches or leaves one). */
function Chips({
  marks,
  geom,
  px,
  agentName,
  onPick,
}: {
  marks: readonly TransferMark[];
  geom: Geometry;
  px: (x: number) => number;
  agentName: (id: string) => string;
  onPick: (step: number) => void;
}) {
  const chips = chipsThatFit(marks, px);
  const at = useDebugger((s) => (chips.some((m) => m.step === s.cursor) ? s.cursor : -1));
  return chips.map((m) => (
    <button
      key={m.transfer}
      type="button"
      className={`ctx-mark is-${m.kind}${m.lost.length ? " is-lost" : ""}${m.escalation ? " is-escalation" : ""}${m.step === at ? " is-current" : ""}`}
      style={{ left: px(m.step - 0.25), top: geom.top + 1 }}
      data-testid="context-mark"
      data-transfer={m.transfer}
      data-step={m.step}
      data-kind={m.kind}
      data-before={m.before}
      data-after={m.after}
      data-lost={m.lost.join(" ") || undefined}
      data-escalation={m.escalation ? "true" : undefined}
      title={`T${m.transfer} · ${m.escalation ? "escalation (guard)" : m.kind} ${agentName(m.from)} → ${agentName(m.to)} at step ${m.step}: ${m.before} items → ${m.after}${m.lost.length ? `; lost: ${m.lost.join(", ")}` : ""}`}
      onClick={() => onPick(m.step)}
    >
      {m.escalation ? <UserRound size={10} /> : m.kind === "delegation" ? <CornerDownRight size={10} /> : <ArrowRightLeft size={10} />}
      <span>
        {m.before}→{m.after}
      </span>
      {m.lost.length > 0 && <PinOff size={10} />}
    </button>
  ));
}

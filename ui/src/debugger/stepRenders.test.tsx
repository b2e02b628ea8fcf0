// Stepping renders only what a step changes (issue #32 item 2): the debugger steps through a
// multi-agent run while counters in the panes' components count their renders. The canvas's
// cards render only for the agents whose highlight moved, its edges only where the transfer under
// way moved; the context chart, the timeline's filter, the top bar, the run card's parts and the
// lineage do not render at all; the timeline renders only the rows whose selection moved.
import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { memo, type ComponentType, type FunctionComponent } from "react";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { App } from "../app/App";
import { createMockPlatform } from "../platform/mock";
import { briefsOf, Steps } from "../run/steps";
import { stepCache, useDebugger } from "../store/debugger";
import { useDesigner } from "../store/designer";
import { useRun } from "../store/run";
import { useUi } from "../store/ui";

/** Renders by counter name (a pane, or `node:<agent>` / `edge:<id>` for the canvas's parts). */
const renders = vi.hoisted(() => new Map<string, number>());

/**
 * `C` with its renders counted under `name(props)` (null: not counted). A memoised component
 * stays memoised, so a skipped render is not counted; the counter runs inside its render.
 */
function counted<P extends object>(C: ComponentType<P>, name: (p: P) => string | null): ComponentType<P> {
  const m = C as unknown as { $$typeof?: symbol; type?: FunctionComponent<P>; compare?: (a: P, b: P) => boolean };
  const isMemo = m.$$typeof === Symbol.for("react.memo");
  const inner = (isMemo ? m.type : C) as FunctionComponent<P>;
  const Counting = (props: P) => {
    const key = name(props);
    if (key) renders.set(key, (renders.get(key) ?? 0) + 1);
    return inner(props);
  };
  return isMemo ? (memo(Counting, m.compare ?? undefined) as unknown as ComponentType<P>) : Counting;
}

vi.mock("../canvas/nodes/NodeCard", async (orig) => {
  const mod = await orig<typeof import("../canvas/nodes/NodeCard")>();
  return { ...mod, NodeCard: counted(mod.NodeCard, (p) => `node:${p.data.agent.id}`) };
});
vi.mock("../canvas/edges/TransferEdge", async (orig) => {
  const mod = await orig<typeof import("../canvas/edges/TransferEdge")>();
  return { ...mod, TransferEdge: counted(mod.TransferEdge, (p) => `edge:${p.id}`) };
});
vi.mock("./ContextChart", async (orig) => {
  const mod = await orig<typeof import("./ContextChart")>();
  return { ...mod, default: counted(mod.default, () => "chart") };
});
vi.mock("./ContextPanel", async (orig) => {
  const mod = await orig<typeof import("./ContextPanel")>();
  return { ...mod, ContextPanel: counted(mod.ContextPanel, () => "context-panel") };
});
vi.mock("./TimelineFilter", async (orig) => {
  const mod = await orig<typeof import("./TimelineFilter")>();
  return { ...mod, TimelineFilter: counted(mod.TimelineFilter, () => "timeline-filter") };
});
vi.mock("./Lineage", async (orig) => {
  const mod = await orig<typeof import("./Lineage")>();
  return { ...mod, Lineage: counted(mod.Lineage, () => "lineage") };
});
vi.mock("./MarkControl", async (orig) => {
  const mod = await orig<typeof import("./MarkControl")>();
  return { ...mod, MarkControl: counted(mod.MarkControl, () => "mark-control") };
});
vi.mock("../topbar/TopBar", async (orig) => {
  const mod = await orig<typeof import("../topbar/TopBar")>();
  return { ...mod, TopBar: counted(mod.TopBar, () => "topbar") };
});
// A timeline row draws its step's kind icon at 12 px (the step card's is 13 px; a waterfall row,
// the other 12 px user, counts with them on the waterfall tab): one icon render per row render.
vi.mock("../run/badges", async (orig) => {
  const mod = await orig<typeof import("../run/badges")>();
  return { ...mod, StepKindIcon: counted(mod.StepKindIcon, (p) => (p.size === 12 ? "timeline-row" : null)) };
});

/** A ResizeObserver that reports each element once when observed (React Flow measures its cards so). */
class MeasuringObserver {
  constructor(private readonly report: (entries: { target: Element }[], o: unknown) => void) {}
  observe(target: Element) {
    queueMicrotask(() => this.report([{ target }], this));
  }
  unobserve() {}
  disconnect() {}
}

const STEPS = 6;

async function debugTicketReopen() {
  render(<App platform={createMockPlatform()} />);
  const files = await screen.findAllByTestId("welcome-file");
  fireEvent.click(files.find((f) => f.textContent?.includes("ticket-reopen.yaml")) as HTMLElement);
  await screen.findByTestId("node-triage");
  fireEvent.click(screen.getByTestId("topbar-run"));
  await waitFor(() => expect(screen.getByTestId("run-status").getAttribute("data-status")).toBe("finished"));
  fireEvent.click(screen.getByTestId("run-debug"));
  await shown(0);
  // the context tab: the detail pane holds the step's context (the diff tab is a transfer's)
  fireEvent.click(screen.getByTestId("tab-context"));
  // the chart (lazy) is in, drawn or saying it cannot draw here (happy-dom has no 2D canvas)
  await waitFor(() => expect(document.querySelector('[data-testid="context-chart-plot"], [data-testid="context-chart-failed"]')).not.toBeNull());
  await act(() => new Promise((r) => setTimeout(r, 50)));
}

const shown = (step: number) => waitFor(() => expect(screen.getByTestId("step-detail").getAttribute("data-step")).toBe(String(step)));

/** How each agent is highlighted at `step` (owner, acting, or neither). */
function mark(step: number, agent: string): string {
  const s = useDebugger.getState().overview!.steps.at(step)!;
  return `${s.owner === agent}:${s.agent === agent}`;
}

/** The edge whose transfer is under way at `step` (none: null). */
function activeEdge(step: number): string | null {
  const { overview } = useDebugger.getState();
  const s = overview!.steps.at(step)!;
  return s.transfer != null ? (overview!.transfers.find((t) => t.index === s.transfer)?.edge ?? null) : null;
}

const count = (name: string) => renders.get(name) ?? 0;

describe("stepping the debugger renders only what the step changes", () => {
  // happy-dom does no layout: every element gets a size, so the timeline shows rows and the
  // canvas measures its cards (and then draws its edges).
  const sizes: Record<string, number> = { clientHeight: 560, offsetHeight: 80, offsetWidth: 220 };
  const saved = Object.keys(sizes).map((k) => [k, Object.getOwnPropertyDescriptor(HTMLElement.prototype, k)] as const);
  const g = globalThis as { ResizeObserver: unknown };
  const stub = g.ResizeObserver;
  beforeAll(() => {
    for (const [k, v] of Object.entries(sizes)) Object.defineProperty(HTMLElement.prototype, k, { configurable: true, get: () => v });
    g.ResizeObserver = MeasuringObserver;
  });
  afterAll(() => {
    g.ResizeObserver = stub;
    for (const [k, d] of saved) {
      if (d) Object.defineProperty(HTMLElement.prototype, k, d);
      else delete (HTMLElement.prototype as unknown as Record<string, unknown>)[k];
    }
  });
  beforeEach(() => {
    useDesigner.getState().close();
    useDebugger.getState().exit();
    useRun.setState({ live: null, breakpoints: {}, scenario: {}, latencyMs: 0 });
    useUi.setState({ dialog: null, confirm: null, toasts: [], compare: null, bottomTab: "problems", bottomOpen: true });
    localStorage.clear();
  });

  it(`steps ${STEPS} times through ticket-reopen; unchanged panes, cards, edges and rows do not render`, async () => {
    await debugTicketReopen();
    const agents = useDebugger.getState().topology!.agents.map((a) => a.id);
    expect(agents.length).toBeGreaterThanOrEqual(3);
    const rows = screen.getAllByTestId("timeline-step").length;
    const edges = [...document.querySelectorAll(".react-flow__edge")].map((e) => e.getAttribute("data-id") ?? "");
    expect(rows, "timeline rows on screen").toBeGreaterThan(STEPS);
    expect(edges.length, "edges on the canvas").toBeGreaterThan(0);
    renders.clear();
    // What the canvas shows at each step is what it showed before: the owner and acting agent,
    // and the transfer under way (checked after the counts are taken, below).
    const seen: { cards: string[]; active: string[] }[] = [];
    for (let i = 1; i <= STEPS; i++) {
      fireEvent.keyDown(window, { key: "ArrowRight" });
      await shown(i);
      seen.push({
        cards: agents.map((a) => screen.getByTestId(`node-${a}`).getAttribute("data-run") ?? ""),
        active: [...document.querySelectorAll('[data-testid^="edge-active-"]')].map((e) => e.getAttribute("data-testid")!.slice("edge-active-".length)),
      });
    }
    await act(() => new Promise((r) => setTimeout(r, 50)));
    const report = Object.fromEntries([...renders].sort());
    console.info(`renders over ${STEPS} steps:`, JSON.stringify(report));

    // The canvas: a card renders only when its agent's highlight changed at a step.
    for (const a of agents) {
      let changed = 0;
      for (let i = 1; i <= STEPS; i++) if (mark(i - 1, a) !== mark(i, a)) changed++;
      expect(count(`node:${a}`), `card ${a} (its highlight changed ${changed}×)`).toBeLessThanOrEqual(changed);
    }
    // An edge renders only when the transfer under way arrives at it or leaves it.
    for (const e of edges) {
      let changed = 0;
      for (let i = 1; i <= STEPS; i++) if ((activeEdge(i - 1) === e) !== (activeEdge(i) === e)) changed++;
      expect(count(`edge:${e}`), `edge ${e} (under way or not changed ${changed}×)`).toBeLessThanOrEqual(changed);
    }
    // Panes whose data did not change.
    for (const pane of ["chart", "timeline-filter", "lineage", "mark-control", "topbar"]) expect(count(pane), pane).toBe(0);
    // The timeline: the row that lost the selection and the one that got it.
    expect(count("timeline-row")).toBeLessThanOrEqual(2 * STEPS);

    seen.forEach(({ cards, active }, k) => {
      const i = k + 1;
      const want = agents.map((a) => (mark(i, a) === "false:true" || mark(i, a) === "true:true" ? "acting" : mark(i, a) === "true:false" ? "owner" : "idle"));
      expect(cards, `cards at step ${i}`).toEqual(want);
      const e = activeEdge(i);
      expect(active, `edge under way at step ${i}`).toEqual(e ? [e] : []);
    });
  });

  it("a step whose view is still loading renders the context panel once, when its view arrives", async () => {
    await debugTicketReopen();
    renders.clear();
    for (let i = 1; i <= STEPS; i++) {
      // not prefetched: the step shows the last view (loading) until its own arrives
      stepCache.clear();
      fireEvent.keyDown(window, { key: "ArrowRight" });
      await shown(i);
      await waitFor(() => expect(screen.getByTestId("step-detail").hasAttribute("data-loading")).toBe(false));
    }
    console.info(`context panel renders over ${STEPS} steps, views not cached: ${count("context-panel")}`);
    expect(count("context-panel")).toBe(STEPS);
  });

  it("on the waterfall tab, a step renders the rows whose selection moved (timeline and waterfall)", async () => {
    await debugTicketReopen();
    // the mock's recorded steps kept no times: give them some, so the waterfall has rows
    const { overview } = useDebugger.getState();
    act(() => useDebugger.setState({ overview: { ...overview!, steps: Steps.of(briefsOf(overview!.steps).map((s, i) => ({ ...s, start_ms: i * 10, duration_ms: 8 }))) } }));
    fireEvent.click(screen.getByTestId("tab-waterfall"));
    const rows = await screen.findAllByTestId("waterfall-row");
    expect(rows.length).toBeGreaterThan(STEPS);
    renders.clear();
    for (let i = 1; i <= STEPS; i++) {
      fireEvent.keyDown(window, { key: "ArrowRight" });
      await waitFor(() => expect(screen.getAllByTestId("waterfall-row").find((r) => r.getAttribute("aria-selected") === "true")?.getAttribute("data-step")).toBe(String(i)));
    }
    console.info(`timeline and waterfall rows rendered over ${STEPS} steps: ${count("timeline-row")}`);
    // two rows in each list a step (the one that lost the selection, the one that got it)
    expect(count("timeline-row")).toBeLessThanOrEqual(4 * STEPS);
  });
});

// The Runs home with the mock platform: every run of the store, filters and search that narrow it
// and the total, paging through search_runs as the table scrolls, Open, Compare, errors.
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { App } from "../app/App";
import { createMockPlatform, type MockPlatform } from "../platform/mock";
import { RECORDED_RUNS, type RecordedRun } from "../platform/mock-runs";
import { PlatformError } from "../platform/types";
import { FIXTURES } from "../platform/fixtures";
import { NO_FILTERS } from "../run/runsQuery";
import { useDebugger } from "../store/debugger";
import { useDesigner } from "../store/designer";
import { useRunsHome } from "../store/runsHome";
import { useUi } from "../store/ui";

const REOPEN = RECORDED_RUNS["ticket-reopen"] as RecordedRun;
const SUPERVISOR = RECORDED_RUNS["ticket-supervisor"] as RecordedRun;

const rows = () => screen.queryAllByTestId("runs-home-row");
const total = () => screen.getByTestId("runs-home-total").getAttribute("data-total");
const searchCalls = (p: MockPlatform) => p.calls.filter((c) => c.command === "search_runs").map((c) => c.args as Record<string, unknown>);

/** The app with nothing open, the recorded runs (ticket-reopen, ticket-supervisor, handoff-loop) and one imported trace. */
async function start(platform: MockPlatform = createMockPlatform()) {
  await platform.import_trace({ path: "traces/support-otlp.json" });
  render(<App platform={platform} />);
  await screen.findByTestId("welcome");
  return platform;
}

async function openHome() {
  fireEvent.click(screen.getByTestId("runs-home-toggle"));
  await screen.findByTestId("runs-home");
  await waitFor(() => expect(rows().length).toBeGreaterThan(0));
}

describe("the Runs home", () => {
  // happy-dom does no layout: give every element a viewport (600 px, 15 rows) and a tall content.
  const saved = ["clientHeight", "scrollHeight"].map((k) => [k, Object.getOwnPropertyDescriptor(HTMLElement.prototype, k)] as const);
  beforeAll(() => {
    Object.defineProperty(HTMLElement.prototype, "clientHeight", { configurable: true, get: () => 600 });
    Object.defineProperty(HTMLElement.prototype, "scrollHeight", { configurable: true, get: () => 1_000_000 });
  });
  afterAll(() => {
    for (const [k, d] of saved) if (d) Object.defineProperty(HTMLElement.prototype, k, d);
    else delete (HTMLElement.prototype as unknown as Record<string, unknown>)[k];
  });

  beforeEach(() => {
    useDesigner.getState().close();
    useDebugger.getState().exit();
    useRunsHome.setState({ open: false, filters: NO_FILTERS });
    useUi.setState({ dialog: null, confirm: null, toasts: [], compare: null });
    localStorage.clear();
  });

  it("lists every run of the store, native and imported, newest first, from the top bar with no topology open", async () => {
    const platform = await start();
    await openHome();
    await waitFor(() => expect(rows()).toHaveLength(4));
    expect(total()).toBe("4");
    expect(screen.getByTestId("runs-home-total").textContent).toContain("4 runs");
    const topologies = rows().map((r) => r.getAttribute("data-topology"));
    expect(topologies.sort()).toEqual(["handoff-loop", "handoff-loop", "ticket-reopen", "ticket-supervisor"]);
    // the import is the newest; its origin says so
    expect(rows()[0]?.getAttribute("data-origin")).toBe("imported");
    expect(rows().filter((r) => r.getAttribute("data-origin") === "native")).toHaveLength(3);
    // one page, not every run
    expect(searchCalls(platform)).toEqual([{ limit: 100, offset: 0 }]);
    // the top bar's button is pressed while the home is shown, and closes it
    expect(screen.getByTestId("runs-home-toggle").getAttribute("aria-pressed")).toBe("true");
    fireEvent.click(screen.getByTestId("runs-home-toggle"));
    await waitFor(() => expect(screen.queryByTestId("runs-home")).toBeNull());
    expect(screen.getByTestId("welcome")).toBeTruthy();
  });

  it("narrows by origin, lost facts and search, and the total follows", async () => {
    const platform = await start();
    await openHome();
    await waitFor(() => expect(rows()).toHaveLength(4));

    fireEvent.change(screen.getByTestId("runs-home-origin"), { target: { value: "imported" } });
    await waitFor(() => expect(total()).toBe("1"));
    expect(rows().map((r) => r.getAttribute("data-origin"))).toEqual(["imported"]);
    expect(searchCalls(platform).at(-1)).toEqual({ origin: "imported", limit: 100, offset: 0 });

    fireEvent.change(screen.getByTestId("runs-home-origin"), { target: { value: "" } });
    // ticket-reopen loses its pinned fact at the fields handoff; ticket-supervisor keeps it
    fireEvent.change(screen.getByTestId("runs-home-lost"), { target: { value: "yes" } });
    await waitFor(() => expect(total()).toBe("1"));
    expect(rows().map((r) => r.getAttribute("data-topology"))).toEqual(["ticket-reopen"]);
    expect(screen.getByTestId("runs-home-total").textContent).toContain("1 run match");
    fireEvent.change(screen.getByTestId("runs-home-lost"), { target: { value: "no" } });
    await waitFor(() => expect(total()).toBe("3"));
    expect(rows().map((r) => r.getAttribute("data-topology"))).not.toContain("ticket-reopen");

    fireEvent.click(screen.getByTestId("runs-home-clear"));
    await waitFor(() => expect(total()).toBe("4"));
    const calls = searchCalls(platform).length;
    // the search waits for typing to pause: one query for the whole word
    const box = screen.getByTestId("runs-home-search");
    for (const text of ["s", "su", "sup", "supervisor"]) fireEvent.change(box, { target: { value: text } });
    await waitFor(() => expect(total()).toBe("1"));
    expect(rows().map((r) => r.getAttribute("data-topology"))).toEqual(["ticket-supervisor"]);
    expect(searchCalls(platform).slice(calls)).toEqual([{ search: "supervisor", limit: 100, offset: 0 }]);

    fireEvent.change(box, { target: { value: "no such thing" } });
    await screen.findByTestId("runs-home-empty");
    expect(total()).toBe("0");
    expect(screen.getByTestId("runs-home-empty").textContent).toMatch(/No runs match these filters/);
  });

  it("shows each run's mark and narrows to the runs marked good or bad", async () => {
    const platform = createMockPlatform();
    await platform.mark_run({ run_id: REOPEN.summary.id, judgement: "bad", why: "reopened a fixed ticket" });
    await platform.mark_run({ run_id: SUPERVISOR.summary.id, judgement: "good" });
    await start(platform);
    await openHome();
    await waitFor(() => expect(rows()).toHaveLength(4));
    const badge = (topology: string) => within(rows().find((r) => r.getAttribute("data-topology") === topology) as HTMLElement).getByTestId("run-mark-badge");
    expect(badge("ticket-reopen").getAttribute("data-judgement")).toBe("bad");
    expect(badge("ticket-reopen").textContent).toContain("Bad");
    expect(badge("ticket-reopen").getAttribute("title")).toContain("Marked bad: reopened a fixed ticket");
    expect(badge("ticket-supervisor").textContent).toContain("Good");
    expect(badge("handoff-loop").getAttribute("data-judgement")).toBe("");

    fireEvent.change(screen.getByTestId("runs-home-judgement"), { target: { value: "bad" } });
    await waitFor(() => expect(total()).toBe("1"));
    expect(rows().map((r) => r.getAttribute("data-topology"))).toEqual(["ticket-reopen"]);
    expect(searchCalls(platform).at(-1)).toEqual({ judgement: "bad", limit: 100, offset: 0 });
    fireEvent.change(screen.getByTestId("runs-home-judgement"), { target: { value: "good" } });
    await waitFor(() => expect(rows().map((r) => r.getAttribute("data-topology"))).toEqual(["ticket-supervisor"]));
    expect(screen.getByTestId("runs-home-clear").textContent).toContain("Clear the filter");
    fireEvent.change(screen.getByTestId("runs-home-judgement"), { target: { value: "" } });
    await waitFor(() => expect(total()).toBe("4"));
  });

  it("Open shows the run in the debugger and leaves the home", async () => {
    await start();
    await openHome();
    const row = await waitFor(() => rows().find((r) => r.getAttribute("data-topology") === "ticket-reopen") as HTMLElement);
    fireEvent.click(within(row).getByTestId("runs-home-open"));
    await waitFor(() => expect(screen.getByTestId("debugger").getAttribute("data-run")).toBe(REOPEN.summary.id));
    expect(screen.queryByTestId("runs-home")).toBeNull();
    // reachable from the debugger too, and Esc goes back to it
    fireEvent.click(screen.getByTestId("runs-home-toggle"));
    await screen.findByTestId("runs-home");
    fireEvent.keyDown(window, { key: "Escape" });
    await waitFor(() => expect(screen.queryByTestId("runs-home")).toBeNull());
    expect(useDebugger.getState().mode).toBe("debug");
    expect(screen.getByTestId("debugger").getAttribute("data-run")).toBe(REOPEN.summary.id);
  });

  it("compares two picked runs of different topologies", async () => {
    await start();
    await openHome();
    const pick = (topology: string) => {
      const row = rows().find((r) => r.getAttribute("data-topology") === topology) as HTMLElement;
      fireEvent.click(within(row).getByTestId("runs-home-pick"));
    };
    expect((screen.getByTestId("runs-home-compare") as HTMLButtonElement).disabled).toBe(true);
    pick("ticket-reopen");
    pick("ticket-supervisor");
    fireEvent.click(screen.getByTestId("runs-home-compare"));
    expect(useUi.getState().compare).toEqual([REOPEN.summary.id, SUPERVISOR.summary.id]);
  });

  it("pages through search_runs as the table scrolls, never asking for every run", async () => {
    // 250 runs of ticket-reopen, a second apart
    const many: Record<string, RecordedRun> = {};
    for (let i = 0; i < 250; i++) {
      const id = `run-${String(i).padStart(3, "0")}`;
      many[id] = { ...REOPEN, summary: { ...REOPEN.summary, id, started_at: new Date(Date.UTC(2026, 10, 1, 0, 0, i)).toISOString() } };
    }
    const platform = createMockPlatform(FIXTURES, { recordedRuns: many, traces: {} });
    render(<App platform={platform} />);
    await screen.findByTestId("welcome");
    await openHome();
    expect(total()).toBe("250");
    const list = screen.getByTestId("runs-home-list");
    expect(list.getAttribute("data-count")).toBe("100");
    expect(searchCalls(platform)).toEqual([{ limit: 100, offset: 0 }]);
    // newest first
    expect(rows()[0]?.getAttribute("data-run")).toBe("run-249");
    // the virtual table renders only what is in view
    expect(rows().length).toBeLessThan(60);

    const scroller = list.querySelector(".rh-scroll") as HTMLElement;
    act(() => {
      scroller.scrollTop = 90 * 40;
      fireEvent.scroll(scroller);
    });
    await waitFor(() => expect(list.getAttribute("data-count")).toBe("200"));
    expect(searchCalls(platform)).toEqual([
      { limit: 100, offset: 0 },
      { limit: 100, offset: 100 },
    ]);
    act(() => {
      scroller.scrollTop = 190 * 40;
      fireEvent.scroll(scroller);
    });
    await waitFor(() => expect(list.getAttribute("data-count")).toBe("250"));
    expect(searchCalls(platform).map((c) => c.offset)).toEqual([0, 100, 200]);
    await waitFor(() => expect(screen.queryByTestId("runs-home-more")).toBeNull());
  });

  it("shows why the list failed, with its code, and Retry", async () => {
    const platform = await start();
    const real = platform.search_runs;
    let fail = true;
    platform.search_runs = (q) => (fail ? Promise.reject(new PlatformError("store.locked", "the store is locked by another process")) : real(q));
    await act(async () => fireEvent.click(screen.getByTestId("runs-home-toggle")));
    const err = await screen.findByTestId("runs-home-error");
    expect(err.getAttribute("data-code")).toBe("store.locked");
    expect(err.getAttribute("role")).toBe("alert");
    expect(err.textContent).toMatch(/the store is locked by another process/);
    expect(screen.queryByTestId("runs-home-empty")).toBeNull();
    fail = false;
    fireEvent.click(within(err).getByText("Retry"));
    await waitFor(() => expect(rows()).toHaveLength(4));
    expect(screen.queryByTestId("runs-home-error")).toBeNull();
  });

  it("the Runs tab keeps the open topology's runs and links to all runs", async () => {
    await start();
    const file = (await screen.findAllByTestId("welcome-file")).find((f) => f.textContent?.includes("ticket-reopen.yaml")) as HTMLElement;
    fireEvent.click(file);
    await screen.findByTestId("node-triage");
    fireEvent.click(screen.getByTestId("tab-runs"));
    await waitFor(() => expect(screen.getAllByTestId("run-row")).toHaveLength(1));
    fireEvent.click(screen.getByTestId("runs-all"));
    await screen.findByTestId("runs-home");
    await waitFor(() => expect(rows()).toHaveLength(4));
  });
});

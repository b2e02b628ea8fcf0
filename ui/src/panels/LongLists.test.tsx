// The Runs tab and the Problems tab with long lists (issue #21), on the mock platform: the Runs
// tab asks `list_runs` a page at a time and holds only a window of rows, the count from the
// store; the Problems tab holds a window of 1,000 findings and moves the focus with the keys.
import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { App } from "../app/App";
import type { ListRunsArgs } from "../bindings/ListRunsArgs";
import type { RunQuery } from "../bindings/RunQuery";
import { createMockPlatform, type MockPlatform } from "../platform/mock";
import type { RunSummary } from "../run/types";
import { useDebugger } from "../store/debugger";
import { useDesigner } from "../store/designer";
import { useUi } from "../store/ui";
import type { Finding } from "../model/types";
import { RUNS_PAGE } from "./RunsPanel";

// happy-dom does no layout: a scroller is 600 px high, a row (a table row, a list item) 34 px.
const ROW = 34;
const isRow = (el: HTMLElement) => el.tagName === "TR" || el.tagName === "LI";
const saved = ["clientHeight", "offsetHeight", "scrollHeight"].map((k) => [k, Object.getOwnPropertyDescriptor(HTMLElement.prototype, k)] as const);
beforeAll(() => {
  Object.defineProperty(HTMLElement.prototype, "clientHeight", { configurable: true, get: () => 600 });
  Object.defineProperty(HTMLElement.prototype, "offsetHeight", {
    configurable: true,
    get(this: HTMLElement) {
      return isRow(this) ? ROW : 600;
    },
  });
  Object.defineProperty(HTMLElement.prototype, "scrollHeight", { configurable: true, get: () => 1_000_000 });
});
afterAll(() => {
  for (const [k, d] of saved) if (d) Object.defineProperty(HTMLElement.prototype, k, d);
  else delete (HTMLElement.prototype as unknown as Record<string, unknown>)[k];
});

beforeEach(() => {
  useDesigner.getState().close();
  useDebugger.getState().exit();
  useUi.setState({ bottomTab: "problems", bottomOpen: true });
  localStorage.clear();
});

const showTab = (tab: "runs" | "problems") => act(() => useUi.getState().setBottom(tab));

async function openTicketReopen(platform: MockPlatform) {
  render(<App platform={platform} />);
  const files = await screen.findAllByTestId("welcome-file");
  fireEvent.click(files.find((f) => f.textContent?.includes("ticket-reopen.yaml")) as HTMLElement);
  await screen.findByTestId("node-triage");
}

/** `n` runs of ticket-reopen, newest first (made from a recorded one), served a page at a time. */
async function withManyRuns(platform: MockPlatform, n: number) {
  const [base] = await platform.list_runs({ topology: "ticket-reopen" });
  const t0 = Date.parse("2026-01-01T00:00:00Z");
  const runs: RunSummary[] = Array.from({ length: n }, (_, i) => ({
    ...(base as RunSummary),
    id: `run-${String(i).padStart(5, "0")}`,
    scenario: `scenario ${i}`,
    started_at: new Date(t0 - i * 60_000).toISOString(),
  }));
  const calls: ListRunsArgs[] = [];
  platform.list_runs = async (a: ListRunsArgs = {}) => {
    calls.push(a);
    const from = a.offset ?? 0;
    return runs.filter((r) => !a.topology || r.topology === a.topology).slice(from, from + (a.limit ?? runs.length));
  };
  const search = platform.search_runs;
  platform.search_runs = async (q: RunQuery = {}) => (q.topology === "ticket-reopen" ? { runs: runs.slice(0, q.limit ?? 100), total: n, topologies: ["ticket-reopen"] } : search(q));
  return { runs, calls };
}

const runRows = () => screen.queryAllByTestId("run-row");

describe("the Runs tab with thousands of runs", () => {
  it("asks a page at a time, holds a window of rows, counts them all and loads every page as it scrolls", { timeout: 30_000 }, async () => {
    const platform = createMockPlatform();
    const { runs, calls } = await withManyRuns(platform, 450);
    await openTicketReopen(platform);
    showTab("runs");
    await waitFor(() => expect(runRows().length).toBeGreaterThan(0));
    // by the open topology's identity (and its name, for runs saved before it had one)
    expect(calls[0]).toEqual({ topology: "ticket-reopen", topology_id: useDesigner.getState().topology?.id, limit: RUNS_PAGE, offset: 0 });
    // the count is the store's, not the page's
    await waitFor(() => expect(screen.getByTestId("runs-count").getAttribute("data-total")).toBe("450"));
    expect(screen.getByTestId("runs-count").textContent).toContain("450");
    expect(screen.getByTestId("runs-list").getAttribute("data-count")).toBe(String(RUNS_PAGE));
    // a window: the first rows, far fewer than a page
    expect(runRows().length).toBeLessThan(60);
    expect(runRows()[0]?.getAttribute("data-run")).toBe("run-00000");
    expect(screen.getByTestId("runs-more")).toBeTruthy();

    // scrolled to the end, again and again: the next pages come (the browser test,
    // e2e/lists.spec.mjs, checks the rows shown there: happy-dom has no layout to place them)
    const wrap = document.querySelector(".runs-table-wrap") as HTMLElement;
    let top = 0;
    Object.defineProperty(wrap, "scrollTop", { configurable: true, get: () => top, set: (v: number) => (top = v) });
    for (let i = 0; i < 10 && screen.queryByTestId("runs-more"); i++) {
      await act(async () => {
        wrap.scrollTop = runs.length * ROW;
        wrap.dispatchEvent(new Event("scroll"));
        await new Promise((r) => setTimeout(r, 30));
      });
    }
    expect(calls.map((c) => c.offset)).toEqual([0, 200, 400]);
    expect(runRows().length).toBeLessThan(60);
    expect(screen.queryByTestId("runs-more")).toBeNull();
    expect(screen.getByTestId("runs-list").getAttribute("data-count")).toBe("450");
    // its rows still work: two picked, Compare can go
    fireEvent.click(runRows()[0]!.querySelector('[data-testid="run-pick"]') as HTMLElement);
    fireEvent.click(runRows()[1]!.querySelector('[data-testid="run-pick"]') as HTMLElement);
    expect((screen.getByTestId("runs-compare") as HTMLButtonElement).disabled).toBe(false);
  });

  it("a short list is whole: every row, no count query, no paging", async () => {
    const platform = createMockPlatform();
    const { calls } = await withManyRuns(platform, 30);
    await openTicketReopen(platform);
    showTab("runs");
    await waitFor(() => expect(runRows()).toHaveLength(30));
    expect(calls).toHaveLength(1);
    expect(platform.calls.some((c) => c.command === "search_runs")).toBe(false);
    expect(screen.getByTestId("runs-count").textContent).toContain("30");
    expect(screen.queryByTestId("runs-more")).toBeNull();
  });
});

describe("the Problems tab with 1,000 findings", () => {
  const findings: Finding[] = Array.from({ length: 1000 }, (_, i) => ({
    code: "script-unknown-tool",
    severity: i % 10 === 0 ? "warning" : "error",
    message: `calls 'tool-${String(i).padStart(4, "0")}', a tool Triage does not have`,
    agents: ["triage"],
    edges: [],
  }));
  const shown = () => screen.getAllByTestId("finding");

  it("holds a window of findings, worst first; the keys move the focus through all of them; a click selects", { timeout: 20_000 }, async () => {
    const platform = createMockPlatform();
    await openTicketReopen(platform);
    act(() => useDesigner.setState({ findings }));
    showTab("problems");
    await waitFor(() => expect(screen.getByTestId("problems").getAttribute("data-count")).toBe("1000"));
    expect(screen.getByTestId("problems-scroll").getAttribute("data-virtual")).toBe("true");
    expect(shown().length).toBeGreaterThan(5);
    expect(shown().length).toBeLessThan(60);
    // errors first (the warnings, every tenth, come after all 900 errors)
    expect(shown().every((b) => b.getAttribute("data-severity") === "error")).toBe(true);

    // End: the last finding (a warning, tool-0990) takes the focus and is in the page
    (shown()[0] as HTMLElement).focus();
    fireEvent.keyDown(document.activeElement as HTMLElement, { key: "End" });
    await waitFor(() => expect(document.activeElement?.closest("li")?.getAttribute("data-index")).toBe("999"));
    expect(document.activeElement?.textContent).toContain("tool-0990");
    expect(document.activeElement?.getAttribute("data-severity")).toBe("warning");
    expect(shown().length).toBeLessThan(60);
    // ↑ the one before; Home back to the first
    fireEvent.keyDown(document.activeElement as HTMLElement, { key: "ArrowUp" });
    await waitFor(() => expect(document.activeElement?.closest("li")?.getAttribute("data-index")).toBe("998"));
    fireEvent.keyDown(document.activeElement as HTMLElement, { key: "Home" });
    await waitFor(() => expect(document.activeElement?.closest("li")?.getAttribute("data-index")).toBe("0"));
    expect(document.activeElement?.textContent).toContain("tool-0001");
    // a click shows the finding on the canvas: its agent is selected
    fireEvent.click(shown()[0] as HTMLElement);
    expect(useDesigner.getState().selection.agents).toEqual(["triage"]);
  });

  it("a short list holds every finding", async () => {
    const platform = createMockPlatform();
    await openTicketReopen(platform);
    act(() => useDesigner.setState({ findings: findings.slice(0, 40) }));
    showTab("problems");
    await waitFor(() => expect(shown()).toHaveLength(40));
    expect(screen.getByTestId("problems-scroll").getAttribute("data-virtual")).toBeNull();
  });
});

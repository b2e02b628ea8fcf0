// A run that cannot be opened (`?run=` with a wrong id, a deleted run, a failing store): a clear
// error in the window with ways out (all runs, the editor), never "Opening run…" forever.
import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { App } from "../app/App";
import { createMockPlatform } from "../platform/mock";
import { RECORDED_RUNS, type RecordedRun } from "../platform/mock-runs";
import { PlatformError } from "../platform/types";
import { NO_FILTERS } from "../run/runsQuery";
import { useDebugger } from "../store/debugger";
import { useDesigner } from "../store/designer";
import { useRunsHome } from "../store/runsHome";
import { useUi } from "../store/ui";

const REOPEN = RECORDED_RUNS["ticket-reopen"] as RecordedRun;

describe("a run that cannot be opened", () => {
  // happy-dom does no layout: the Runs home's virtual table gets a 600 px viewport.
  const saved = Object.getOwnPropertyDescriptor(HTMLElement.prototype, "clientHeight");
  beforeAll(() => Object.defineProperty(HTMLElement.prototype, "clientHeight", { configurable: true, get: () => 600 }));
  afterAll(() => {
    if (saved) Object.defineProperty(HTMLElement.prototype, "clientHeight", saved);
    else delete (HTMLElement.prototype as unknown as Record<string, unknown>).clientHeight;
  });
  beforeEach(() => {
    useDesigner.getState().close();
    useDebugger.getState().exit();
    useRunsHome.setState({ open: false, filters: NO_FILTERS });
    useUi.setState({ dialog: null, confirm: null, toasts: [], compare: null });
  });
  afterEach(() => window.history.replaceState(null, "", "/"));

  it("?run=nonsense says there is no such run, with the way to all runs and back", async () => {
    window.history.replaceState(null, "", "/?run=nonsense");
    render(<App platform={createMockPlatform()} />);
    const err = await screen.findByTestId("run-open-error");
    expect(err.getAttribute("data-code")).toBe("store.no_run");
    expect(err.getAttribute("role")).toBe("alert");
    expect(screen.getByTestId("run-open-error-id").textContent).toBe("nonsense");
    expect(err.textContent).toMatch(/No such run/);
    // no command line as the advice, and nothing still "opening"
    expect(err.textContent).not.toMatch(/baton /);
    expect(screen.queryByText(/Opening run/)).toBeNull();
    expect(screen.getByTestId("doc-title").textContent).toMatch(/Run not opened/);

    fireEvent.click(screen.getByTestId("run-open-error-runs"));
    await screen.findByTestId("runs-home");
    expect(useDebugger.getState().mode).toBe("design");
    await waitFor(() => expect(screen.getAllByTestId("runs-home-row").length).toBeGreaterThan(0));
  });

  it("a deleted run says so too, and Back leaves the debugger", async () => {
    const platform = createMockPlatform();
    await platform.delete_run({ run_id: REOPEN.summary.id });
    window.history.replaceState(null, "", `/?run=${REOPEN.summary.id}&step=3`);
    render(<App platform={platform} />);
    const err = await screen.findByTestId("run-open-error");
    expect(err.getAttribute("data-code")).toBe("store.no_run");
    expect(screen.getByTestId("run-open-error-back").textContent).toMatch(/Back to the start/);
    fireEvent.click(screen.getByTestId("run-open-error-back"));
    await screen.findByTestId("welcome");
    expect(useDebugger.getState().mode).toBe("design");
  });

  it("another failure keeps its message and code, and can be tried again", async () => {
    const platform = createMockPlatform();
    const real = platform.run_overview;
    let fail = true;
    platform.run_overview = (a) => (fail ? Promise.reject(new PlatformError("store.locked", "the store is locked by another Baton")) : real(a));
    render(<App platform={platform} />);
    await screen.findByTestId("welcome");
    // opened from the Runs home
    act(() => useRunsHome.getState().show());
    const row = await waitFor(() => screen.getAllByTestId("runs-home-open")[0] as HTMLElement);
    fireEvent.click(row);
    const err = await screen.findByTestId("run-open-error");
    expect(err.getAttribute("data-code")).toBe("store.locked");
    expect(err.textContent).toMatch(/the store is locked by another Baton/);
    fail = false;
    fireEvent.click(screen.getByTestId("run-open-error-retry"));
    await waitFor(() => expect(useDebugger.getState().overview).not.toBeNull());
    expect(screen.queryByTestId("run-open-error")).toBeNull();
  });
});

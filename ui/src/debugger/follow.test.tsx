// The debugger follows a run still in progress, with the mock platform and a fake clock: a
// captured trace still arriving (saved as a running run, replaced as it grows) is asked again
// every second; its steps and transfers extend in the timeline, the cursor stays (or follows the
// newest step), stale step views are asked again; polling stops when the run ends (its status
// shown), when another run is opened, and never starts for a run that has ended. A run this window
// executes is read again on its events instead.
import { act, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { App } from "../app/App";
import { makeRunCommands, type RunCommands } from "../commands/run";
import { autoLayout } from "../model/layout";
import { normalizeTopology } from "../model/topology";
import { createMockPlatform, type MockPlatform } from "../platform/mock";
import { RECORDED_RUNS, type RecordedRun } from "../platform/mock-runs";
import { useDebugger } from "../store/debugger";
import { useDesigner } from "../store/designer";
import { useRun } from "../store/run";
import { useUi } from "../store/ui";

const BASE = RECORDED_RUNS["ticket-reopen"] as RecordedRun; // 12 steps, transfers at steps 1 and 5
const COMPLETED_ID = BASE.summary.id;

// ELK loads on the first layout, in real time: before the clock is faked.
beforeAll(async () => {
  await autoLayout(normalizeTopology(BASE.topology!));
});

beforeEach(() => {
  vi.useFakeTimers();
  useDesigner.getState().close();
  useDebugger.getState().exit();
  useRun.setState({ live: null, breakpoints: {}, scenario: {}, latencyMs: 0, useLive: false });
  useUi.setState({ dialog: null, confirm: null, toasts: [], compare: null, bottomTab: "problems", bottomOpen: true });
  localStorage.clear();
});

afterEach(() => {
  vi.useRealTimers();
});

/** Lets the fake clock run for `ms` (timers, the answers they wait for, React's work). */
async function tick(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

/** Runs the clock in small steps until `check` passes; throws its last failure after `ms`. */
async function until(check: () => void, ms = 3000) {
  let last: unknown;
  for (let t = 0; t <= ms; t += 20) {
    try {
      check();
      return;
    } catch (e) {
      last = e;
    }
    await tick(20);
  }
  throw last;
}

/** The app, with capture on: a trace of ticket-reopen arrives with its first `steps` steps. */
async function capturing(steps: number): Promise<{ platform: MockPlatform; commands: RunCommands; id: string }> {
  const platform = createMockPlatform();
  render(<App platform={platform} />);
  await platform.capture_start({ port: 0 });
  const id = platform.receiveRunning(BASE, steps);
  return { platform, commands: makeRunCommands(platform), id };
}

async function open(commands: RunCommands, id: string, step?: number) {
  let opened = false;
  void commands.openRun(id, step === undefined ? {} : { step }).then(() => (opened = true));
  await until(() => expect(opened).toBe(true));
  await until(() => expect(screen.getByTestId("transport")).toBeTruthy());
}

/** Reads of a run: its whole overview (on opening, at its end) or its tail (each poll while it runs). */
const overviews = (p: MockPlatform, id: string) => p.calls.filter((c) => (c.command === "run_overview" || c.command === "run_tail") && (c.args as { run_id: string }).run_id === id).length;
const wholeReads = (p: MockPlatform, id: string) => p.calls.filter((c) => c.command === "run_overview" && (c.args as { run_id: string }).run_id === id).length;
const stepViews = (p: MockPlatform, step: number) => p.calls.filter((c) => c.command === "step_view" && (c.args as { step: number }).step === step).length;
const count = () => Number(screen.getByTestId("timeline").getAttribute("data-count"));
const cursor = () => useDebugger.getState().cursor;
const shownStep = () => screen.getByTestId("step-detail").getAttribute("data-step");
const progress = () => screen.queryByTestId("run-progress");
const follow = () => screen.getByTestId("follow-toggle");
const following = () => follow().getAttribute("aria-checked") === "true";

describe("the debugger follows a run in progress", () => {
  it("a captured run still arriving gains steps and transfers over polls; the cursor stays", async () => {
    const { platform, commands, id } = await capturing(3);
    await open(commands, id);
    expect(count()).toBe(3);
    expect(screen.getByTestId("outcome").getAttribute("data-status")).toBe("running");
    expect(progress()?.getAttribute("data-state")).toBe("running");
    expect(progress()?.getAttribute("data-source")).toBe("poll");
    // opened on step 0, not the newest: not following
    expect(following()).toBe(false);
    fireEvent.click(screen.getByTestId("step-next"));
    expect(cursor()).toBe(1);
    await until(() => expect(shownStep()).toBe("1"));
    const asked = overviews(platform, id);

    // the next spans: the run is replaced with more steps and a second transfer
    platform.receiveRunning(BASE, 8, id);
    await tick(1000);
    await until(() => expect(count()).toBe(8));
    expect(overviews(platform, id)).toBeGreaterThan(asked);
    expect(screen.getByTestId("dbg-timeline-meta").textContent).toBe("8 steps · 2 transfers");
    expect(screen.getByTestId("transport").textContent).toContain("of 8");
    expect(cursor()).toBe(1);
    expect(shownStep()).toBe("1");
    // the new transfer is reachable
    fireEvent.click(screen.getByTestId("next-transfer"));
    expect(cursor()).toBe(5);

    // nothing new: asked again, nothing changes
    await tick(1000);
    expect(count()).toBe(8);
    expect(progress()?.getAttribute("data-state")).toBe("running");
  });

  it("on the newest step it follows the new ones; the Follow switch stops and resumes that", async () => {
    const { platform, commands, id } = await capturing(3);
    await open(commands, id, 2);
    expect(following()).toBe(true);
    expect(follow().textContent).toBe("Following");

    platform.receiveRunning(BASE, 5, id);
    await tick(1000);
    await until(() => expect(cursor()).toBe(4));
    await until(() => expect(shownStep()).toBe("4"));

    // off: the cursor stays where it is
    fireEvent.click(follow());
    expect(following()).toBe(false);
    expect(follow().textContent).toBe("Follow");
    platform.receiveRunning(BASE, 8, id);
    await tick(1000);
    await until(() => expect(count()).toBe(8));
    expect(cursor()).toBe(4);

    // on again: to the newest step at once
    fireEvent.click(follow());
    expect(cursor()).toBe(7);
    await until(() => expect(shownStep()).toBe("7"));
    // stepping back stops following; End follows again
    fireEvent.keyDown(window, { key: "ArrowLeft" });
    expect(cursor()).toBe(6);
    expect(following()).toBe(false);
    fireEvent.keyDown(window, { key: "End" });
    expect(following()).toBe(true);
  });

  it("stops polling when the run is saved complete, and shows the status it ended with", async () => {
    const { platform, commands, id } = await capturing(3);
    await open(commands, id, 2);
    platform.receiveTrace(BASE, id);
    await tick(1000);
    await until(() => expect(progress()?.getAttribute("data-state")).toBe("ended"));
    expect(screen.getByTestId("progress-outcome").getAttribute("data-status")).toBe("completed");
    expect(screen.getByTestId("outcome").getAttribute("data-status")).toBe("completed");
    expect(screen.queryByTestId("follow-toggle")).toBeNull();
    expect(count()).toBe(12);
    // it was following: on the final step
    expect(cursor()).toBe(11);
    const asked = overviews(platform, id);
    await tick(5000);
    expect(overviews(platform, id)).toBe(asked);
  });

  it("never polls a run that has ended", async () => {
    const { platform, commands } = await capturing(3);
    await open(commands, COMPLETED_ID);
    expect(progress()).toBeNull();
    await tick(5000);
    expect(overviews(platform, COMPLETED_ID)).toBe(1);
  });

  it("opening another run stops the first one's polling", async () => {
    const { platform, commands, id } = await capturing(3);
    await open(commands, id);
    await tick(2100);
    const asked = overviews(platform, id);
    expect(asked).toBeGreaterThanOrEqual(3);
    await open(commands, COMPLETED_ID);
    expect(progress()).toBeNull();
    await tick(5000);
    expect(overviews(platform, id)).toBe(asked);
    expect(overviews(platform, COMPLETED_ID)).toBe(1);
  });

  it("leaving the debugger stops polling", async () => {
    const { platform, commands, id } = await capturing(3);
    await open(commands, id);
    await tick(1000);
    expect(overviews(platform, id)).toBe(2);
    fireEvent.keyDown(window, { key: "Escape" });
    await until(() => expect(screen.getByTestId("app").getAttribute("data-mode")).toBe("design"));
    const asked = overviews(platform, id);
    await tick(5000);
    expect(overviews(platform, id)).toBe(asked);
  });

  it("a failed refresh keeps the last good view with a quiet note; the next tick tries again", async () => {
    const { platform, commands, id } = await capturing(3);
    await open(commands, id);
    const real = platform.run_overview;
    const realTail = platform.run_tail;
    platform.run_overview = platform.run_tail = async () => {
      throw { code: "store.open", message: "database is locked" };
    };
    await tick(1000);
    await until(() => expect(screen.getByTestId("progress-error")).toBeTruthy());
    expect(screen.getByTestId("progress-error").getAttribute("title")).toContain("database is locked (store.open)");
    expect(count()).toBe(3);
    expect(screen.queryByRole("alert")).toBeNull();
    expect(useUi.getState().toasts).toEqual([]);

    platform.run_overview = real;
    platform.run_tail = realTail;
    platform.receiveRunning(BASE, 6, id);
    await tick(1000);
    await until(() => expect(count()).toBe(6));
    expect(screen.queryByTestId("progress-error")).toBeNull();
  });

  it("a run that leaves the store (its trace joined an earlier run) is no longer asked; its last view stays", async () => {
    const { platform, commands, id } = await capturing(3);
    await open(commands, id);
    await platform.delete_run({ run_id: id });
    await tick(1000);
    await until(() => expect(progress()?.getAttribute("data-state")).toBe("gone"));
    expect(count()).toBe(3);
    const asked = overviews(platform, id);
    await tick(5000);
    expect(overviews(platform, id)).toBe(asked);
    expect(useUi.getState().toasts).toEqual([]);
  });

  it("asks again for the step views a newer overview may have changed, and only those", async () => {
    const { platform, commands, id } = await capturing(3);
    await open(commands, id);
    await until(() => expect(shownStep()).toBe("0"));
    expect(stepViews(platform, 0)).toBe(1);
    // steps added after the last one: step 0's view is kept
    platform.receiveRunning(BASE, 5, id);
    await tick(1000);
    await until(() => expect(count()).toBe(5));
    await tick(100);
    expect(stepViews(platform, 0)).toBe(1);

    // the replaced run amends an earlier step: every view of the run is dropped, the shown one asked again
    const amended = structuredClone(BASE);
    for (const e of amended.events) if (e.type === "step" && e.step.index === 2) e.step.detail = "amended by a late span";
    platform.receiveRunning(amended, 6, id);
    await tick(1000);
    await until(() => expect(stepViews(platform, 0)).toBe(2));
    expect(count()).toBe(6);
    expect(shownStep()).toBe("0");
  });

  it("a run this window executes is read again on its events, not polled, and ends with its status", async () => {
    const platform = createMockPlatform();
    render(<App platform={platform} />);
    await until(() => expect(screen.getAllByTestId("welcome-file").length).toBeGreaterThan(0));
    fireEvent.click(screen.getAllByTestId("welcome-file").find((f) => f.textContent?.includes("ticket-reopen.yaml")) as HTMLElement);
    await until(() => expect(screen.getByTestId("node-triage")).toBeTruthy());
    act(() => useRun.getState().setLatency(250));
    const commands = makeRunCommands(platform);
    fireEvent.click(screen.getByTestId("topbar-run"));
    await until(() => expect(useRun.getState().live?.runId).toBeTruthy());
    const id = useRun.getState().live?.runId as string;
    await open(commands, id);
    expect(progress()?.getAttribute("data-source")).toBe("events");
    await until(() => expect(progress()?.getAttribute("data-state")).toBe("ended"), 10000);
    expect(screen.getByTestId("progress-outcome").getAttribute("data-status")).toBe("completed");
    const asked = overviews(platform, id);
    await tick(5000);
    expect(overviews(platform, id)).toBe(asked);
    // a run that only grows is read by its end while it runs: whole only on opening and at its end
    // (issue #32: no polling of whole overviews)
    expect(asked - wholeReads(platform, id)).toBeGreaterThan(0);
    expect(wholeReads(platform, id)).toBeLessThanOrEqual(2);
    // the Run panel still streamed it
    expect(useRun.getState().live?.status).toBe("finished");
    expect(useRun.getState().live?.steps).toHaveLength(12);
  });
});

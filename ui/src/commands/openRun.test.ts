// Opening a run asks for the step it shows first beside the overview, not after it (issue #32: on
// a 100,020-step run the overview and the step each take about as long), and a step the run does
// not have fails quietly: the run opens at its clamped step.
import { beforeEach, describe, expect, it } from "vitest";
import { makeRunCommands } from "./run";
import { createMockPlatform } from "../platform/mock";
import { RECORDED_RUNS, type RecordedRun } from "../platform/mock-runs";
import { useDebugger } from "../store/debugger";

const RUN = RECORDED_RUNS["ticket-reopen"] as RecordedRun; // 12 steps
const ID = RUN.summary.id;

beforeEach(() => useDebugger.getState().exit());

/** A platform whose `run_overview` waits for `release()`. */
function gated() {
  const platform = createMockPlatform();
  const real = platform.run_overview.bind(platform);
  let release = () => {};
  const gate = new Promise<void>((r) => (release = r));
  platform.run_overview = async (a) => {
    await gate;
    return real(a);
  };
  const stepViews = () => platform.calls.filter((c) => c.command === "step_view").map((c) => (c.args as { step: number }).step);
  return { platform, release, stepViews };
}

describe("opening a run", () => {
  it("asks for the first step's view while the overview is still on its way", async () => {
    const { platform, release, stepViews } = gated();
    const commands = makeRunCommands(platform);
    const opened = commands.openRun(ID, { step: 7 });
    await new Promise((r) => setTimeout(r, 20));
    expect(useDebugger.getState().overview).toBeNull();
    expect(stepViews()).toEqual([7]);
    release();
    expect(await opened).toBe(true);
    expect(useDebugger.getState().cursor).toBe(7);
    // the view asked for early is the one shown: not asked again
    expect((await commands.loadStep(ID, 7)).step.index).toBe(7);
    expect(stepViews().filter((s) => s === 7)).toHaveLength(1);
  });

  it("a step past the run's end opens the run at its last step", async () => {
    const { platform, release, stepViews } = gated();
    const commands = makeRunCommands(platform);
    const opened = commands.openRun(ID, { step: 400 });
    release();
    expect(await opened).toBe(true);
    const last = RUN.steps.length - 1;
    expect(useDebugger.getState().cursor).toBe(last);
    expect(useDebugger.getState().error).toBeNull();
    expect((await commands.loadStep(ID, last)).step.index).toBe(last);
    expect(stepViews()).toContain(400);
  });
});

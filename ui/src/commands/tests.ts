// What the Tests panel does: run the open topology's expectations through `test_topology`, and "Show step": run a failed scenario again as the test did and open the debugger at the step its failure names.
import { useMemo } from "react";
import { normalizeTopology } from "../model/topology";
import { useDesigner } from "../store/designer";
import { useRun } from "../store/run";
import { useTests } from "../store/tests";
import { useUi } from "../store/ui";
import type { Platform } from "../platform/types";
import { describeError } from "./messages";
import type { RunCommands } from "./run";

function message(e: unknown): string {
  if (e && typeof e === "object" && "message" in e) {
    const { code, message: text } = describeError(e);
    return code ? `${text} (${code})` : text;
  }
  return String(e);
}

/** Resolves once the live run `runId` has ended (true) or was replaced or lost (false). */
function runEnded(runId: string): Promise<boolean> {
  return new Promise((resolve) => {
    const check = (): boolean => {
      const live = useRun.getState().live;
      if (!live || (live.runId !== "" && live.runId !== runId)) return (resolve(false), true);
      if (live.runId === runId && live.status === "finished") return (resolve(true), true);
      if (live.runId === runId && live.status === "disconnected") return (resolve(false), true);
      return false;
    };
    if (check()) return;
    const stop = useRun.subscribe(() => {
      if (check()) stop();
    });
  });
}

export function makeTestCommands(platform: Platform, run: RunCommands) {
  /** Runs every scenario of the open topology that has `expect` (mock models) and keeps the results. */
  async function runTests(): Promise<void> {
    const t = useDesigner.getState().topology;
    if (!t) return;
    const tests = useTests.getState();
    if (tests.running) return;
    tests.begin(t.name);
    try {
      const results = await platform.test_topology({ topology: normalizeTopology(t) });
      useTests.getState().finish(t.name, results);
    } catch (e) {
      useTests.getState().fail(t.name, message(e));
    }
  }

  /** Runs `scenario` as the test did and opens the debugger at `step`. */
  /** Runs `scenario` again (mock models, as tested) and opens it in the debugger, at `step` when given. */
  async function showStep(scenario: string, step?: number): Promise<boolean> {
    const t = useDesigner.getState().topology;
    if (!t) return false;
    useTests.getState().setShowing(scenario);
    try {
      useRun.getState().setScenario(t.name, scenario);
      const runId = await run.startRun({ asTested: true });
      if (!runId) return false;
      if (!(await runEnded(runId))) {
        useUi.getState().notify("error", "The run did not finish", "Look at the Run tab for why.");
        return false;
      }
      // Back in the designer, the Tests tab is where the user left it.
      useUi.getState().setBottom("tests");
      return await run.openRun(runId, step === undefined ? {} : { step });
    } finally {
      useTests.getState().setShowing(null);
    }
  }

  return { runTests, showStep };
}

export type TestCommands = ReturnType<typeof makeTestCommands>;

export function useTestCommands(run: RunCommands): TestCommands {
  return useMemo(() => makeTestCommands(run.platform, run), [run]);
}

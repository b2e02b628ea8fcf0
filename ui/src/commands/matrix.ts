// What the Matrix tab does: run the model matrix of the open topology through `run_matrix` (every run saved) and open a cell's run in the debugger, as the Runs tab does.
import { useMemo } from "react";
import type { MatrixArgs } from "../bindings/MatrixArgs";
import { useMatrix } from "../store/matrix";
import { useRun } from "../store/run";
import { describeError } from "./messages";
import type { RunCommands } from "./run";

/** The backend's message as the window says it, with its code. */
function message(e: unknown): string {
  if (e && typeof e === "object" && "message" in e) {
    const { code, message: text } = describeError(e);
    return code ? `${text} (${code})` : text;
  }
  return String(e);
}

export function makeMatrixCommands(run: RunCommands) {
  /** Runs the matrix `args` say for topology `name`; the report or the error lands in the store. */
  async function runMatrix(name: string, args: MatrixArgs): Promise<void> {
    const m = useMatrix.getState();
    if (m.running && m.topology === name) return;
    m.begin(name);
    try {
      const report = await run.platform.run_matrix(args);
      useMatrix.getState().finish(name, report);
    } catch (e) {
      useMatrix.getState().fail(name, message(e));
    } finally {
      // The runs were saved: the Runs tab lists them.
      useRun.getState().bumpRuns();
    }
  }

  /** Opens a saved run of a cell in the debugger. */
  function openCellRun(runId: string): Promise<boolean> {
    return run.openRun(runId);
  }

  return { runMatrix, openCellRun };
}

export type MatrixCommands = ReturnType<typeof makeMatrixCommands>;

export function useMatrixCommands(run: RunCommands): MatrixCommands {
  return useMemo(() => makeMatrixCommands(run), [run]);
}

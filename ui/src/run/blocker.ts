// One rule for every Run control (the top bar's Run, the Run tab's Start, F5, the palette, the
// message box): whether a run can start now, and if not, the sentence that says why.
import type { Topology } from "../model/types";
import { isActive, type LiveRun } from "./live";

export type RunRequestKind = { kind: "scenario" } | { kind: "message"; message: string };

/** Why a run cannot start, or null when it can. */
export function runBlocker(t: Topology | null, live: LiveRun | null, req: RunRequestKind = { kind: "scenario" }): string | null {
  if (!t) return "Open or create a topology first.";
  if (isActive(live)) return "A run is going on: wait for it to end, or cancel it in the Run tab.";
  if (t.agents.length === 0) return "Add an agent first.";
  if (!t.agents.some((a) => a.id === t.entry)) return "Choose the entry agent first (Entry agent, in the inspector with nothing selected).";
  if (req.kind === "message") return req.message.trim() === "" ? "Type a message to run with first." : null;
  if ((t.scenarios ?? []).length === 0) {
    return "Add a scenario first (Scenarios, in the inspector with nothing selected), or type a message in the Run tab and run with it.";
  }
  return null;
}

// One rule for every Run control: what blocks a run, in words.
import { describe, expect, it } from "vitest";
import type { Topology } from "../model/types";
import { runBlocker } from "./blocker";
import { newLiveRun } from "./live";

const t: Topology = {
  version: 1,
  name: "t",
  entry: "agent",
  agents: [{ id: "agent", name: "Agent" }],
  edges: [],
  guards: { max_turns: 10, on_revisit: "allow" },
};

describe("runBlocker", () => {
  it("needs a document, no active run, an entry agent and a scenario (or a typed message)", () => {
    expect(runBlocker(null, null)).toMatch(/^Open or create/);
    expect(runBlocker(t, null)).toMatch(/^Add a scenario first/);
    expect(runBlocker(t, null, { kind: "message", message: "hi" })).toBeNull();
    expect(runBlocker(t, null, { kind: "message", message: "  " })).toBe("Type a message to run with first.");
    const withScenario: Topology = { ...t, scenarios: [{ name: "s", input: "hi" }] };
    expect(runBlocker(withScenario, null)).toBeNull();
    expect(runBlocker({ ...withScenario, entry: "gone" }, null)).toMatch(/^Choose the entry agent/);
    expect(runBlocker({ ...withScenario, agents: [] }, null)).toBe("Add an agent first.");
    const live = { ...newLiveRun("r1", "t", "s"), status: "running" as const };
    expect(runBlocker(withScenario, live)).toMatch(/^A run is going on/);
    expect(runBlocker(withScenario, { ...live, status: "finished" })).toBeNull();
  });
});

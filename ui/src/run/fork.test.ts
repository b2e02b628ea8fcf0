// The fork dialog's choices as the spec fork_run gets, and a divergence in words. The run here is
// examples/ticket-reopen.yaml as a person reads it: the handoff resolution → verification has the
// policy fields(ticket,status), Resolution runs on openai:gpt-4o, max_turns is 10, and the pinned
// fact is resolved-meaning.
import { describe, expect, it } from "vitest";
import { changesNothing, describeDivergence, forkProblems, forkSpec, policyFork, policyOptions, type ForkBase, type ForkChoices } from "./fork";

const BASE: ForkBase = {
  policies: { "triage->resolution": "full", "resolution->verification": "fields(ticket,status)" },
  models: { triage: "openai:gpt-4o-mini", resolution: "openai:gpt-4o", verification: "openai:gpt-4o-mini" },
  instructions: {
    triage: "Classify the support ticket and hand it to the right owner immediately.\nDo not try to resolve it yourself.\n",
    resolution: "You fix bugs. Ship every fix behind a feature flag; rollout is manual.\n",
    verification: "Verify that resolved tickets are really fixed. If the fix is not live, reopen the ticket.\n",
  },
  maxTurns: 10,
};

/** The dialog as it opens at step 5: every field as the run had it. */
const untouched = (): ForkChoices => ({
  at: 5,
  policies: { ...BASE.policies },
  models: {},
  instructions: { ...BASE.instructions },
  drop: [],
  restore: [],
  maxTurns: "",
  then: "mock",
});

const names: Record<string, string> = { triage: "Triage", resolution: "Resolution", verification: "Verification" };
const agentName = (id: string) => names[id] ?? id;

describe("forkSpec", () => {
  it("sends nothing but the step and who answers when nothing changed", () => {
    const spec = forkSpec(untouched(), BASE);
    expect(spec).toEqual({ at: 5, policies: {}, models: {}, instructions: {}, drop: [], restore: [], put_back: [], then: "mock" });
    expect(changesNothing(spec)).toBe(true);
  });

  it("restoring the pinned fact at the handoff step", () => {
    const spec = forkSpec({ ...untouched(), restore: new Set(["resolved-meaning"]) }, BASE);
    expect(spec).toEqual({ at: 5, policies: {}, models: {}, instructions: {}, drop: [], restore: ["resolved-meaning"], put_back: [], then: "mock" });
    expect(changesNothing(spec)).toBe(false);
  });

  it("keeps only the edges, models and instructions that differ from the run", () => {
    const c = untouched();
    c.policies["resolution->verification"] = "full";
    c.models = { resolution: "  anthropic:claude-sonnet-4  ", triage: "openai:gpt-4o-mini", verification: "   " };
    // a trailing newline the editor dropped is no change; new words are
    c.instructions.triage = "Classify the support ticket and hand it to the right owner immediately.\nDo not try to resolve it yourself.";
    c.instructions.verification = "Verify the fix. A fix behind an off flag pending rollout counts as resolved.";
    c.drop = ["a1", "b2", "a1"];
    c.maxTurns = "6";
    c.then = "live";
    expect(forkSpec(c, BASE)).toEqual({
      at: 5,
      policies: { "resolution->verification": "full" },
      models: { resolution: "anthropic:claude-sonnet-4" },
      instructions: { verification: "Verify the fix. A fix behind an off flag pending rollout counts as resolved." },
      drop: ["a1", "b2"],
      restore: [],
      put_back: [],
      max_turns: 6,
      then: "live",
    });
  });

  it("leaves max turns out when it is the run's own or not a number", () => {
    expect(forkSpec({ ...untouched(), maxTurns: "10" }, BASE).max_turns).toBeUndefined();
    expect(forkSpec({ ...untouched(), maxTurns: "ten" }, BASE).max_turns).toBeUndefined();
  });
});

describe("forkProblems", () => {
  it("asks for provider:model and a whole number of turns", () => {
    const c = { ...untouched(), models: { resolution: "gpt-4o", verification: "openai:" }, maxTurns: "0" };
    expect(forkProblems(c, agentName)).toEqual([
      "Model of Resolution: write provider:model, e.g. openai:gpt-4o or mock:mock.",
      "Model of Verification: write provider:model, e.g. openai:gpt-4o or mock:mock.",
      "Max turns: a whole number of at least 1.",
    ]);
    expect(forkProblems({ ...untouched(), models: { resolution: "mock:mock" }, maxTurns: "4" }, agentName)).toEqual([]);
  });
});

describe("policyFork and policyOptions", () => {
  it("a what-if row's policy on its edge at the transfer's step", () => {
    expect(policyFork(5, "resolution->verification", "full")).toEqual({
      at: 5,
      policies: { "resolution->verification": "full" },
      models: {},
      instructions: {},
      drop: [],
      restore: [],
      put_back: [],
      then: "mock",
    });
  });

  it("offers the edge's own policy first, once", () => {
    const opts = policyOptions("fields(ticket,status)");
    expect(opts[0]).toBe("fields(ticket,status)");
    expect(opts).toContain("none");
    expect(policyOptions("full").filter((p) => p === "full")).toHaveLength(1);
  });
});

describe("describeDivergence", () => {
  it("names the call and the agent where the fork left the recording", () => {
    const d = { agent: "verification", call: 1, recorded_step: 6, reason: "its input differs from the recording's (1 item new, 0 gone)" };
    expect(describeDivergence(d, agentName)).toBe(
      "left the recording at call 1 of Verification (recorded step 6): its input differs from the recording's (1 item new, 0 gone)",
    );
    expect(describeDivergence({ ...d, recorded_step: null }, agentName)).toBe(
      "left the recording at call 1 of Verification: its input differs from the recording's (1 item new, 0 gone)",
    );
  });

  it("says so when the fork replayed to the end", () => {
    expect(describeDivergence(null, agentName)).toMatch(/^replayed to the end unchanged/);
  });
});

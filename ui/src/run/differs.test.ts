// What a row says sets its run apart from the run before it, on hand-made summaries.
import { describe, expect, it } from "vitest";
import { whatDiffers } from "./differs";
import type { RunSummary } from "./types";

const base: RunSummary = {
  id: "01a2-1",
  topology: "ticket-reopen",
  scenario: "reopen",
  started_at: "2026-12-03T10:00:00Z",
  ended_at: "2026-12-03T10:00:01Z",
  outcome: { status: "completed", reason: "Verification gave the final answer" },
  owner: "verification",
  final_output: "Reopened ticket 4812.",
  guard: null,
  input_tokens: 10,
  output_tokens: 5,
  steps: 9,
  transfers: 2,
  lost_facts: 1,
  providers: { triage: "mock", verification: "mock" },
  source: null,
  origin: "native",
} as RunSummary;

describe("whatDiffers", () => {
  it("says nothing for the oldest run or a run like the one before", () => {
    expect(whatDiffers(base, undefined)).toEqual([]);
    expect(whatDiffers({ ...base, id: "01a2-2", started_at: "2026-12-03T11:00:00Z" }, base)).toEqual([]);
  });

  it("names the scenario, a provider, the final answer and the lost facts that changed, most telling first", () => {
    const run = {
      ...base,
      scenario: "refund",
      providers: { triage: "mock", verification: "openai:gpt-4o" },
      final_output: "Ticket 4812 stays resolved.",
      lost_facts: 0,
    };
    expect(whatDiffers(run, base)).toEqual([
      "scenario refund (was reopen)",
      "verification openai:gpt-4o (was mock)",
      "another final answer",
      "0 lost facts (was 1)",
    ]);
  });

  it("tells a bad ending from a good one, by the mark first", () => {
    const bad = { ...base, ending: { judgement: "bad", by: "signal", reason: "reopened", at: 7 } } as RunSummary;
    expect(whatDiffers(bad, base)).toEqual(["judged bad (was unknown)"]);
    const marked = { ...bad, mark: { judgement: "good", why: "fine", at: "2026-12-03T12:00:00Z" } } as RunSummary;
    expect(whatDiffers(marked, bad)).toEqual(["judged good (was bad)"]);
  });

  it("counts transfers before steps, and names who ended it", () => {
    expect(whatDiffers({ ...base, transfers: 3, steps: 12, owner: "triage" }, base)).toEqual(["ended with triage (was verification)", "3 transfers (was 2)"]);
    expect(whatDiffers({ ...base, steps: 12 }, base)).toEqual(["12 steps (was 9)"]);
  });
});

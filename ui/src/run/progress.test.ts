// Which cached step views a newer overview of a run still running makes stale.
import { describe, expect, it } from "vitest";
import { staleFrom } from "./progress";
import { Steps, type RunOverview, type StepBrief, type TransferBrief } from "./types";

const step = (index: number, detail = `step ${index}`, transfer: number | null = null): StepBrief => ({
  index,
  kind: transfer === null ? "model_call" : "handoff",
  agent: "a",
  owner: "a",
  depth: 0,
  transfer,
  detail,
  tokens: null,
  context_len: null,
  start_ms: null,
  duration_ms: null,
});

const transfer = (index: number, at: number, carried = 1): TransferBrief => ({
  index,
  step: at,
  kind: "handoff",
  from: "a",
  to: "b",
  edge: "a->b",
  policy: "full",
  carried,
  transformed: 0,
  dropped: 0,
  added: 0,
  facts: [],
});

function overview(n: number, transfers: TransferBrief[] = [], edit?: (s: StepBrief[]) => void): RunOverview {
  const steps = Array.from({ length: n }, (_, i) => step(i, `step ${i}`, transfers.find((t) => t.step === i)?.index ?? null));
  edit?.(steps);
  return {
    summary: {
      id: "r",
      topology: "t",
      scenario: "imported",
      started_at: "2026-01-01T00:00:00Z",
      ended_at: null,
      outcome: { status: "running", reason: "capturing: spans of this trace are still arriving" },
      owner: "a",
      final_output: null,
      guard: null,
      input_tokens: 0,
      output_tokens: 0,
      steps: n,
      transfers: transfers.length,
      lost_facts: 0,
      providers: {},
      source: null,
      origin: "native",
    },
    topology: null,
    steps: Steps.of(steps),
    transfers,
  };
}

describe("staleFrom", () => {
  it("is null when nothing changed", () => {
    expect(staleFrom(overview(4, [transfer(0, 1)]), overview(4, [transfer(0, 1)]))).toBeNull();
  });

  it("drops from the previous last step when steps and transfers are added after it", () => {
    expect(staleFrom(overview(4, [transfer(0, 1)]), overview(9, [transfer(0, 1), transfer(1, 6)]))).toBe(3);
    // the last step itself changed (it became a transfer)
    expect(staleFrom(overview(4), overview(4, [transfer(0, 3)]))).toBe(3);
  });

  it("drops from the previous last step when only the summary changed (the run ended)", () => {
    const done = overview(4);
    done.summary = { ...done.summary, outcome: { status: "completed", reason: "done" }, ended_at: "2026-01-01T00:00:05Z" };
    expect(staleFrom(overview(4), done)).toBe(3);
  });

  it("drops every view when an earlier step changed, steps were removed, or an earlier transfer changed", () => {
    expect(staleFrom(overview(4), overview(6, [], (s) => (s[1] = step(1, "amended"))))).toBe(0);
    expect(staleFrom(overview(6), overview(4))).toBe(0);
    expect(staleFrom(overview(6, [transfer(0, 1)]), overview(6, [transfer(0, 1, 3)]))).toBe(0);
    expect(staleFrom(overview(6, [transfer(0, 1)]), overview(6, []))).toBe(0);
  });

  it("handles a run with no steps yet", () => {
    expect(staleFrom(overview(0), overview(0))).toBeNull();
    expect(staleFrom(overview(0), overview(3))).toBe(0);
  });
});

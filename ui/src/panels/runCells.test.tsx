// A run's outcome cell: a run that completed but was judged bad (a failed expect:, a mark, its own
// structure) says so beside the outcome, with who judged it and why; a good or unjudged one does not.
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { RunSummary } from "../run/types";
import { RunIdTag, RunOutcome } from "./runCells";

const base: RunSummary = {
  id: "r1",
  topology: "support",
  scenario: "refund",
  started_at: "2026-12-01T10:00:00Z",
  ended_at: "2026-12-01T10:00:05Z",
  outcome: { status: "completed", reason: "billing answered" },
  owner: "billing",
  final_output: "Refund sent",
  guard: null,
  input_tokens: 10,
  output_tokens: 5,
  steps: 4,
  transfers: 1,
  lost_facts: 0,
  providers: {},
  source: null,
  origin: "native",
};

describe("RunOutcome", () => {
  it("shows a bad ending beside a completed outcome, with who judged it, where and why", () => {
    render(<RunOutcome run={{ ...base, ending: { judgement: "bad", by: "expect", reason: "expected 'order 4412' in the answer", at: 3 } }} />);
    const badge = screen.getByTestId("run-ending-badge");
    expect(badge.textContent).toContain("bad ending");
    expect(badge.getAttribute("title")).toBe("Judged bad by a failed expect: (step 3): expected 'order 4412' in the answer");
    expect(screen.getByText("billing answered")).toBeTruthy();
  });

  it("shows nothing more for a good or unjudged ending", () => {
    const { rerender } = render(<RunOutcome run={{ ...base, ending: { judgement: "good", by: "mark", reason: "fine", at: null } }} />);
    expect(screen.queryByTestId("run-ending-badge")).toBeNull();
    rerender(<RunOutcome run={{ ...base, ending: { judgement: null, by: "nobody", reason: "nothing judges this ending", at: null } }} />);
    expect(screen.queryByTestId("run-ending-badge")).toBeNull();
    rerender(<RunOutcome run={base} />);
    expect(screen.queryByTestId("run-ending-badge")).toBeNull();
  });
});

describe("RunIdTag", () => {
  it("names a run by its random tail and a fork by its parent and first change", () => {
    const parent = "019ae3b2-7c41-7a1f-9d2e-4b8c1f00aa01";
    const fork = {
      ...base,
      id: "019ae3b2-7c41-7c55-8e10-0d7f3e92bb42",
      parent,
      forked_at: 4,
      fork: { parent, at: 4, changes: ["policy resolution→supervisor: full", "then: mock"], then: "mock", divergence: null },
    } as RunSummary;
    render(<RunIdTag run={fork} />);
    expect(screen.getByTestId("run-id").textContent).toBe("3e92bb42");
    const tag = screen.getByTestId("run-fork");
    expect(tag.textContent).toContain("1f00aa01: policy resolution→supervisor: full");
    expect(tag.getAttribute("title")).toContain(`Fork of run ${parent} at step 4`);
    expect(tag.getAttribute("title")).toContain("then: mock");
  });
});

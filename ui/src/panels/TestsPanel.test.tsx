// The Tests tab with a stubbed `test_topology` (the runs and checks are the Rust core's): results, summary, the expectations in words and "Show step". The topology and its expect come from examples/ticket-reopen.yaml (flagged-fix: status completed, owner verification, output_contains "Reopened ticket 4812", fact_lost_at resolved-meaning: resolution->verification); the failures are written as bindings/Failure.ts and src/testing.rs word them.
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { CaseResult } from "../bindings/CaseResult";
import { makeTestCommands } from "../commands/tests";
import type { RunCommands } from "../commands/run";
import { caseVerdict, describeExpect, expectPhrases, testSummary } from "../model/expect";
import type { Platform } from "../platform/types";
import type { Topology } from "../model/types";
import { useDesigner } from "../store/designer";
import { useRun } from "../store/run";
import { useTests } from "../store/tests";
import { newLiveRun } from "../run/live";
import { TestsPanel } from "./TestsPanel";

const ticket: Topology = {
  version: 1,
  name: "ticket-reopen",
  entry: "triage",
  agents: [
    { id: "triage", name: "Triage" },
    { id: "resolution", name: "Resolution" },
    { id: "verification", name: "Verification" },
  ],
  edges: [
    { kind: "handoff", from: "triage", to: "resolution" },
    { kind: "handoff", from: "resolution", to: "verification" },
  ],
  guards: { max_turns: 10, max_handoffs: 4, on_revisit: "stop" },
  scenarios: [
    {
      name: "flagged-fix",
      input: "Ticket #4812: the checkout button does nothing on Safari. Customer-facing.",
      expect: { status: "completed", owner: "verification", output_contains: "Reopened ticket 4812", fact_lost_at: { "resolved-meaning": "resolution->verification" } },
    },
    { name: "kept", input: "Ticket #4812 again.", expect: { facts_kept: ["resolved-meaning"], max_transfers: 1 } },
    { name: "broken", input: "x", expect: { status: "completed" } },
    { name: "no-expect", input: "y" },
  ],
};

const result = (scenario: string, over: Partial<CaseResult> = {}): CaseResult => ({
  file: "ticket-reopen.yaml",
  topology: "ticket-reopen",
  scenario,
  checked: 4,
  failures: [],
  error: null,
  duration_ms: 3,
  ...over,
});

const RESULTS: CaseResult[] = [
  result("flagged-fix"),
  result("kept", {
    checked: 2,
    failures: [
      { expectation: "facts_kept.resolved-meaning", reason: "resolved-meaning was lost at resolution → verification (step 5)", step: 5 },
      { expectation: "max_transfers", reason: "2 transfers, more than 1", step: null },
    ],
  }),
  result("broken", { checked: 0, error: "the scenario's mock rules name an unknown agent" }),
];

describe("expectations in words", () => {
  it("words each expectation the file gives, in a fixed order", () => {
    expect(describeExpect(ticket.scenarios?.[0]?.expect)).toBe(
      "status completed · output contains 'Reopened ticket 4812' · resolved-meaning lost at resolution → verification · ends with verification",
    );
    expect(
      expectPhrases({ reason_contains: "max_turns", output_matches: "^Reopened", facts_kept: ["a", "b"], max_transfers: 3, visits: ["triage"], not_visits: ["human"], max_tokens: 2000n }),
    ).toEqual(["reason contains 'max_turns'", "output matches /^Reopened/", "a kept", "b kept", "at most 3 transfers", "visits triage", "never visits human", "at most 2000 tokens"]);
    expect(describeExpect(undefined)).toBe("");
  });

  it("a case is passed, failed (a failure) or error (no run); the summary counts them", () => {
    expect(RESULTS.map(caseVerdict)).toEqual(["passed", "failed", "error"]);
    expect(testSummary(RESULTS)).toBe("1 passed, 1 failed, 1 error");
    expect(testSummary([result("a"), result("b"), result("c"), result("d"), result("e", { failures: [{ expectation: "status", reason: "r", step: null }] })])).toBe("4 passed, 1 failed");
  });
});

describe("the Tests tab", () => {
  let testTopology: ReturnType<typeof vi.fn>;
  let run: { startRun: ReturnType<typeof vi.fn>; openRun: ReturnType<typeof vi.fn> };

  beforeEach(() => {
    useDesigner.getState().close();
    useDesigner.getState().load(ticket, "ticket-reopen.yaml");
    useTests.setState({ topology: null, results: null, running: false, error: null, showing: null });
    useRun.setState({ live: null });
    testTopology = vi.fn(async () => RESULTS);
    run = {
      startRun: vi.fn(async () => {
        // the run the Run tab would start, ending at once
        useRun.setState({ live: { ...newLiveRun("run-1", "ticket-reopen", useRun.getState().scenario["ticket-reopen"] ?? ""), status: "finished" } });
        return "run-1";
      }),
      openRun: vi.fn(async () => true),
    };
  });

  const panel = () => {
    const commands = makeTestCommands({ test_topology: testTopology } as unknown as Platform, run as unknown as RunCommands);
    return render(<TestsPanel commands={commands} />);
  };

  it("Run tests calls test_topology on the open topology and lists each case with its verdict, expectations and failures", async () => {
    panel();
    expect(screen.getByTestId("tests-empty").textContent).toMatch(/Run tests/);
    fireEvent.click(screen.getByTestId("tests-run"));
    await waitFor(() => expect(screen.getByTestId("tests-summary").textContent).toBe("1 passed, 1 failed, 1 error"));
    expect(testTopology).toHaveBeenCalledTimes(1);
    expect(testTopology.mock.calls[0]?.[0].topology.name).toBe("ticket-reopen");
    expect(testTopology.mock.calls[0]?.[0].scenario).toBeUndefined();
    const cases = screen.getAllByTestId("test-case");
    expect(cases.map((c) => [c.dataset.scenario, within(c).getByTestId("test-verdict").textContent])).toEqual([
      ["flagged-fix", "PASSED"],
      ["kept", "FAILED"],
      ["broken", "ERROR"],
    ]);
    expect(within(cases[0]!).getByTestId("test-expect").textContent).toBe(
      "expects status completed · output contains 'Reopened ticket 4812' · resolved-meaning lost at resolution → verification · ends with verification",
    );
    const failures = within(cases[1]!).getAllByTestId("test-failure");
    expect(failures.map((f) => [f.dataset.expectation, f.querySelector(".test-failure-reason")?.textContent, f.dataset.step])).toEqual([
      ["facts_kept.resolved-meaning", "resolved-meaning was lost at resolution → verification (step 5)", "5"],
      ["max_transfers", "2 transfers, more than 1", undefined],
    ]);
    expect(within(failures[0]!).getByTestId("test-show-step").textContent?.trim()).toBe("Show step 5");
    expect(within(failures[1]!).queryByTestId("test-show-step")).toBeNull();
    expect(within(cases[2]!).getByTestId("test-error").textContent).toBe("the scenario's mock rules name an unknown agent");
    expect(screen.getByTestId("tests-panel").textContent).toMatch(/3 scenarios have expectations · 1 without \(not tested\)/);
  });

  it("Show step runs that scenario as the test did and opens the debugger at the failure's step", async () => {
    panel();
    fireEvent.click(screen.getByTestId("tests-run"));
    const show = await screen.findByTestId("test-show-step");
    await act(async () => {
      fireEvent.click(show);
    });
    await waitFor(() => expect(run.openRun).toHaveBeenCalledWith("run-1", { step: 5 }));
    expect(useRun.getState().scenario["ticket-reopen"]).toBe("kept");
    expect(run.startRun).toHaveBeenCalledWith({ asTested: true });
  });

  it("every failed or errored case links to its run; a passed one does not", async () => {
    panel();
    fireEvent.click(screen.getByTestId("tests-run"));
    await screen.findAllByTestId("test-case");
    const cases = screen.getAllByTestId("test-case");
    expect(cases.map((c) => within(c).queryByTestId("test-open-run") !== null)).toEqual([false, true, true]);
    await act(async () => {
      fireEvent.click(within(cases[1]!).getByTestId("test-open-run"));
    });
    await waitFor(() => expect(run.openRun).toHaveBeenCalledWith("run-1", {}));
    expect(useRun.getState().scenario["ticket-reopen"]).toBe("kept");
  });

  it("a test_topology that fails is said, with the backend's message", async () => {
    testTopology.mockRejectedValueOnce({ code: "api.args", message: "tests need the Baton backend" });
    panel();
    fireEvent.click(screen.getByTestId("tests-run"));
    await waitFor(() => expect(screen.getByTestId("tests-error").textContent).toMatch(/Could not run the tests: .*tests need the Baton backend/));
  });
});

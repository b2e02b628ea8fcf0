// The Matrix tab with a stubbed `run_matrix` (the runs are the Rust core's, src/matrix.rs): the form sends what it shows, the busy state, one row per cell with its columns, "no price", a row opening its first run and #n each repeat's run, and the backend's error with its code. The topology is examples/support-triage.yaml (agents triage, billing, technical; scenarios double-charge and app-error); the report is written by hand in bindings/MatrixReport.ts's shape.
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { Cell } from "../bindings/Cell";
import type { CellRun } from "../bindings/CellRun";
import type { MatrixReport } from "../bindings/MatrixReport";
import { makeMatrixCommands } from "../commands/matrix";
import type { RunCommands } from "../commands/run";
import type { Topology } from "../model/types";
import { PlatformError } from "../platform/types";
import { useDesigner } from "../store/designer";
import { useMatrix } from "../store/matrix";
import { MatrixPanel } from "./MatrixPanel";

const supportTriage: Topology = {
  version: 1,
  name: "support-triage",
  entry: "triage",
  agents: [
    { id: "triage", name: "Triage", model: { provider: "openai", name: "gpt-4o-mini" } },
    { id: "billing", name: "Billing", model: { provider: "anthropic", name: "claude-sonnet-4-5" } },
    { id: "technical", name: "Technical Support", model: { provider: "gemini", name: "gemini-2.5-flash" } },
  ],
  edges: [
    { kind: "handoff", from: "triage", to: "billing" },
    { kind: "handoff", from: "triage", to: "technical" },
  ],
  guards: { max_turns: 10, max_handoffs: 3, on_revisit: "stop" },
  scenarios: [
    { name: "double-charge", input: "I was charged twice for my subscription this month.", expect: { status: "completed" } },
    { name: "app-error", input: "The app shows error E42 when I open my dashboard.", expect: { status: "completed" } },
  ],
};

const runOf = (id: string | null, over: Partial<CellRun> = {}): CellRun => ({
  status: "completed",
  reason: "",
  expectations_passed: 4,
  expectations: 4,
  facts_lost: 0,
  tokens: 120,
  cost: null,
  latency_ms: 10,
  retries: 0,
  run_id: id,
  failures: [],
  ...over,
});

const cell = (model: string, scenario: string, runs: CellRun[], over: Partial<Cell> = {}): Cell => ({
  models: { triage: model },
  scenario,
  runs,
  completed: runs.filter((r) => r.status === "completed").length,
  expectations_passed: runs.reduce((n, r) => n + r.expectations_passed, 0),
  expectations: runs.reduce((n, r) => n + r.expectations, 0),
  facts_lost: 0,
  tokens: runs.reduce((n, r) => n + r.tokens, 0),
  cost: null,
  p50_ms: 10,
  p95_ms: 12,
  retries: 0,
  ...over,
});

const REPORT: MatrixReport = {
  topology: "support-triage",
  cells: [
    cell("mock:a", "double-charge", [runOf("r-a1"), runOf("r-a2", {
        status: "stopped",
        reason: "max_turns",
        expectations_passed: 1,
        failures: [
          { expectation: "status", reason: "the run ended stopped (max_turns), not completed", step: 7 },
          { expectation: "output_contains", reason: "the final output does not contain 'refund'", step: null },
          { expectation: "facts_kept", reason: "billing-policy was lost at triage->billing", step: 2 },
        ],
      })], { cost: 0.0042, facts_lost: 1, retries: 2 }),
    cell("mock:a", "app-error", [runOf("r-b1"), runOf("r-b2")]),
    cell("mock:b", "double-charge", [runOf(null), runOf("r-c2")]),
    cell("mock:b", "app-error", [runOf(null), runOf(null)]),
  ],
};

describe("the Matrix tab", () => {
  let runMatrix: ReturnType<typeof vi.fn>;
  let openRun: ReturnType<typeof vi.fn>;

  beforeEach(() => {
    useDesigner.getState().close();
    useDesigner.getState().load(supportTriage, "support-triage.yaml");
    useMatrix.setState({ topology: null, form: null, report: null, running: false, error: null });
    runMatrix = vi.fn(async () => REPORT);
    openRun = vi.fn(async () => true);
  });

  const panel = () => {
    const run = { platform: { run_matrix: runMatrix }, openRun } as unknown as RunCommands;
    return render(<MatrixPanel commands={makeMatrixCommands(run)} />);
  };

  it("Run is off until an agent is varied; varying shows its current model to edit; scenarios all checked, mock_rest on", () => {
    panel();
    expect((screen.getByTestId("matrix-run") as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId("matrix-why").textContent).toBe("Pick at least one agent to vary");
    expect(screen.getAllByTestId("matrix-agent").map((a) => a.dataset.agent)).toEqual(["triage", "billing", "technical"]);
    expect(screen.queryByTestId("matrix-models-triage")).toBeNull();
    fireEvent.click(screen.getByTestId("matrix-vary-triage"));
    expect((screen.getByTestId("matrix-models-triage") as HTMLTextAreaElement).value).toBe("openai:gpt-4o-mini");
    // the format is said beside the field, not only in its placeholder
    expect(screen.getByTestId("matrix-models-format").textContent).toMatch(/One model a line: provider:model, or provider:model@URL for a server of your own/);
    expect(screen.getByTestId("matrix-models-triage").getAttribute("aria-describedby")).toBe("matrix-models-format-triage");
    expect((screen.getByTestId("matrix-scenario-double-charge") as HTMLInputElement).checked).toBe(true);
    expect((screen.getByTestId("matrix-scenario-app-error") as HTMLInputElement).checked).toBe(true);
    expect((screen.getByTestId("matrix-mock-rest") as HTMLInputElement).checked).toBe(true);
    expect((screen.getByTestId("matrix-run") as HTMLButtonElement).disabled).toBe(false);
  });

  it("a bad price table says what is wrong and keeps Run off", () => {
    panel();
    fireEvent.click(screen.getByTestId("matrix-vary-triage"));
    fireEvent.change(screen.getByTestId("matrix-prices"), { target: { value: "mock:a: {input_per_mtok: 1}" } });
    expect(screen.getByTestId("matrix-prices-error").textContent).toBe("mock:a: missing output_per_mtok");
    expect((screen.getByTestId("matrix-run") as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByTestId("matrix-prices"), { target: { value: "mock:a: {input_per_mtok: 1, output_per_mtok: 2}" } });
    expect(screen.queryByTestId("matrix-prices-error")).toBeNull();
  });

  it("Run sends the form, shows a busy state, then one row per cell with its columns; a row opens its first saved run, #n each repeat's", async () => {
    let release: (r: MatrixReport) => void = () => {};
    runMatrix.mockImplementation(() => new Promise<MatrixReport>((res) => (release = res)));
    panel();
    fireEvent.click(screen.getByTestId("matrix-vary-triage"));
    fireEvent.change(screen.getByTestId("matrix-models-triage"), { target: { value: "mock:a\nmock:b" } });
    fireEvent.change(screen.getByTestId("matrix-repeat"), { target: { value: "2" } });
    fireEvent.change(screen.getByTestId("matrix-prices"), { target: { value: "mock:a: {input_per_mtok: 1, output_per_mtok: 2}" } });
    fireEvent.click(screen.getByTestId("matrix-run"));
    await waitFor(() => expect(screen.getByTestId("matrix-busy")).toBeTruthy());
    expect((screen.getByTestId("matrix-run") as HTMLButtonElement).disabled).toBe(true);
    const args = runMatrix.mock.calls[0]?.[0];
    expect(args.topology.name).toBe("support-triage");
    expect(args.vary).toEqual([{ agent: "triage", models: ["mock:a", "mock:b"] }]);
    expect(args.scenarios).toEqual(["double-charge", "app-error"]);
    expect([args.repeat, args.mock_rest]).toEqual([2, true]);
    expect(args.prices).toEqual({ "mock:a": { input_per_mtok: 1, output_per_mtok: 2 } });

    await act(async () => release(REPORT));
    expect(screen.queryByTestId("matrix-busy")).toBeNull();
    const rows = screen.getAllByTestId("matrix-row");
    expect(rows.map((r) => [r.dataset.models, r.dataset.scenario])).toEqual([
      ["triage=mock:a", "double-charge"],
      ["triage=mock:a", "app-error"],
      ["triage=mock:b", "double-charge"],
      ["triage=mock:b", "app-error"],
    ]);
    const col = (r: HTMLElement, id: string) => within(r).getByTestId(id).textContent;
    const first = rows[0]!;
    expect([col(first, "matrix-completed"), col(first, "matrix-expectations"), col(first, "matrix-facts-lost"), col(first, "matrix-tokens")]).toEqual(["1/2", "5/8 status, output_contains, facts_kept", "1", "240"]);
    // which expectations failed, in how many runs and why
    expect(within(first).getByTestId("matrix-expectations").getAttribute("title")).toBe(
      "Failed status in 1/2 run(s): the run ended stopped (max_turns), not completed\nFailed output_contains in 1/2 run(s): the final output does not contain 'refund'\nFailed facts_kept in 1/2 run(s): billing-policy was lost at triage->billing",
    );
    expect([col(first, "matrix-cost"), col(first, "matrix-latency"), col(first, "matrix-retries")]).toEqual(["$0.0042", "10 / 12", "2"]);
    expect(col(rows[1]!, "matrix-completed")).toBe("2/2");
    expect(col(rows[1]!, "matrix-expectations")).toBe("8/8");
    expect(col(rows[1]!, "matrix-cost")).toBe("no price");
    expect(first.textContent).toMatch(/Triage mock:a/);

    fireEvent.click(first);
    expect(openRun).toHaveBeenLastCalledWith("r-a1");
    fireEvent.click(within(rows[1]!).getAllByTestId("matrix-open-run")[1]!);
    expect(openRun).toHaveBeenLastCalledWith("r-b2");
    // the first repeat was not saved: the row opens the first run that was
    fireEvent.click(rows[2]!);
    expect(openRun).toHaveBeenLastCalledWith("r-c2");
    expect((within(rows[2]!).getAllByTestId("matrix-open-run")[0] as HTMLButtonElement).disabled).toBe(true);
    openRun.mockClear();
    fireEvent.click(rows[3]!);
    expect(openRun).not.toHaveBeenCalled();
  });

  it("the backend's error is shown with its code", async () => {
    runMatrix.mockRejectedValue(new PlatformError("api.args", "--vary triage=…: no agent 'triage' in support-triage"));
    panel();
    fireEvent.click(screen.getByTestId("matrix-vary-triage"));
    fireEvent.click(screen.getByTestId("matrix-run"));
    const err = await screen.findByTestId("matrix-error");
    expect(err.textContent).toMatch(/Could not run the matrix: .*no agent 'triage'.*\(api\.args\)/);
    expect(screen.queryByTestId("matrix-table")).toBeNull();
  });
});

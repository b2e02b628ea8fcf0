// The compare dialog with the mock platform's recorded runs: ticket-reopen against
// ticket-supervisor (the README's before and after), opened through the store as the Runs list does.
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { App } from "../app/App";
import { createMockPlatform } from "../platform/mock";
import { RECORDED_RUNS } from "../platform/mock-runs";
import { PlatformError } from "../platform/types";
import { useDebugger } from "../store/debugger";
import { useDesigner } from "../store/designer";
import { useUi } from "../store/ui";

const REOPEN = RECORDED_RUNS["ticket-reopen"]!.summary.id;
const SUPERVISOR = RECORDED_RUNS["ticket-supervisor"]!.summary.id;

function openCompare(platform = createMockPlatform()) {
  render(<App platform={platform} />);
  act(() => useUi.getState().setCompare([REOPEN, SUPERVISOR]));
  return platform;
}

const table = (side: "A" | "B") => document.querySelector(`[data-testid="transfer-table"][data-side="${side}"]`) as HTMLElement;
const lineKeys = (side: "A" | "B") =>
  [...table(side).querySelectorAll("tbody tr")].map((tr) => `${tr.getAttribute("data-testid") === "transfer-row" ? "row" : "none"} ${tr.getAttribute("data-key")}`);

describe("compare two runs of different topologies", () => {
  beforeEach(() => {
    useDesigner.getState().close();
    useDebugger.getState().exit();
    useUi.setState({ dialog: null, confirm: null, toasts: [], compare: null });
    localStorage.clear();
  });

  it("shows both answers, outcomes, topologies, and lines transfers up by route", async () => {
    openCompare();
    await screen.findAllByTestId("transfer-table");
    const answers = screen.getAllByTestId("compare-answer").map((e) => e.querySelector("p")?.textContent);
    // examples/ticket-reopen.yaml and ticket-supervisor.yaml: each run's last `say`
    expect(answers).toEqual([
      "Reopened ticket 4812: the fix is not live (flag FIX_4812 is off).",
      "Ticket 4812 closed as resolved, pending manual rollout of FIX_4812 (the flag is off, as expected).",
    ]);
    expect(screen.getAllByTestId("compare-topology").map((e) => e.textContent)).toEqual(["ticket-reopen", "ticket-supervisor"]);
    expect(screen.getAllByTestId("compare-version")).toHaveLength(2);
    expect(screen.getByTestId("verdict-outcome").getAttribute("data-same")).toBe("true");
    expect(screen.getByTestId("verdict-answer").getAttribute("data-same")).toBe("false");
    expect(screen.getByTestId("verdict-topology").textContent).toContain("Different topologies: ticket-reopen (A) and ticket-supervisor (B)");
    expect(screen.getByTestId("verdict-topology").textContent).toContain("Agents only in B: supervisor");
    const legend = screen.getByTestId("compare-legend").textContent ?? "";
    for (const w of ["Carried", "Transformed", "Dropped", "withheld", "Added"]) expect(legend).toContain(w);
    // no transfer in common: A's two handoffs, then B's three delegations, each marked on the other side
    const keys = ["triage→resolution#0", "resolution→verification#0", "supervisor→triage#0", "supervisor→resolution#0", "supervisor→verification#0"];
    expect(lineKeys("A")).toEqual(keys.map((k, i) => `${i < 2 ? "row" : "none"} ${k}`));
    expect(lineKeys("B")).toEqual(keys.map((k, i) => `${i < 2 ? "none" : "row"} ${k}`));
    expect(screen.getByTestId("compare-counts").textContent).toBe("0 same · 0 differ · 2 only in A · 3 only in B");
    // a delegation's D column counts withheld items
    const tdB = within(table("B")).getAllByTestId("transfer-row")[0]!.querySelectorAll("td");
    expect(tdB[6]?.className).toContain("n-withheld");
    expect(tdB[6]?.textContent).toBe("3");
  });

  it("a row opens the transfer's diff of each run that made it (transfer_view), and the next row B's", async () => {
    const platform = openCompare();
    await screen.findAllByTestId("transfer-table");
    fireEvent.click(within(table("A")).getAllByTestId("transfer-row")[1]!);
    const pair = await screen.findByTestId("compare-pair");
    expect(pair.getAttribute("data-key")).toBe("resolution→verification#0");
    const diffA = await within(pair).findByTestId("compare-diff");
    expect(diffA.getAttribute("data-from")).toBe("resolution");
    expect(within(diffA).getAllByTestId("diff-filter").map((c) => c.textContent)).toEqual(["0 carried", "1 transformed", "12 dropped", "1 added"]);
    expect(within(pair).getByTestId("compare-diff-missing").textContent).toContain("Run B made no transfer from Resolution to Verification");
    expect(platform.calls.filter((c) => c.command === "transfer_view").map((c) => c.args)).toEqual([{ run_id: REOPEN, index: 1 }]);

    fireEvent.click(screen.getByTestId("compare-next"));
    await waitFor(() => expect(screen.getByTestId("compare-pair").getAttribute("data-key")).toBe("supervisor→triage#0"));
    const diffB = await within(screen.getByTestId("compare-pair")).findByTestId("compare-diff");
    expect(diffB.getAttribute("data-kind")).toBe("delegation");
    expect(within(diffB).getAllByTestId("diff-filter").map((c) => c.textContent)).toEqual(["0 carried", "1 transformed", "3 withheld", "1 added"]);
    expect(platform.calls.filter((c) => c.command === "transfer_view").map((c) => c.args)).toContainEqual({ run_id: SUPERVISOR, index: 0 });

    fireEvent.click(screen.getByTestId("compare-back"));
    await screen.findAllByTestId("transfer-table");
  });

  it("two runs of one topology: the same version, every transfer matched, a row opens both diffs", async () => {
    const platform = createMockPlatform();
    render(<App platform={platform} />);
    act(() => useUi.getState().setCompare([SUPERVISOR, SUPERVISOR]));
    await screen.findAllByTestId("transfer-table");
    expect(screen.getByTestId("verdict-topology").getAttribute("data-same")).toBe("true");
    expect(screen.getByTestId("compare-counts").textContent).toBe("3 same · 0 differ · 0 only in A · 0 only in B");
    fireEvent.click(within(table("B")).getAllByTestId("transfer-row")[2]!);
    await waitFor(() => expect(screen.getAllByTestId("compare-diff")).toHaveLength(2));
    expect(screen.getAllByTestId("compare-diff").map((d) => d.getAttribute("data-to"))).toEqual(["verification", "verification"]);
  });

  it("shows a failing transfer view with its code and a Retry", async () => {
    const platform = createMockPlatform();
    let fail = true;
    const real = platform.transfer_view.bind(platform);
    platform.transfer_view = (a) => (fail ? Promise.reject(new PlatformError("store.db", "the store could not be read")) : real(a));
    openCompare(platform);
    await screen.findAllByTestId("transfer-table");
    fireEvent.click(within(table("A")).getAllByTestId("transfer-row")[1]!);
    const err = await screen.findByTestId("compare-diff-error");
    expect(err.getAttribute("role")).toBe("alert");
    expect(err.getAttribute("data-code")).toBe("store.db");
    fail = false;
    fireEvent.click(within(err).getByRole("button", { name: "Retry" }));
    await screen.findByTestId("compare-diff");
  });

  it("shows a run that cannot be read, with a Retry", async () => {
    const platform = createMockPlatform();
    platform.run_overview = () => Promise.reject(new PlatformError("store.no_run", "no run 'x'"));
    openCompare(platform);
    const err = await screen.findByTestId("compare-error");
    expect(err.getAttribute("data-code")).toBe("store.no_run");
    expect(within(err).getByRole("button", { name: "Retry" })).toBeTruthy();
  });
});

// The Run panel, the Runs list and the debugger with the mock platform (recorded runs replayed).
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { App } from "../app/App";
import { createMockPlatform } from "../platform/mock";
import { useDebugger } from "../store/debugger";
import { useDesigner } from "../store/designer";
import { useRun } from "../store/run";
import { useUi } from "../store/ui";

async function openTicketReopen() {
  const platform = createMockPlatform();
  render(<App platform={platform} />);
  const files = await screen.findAllByTestId("welcome-file");
  fireEvent.click(files.find((f) => f.textContent?.includes("ticket-reopen.yaml")) as HTMLElement);
  await screen.findByTestId("node-triage");
  return platform;
}

const finished = () => waitFor(() => expect(screen.getByTestId("run-status").getAttribute("data-status")).toBe("finished"));

async function runAndDebug() {
  fireEvent.click(screen.getByTestId("topbar-run"));
  await finished();
  fireEvent.click(screen.getByTestId("run-debug"));
  await screen.findByTestId("transport");
}

describe("runs and the debugger with the mock platform", () => {
  beforeEach(() => {
    useDesigner.getState().close();
    useDebugger.getState().exit();
    useRun.setState({ live: null, breakpoints: {}, scenario: {}, latencyMs: 0 });
    useUi.setState({ dialog: null, confirm: null, toasts: [], compare: null, bottomTab: "problems", bottomOpen: true });
    localStorage.clear();
  });

  it("runs from the top bar, streams steps to the Run tab, and shows the outcome", async () => {
    const platform = await openTicketReopen();
    fireEvent.click(screen.getByTestId("topbar-run"));
    expect(screen.getByTestId("tab-run").getAttribute("aria-selected")).toBe("true");
    await finished();
    expect(screen.getByTestId("outcome").getAttribute("data-status")).toBe("completed");
    expect(screen.getByTestId("live-timeline").getAttribute("data-count")).toBe("12");
    expect(screen.getByTestId("run-panel").textContent).toContain("1 fact lost");
    const start = platform.calls.find((c) => c.command === "start_run");
    expect(start?.args).toEqual({ scenario: "flagged-fix", breakpoints: [], mock_delay_ms: null, real_providers: false });
  });

  it("steps to the resolution → verification transfer: the pinned fact is lost, its items dropped", async () => {
    await openTicketReopen();
    await runAndDebug();
    expect(screen.getByTestId("app").getAttribute("data-mode")).toBe("debug");
    const fact = () => screen.getByTestId("fact-status");
    expect(fact().getAttribute("data-status")).toBe("held");

    fireEvent.click(screen.getByTestId("next-transfer"));
    await waitFor(() => expect(screen.getByTestId("transfer-diff").getAttribute("data-from")).toBe("triage"));
    expect(fact().getAttribute("data-status")).toBe("added");

    fireEvent.click(screen.getByTestId("next-transfer"));
    await waitFor(() => expect(screen.getByTestId("transfer-diff").getAttribute("data-from")).toBe("resolution"));
    const diff = screen.getByTestId("transfer-diff");
    expect(diff.getAttribute("data-to")).toBe("verification");
    expect(screen.getByTestId("diff-policy").textContent).toBe("fields(ticket,status)");
    expect(fact().getAttribute("data-status")).toBe("lost");
    const dropped = within(diff)
      .getAllByTestId("diff-item")
      .filter((e) => e.getAttribute("data-status") === "dropped")
      .map((e) => e.getAttribute("data-kind"));
    expect(dropped).toHaveLength(12);
    expect(dropped).toEqual(expect.arrayContaining(["pinned_fact", "reasoning"]));

    // a source link flashes the transfer call the handoff message came from
    fireEvent.click(within(diff).getByTestId("source-link"));
    const source = within(diff)
      .getAllByTestId("diff-item")
      .find((e) => e.getAttribute("data-side") === "sender" && e.getAttribute("data-status") === "transformed");
    expect(source?.getAttribute("data-kind")).toBe("transfer_call");
    expect(source?.className).toContain("is-flash");

    // the owner on the graph
    expect(screen.getByTestId("node-verification").getAttribute("data-run")).toBe("acting");
    expect(screen.getByTestId("node-triage").getAttribute("data-run")).toBe("idle");

    // the context tab: what verification sees, with a token estimate
    fireEvent.click(screen.getByTestId("tab-context"));
    expect(screen.getAllByTestId("context-item")).toHaveLength(2);
    expect(Number(screen.getByTestId("context-tokens").getAttribute("data-tokens"))).toBeGreaterThan(10);
  });

  it("keyboard: arrows step, N / Shift+N jump transfers, Home / End, Esc back to the editor", async () => {
    await openTicketReopen();
    await runAndDebug();
    const cursor = () => useDebugger.getState().cursor;
    fireEvent.keyDown(window, { key: "ArrowRight" });
    fireEvent.keyDown(window, { key: "ArrowRight" });
    expect(cursor()).toBe(2);
    fireEvent.keyDown(window, { key: "n" });
    expect(cursor()).toBe(5);
    fireEvent.keyDown(window, { key: "N", shiftKey: true });
    expect(cursor()).toBe(1);
    fireEvent.keyDown(window, { key: "End" });
    expect(cursor()).toBe(11);
    fireEvent.keyDown(window, { key: "ArrowLeft" });
    expect(cursor()).toBe(10);
    fireEvent.keyDown(window, { key: "Home" });
    expect(cursor()).toBe(0);
    // the facts panel jumps to the loss
    fireEvent.click(screen.getByTestId("fact-jump-lost"));
    expect(cursor()).toBe(5);
    fireEvent.keyDown(window, { key: "Escape" });
    await screen.findByTestId("node-triage");
    expect(screen.getByTestId("app").getAttribute("data-mode")).toBe("design");
  });

  it("fetches step views on demand and caches them, never the whole trace", async () => {
    const platform = await openTicketReopen();
    await runAndDebug();
    await waitFor(() => expect(screen.getByTestId("step-detail").getAttribute("data-step")).toBe("0"));
    const views = () => platform.calls.filter((c) => c.command === "step_view").map((c) => (c.args as { step: number }).step);
    // the current step and its neighbours (next step, next transfer) are prefetched
    await waitFor(() => expect(views()).toEqual(expect.arrayContaining([0, 1])));
    expect(views().length).toBeLessThan(5);
    const before = views().length;
    fireEvent.click(screen.getByTestId("step-next"));
    fireEvent.click(screen.getByTestId("step-prev"));
    await waitFor(() => expect(screen.getByTestId("step-detail").getAttribute("data-step")).toBe("0"));
    expect(views().filter((s) => s === 0)).toHaveLength(1);
    expect(views().length).toBeLessThanOrEqual(before + 2);
  });

  it("a breakpoint pauses the run before its edge; Resume finishes it", async () => {
    const platform = await openTicketReopen();
    act(() => useDesigner.getState().setSelection({ agents: [], edges: ["resolution->verification"] }));
    fireEvent.click(screen.getByTestId("tab-run"));
    fireEvent.click(screen.getByTestId("breakpoint-toggle"));
    expect(screen.getAllByTestId("breakpoint-item").map((e) => e.getAttribute("data-edge"))).toEqual(["resolution->verification"]);
    fireEvent.click(screen.getByTestId("run-start"));
    await waitFor(() => expect(screen.getByTestId("run-status").getAttribute("data-status")).toBe("paused"));
    expect(screen.getByTestId("run-paused").getAttribute("data-edge")).toBe("resolution->verification");
    expect((screen.getByTestId("run-start") as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByTestId("run-resume"));
    await finished();
    expect(platform.calls.some((c) => c.command === "resume_run")).toBe(true);
    expect(platform.calls.find((c) => c.command === "start_run")?.args).toMatchObject({ breakpoints: ["resolution->verification"] });
  });

  it("Cancel ends a paused run as cancelled", async () => {
    await openTicketReopen();
    act(() => useRun.getState().toggleBreakpoint("ticket-reopen", "resolution->verification"));
    fireEvent.click(screen.getByTestId("topbar-run"));
    await waitFor(() => expect(screen.getByTestId("run-status").getAttribute("data-status")).toBe("paused"));
    fireEvent.click(screen.getByTestId("run-cancel"));
    await finished();
    expect(screen.getByTestId("outcome").getAttribute("data-status")).toBe("cancelled");
  });

  it("lists the topology's runs, compares two and deletes one after confirmation", async () => {
    await openTicketReopen();
    fireEvent.click(screen.getByTestId("topbar-run"));
    await finished();
    fireEvent.click(screen.getByTestId("tab-runs"));
    // the recorded run plus the one just made
    await waitFor(() => expect(screen.getAllByTestId("run-row")).toHaveLength(2));
    const picks = screen.getAllByTestId("run-pick");
    fireEvent.click(picks[0]!);
    fireEvent.click(picks[1]!);
    fireEvent.click(screen.getByTestId("runs-compare"));
    await screen.findByTestId("compare-view");
    await waitFor(() => expect(screen.getAllByTestId("transfer-table")).toHaveLength(2));
    fireEvent.keyDown(window, { key: "Escape" });
    await waitFor(() => expect(screen.queryByTestId("compare-view")).toBeNull());

    fireEvent.click(screen.getAllByTestId("run-delete")[0]!);
    fireEvent.click(await screen.findByTestId("confirm-ok"));
    await waitFor(() => expect(screen.getAllByTestId("run-row")).toHaveLength(1));
  });
});

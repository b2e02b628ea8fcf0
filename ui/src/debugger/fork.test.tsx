// The debugger's What-if tab, "Fork from here…" and the lineage with the mock platform, whose
// what_if and fork_run are stubbed (the policies and the replay are the Rust core's). Expected
// values are examples/ticket-reopen.yaml as a person reads it: the handoff resolution →
// verification (transfer 1, step 5) has fields(ticket,status); Resolution holds resolved-meaning;
// with the fact, Verification's script answers "… Ticket 4812 stays resolved."
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { App } from "../app/App";
import type { ForkArgs } from "../bindings/ForkArgs";
import type { ForkedRun } from "../bindings/ForkedRun";
import type { Item } from "../bindings/Item";
import type { WhatIf } from "../bindings/WhatIf";
import { policyLabel } from "../model/topology";
import { createMockPlatform } from "../platform/mock";
import { PlatformError } from "../platform/types";
import { useDebugger } from "../store/debugger";
import { useDesigner } from "../store/designer";
import { useFork } from "../store/fork";
import { useRun } from "../store/run";
import { useUi } from "../store/ui";

const EDGE = "resolution->verification";

const item = (id: string, kind: Item["kind"], agent: string, text: string, more: Partial<Item> = {}): Item => ({ id, kind, agent, text, turn: 3, ...more });
const INSTRUCTIONS = item("w-instr", "instructions", "verification", "Verify that resolved tickets are really fixed. If the fix is not live, reopen the ticket.");
const USER = item("w-user", "user_message", "user", "Ticket #4812: the checkout button does nothing on Safari. Customer-facing.", { turn: 0 });
const CALL = item("w-call", "transfer_call", "resolution", "", { name: "transfer_to_verification", arguments: '{"ticket":"4812","status":"resolved"}' });
const FIELDS = item("w-fields", "user_message", "resolution", "Handoff from Resolution:\nticket: 4812\nstatus: resolved", { derived_from: ["w-call"] });
const NOTE = "'resolved-meaning' sits in Resolution's own context, which no policy passes: it is lost under every policy.";

/** A what-if as the backend answers it, written from the example: three of its policies. */
const WHAT_IF: WhatIf = {
  transfer: 1,
  from: "resolution",
  to: "verification",
  sender: [USER.id, CALL.id],
  sender_tokens: 40,
  rows: [
    { policy: "full", spec: "full", recorded: false, receiver: [INSTRUCTIONS.id, USER.id, CALL.id], items: 3, tokens: 50, carried: 2, transformed: 0, dropped: 0, facts: [{ id: "resolved-meaning", status: "lost" }] },
    {
      policy: "fields(ticket,status)",
      spec: { fields: [{ name: "ticket", type: "string" }, { name: "status", type: "string" }] },
      recorded: true,
      receiver: [INSTRUCTIONS.id, FIELDS.id],
      items: 2,
      tokens: 36,
      carried: 0,
      transformed: 1,
      dropped: 2,
      facts: [{ id: "resolved-meaning", status: "lost" }],
    },
    { policy: "none", spec: "none", recorded: false, receiver: [INSTRUCTIONS.id], items: 1, tokens: 22, carried: 0, transformed: 0, dropped: 2, facts: [{ id: "resolved-meaning", status: "lost" }] },
  ],
  items: [INSTRUCTIONS, USER, CALL, FIELDS],
  notes: [NOTE],
};

type MockPlatform = ReturnType<typeof createMockPlatform>;

/** Runs ticket-reopen (mock) and opens the debugger at step 5; `setup` stubs the platform first (the app binds it once). */
async function debugTicketReopen(setup: (p: MockPlatform) => void = () => undefined) {
  const platform = createMockPlatform();
  setup(platform);
  render(<App platform={platform} />);
  const files = await screen.findAllByTestId("welcome-file");
  fireEvent.click(files.find((f) => f.textContent?.includes("ticket-reopen.yaml")) as HTMLElement);
  await screen.findByTestId("node-triage");
  fireEvent.click(screen.getByTestId("topbar-run"));
  await waitFor(() => expect(screen.getByTestId("run-status").getAttribute("data-status")).toBe("finished"));
  fireEvent.click(screen.getByTestId("run-debug"));
  await screen.findByTestId("transport");
  const runId = useDebugger.getState().runId as string;
  fireEvent.click(screen.getByTestId("next-transfer"));
  fireEvent.click(screen.getByTestId("next-transfer"));
  await waitFor(() => expect(screen.getByTestId("step-detail").getAttribute("data-step")).toBe("5"));
  return { platform, runId };
}

/** fork_run stubbed: answers with a fork whose overview is the parent's, marked as its child. */
function stubFork(platform: MockPlatform, parent: () => string) {
  const FORK = "mock-fork";
  const asked: ForkArgs[] = [];
  const overview = platform.run_overview;
  const stepView = platform.step_view;
  const search = platform.search_runs;
  platform.fork_run = async (args) => {
    asked.push(args);
    const forked: ForkedRun = {
      run_id: FORK,
      fork: {
        parent: parent(),
        at: args.fork.at,
        changes: ["fact resolved-meaning restored at step 5"],
        then: args.fork.then,
        divergence: { agent: "verification", call: 1, recorded_step: 6, reason: "its input differs from the recording's (1 item new, 0 gone)" },
      },
      outcome: { status: "completed", reason: "Verification gave the final answer", owner: "verification", final_output: "The flag is off as expected for a fix pending manual rollout. Ticket 4812 stays resolved." },
    };
    return forked;
  };
  platform.run_overview = async (a) => {
    if (a.run_id !== FORK) return overview(a);
    const o = await overview({ run_id: parent() });
    return {
      ...o,
      summary: { ...o.summary, id: FORK, parent: parent(), forked_at: 5, final_output: "The flag is off as expected for a fix pending manual rollout. Ticket 4812 stays resolved." },
    };
  };
  platform.step_view = (a) => stepView(a.run_id === FORK ? { ...a, run_id: parent() } : a);
  platform.search_runs = async (q) => {
    if (!q?.parent || q.parent !== parent()) return search(q);
    const o = await platform.run_overview({ run_id: FORK });
    return { runs: [o.summary], total: 1, topologies: ["ticket-reopen"] };
  };
  return { FORK, asked };
}

describe("what-if, fork and lineage in the debugger", () => {
  beforeEach(() => {
    useDesigner.getState().close();
    useDebugger.getState().exit();
    useFork.setState({ dialog: null, made: {} });
    useRun.setState({ live: null, breakpoints: {}, scenario: {}, latencyMs: 0 });
    useUi.setState({ dialog: null, confirm: null, toasts: [], compare: null, bottomTab: "problems", bottomOpen: true });
    localStorage.clear();
  });

  it("lists every policy at the handoff: the recorded one marked, the fact lost in each, the notes shown", async () => {
    const asked: unknown[] = [];
    const { runId } = await debugTicketReopen((p) => {
      p.what_if = async (a) => (asked.push(a), WHAT_IF);
    });
    fireEvent.click(screen.getByTestId("tab-whatif"));
    const table = await screen.findByTestId("whatif-table");
    expect(asked).toEqual([{ run_id: runId, index: 1 }]);

    const rows = within(table).getAllByTestId("whatif-row");
    expect(rows.map((r) => r.getAttribute("data-policy"))).toEqual(["full", "fields(ticket,status)", "none"]);
    const recorded = rows.filter((r) => r.getAttribute("data-recorded") === "true");
    expect(recorded.map((r) => r.getAttribute("data-policy"))).toEqual(["fields(ticket,status)"]);
    expect(within(recorded[0] as HTMLElement).getByTestId("whatif-recorded").textContent).toBe("recorded");
    for (const r of rows) {
      const fact = within(r).getByTestId("whatif-fact");
      expect(fact.getAttribute("data-fact")).toBe("resolved-meaning");
      expect(fact.getAttribute("data-status")).toBe("lost");
      expect(fact.querySelector(".fact-pill.fact-lost")).not.toBeNull();
    }
    expect(screen.getByTestId("whatif-note").textContent).toContain("lost under every policy");

    // the recorded row is shown first: Verification gets its instructions and the two fields
    const detail = () => screen.getByTestId("whatif-detail");
    expect(detail().getAttribute("data-policy")).toBe("fields(ticket,status)");
    expect(within(detail()).getAllByTestId("whatif-item").map((i) => i.getAttribute("data-item"))).toEqual([INSTRUCTIONS.id, FIELDS.id]);
    expect(within(detail()).getByText(/status: resolved/)).toBeTruthy();
    expect(within(detail()).getByTestId("whatif-detail-lost").textContent).toContain("resolved-meaning lost");
    expect((within(detail()).getByTestId("whatif-fork") as HTMLButtonElement).disabled).toBe(true);

    // another row: its receiver's items, the sender's own marked carried
    fireEvent.click(rows[0] as HTMLElement);
    expect(detail().getAttribute("data-policy")).toBe("full");
    const items = within(detail()).getAllByTestId("whatif-item");
    expect(items.map((i) => [i.getAttribute("data-item"), i.getAttribute("data-status")])).toEqual([
      [INSTRUCTIONS.id, "added"],
      [USER.id, "carried"],
      [CALL.id, "carried"],
    ]);
  });

  it("shows the backend's refusal with its code, and asks again on Retry", async () => {
    let answer: () => Promise<WhatIf> = () => Promise.reject(new PlatformError("store.locked", "the store is locked"));
    await debugTicketReopen((p) => {
      p.what_if = () => answer();
    });
    fireEvent.click(screen.getByTestId("tab-whatif"));
    const err = await screen.findByTestId("whatif-error");
    expect(err.getAttribute("role")).toBe("alert");
    expect(err.getAttribute("data-code")).toBe("store.locked");
    answer = async () => WHAT_IF;
    fireEvent.click(within(err).getByText("Retry"));
    await screen.findByTestId("whatif-table");
  });

  it("Apply to topology sets the row's policy on the edge of the open document and goes to the editor", async () => {
    await debugTicketReopen((p) => {
      p.what_if = async () => WHAT_IF;
    });
    fireEvent.click(screen.getByTestId("tab-whatif"));
    const none = (await screen.findAllByTestId("whatif-row")).find((r) => r.getAttribute("data-policy") === "none") as HTMLElement;
    fireEvent.click(none);
    fireEvent.click(within(screen.getByTestId("whatif-detail")).getByTestId("whatif-apply"));
    await waitFor(() => expect(useDebugger.getState().mode).toBe("design"));
    const doc = useDesigner.getState();
    expect(doc.topology?.name).toBe("ticket-reopen");
    const edge = doc.topology?.edges.find((e) => e.from === "resolution" && e.to === "verification");
    expect(policyLabel(edge?.policy)).toBe("none");
    expect(doc.selection.edges).toEqual([EDGE]);
    // one undo step takes it back to the example's policy
    act(() => useDesigner.getState().undo());
    expect(policyLabel(useDesigner.getState().topology?.edges.find((e) => e.from === "resolution" && e.to === "verification")?.policy)).toBe("fields(ticket,status)");
  });

  it("Fork with this policy forks at the transfer's step with that policy on the edge, and opens the fork", async () => {
    let stub!: ReturnType<typeof stubFork>;
    const { runId } = await debugTicketReopen((p) => {
      p.what_if = async () => WHAT_IF;
      stub = stubFork(p, () => runId);
    });
    const { FORK, asked } = stub;
    fireEvent.click(screen.getByTestId("tab-whatif"));
    fireEvent.click((await screen.findAllByTestId("whatif-row"))[0] as HTMLElement);
    fireEvent.click(within(screen.getByTestId("whatif-detail")).getByTestId("whatif-fork"));
    await waitFor(() => expect(useDebugger.getState().runId).toBe(FORK));
    expect(asked).toEqual([{ run_id: runId, fork: { at: 5, policies: { [EDGE]: "full" }, models: {}, instructions: {}, drop: [], restore: [], put_back: [], then: "mock" } }]);
    await waitFor(() => expect(screen.getByTestId("debugger").getAttribute("data-run")).toBe(FORK));
    expect(useDebugger.getState().cursor).toBe(5);
  });

  it("Fork from here… restores the fact at step 5, opens the fork with its parent and divergence, and compares them", async () => {
    let stub!: ReturnType<typeof stubFork>;
    const { runId } = await debugTicketReopen((p) => {
      stub = stubFork(p, () => runId);
    });
    const { FORK, asked } = stub;
    fireEvent.click(screen.getByTestId("fork-here"));
    const dialog = await screen.findByTestId("fork-dialog");
    expect(dialog.getAttribute("data-step")).toBe("5");
    // the handoff's policy starts as recorded; the fact is not in Verification's context at step 5
    const policy = within(dialog)
      .getAllByTestId("fork-policy")
      .find((s) => s.getAttribute("data-edge") === EDGE) as HTMLSelectElement;
    expect(policy.value).toBe("fields(ticket,status)");
    expect(within(dialog).getByTestId("fork-summary").textContent).toMatch(/No change/);
    await waitFor(() => expect(within(dialog).getAllByTestId("fork-drop").length).toBeGreaterThan(0));
    const restore = within(dialog).getByTestId("fork-restore");
    expect(restore.getAttribute("data-fact")).toBe("resolved-meaning");
    fireEvent.click(restore);
    expect(within(dialog).getByTestId("fork-summary").textContent).toBe("1 change from step 5");
    // a model that is not provider:model is refused before sending
    const model = within(dialog)
      .getAllByTestId("fork-model")
      .find((i) => i.getAttribute("data-agent") === "verification") as HTMLInputElement;
    fireEvent.change(model, { target: { value: "gpt-4o" } });
    expect(within(dialog).getByTestId("fork-problems").textContent).toContain("Model of Verification: write provider:model");
    expect((within(dialog).getByTestId("fork-submit") as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(model, { target: { value: "" } });
    fireEvent.click(within(dialog).getAllByTestId("fork-then").find((b) => b.getAttribute("data-then") === "replay") as HTMLElement);
    fireEvent.click(within(dialog).getByTestId("fork-submit"));

    await waitFor(() => expect(screen.getByTestId("debugger").getAttribute("data-run")).toBe(FORK));
    expect(asked).toEqual([{ run_id: runId, fork: { at: 5, policies: {}, models: {}, instructions: {}, drop: [], restore: ["resolved-meaning"], put_back: [], then: "replay" } }]);
    expect(screen.queryByTestId("fork-dialog")).toBeNull();
    expect(useUi.getState().toasts.map((t) => t.detail).join(" ")).toContain("left the recording at call 1 of Verification");

    const lineage = await screen.findByTestId("lineage");
    expect(within(lineage).getByTestId("lineage-parent").getAttribute("data-run")).toBe(runId);
    expect(within(lineage).getByTestId("lineage-forked-at").textContent).toBe("at step 5");
    expect(within(lineage).getByTestId("lineage-divergence").textContent).toContain("left the recording at call 1 of Verification");
    expect(screen.getByTestId("run-card").textContent).toContain("Ticket 4812 stays resolved.");

    fireEvent.click(within(lineage).getByTestId("lineage-compare"));
    expect(useUi.getState().compare).toEqual([runId, FORK]);
    act(() => useUi.getState().setCompare(null));

    // the parent lists the fork; clicking it opens it again
    fireEvent.click(within(lineage).getByTestId("lineage-parent"));
    await waitFor(() => expect(screen.getByTestId("debugger").getAttribute("data-run")).toBe(runId));
    const fork = await screen.findByTestId("lineage-fork");
    expect(fork.getAttribute("data-run")).toBe(FORK);
    expect(fork.textContent).toContain("stays resolved");
    fireEvent.click(within(fork).getByTitle(`Open the fork ${FORK}`));
    await waitFor(() => expect(screen.getByTestId("debugger").getAttribute("data-run")).toBe(FORK));
  });

  it("a refused fork keeps the dialog open with the backend's message and code", async () => {
    const { platform } = await debugTicketReopen();
    fireEvent.click(screen.getByTestId("fork-here"));
    const dialog = await screen.findByTestId("fork-dialog");
    // the mock platform has no replay: its fork_run refuses
    fireEvent.click(within(dialog).getByTestId("fork-restore"));
    fireEvent.click(within(dialog).getByTestId("fork-submit"));
    const err = await within(dialog).findByTestId("fork-error");
    expect(err.getAttribute("data-code")).toBe("api.args");
    expect(platform.calls.filter((c) => c.command === "fork_run")).toHaveLength(1);
    expect(useDebugger.getState().runId).not.toBeNull();
  });
});

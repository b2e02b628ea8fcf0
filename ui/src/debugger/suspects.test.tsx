// The debugger's Suspects tab with the mock platform, whose `suspects` is stubbed (the evidence is
// read by the Rust core). The stubbed reports are written from the examples as a person reads
// them. ticket-reopen.yaml: triage → resolution (T0, step 1), resolution → verification with
// fields(ticket,status) (T1, step 5); resolution's patch_checkout answers "Patch merged behind
// feature flag FIX_4812 (flag is off; manual rollout pending)." and verification reopens the
// ticket. handoff-loop.yaml (the mock's imported trace traces/support-otlp.json): triage →
// billing → technical → human, billing's instructions "You resolve billing questions. Anything
// caused by a bug belongs to technical support."
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { App } from "../app/App";
import type { Item } from "../bindings/Item";
import type { SuspectReport } from "../bindings/SuspectReport";
import { makeSuspectCommands } from "../commands/suspects";
import { createMockPlatform } from "../platform/mock";
import { useDebugger } from "../store/debugger";
import { useDesigner } from "../store/designer";
import { OVERLAY_PREFIX, useFactOverlay } from "../store/factOverlay";
import { useRun } from "../store/run";
import { useUi } from "../store/ui";

const PATCH = "Patch merged behind feature flag FIX_4812 (flag is off; manual rollout pending).";
const REASONING = "The fix is behind flag FIX_4812 and rollout is manual, so resolved means patched, pending rollout.";
const TRIAGE = "Classify the support ticket and hand it to the right owner immediately.\nDo not try to resolve it yourself.";
const BILLING = "You resolve billing questions. Anything caused by a bug belongs to technical support.";
const PATCH_FACT = "patch-merged-behind-feature-flag-fix-4812";

type MockPlatform = ReturnType<typeof createMockPlatform>;

/** The item of a transfer's sender whose text the example wrote (ids are the recording's). */
async function senderItem(platform: MockPlatform, runId: string, step: number, text: string): Promise<Item> {
  const v = await platform.step_view({ run_id: runId, step });
  const found = v.transfer?.items.find((i) => (i.text ?? "").trim() === text.trim());
  if (!found) throw new Error(`no item "${text}" at step ${step}`);
  return found;
}

/** ticket-reopen's report, as `baton suspects` reads the run without the pinned fact. */
async function ticketReport(platform: MockPlatform, runId: string): Promise<SuspectReport> {
  const patch = await senderItem(platform, runId, 5, PATCH);
  const triage = await senderItem(platform, runId, 1, TRIAGE);
  return {
    transfers: [
      {
        transfer: 0,
        step: 1,
        kind: "handoff",
        from: "triage",
        to: "resolution",
        suspects: [{ item: triage.id, agent: "triage", kind: "instructions", text: TRIAGE, loss: "dropped", score: 1.5, confidence: "low", evidence: [{ kind: "constraint", text: "states a constraint or qualification ('do not')", weight: 2 }] }],
      },
      {
        transfer: 1,
        step: 5,
        kind: "handoff",
        from: "resolution",
        to: "verification",
        suspects: [
          {
            item: patch.id,
            agent: "resolution",
            kind: "tool_result",
            text: PATCH,
            loss: "dropped",
            score: 8,
            confidence: "high",
            evidence: [
              { kind: "constraint", text: "states a constraint or qualification ('behind feature flag', 'manual rollout', 'pending')", weight: 3 },
              { kind: "reappears", text: "verification meets again what it was not told: FIX_4812 (step 7, a tool result)", weight: 2 },
              { kind: "claim", text: "resolution handed over 'resolved' while this qualification stayed behind", weight: 3 },
            ],
          },
          { item: "reasoning-id", agent: "resolution", kind: "reasoning", text: REASONING, loss: "dropped", score: 8, confidence: "high", evidence: [] },
        ],
      },
    ],
    verdict: {
      bad: "the run reverses its own result at step 9 ('reopened')",
      transfer: 1,
      suspect: patch.id,
      chain: ["the run reverses its own result at step 9 ('reopened')", `at transfer 1 (resolution → verification, step 5), tool_result did not reach verification: "${PATCH}"`],
      text: `most likely cause: transfer 1 (resolution → verification) lost "${PATCH}" (high confidence)`,
    },
  };
}

function start(stub: (p: MockPlatform) => void) {
  const platform = createMockPlatform();
  stub(platform);
  render(<App platform={platform} />);
  return platform;
}

async function debugTicketReopen(stub: (p: MockPlatform) => void = () => undefined) {
  const platform = start(stub);
  const files = await screen.findAllByTestId("welcome-file");
  fireEvent.click(files.find((f) => f.textContent?.includes("ticket-reopen.yaml")) as HTMLElement);
  await screen.findByTestId("node-triage");
  fireEvent.click(screen.getByTestId("topbar-run"));
  await waitFor(() => expect(screen.getByTestId("run-status").getAttribute("data-status")).toBe("finished"));
  fireEvent.click(screen.getByTestId("run-debug"));
  await screen.findByTestId("transport");
  return { platform, runId: useDebugger.getState().runId as string };
}

const groupOrder = () => screen.getAllByTestId("suspect-group").map((g) => g.getAttribute("data-transfer"));

describe("the Suspects tab", () => {
  beforeEach(() => {
    useDesigner.getState().close();
    useDebugger.getState().exit();
    useRun.setState({ live: null, breakpoints: {}, scenario: {}, latencyMs: 0 });
    useUi.setState({ dialog: null, confirm: null, toasts: [], compare: null, bottomTab: "problems", bottomOpen: true });
    localStorage.clear();
    useFactOverlay.getState().reload();
  });

  it("shows the verdict and each transfer's suspects, the cursor's transfer first; a suspect opens the diff with its item flashed and marked", async () => {
    const asked: unknown[] = [];
    let report: SuspectReport | null = null;
    const { runId } = await debugTicketReopen((p) => {
      p.suspects = async (a) => {
        asked.push(a);
        return (report ??= await ticketReport(p, a.run_id));
      };
    });
    fireEvent.click(screen.getByTestId("tab-suspects"));
    const verdict = await screen.findByTestId("verdict");
    expect(asked[0]).toEqual({ run_id: runId });
    expect(verdict.getAttribute("data-transfer")).toBe("1");
    expect(screen.getByTestId("verdict-text").textContent).toContain("transfer 1 (resolution → verification)");
    // the chain is a click away on a short window (jsdom's is 768 px high)
    expect(screen.queryByTestId("verdict-chain")).toBeNull();
    fireEvent.click(screen.getByTestId("verdict-chain-toggle"));
    expect(within(screen.getByTestId("verdict-chain")).getAllByRole("listitem")).toHaveLength(2);

    // at step 0 no transfer has happened yet: in the order they happened
    expect(groupOrder()).toEqual(["0", "1"]);
    fireEvent.click(screen.getByTestId("next-transfer"));
    fireEvent.click(screen.getByTestId("next-transfer"));
    await waitFor(() => expect(useDebugger.getState().cursor).toBe(5));
    expect(groupOrder()).toEqual(["1", "0"]);
    const current = screen.getAllByTestId("suspect-group")[0] as HTMLElement;
    expect(current.getAttribute("data-current")).toBe("true");
    const top = within(current).getAllByTestId("suspect")[0] as HTMLElement;
    expect(top.getAttribute("data-confidence")).toBe("high");
    expect(within(top).getByTestId("suspect-confidence").textContent).toBe("high");
    expect(within(top).getByTestId("suspect-loss").textContent).toBe("dropped");
    expect(within(top).getByTestId("suspect-agent").textContent).toBe("Resolution");
    expect(within(top).getByTestId("suspect-text").textContent).toBe(PATCH);
    expect(within(within(top).getByTestId("suspect-evidence")).getAllByRole("listitem").map((l) => l.getAttribute("data-kind"))).toEqual(["constraint", "reappears", "claim"]);
    const low = within(screen.getAllByTestId("suspect-group")[1] as HTMLElement).getByTestId("suspect");
    expect(low.getAttribute("data-confidence")).toBe("low");

    // from step 0, a click moves to the transfer and flashes the item in its diff, marked as a suspect
    fireEvent.click(screen.getByTestId("step-first"));
    await waitFor(() => expect(useDebugger.getState().cursor).toBe(0));
    fireEvent.click(within(screen.getAllByTestId("suspect-group")[1] as HTMLElement).getAllByTestId("suspect")[0] as HTMLElement);
    const diff = await screen.findByTestId("transfer-diff");
    expect(useDebugger.getState().cursor).toBe(5);
    expect(diff.getAttribute("data-from")).toBe("resolution");
    expect(screen.getByTestId("tab-diff").getAttribute("aria-selected")).toBe("true");
    const id = (report as unknown as SuspectReport).transfers[1]!.suspects[0]!.item;
    const card = within(diff)
      .getAllByTestId("diff-item")
      .find((e) => e.getAttribute("data-item") === id && e.getAttribute("data-side") === "sender") as HTMLElement;
    expect(card.className).toContain("is-flash");
    await waitFor(() => expect(card.querySelector(".item-tag.tag-suspect-high")?.textContent).toBe("suspect"));
    // one mark per suspect of this transfer present in the diff; the reasoning stub's id is not an item
    expect(diff.querySelectorAll(".item-tag.tag-suspect-high")).toHaveLength(1);
  });

  it("Pin as fact: a fact of the designer's document held by the suspect's agent, undoable; the row says pinned", async () => {
    await debugTicketReopen((p) => {
      let r: SuspectReport | null = null;
      p.suspects = async (a) => (r ??= await ticketReport(p, a.run_id));
    });
    const before = useDesigner.getState().topology?.facts ?? [];
    expect(before.map((f) => f.id)).toEqual(["resolved-meaning"]);
    fireEvent.click(screen.getByTestId("tab-suspects"));
    const top = (await screen.findAllByTestId("suspect")).find((s) => s.getAttribute("data-transfer") === "1") as HTMLElement;
    fireEvent.click(within(top).getByTestId("suspect-pin"));
    await waitFor(() => expect(useDesigner.getState().topology?.facts).toHaveLength(2));
    expect(useDesigner.getState().topology?.facts?.[1]).toEqual({ id: PATCH_FACT, text: PATCH, holders: ["resolution"] });
    // the debugger stayed on the run; the row and a toast say where the fact went
    expect(useDebugger.getState().mode).toBe("debug");
    const pinned = await within(top).findByTestId("suspect-pinned");
    expect(pinned.getAttribute("data-where")).toBe("designer");
    expect(pinned.textContent).toContain(PATCH_FACT);
    expect(useUi.getState().toasts.map((t) => t.title)).toContain(`Pinned "${PATCH_FACT}" in ticket-reopen`);
    // the run's own fact checks are the recording's: nothing was checked in the window
    expect(screen.getAllByTestId("fact-status").map((f) => f.getAttribute("data-fact"))).toEqual(["resolved-meaning"]);

    act(() => useDesigner.getState().undo());
    expect(useDesigner.getState().topology?.facts?.map((f) => f.id)).toEqual(["resolved-meaning"]);
    await within(top).findByTestId("suspect-pin");
  });

  it("an imported run's pin goes to the run's facts overlay (localStorage), shown as pinned (overlay) with how it gets checked", async () => {
    const platform = start((p) => {
      p.suspects = async () => ({
        transfers: [
          {
            transfer: 1,
            step: 3,
            kind: "handoff",
            from: "billing",
            to: "technical",
            suspects: [{ item: "billing-instructions", agent: "billing", kind: "instructions", text: BILLING, loss: "dropped", score: 2, confidence: "medium", evidence: [] }],
          },
        ],
        verdict: { bad: null, transfer: null, suspect: null, chain: [], text: "" },
      });
    });
    await screen.findByTestId("welcome");
    fireEvent.click(screen.getByTestId("menu-open-trace"));
    fireEvent.change(await screen.findByTestId("trace-path-input"), { target: { value: "traces/support-otlp.json" } });
    fireEvent.click(screen.getByTestId("trace-import"));
    await screen.findByTestId("transport");
    const runId = useDebugger.getState().runId as string;
    const designerBefore = useDesigner.getState().topology;
    fireEvent.click(screen.getByTestId("tab-suspects"));
    const panel = await screen.findByTestId("suspects");
    expect(panel.getAttribute("data-origin")).toBe("imported");
    // the run did not end badly: no verdict
    expect(screen.queryByTestId("verdict")).toBeNull();
    expect(screen.getByTestId("overlay-facts").getAttribute("data-count")).toBe("0");

    fireEvent.click(screen.getByTestId("suspect-pin"));
    const pinned = await screen.findByTestId("suspect-pinned");
    expect(pinned.getAttribute("data-where")).toBe("overlay");
    expect(pinned.textContent).toContain("pinned (overlay)");
    const fact = { id: "you-resolve-billing-questions-anything-caused", text: BILLING, holders: ["billing"] };
    expect(JSON.parse(localStorage.getItem(OVERLAY_PREFIX + runId) ?? "null")).toEqual([fact]);
    expect(useDesigner.getState().topology).toBe(designerBefore);
    expect(within(screen.getByTestId("overlay-facts")).getAllByTestId("overlay-fact").map((f) => f.getAttribute("data-fact"))).toEqual([fact.id]);
    // plainly: checked when the trace is imported again with the facts, not here
    expect(screen.getByTestId("overlay-how").textContent).toContain("these facts apply when the trace is imported again");
    expect(screen.getByTestId("overlay-command").textContent).toBe("baton trace import traces/support-otlp.json --facts facts.yaml --again");
    expect(screen.getByTestId("facts-panel").textContent).toContain("This topology pins no facts.");

    // facts.yaml: the run's topology holding the overlay's facts
    fireEvent.click(screen.getByTestId("overlay-yaml"));
    const yaml = (await screen.findByTestId("overlay-yaml-text")) as HTMLTextAreaElement;
    expect(platform.calls.find((c) => c.command === "export_topology")?.args).toEqual({ format: "yaml" });
    // (the mock's YAML export is its JSON under a comment)
    const exported = JSON.parse(yaml.value.replace(/^#.*\n/, "")) as { name: string; facts: unknown[] };
    expect(exported.name).toBe("handoff-loop");
    expect(exported.facts).toEqual([fact]);

    fireEvent.click(screen.getByTestId("overlay-unpin"));
    await screen.findByTestId("suspect-pin");
    expect(localStorage.getItem(OVERLAY_PREFIX + runId)).toBeNull();
  });
});

describe("pin as fact when the designer holds another document", () => {
  beforeEach(() => {
    useDesigner.getState().close();
    useDebugger.getState().exit();
    useUi.setState({ confirm: null, toasts: [] });
    localStorage.clear();
    useFactOverlay.getState().reload();
  });

  it("opens the native run's topology as an unsaved document, then pins (Undo leaves the topology as the run had it)", async () => {
    const platform = createMockPlatform();
    const { topology: other } = await platform.open_topology({ path: "handoff-loop.yaml" });
    useDesigner.getState().load(other, "handoff-loop.yaml");
    const runId = await platform.startRun({ topology: (await platform.open_topology({ path: "ticket-reopen.yaml" })).topology, scenario: "flagged-fix", breakpoints: [], mock_delay_ms: null, real_providers: false }, () => undefined);
    await waitFor(async () => expect((await platform.run_overview({ run_id: runId })).summary.outcome.status).not.toBe("running"));
    const overview = await platform.run_overview({ run_id: runId });
    useDebugger.getState().begin(runId);
    useDebugger.getState().load(runId, overview, overview.topology);

    const cmds = makeSuspectCommands(platform);
    const report = await ticketReport(platform, runId);
    const t1 = report.transfers[1]!;
    const result = await cmds.pin(t1.suspects[0]!, t1);
    expect(result).toMatchObject({ kind: "designer", opened: true, already: false });
    const d = useDesigner.getState();
    expect(d.topology?.name).toBe("ticket-reopen");
    expect(d.path).toBeNull();
    expect(d.topology?.facts?.map((f) => f.id)).toEqual(["resolved-meaning", PATCH_FACT]);
    // pinning the same text again adds nothing
    expect(await cmds.pin(t1.suspects[0]!, t1)).toMatchObject({ kind: "designer", already: true });
    expect(useDesigner.getState().topology?.facts).toHaveLength(2);
    act(() => useDesigner.getState().undo());
    expect(useDesigner.getState().topology?.facts?.map((f) => f.id)).toEqual(["resolved-meaning"]);
  });

  it("asks before replacing a document with unsaved changes; Cancel pins nothing", async () => {
    const platform = createMockPlatform();
    const { topology: other } = await platform.open_topology({ path: "handoff-loop.yaml" });
    useDesigner.getState().load(other, "handoff-loop.yaml", [], { dirty: true });
    const runId = await platform.startRun({ topology: (await platform.open_topology({ path: "ticket-reopen.yaml" })).topology, scenario: "flagged-fix", breakpoints: [], mock_delay_ms: null, real_providers: false }, () => undefined);
    await waitFor(async () => expect((await platform.run_overview({ run_id: runId })).summary.outcome.status).not.toBe("running"));
    const overview = await platform.run_overview({ run_id: runId });
    useDebugger.getState().begin(runId);
    useDebugger.getState().load(runId, overview, overview.topology);
    const t1 = (await ticketReport(platform, runId)).transfers[1]!;
    const pending = makeSuspectCommands(platform).pin(t1.suspects[0]!, t1);
    await waitFor(() => expect(useUi.getState().confirm?.title).toBe("Replace the open document?"));
    expect(useUi.getState().confirm?.message).toContain("handoff-loop has unsaved changes");
    act(() => useUi.getState().confirm?.resolve("cancel"));
    expect(await pending).toEqual({ kind: "none", why: "cancelled" });
    expect(useDesigner.getState().topology?.name).toBe("handoff-loop");
  });
});

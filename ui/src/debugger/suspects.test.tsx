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
import { PlatformError } from "../platform/types";
import { briefsOf, Steps } from "../run/steps";
import { decodeOverview } from "../run/types";
import { useDebugger } from "../store/debugger";
import { useDesigner } from "../store/designer";
import { OVERLAY_PREFIX, useFactOverlay } from "../store/factOverlay";
import type { ProveState } from "../bindings/ProveState";
import type { Suspect } from "../bindings/Suspect";
import { useProofs } from "../store/prove";
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
        suspects: [
          {
            item: triage.id,
            agent: "triage",
            kind: "instructions",
            text: TRIAGE,
            loss: "dropped",
            score: 1.5,
            confidence: "low",
            evidence: [{ kind: "constraint", text: "states a constraint or qualification ('do not')", weight: 2 }],
            class: null,
            position: 0,
            proof: null,
          },
        ],
        more: 0,
        proof: null,
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
            class: "capability_gap",
            position: 8,
            proof: null,
          },
          { item: "reasoning-id", agent: "resolution", kind: "reasoning", text: REASONING, loss: "dropped", score: 8, confidence: "high", evidence: [], class: "signal_corruption", position: 9, proof: null },
        ],
        more: 0,
        proof: null,
      },
    ],
    verdict: {
      bad: "the run reverses its own result at step 9 ('reopened')",
      ending: { judgement: "bad", by: "signal", reason: "verification undoes what resolution acted on at step 8 ('reopen' on 4812, which resolution had acted on)", at: 8 },
      basis: "suspected",
      transfer: 1,
      suspect: patch.id,
      chain: ["the run reverses its own result at step 9 ('reopened')", `at transfer 1 (resolution → verification, step 5), tool_result did not reach verification: "${PATCH}"`],
      text: `suspected cause: transfer 1 (resolution → verification) lost "${PATCH}" (high confidence, not proven)`,
    },
    cost: null,
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
    useProofs.setState({ runs: {}, options: {} });
  });

  it("a followed run's report is asked again when a transfer completes or the run ends, not at every new step", async () => {
    let asked = 0;
    const { runId } = await debugTicketReopen((p) => {
      p.suspects = async (a) => {
        asked += 1;
        return ticketReport(p, a.run_id);
      };
    });
    const d = () => useDebugger.getState();
    const ended = d().overview!;
    const briefs = briefsOf(ended.steps);
    const lastTransfer = ended.transfers.at(-1)!;
    // The run as it was while running: its last transfer not made yet, then steps arriving.
    const upTo = (n: number, transfers: typeof ended.transfers) => ({ ...ended, summary: { ...ended.summary, outcome: { ...ended.summary.outcome, status: "running" as const } }, steps: Steps.of(briefs.slice(0, n)), transfers });
    const before = ended.transfers.slice(0, -1);
    const show = (o: typeof ended) => act(() => d().update(runId, o, d().topology, false));
    const quiet = () => act(() => new Promise((r) => setTimeout(r, 50)));
    show(upTo(lastTransfer.step, before));
    fireEvent.click(screen.getByTestId("tab-suspects"));
    await screen.findByTestId("verdict");
    expect(asked).toBe(1);
    show(upTo(lastTransfer.step + 1, before));
    await quiet();
    expect(asked).toBe(1);
    show(upTo(lastTransfer.step + 2, ended.transfers));
    await waitFor(() => expect(asked).toBe(2));
    show(upTo(briefs.length, ended.transfers));
    await quiet();
    expect(asked).toBe(2);
    show(ended);
    await waitFor(() => expect(asked).toBe(3));
  });

  it("on a run of many transfers, draws them a page at a time and counts the suspects a capped report left out", async () => {
    const { runId } = await debugTicketReopen((p) => {
      p.suspects = async (a) => {
        const base = await ticketReport(p, a.run_id);
        const [t0, t1] = base.transfers as [SuspectReport["transfers"][0], SuspectReport["transfers"][0]];
        // The backend sends 20 suspects per transfer at most and counts the rest in `more`.
        const many = Array.from({ length: 30 }, (_, i) => ({ ...(i % 2 ? t1 : t0), transfer: i, step: i, more: i === 1 ? 340 : 0 }));
        return { ...base, transfers: many };
      };
    });
    fireEvent.click(screen.getByTestId("tab-suspects"));
    await screen.findByTestId("verdict");
    expect(screen.getAllByTestId("suspect-group")).toHaveLength(25);
    const more = screen.getByTestId("suspects-more-groups");
    expect(more.textContent).toBe("Show 5 more of 5 transfers left");
    // 15 transfers like T0 (1 suspect), 15 like T1 (2 suspects), and 340 left out at T1
    expect(screen.getByText(/ at 30 transfers/).textContent).toMatch(/^385 at 30 transfers/);
    const t1 = screen.getAllByTestId("suspect-group").find((g) => g.getAttribute("data-transfer") === "1") as HTMLElement;
    expect(within(t1).getAllByTestId("suspect")).toHaveLength(2);
    expect(within(t1).getByText("342 suspects")).toBeTruthy();
    expect(within(t1).getByTestId("suspect-more").textContent).toBe(`340 more ranked lower, not shown here; baton suspects ${runId} --transfer 1 lists them all`);
    expect(screen.getAllByTestId("suspect-more")).toHaveLength(1);
    fireEvent.click(more);
    expect(screen.getAllByTestId("suspect-group")).toHaveLength(30);
    expect(screen.queryByTestId("suspects-more-groups")).toBeNull();
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
    // ranked, not proven: the basis, who judged the ending, the cause's class
    expect(verdict.getAttribute("data-basis")).toBe("suspected");
    expect(screen.getByTestId("verdict-basis").textContent).toBe("Suspected");
    expect(screen.getByTestId("verdict-text").textContent).toMatch(/^suspected cause: /);
    expect(screen.getByTestId("verdict-ending").textContent).toBe("Judged bad by the run's structure: verification undoes what resolution acted on at step 8 ('reopen' on 4812, which resolution had acted on)");
    expect(screen.getByTestId("verdict-class").textContent).toBe("capability gap");
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
            suspects: [{ item: "billing-instructions", agent: "billing", kind: "instructions", text: BILLING, loss: "dropped", score: 2, confidence: "medium", evidence: [], class: "data_gap", position: 0, proof: null }],
            more: 0,
            proof: null,
          },
        ],
        verdict: {
          bad: null,
          ending: { judgement: null, by: "nobody", reason: "nothing judges this ending: no failed expect:, no mark, no judge, no failure signal", at: null },
          basis: "none",
          transfer: null,
          suspect: null,
          chain: [],
          text: "no transfer-related cause found",
        },
        cost: null,
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
    // the run did not end badly: no verdict, only who judged its ending (nobody)
    expect(screen.queryByTestId("verdict")).toBeNull();
    expect(screen.getByTestId("verdict-none").getAttribute("data-by")).toBe("nobody");
    expect(screen.getByTestId("verdict-ending").textContent).toBe("Nothing judges this ending");
    // no mock scripts: who answers in the forks must be named
    expect(screen.getByTestId("prove-models")).toBeTruthy();
    expect((screen.getByTestId("prove-all") as HTMLButtonElement).disabled).toBe(true);
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
    const overview = decodeOverview(await platform.run_overview({ run_id: runId }));
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
    const overview = decodeOverview(await platform.run_overview({ run_id: runId }));
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

/** What restoring ticket-reopen's lost items did, as `baton suspects --prove --save` reports it (the mock answering). */
function provenReport(base: SuspectReport, fork: string): SuspectReport {
  const [t0, t1] = base.transfers as [SuspectReport["transfers"][0], SuspectReport["transfers"][0]];
  const [patch, reasoning] = t1.suspects as [Suspect, Suspect];
  const changed = "the scenario's expect: now fails (it passed); verification no longer calls reopen_ticket; the final answer no longer names FIX_4812";
  return {
    transfers: [
      {
        ...t0,
        suspects: t0.suspects.map((s) => ({ ...s, proof: { status: "not_tested", why: "nothing that could be put back was lost here", changed: "", with: [], at: 1, put_back: [s.item], fork_run: null } })),
        proof: { status: "not_tested", why: "nothing that could be put back was lost here", all: { status: "not_tested", why: "nothing that could be put back was lost here" }, minimal: [], changed: "", at: 1, fork_run: null },
      },
      {
        ...t1,
        suspects: [
          { ...patch, proof: { status: "changes", flips: 1, samples: 1, baseline: 0, changed, with: [], at: 5, put_back: [patch.item], fork_run: fork } },
          { ...reasoning, proof: { status: "no_effect", samples: 1, changed: "", with: [], at: 5, put_back: [reasoning.item], fork_run: null } },
        ],
        proof: { status: "changes", flips: 1, samples: 1, baseline: 0, all: { status: "changes", flips: 1, samples: 1, baseline: 0 }, minimal: [patch.item], changed, at: 5, fork_run: fork },
      },
    ],
    verdict: {
      ...base.verdict,
      basis: "proven",
      suspect: patch.item,
      text: `proven cause: transfer 1 (resolution → verification) lost "${PATCH}"; restoring it changes the ending (1/1)`,
    },
    cost: { forks: 10, model_calls: 26, tokens: 3379, ms: 27, answered_by: "mock", compared: "by the scenario's expect: (passes or fails)" },
  };
}

describe("Prove and the mark", () => {
  beforeEach(() => {
    useDesigner.getState().close();
    useDebugger.getState().exit();
    useRun.setState({ live: null, breakpoints: {}, scenario: {}, latencyMs: 0 });
    useUi.setState({ dialog: null, confirm: null, toasts: [], compare: null, bottomTab: "problems", bottomOpen: true });
    localStorage.clear();
    useFactOverlay.getState().reload();
    useProofs.setState({ runs: {}, options: {} });
  });

  it("Prove shows progress, then the proven verdict, each suspect's proof and what it cost; a proof's fork opens beside the run", async () => {
    const FORK = "fork-run-1";
    let release: () => void = () => undefined;
    const polls: unknown[] = [];
    const starts: unknown[] = [];
    const line = (forks: number, model_calls: number, message: string) => ({ transfer: 1, forks, model_calls, message });
    const { runId } = await debugTicketReopen((p) => {
      let base: SuspectReport | null = null;
      p.suspects = async (a) => (base ??= await ticketReport(p, a.run_id));
      p.prove_start = async (a) => (starts.push(a), { job: "job-1" });
      p.prove_status = async (a): Promise<ProveState> => {
        polls.push(a);
        const first = line(1, 2, "transfer 1: restoring all 3 lost item(s)");
        if (!a.seen) return { progress: [first], done: false, cancelled: false, report: null, error: null };
        await new Promise<void>((r) => (release = r));
        return { progress: [first, line(10, 26, "1 item(s) put back: 1/1 changed")], done: true, cancelled: false, report: provenReport(base as SuspectReport, FORK), error: null };
      };
    });
    fireEvent.click(screen.getByTestId("tab-suspects"));
    await screen.findByTestId("verdict");
    expect(screen.queryAllByTestId("suspect-proof")).toHaveLength(0);
    const runsBefore = useRun.getState().runsVersion;
    fireEvent.click(screen.getByTestId("prove-all"));

    // while it runs: the latest line, forks and model calls so far, Cancel; the transfer says it is being proved
    const progress = await screen.findByTestId("prove-progress");
    await waitFor(() => expect(within(progress).getByTestId("prove-message").textContent).toBe("transfer 1: restoring all 3 lost item(s)"));
    expect(within(progress).getByTestId("prove-counts").textContent).toBe("1 fork · 2 model calls");
    expect(screen.getByTestId("prove-cancel")).toBeTruthy();
    expect(screen.getAllByTestId("transfer-proving")).toHaveLength(1);
    // the mock answers, and the forks that change the ending are saved
    expect(starts).toEqual([{ run_id: runId, models: {}, live: false, save: true }]);
    expect(polls[0]).toEqual({ job: "job-1", seen: 0 });
    expect(polls[1]).toEqual({ job: "job-1", seen: 1 });

    act(() => release());
    await waitFor(() => expect(screen.getByTestId("verdict").getAttribute("data-basis")).toBe("proven"));
    expect(screen.queryByTestId("prove-progress")).toBeNull();
    expect(screen.getByTestId("verdict-basis").textContent).toBe("Proven");
    expect(screen.getByTestId("verdict-text").textContent).toMatch(/^proven cause: transfer 1 \(resolution → verification\)/);
    const row = (text: string) => screen.getAllByTestId("suspect").find((s) => within(s).getByTestId("suspect-text").textContent === text) as HTMLElement;
    const patch = within(row(PATCH)).getByTestId("suspect-proof");
    expect(patch.getAttribute("data-status")).toBe("changes");
    expect(within(patch).getByTestId("proof-badge").textContent).toBe("changes the ending (1/1)");
    expect(within(patch).getByTestId("proof-changed").textContent).toContain("verification no longer calls reopen_ticket");
    expect(within(within(row(REASONING)).getByTestId("suspect-proof")).getByTestId("proof-badge").textContent).toBe("no effect (0/1)");
    expect(within(within(row(TRIAGE)).getByTestId("suspect-proof")).getByTestId("proof-badge").textContent).toBe("not tested: nothing that could be put back was lost here");
    expect(within(row(REASONING)).queryByTestId("proof-open-fork")).toBeNull();
    // each transfer's own proof in its header
    const t1 = screen.getAllByTestId("suspect-group").find((g) => g.getAttribute("data-transfer") === "1") as HTMLElement;
    expect(within(t1).getByTestId("transfer-proof").textContent).toBe("all put back: changes the ending (1/1)");
    expect(screen.getByTestId("prove-cost").textContent).toContain("10 forks · 26 model calls · 3,379 tokens · 27 ms · answered by mock");
    expect(screen.getByTestId("prove-all").textContent).toContain("Prove again");

    // the saved fork, beside the run (the compare view); clicking it does not open the diff
    fireEvent.click(within(patch).getByTestId("proof-open-fork"));
    expect(useUi.getState().compare).toEqual([runId, FORK]);
    expect(useDebugger.getState().cursor).toBe(0);
    expect(polls).toHaveLength(2);
    // the forks were saved: the run lists are read again
    expect(useRun.getState().runsVersion).toBeGreaterThan(runsBefore);
  });

  it("one transfer's Prove asks for that transfer only; Cancel asks the backend to stop, and the report says what was not tested", async () => {
    let cancelled = false;
    const starts: unknown[] = [];
    const cancels: unknown[] = [];
    const { runId } = await debugTicketReopen((p) => {
      let base: SuspectReport | null = null;
      p.suspects = async (a) => (base ??= await ticketReport(p, a.run_id));
      p.prove_start = async (a) => (starts.push(a), { job: "job-2" });
      p.prove_status = async (a): Promise<ProveState> => {
        if (!a.seen) return { progress: [{ transfer: 0, forks: 0, model_calls: 0, message: "transfer 0: restoring all 1 lost item(s)" }], done: false, cancelled: false, report: null, error: null };
        await waitFor(() => expect(cancelled).toBe(true));
        const r = base as SuspectReport;
        const t0 = r.transfers[0]!;
        const notTested = { status: "not_tested" as const, why: "cancelled", changed: "", with: [], at: 1, put_back: [], fork_run: null };
        return {
          progress: [],
          done: true,
          cancelled: true,
          report: { ...r, transfers: [{ ...t0, suspects: t0.suspects.map((s) => ({ ...s, proof: { ...notTested, put_back: [s.item] } })) }, r.transfers[1]!], cost: { forks: 0, model_calls: 0, tokens: 0, ms: 3, answered_by: "mock", compared: "by outcome" } },
          error: null,
        };
      };
      p.prove_cancel = async (a) => {
        cancels.push(a);
        cancelled = true;
        return null;
      };
    });
    fireEvent.click(screen.getByTestId("tab-suspects"));
    await screen.findByTestId("verdict");
    const t0 = screen.getAllByTestId("suspect-group").find((g) => g.getAttribute("data-transfer") === "0") as HTMLElement;
    fireEvent.click(within(t0).getByTestId("transfer-prove"));
    await screen.findByTestId("prove-progress");
    expect(starts).toEqual([{ run_id: runId, transfer: 0, models: {}, live: false, save: true }]);
    // every other Prove waits while one runs
    await waitFor(() => expect(screen.getAllByTestId("transfer-prove").every((b) => (b as HTMLButtonElement).disabled)).toBe(true));
    fireEvent.click(screen.getByTestId("prove-cancel"));
    await screen.findByTestId("prove-cancelled");
    expect(cancels).toEqual([{ job: "job-2" }]);
    const proof = within(screen.getAllByTestId("suspect-group").find((g) => g.getAttribute("data-transfer") === "0") as HTMLElement).getByTestId("proof-badge");
    expect(proof.textContent).toBe("not tested: cancelled");
    // the verdict stays ranked
    expect(screen.getByTestId("verdict-basis").textContent).toBe("Suspected");
  });

  it("one transfer's Prove sends that transfer (the mock answering, forks saved); a refusal is shown with its code", async () => {
    const asked: unknown[] = [];
    await debugTicketReopen((p) => {
      let base: SuspectReport | null = null;
      p.suspects = async (a) => (base ??= await ticketReport(p, a.run_id));
      p.prove_start = async (a) => {
        asked.push(a);
        throw new PlatformError("api.args", "transfer 7 does not exist");
      };
    });
    fireEvent.click(screen.getByTestId("tab-suspects"));
    await screen.findByTestId("verdict");
    const t1 = screen.getAllByTestId("suspect-group").find((g) => g.getAttribute("data-transfer") === "1") as HTMLElement;
    fireEvent.click(within(t1).getByTestId("transfer-prove"));
    const err = await screen.findByTestId("prove-error");
    expect(err.getAttribute("data-code")).toBe("api.args");
    expect(err.textContent).toContain("transfer 7 does not exist");
    expect(asked).toEqual([{ run_id: useDebugger.getState().runId, transfer: 1, models: {}, live: false, save: true }]);
  });

  it("an imported run proves with the models named, samples and a budget", async () => {
    const asked: unknown[] = [];
    start((p) => {
      p.suspects = async () => ({
        transfers: [{ transfer: 1, step: 3, kind: "handoff", from: "billing", to: "technical", suspects: [], more: 0, proof: null }],
        verdict: { bad: null, ending: { judgement: null, by: "nobody", reason: "", at: null }, basis: "none", transfer: null, suspect: null, chain: [], text: "" },
        cost: null,
      });
      p.prove_start = async (a) => {
        asked.push(a);
        return { job: "job-3" };
      };
      p.prove_status = async () => ({ progress: [], done: true, cancelled: false, report: null, error: { code: "providers.key", message: "no key for openai" } });
    });
    await screen.findByTestId("welcome");
    fireEvent.click(screen.getByTestId("menu-open-trace"));
    fireEvent.change(await screen.findByTestId("trace-path-input"), { target: { value: "traces/support-otlp.json" } });
    fireEvent.click(screen.getByTestId("trace-import"));
    await screen.findByTestId("transport");
    fireEvent.click(screen.getByTestId("tab-suspects"));
    await screen.findByTestId("prove-bar");
    expect(screen.getByTestId("prove-hint").textContent).toContain("no mock scripts");
    // the answerer cannot be the mock here
    expect([...(screen.getByTestId("prove-answerer") as HTMLSelectElement).options].map((o) => o.value)).toEqual(["models", "live"]);
    fireEvent.change(screen.getByTestId("prove-models"), { target: { value: "billing" } });
    expect(screen.getByTestId("prove-problems").textContent).toContain('"billing": write AGENT=PROVIDER:MODEL[@URL]');
    expect((screen.getByTestId("prove-all") as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByTestId("prove-models"), { target: { value: "*=openai:gpt-4o-mini, technical=openai-compatible:llama3@http://127.0.0.1:11434/v1" } });
    fireEvent.change(screen.getByTestId("prove-samples"), { target: { value: "5" } });
    fireEvent.change(screen.getByTestId("prove-budget"), { target: { value: "40" } });
    expect(screen.queryByTestId("prove-problems")).toBeNull();
    fireEvent.click(screen.getByTestId("prove-all"));
    const err = await screen.findByTestId("prove-error");
    expect(err.textContent).toContain("no key for openai");
    expect(asked).toEqual([
      {
        run_id: useDebugger.getState().runId,
        models: { "*": "openai:gpt-4o-mini", technical: "openai-compatible:llama3@http://127.0.0.1:11434/v1" },
        live: false,
        samples: 5,
        budget_calls: 40,
        save: true,
      },
    ]);
  });

  it("the mark: Bad with why calls mark_run, the verdict is read again and says it is judged by your mark; clear takes it off", async () => {
    const asked: { run_id: string }[] = [];
    const { platform, runId } = await debugTicketReopen((p) => {
      p.suspects = async (a) => {
        asked.push(a);
        const r = await ticketReport(p, a.run_id);
        const mark = (await p.run_overview({ run_id: a.run_id })).summary.mark;
        if (!mark) return r;
        const reason = `marked ${mark.judgement} by a person${mark.why ? `: ${mark.why}` : ""}`;
        return { ...r, verdict: mark.judgement === "bad" ? { ...r.verdict, bad: reason, ending: { judgement: "bad", by: "mark", reason, at: 11 } } : { ...r.verdict, bad: null, ending: { judgement: "good", by: "mark", reason, at: 11 } } };
      };
    });
    fireEvent.click(screen.getByTestId("tab-suspects"));
    await screen.findByTestId("verdict");
    expect(asked).toHaveLength(1);
    const mark = screen.getByTestId("run-mark");
    expect(mark.getAttribute("data-judgement")).toBe("");
    fireEvent.change(within(mark).getByTestId("mark-why"), { target: { value: "the ticket was reopened for nothing" } });
    fireEvent.click(within(mark).getByTestId("mark-bad"));
    await waitFor(() => expect(screen.getByTestId("run-mark").getAttribute("data-judgement")).toBe("bad"));
    expect(platform.calls.filter((c) => c.command === "mark_run").map((c) => c.args)).toEqual([{ run_id: runId, judgement: "bad", why: "the ticket was reopened for nothing" }]);
    expect(within(screen.getByTestId("run-mark")).getByTestId("mark-bad").getAttribute("aria-pressed")).toBe("true");
    // the verdict is asked again: its ending is the mark's
    await waitFor(() => expect(screen.getByTestId("verdict-ending").textContent).toBe("Judged bad by your mark: the ticket was reopened for nothing"));
    expect(asked).toHaveLength(2);
    expect(screen.getByTestId("verdict-ending").getAttribute("data-by")).toBe("mark");

    // Good: not a bad ending, so no cause to explain; who judged it stays in one line
    fireEvent.click(within(screen.getByTestId("run-mark")).getByTestId("mark-good"));
    await waitFor(() => expect(screen.getByTestId("verdict-none").getAttribute("data-by")).toBe("mark"));
    expect(screen.getByTestId("verdict-ending").textContent).toBe("Judged good by your mark: the ticket was reopened for nothing");

    fireEvent.click(within(screen.getByTestId("run-mark")).getByTestId("mark-clear"));
    await waitFor(() => expect(screen.getByTestId("run-mark").getAttribute("data-judgement")).toBe(""));
    expect(platform.calls.filter((c) => c.command === "mark_run").at(-1)?.args).toEqual({ run_id: runId, judgement: null });
    // the field empties with the mark's removal (once the run is read again)
    await waitFor(() => expect((within(screen.getByTestId("run-mark")).getByTestId("mark-why") as HTMLInputElement).value).toBe(""));
    await waitFor(() => expect(screen.getByTestId("verdict-ending").getAttribute("data-by")).toBe("signal"));
  });

  it("a mark that fails says so and changes nothing", async () => {
    await debugTicketReopen((p) => {
      let r: SuspectReport | null = null;
      p.suspects = async (a) => (r ??= await ticketReport(p, a.run_id));
      p.mark_run = async () => {
        throw new PlatformError("store.no_run", "no run with id 'x' in the store");
      };
    });
    fireEvent.click(within(screen.getByTestId("run-mark")).getByTestId("mark-bad"));
    await waitFor(() => expect(useUi.getState().toasts.map((t) => t.title)).toContain("Could not mark the run bad"));
    expect(screen.getByTestId("run-mark").getAttribute("data-judgement")).toBe("");
  });
});

// The suspects report as the debugger orders and marks it, and a suspect made into a pinned fact.
// Values are examples/ticket-reopen.yaml as a person reads it: triage hands to resolution (T0,
// step 1), resolution hands to verification with fields(ticket,status) (T1, step 5); resolution's
// patch_checkout answers "Patch merged behind feature flag FIX_4812 (flag is off; manual rollout pending)."
import { describe, expect, it } from "vitest";
import type { Topology } from "../model/types";
import { currentTransfer, factFromSuspect, factId, orderTransfers, pinnedAs, reimportCommand, suspectMarks, withPinnedFact, type Suspect, type SuspectReport } from "./suspects";
import type { TransferBrief } from "./types";

const PATCH = "Patch merged behind feature flag FIX_4812 (flag is off; manual rollout pending).";
const TRIAGE_INSTR = "Classify the support ticket and hand it to the right owner immediately.\nDo not try to resolve it yourself.";
const USER = "Ticket #4812: the checkout button does nothing on Safari. Customer-facing.";

const suspect = (item: string, agent: string, text: string, confidence: Suspect["confidence"], more: Partial<Suspect> = {}): Suspect => ({
  item,
  agent,
  kind: "tool_result",
  text,
  loss: "dropped",
  score: confidence === "high" ? 8 : confidence === "medium" ? 4 : 1,
  confidence,
  evidence: [],
  class: null,
  position: 0,
  proof: null,
  ...more,
});

const REPORT: SuspectReport = {
  transfers: [
    { transfer: 0, step: 1, kind: "handoff", from: "triage", to: "resolution", suspects: [suspect("i-triage", "triage", TRIAGE_INSTR, "low", { kind: "instructions" })], more: 0, proof: null },
    {
      transfer: 1,
      step: 5,
      kind: "handoff",
      from: "resolution",
      to: "verification",
      suspects: [suspect("i-patch", "resolution", PATCH, "high"), suspect("i-user", "user", USER, "low", { kind: "user_message" })],
      more: 0,
      proof: null,
    },
  ],
  verdict: {
    bad: "the run reverses its own result",
    ending: { judgement: "bad", by: "signal", reason: "the run reverses its own result", at: 9 },
    basis: "suspected",
    transfer: 1,
    suspect: "i-patch",
    chain: [],
    text: "",
  },
  cost: null,
};

const brief = (index: number, step: number): TransferBrief => ({
  index,
  step,
  kind: "handoff",
  from: "",
  to: "",
  edge: "",
  policy: "full",
  carried: 0,
  transformed: 0,
  dropped: 0,
  added: 0,
  facts: [],
});
const TRANSFERS = [brief(0, 1), brief(1, 5)];

describe("ordering and marks", () => {
  it("the current transfer is the last one at or before the cursor; none before the first", () => {
    expect(currentTransfer(TRANSFERS, 0)).toBeNull();
    expect(currentTransfer(TRANSFERS, 1)).toBe(0);
    expect(currentTransfer(TRANSFERS, 4)).toBe(0);
    expect(currentTransfer(TRANSFERS, 5)).toBe(1);
    expect(currentTransfer(TRANSFERS, 11)).toBe(1);
  });

  it("groups the transfers with the current one first, the others in the order they happened", () => {
    expect(orderTransfers(REPORT, 1).map((t) => t.transfer)).toEqual([1, 0]);
    expect(orderTransfers(REPORT, 0).map((t) => t.transfer)).toEqual([0, 1]);
    expect(orderTransfers(REPORT, null).map((t) => t.transfer)).toEqual([0, 1]);
    // a report listed out of order is put in step order
    const shuffled = { ...REPORT, transfers: [...REPORT.transfers].reverse() };
    expect(orderTransfers(shuffled, null).map((t) => t.transfer)).toEqual([0, 1]);
    // the suspects keep the backend's order (best first)
    expect(orderTransfers(REPORT, 1)[0]?.suspects.map((s) => s.item)).toEqual(["i-patch", "i-user"]);
  });

  it("marks a transfer's suspects by item id with their confidence", () => {
    const marks = suspectMarks(REPORT, 1);
    expect([...marks.keys()]).toEqual(["i-patch", "i-user"]);
    expect(marks.get("i-patch")?.confidence).toBe("high");
    expect(suspectMarks(REPORT, 7).size).toBe(0);
    expect(suspectMarks(undefined, 1).size).toBe(0);
  });
});

describe("a suspect pinned as a fact", () => {
  const t: Topology = {
    version: 1,
    name: "ticket-reopen",
    entry: "triage",
    agents: ["triage", "resolution", "verification"].map((id) => ({ id, name: id[0]!.toUpperCase() + id.slice(1), instructions: "", model: { provider: "openai", name: "gpt-4o" } }) as Topology["agents"][number]),
    edges: [],
    guards: { max_turns: 10, max_handoffs: 4, on_revisit: "stop" },
  };

  it("takes its id from the text's first words", () => {
    expect(factId(PATCH, new Set())).toBe("patch-merged-behind-feature-flag-fix-4812");
    expect(factId(PATCH, new Set(["patch-merged-behind-feature-flag-fix-4812"]))).toBe("patch-merged-behind-feature-flag-fix-4812-2");
    expect(factId("  — ", new Set())).toBe("fact");
    expect(factId("!!", new Set(["fact"]))).toBe("fact-2");
    expect(factId("a".repeat(80), new Set()).length).toBeLessThanOrEqual(48);
  });

  it("is held by the suspect's agent; the user's by the sender, whose context had it", () => {
    const agents = t.agents.map((a) => a.id);
    const [patch, user] = REPORT.transfers[1]!.suspects as [Suspect, Suspect];
    expect(factFromSuspect(patch, { from: "resolution" }, agents, new Set())).toEqual({ id: "patch-merged-behind-feature-flag-fix-4812", text: PATCH, holders: ["resolution"] });
    expect(factFromSuspect(user, { from: "resolution" }, agents, new Set())?.holders).toEqual(["resolution"]);
    expect(factFromSuspect(user, { from: "someone" }, agents, new Set())).toBeNull();
  });

  it("is added to the topology once: the same text (any case or spacing) is not pinned twice", () => {
    const fact = { id: "patch", text: PATCH, holders: ["resolution"] };
    const once = withPinnedFact(t, fact);
    expect(once.facts).toEqual([fact]);
    expect(t.facts).toBeUndefined();
    const again = withPinnedFact(once, { id: "other", text: `  ${PATCH.toUpperCase()}  `, holders: ["triage"] });
    expect(again).toBe(once);
    expect(pinnedAs(once.facts, PATCH.replace(/ /g, "  "))?.id).toBe("patch");
  });

  it("says how to import the trace again with the facts", () => {
    expect(reimportCommand("traces/run.json", "r1")).toBe("baton trace import traces/run.json --facts facts.yaml --again");
    expect(reimportCommand("/tmp/my trace.json", "r1")).toBe("baton trace import '/tmp/my trace.json' --facts facts.yaml --again");
    expect(reimportCommand("/tmp/it's.json", "r1")).toBe("baton trace import '/tmp/it'\\''s.json' --facts facts.yaml --again");
    // a captured run has no file: exported from the store first
    expect(reimportCommand(null, "01a2-run")).toBe("baton trace export --to otlp 01a2-run -o run.otlp.json && baton trace import run.otlp.json --facts facts.yaml --again");
  });
});

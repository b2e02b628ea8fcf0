// Scenario editing and validation, on a topology transcribed from examples/ticket-reopen.yaml:
// the tool names a script may call are the ones a person reads there (patch_checkout, the
// transfer_to_<snake of the target's name> of each handoff).
import { describe, expect, it } from "vitest";
import type { Topology } from "./types";
import {
  addScenario,
  agentsWithoutRules,
  withDefaultRules,
  adHocScenario,
  agentTools,
  checkScenarioName,
  move,
  removeScenario,
  renameScenario,
  setCalls,
  setRules,
  setThen,
  setWhen,
  updateScenario,
  validateScenario,
  withAdHocScenario,
} from "./scenario";

function ticketReopen(): Topology {
  return {
    version: 1,
    name: "ticket-reopen",
    entry: "triage",
    agents: [
      { id: "triage", name: "Triage", model: { provider: "openai", name: "gpt-4o-mini" } },
      {
        id: "resolution",
        name: "Resolution",
        model: { provider: "openai", name: "gpt-4o" },
        tools: [{ name: "patch_checkout", parameters: { type: "object" } }],
      },
      {
        id: "verification",
        name: "Verification",
        model: { provider: "openai", name: "gpt-4o-mini" },
        tools: [
          { name: "check_flag", parameters: { type: "object" } },
          { name: "reopen_ticket", parameters: { type: "object" } },
        ],
      },
    ],
    edges: [
      { id: "triage->resolution", kind: "handoff", from: "triage", to: "resolution" },
      { id: "resolution->verification", kind: "handoff", from: "resolution", to: "verification", acceptance: "verify" },
    ],
    facts: [{ id: "resolved-meaning", text: "Resolved means patched behind a feature flag, pending manual rollout.", holders: ["resolution"] }],
    guards: { max_turns: 10, max_handoffs: 4, on_revisit: "stop" },
    scenarios: [
      {
        name: "flagged-fix",
        input: "Ticket #4812: the checkout button does nothing on Safari. Customer-facing.",
        scripts: {
          triage: [{ reasoning: "Customer-facing checkout bug; resolution owns fixes.", say: "Routing ticket 4812 to resolution.", calls: [{ tool: "transfer_to_resolution" }] }],
          resolution: [
            { when: { call: 1 }, calls: [{ tool: "patch_checkout", args: { ticket: "4812" } }] },
            { when: { last_tool_result_contains: "FIX_4812" }, say: "Ticket 4812 is resolved.", calls: [{ tool: "transfer_to_verification", args: { ticket: "4812", status: "resolved" } }] },
          ],
          verification: [
            { when: { call: 1 }, calls: [{ tool: "check_flag", args: { ticket: "4812" } }] },
            { when: { fact_present: "resolved-meaning", last_tool_result_contains: "is off" }, say: "Ticket 4812 stays resolved." },
          ],
        },
      },
    ],
  };
}

const flagged = (t: Topology) => t.scenarios?.find((s) => s.name === "flagged-fix");
const issues = (t: Topology, name = "flagged-fix") => validateScenario(t, t.scenarios?.find((s) => s.name === name) as never);

describe("scenario editing", () => {
  it("lists the tools each agent's model sees: its own, then a transfer per outgoing edge", () => {
    const t = ticketReopen();
    expect(agentTools(t, "triage")).toEqual([{ name: "transfer_to_resolution", kind: "handoff", target: "resolution" }]);
    expect(agentTools(t, "resolution").map((x) => x.name)).toEqual(["patch_checkout", "transfer_to_verification"]);
    expect(agentTools(t, "verification").map((x) => x.name)).toEqual(["check_flag", "reopen_ticket"]);
  });

  it("adds scenarios under fresh names, renames and deletes them", () => {
    const t = ticketReopen();
    const [t1, a] = addScenario(t);
    expect(a).toBe("scenario");
    const [t2, b] = addScenario(t1);
    expect(b).toBe("scenario-2");
    expect(checkScenarioName(t2, "scenario", "flagged-fix")).toEqual({ ok: false, reason: "Another scenario is called 'flagged-fix'." });
    expect(checkScenarioName(t2, "scenario", " ")).toMatchObject({ ok: false });
    expect(renameScenario(t2, "scenario", "flagged-fix")).toBe(t2);
    const t3 = renameScenario(t2, "scenario", "refund");
    expect(t3.scenarios?.map((s) => s.name)).toEqual(["flagged-fix", "refund", "scenario-2"]);
    expect(removeScenario(t3, "refund").scenarios?.map((s) => s.name)).toEqual(["flagged-fix", "scenario-2"]);
    // The original is untouched (undo keeps it).
    expect(t.scenarios?.map((s) => s.name)).toEqual(["flagged-fix"]);
  });

  it("stores no empty texts or lists: an empty reply, condition or script is removed", () => {
    const rule = setWhen(setThen({ say: "hi" }, "say", ""), "call", 1);
    expect(rule).toEqual({ when: { call: 1 } });
    expect(setWhen(rule, "call", undefined)).toEqual({});
    expect(setCalls({ say: "x", calls: [{ tool: "a" }] }, [])).toEqual({ say: "x" });
    const s = setRules({ name: "s", input: "hi", scripts: { triage: [{ say: "x" }] } }, "triage", []);
    expect(s).toEqual({ name: "s", input: "hi" });
    expect(move(["a", "b", "c"], 0, 1)).toEqual(["b", "a", "c"]);
    expect(move(["a", "b", "c"], 2, 1)).toEqual(["a", "b", "c"]);
  });

  it("finds nothing wrong with the example's scenario", () => {
    expect(issues(ticketReopen())).toEqual([]);
  });

  it("names the field of a call to a tool the agent lacks", () => {
    const t = updateScenario(ticketReopen(), "flagged-fix", (s) => setRules(s, "triage", [{ calls: [{ tool: "patch_checkout" }] }]));
    expect(issues(t)).toEqual([
      {
        field: "scripts.triage[0].calls[0].tool",
        severity: "error",
        message: "'patch_checkout' is not a tool of Triage (it has: transfer_to_resolution).",
      },
    ]);
  });

  it("names a transfer to an agent that does not exist, and one with no edge", () => {
    let t = updateScenario(ticketReopen(), "flagged-fix", (s) => setRules(s, "triage", [{ calls: [{ tool: "transfer_to_billing" }] }]));
    expect(issues(t)[0]).toMatchObject({ field: "scripts.triage[0].calls[0].tool", severity: "error" });
    expect(issues(t)[0]?.message).toContain("no agent is called 'billing'");
    t = updateScenario(ticketReopen(), "flagged-fix", (s) => setRules(s, "triage", [{ calls: [{ tool: "transfer_to_verification" }] }]));
    expect(issues(t)[0]?.message).toBe(
      "Triage has no handoff to Verification: connect them on the canvas first (Triage's transfers: transfer_to_resolution).",
    );
  });

  it("flags a rule that answers nothing, an unknown fact, a bad call number and a rule after a catch-all", () => {
    const t = updateScenario(ticketReopen(), "flagged-fix", (s) =>
      setRules(s, "verification", [{ when: { fact_absent: "meaning" }, say: "x" }, { when: { call: 0 }, say: "y" }, { say: "always" }, { reasoning: "never" }, {}]),
    );
    const got = issues(t).map((i) => [i.field, i.severity]);
    expect(got).toEqual([
      ["scripts.verification[0].when.fact_absent", "error"],
      ["scripts.verification[1].when.call", "error"],
      ["scripts.verification[3]", "warning"],
      ["scripts.verification[4]", "warning"],
      ["scripts.verification[4]", "error"],
    ]);
  });

  it("flags a script of an agent that does not exist, a bad history role and an empty entry script", () => {
    const t = updateScenario(ticketReopen(), "flagged-fix", (s) => ({
      ...setRules(s, "triage", []),
      scripts: { ...(setRules(s, "triage", []).scripts ?? {}), billing: [{ say: "x" }] },
      history: [{ role: "system", content: "hi" }],
    }));
    const got = issues(t).map((i) => i.field);
    expect(got).toEqual(["history[0].role", "scripts.billing", "scripts.triage"]);
    expect(issues(t).find((i) => i.field === "scripts.triage")?.severity).toBe("warning");
  });

  it("flags a duplicate name and an empty input", () => {
    const base = ticketReopen();
    const t: Topology = { ...base, scenarios: [...(base.scenarios ?? []), { name: "flagged-fix", input: " " }] };
    const second = t.scenarios?.[1];
    expect(validateScenario(t, second as never).map((i) => i.field)).toEqual(["name", "input", "scripts.triage"]);
  });

  it("runs a typed message as an ad-hoc scenario with the chosen scenario's rules", () => {
    const t = ticketReopen();
    const s = adHocScenario(t, "Where is my refund?", flagged(t));
    expect(s.name).toBe("message");
    expect(s.input).toBe("Where is my refund?");
    expect(Object.keys(s.scripts ?? {})).toEqual(["triage", "resolution", "verification"]);
    const run = withAdHocScenario(t, s);
    expect(run.scenarios?.map((x) => x.name)).toEqual(["flagged-fix", "message"]);
    const [t2] = addScenario(t, { name: "message" });
    expect(adHocScenario(t2, "x").name).toBe("message-2");
  });
});

describe("default mock rules", () => {
  const t = {
    version: 1,
    name: "d",
    entry: "triage",
    agents: [
      { id: "triage", name: "Triage" },
      { id: "billing", name: "Billing" },
      { id: "person", name: "Person", kind: "human" },
    ],
    edges: [{ kind: "handoff", from: "triage", to: "billing" }],
    scenarios: [{ name: "s", input: "hi", scripts: { billing: [{ say: "Refunded." }] } }],
  } as unknown as Topology;

  it("lists the agents a mock run cannot answer for, people excepted", () => {
    expect(agentsWithoutRules(t, t.scenarios![0])).toEqual(["triage"]);
    expect(agentsWithoutRules(t, null)).toEqual(["triage", "billing"]);
  });

  it("takes an agent's first transfer on its first call, then answers; keeps written rules", () => {
    const s = withDefaultRules(t, t.scenarios![0]);
    expect(s.scripts!.triage).toEqual([
      { when: { call: 1 }, calls: [{ tool: "transfer_to_billing" }] },
      { say: expect.stringContaining("Triage (default mock rule)") },
    ]);
    expect(s.scripts!.billing).toEqual([{ say: "Refunded." }]);
    expect(s.scripts!.person).toBeUndefined();
  });
});

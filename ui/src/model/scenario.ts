// Pure scenario operations (create, rename, delete, edit input, history and mock rules) and their
// validation, so the editor can name the field that is wrong before a run fails on it.
import type { MockCall } from "../bindings/MockCall";
import type { MockRule } from "../bindings/MockRule";
import type { MockWhen } from "../bindings/MockWhen";
import type { PriorMessage } from "../bindings/PriorMessage";
import { agentKind, defaultToolName, snakeCase } from "./topology";
import type { Scenario, Topology } from "./types";

export type { MockCall, MockRule, MockWhen, PriorMessage };

export type NameCheck = { ok: true } | { ok: false; reason: string };

/** The scenario a run picks: `chosen` when it exists, else the first (as the backend does). */
export function pickScenario(t: Topology, chosen: string | undefined): Scenario | undefined {
  const all = t.scenarios ?? [];
  return all.find((s) => s.name === chosen) ?? all[0];
}

export function uniqueScenarioName(t: Topology, base = "scenario"): string {
  const taken = new Set((t.scenarios ?? []).map((s) => s.name));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const name = `${base}-${n}`;
    if (!taken.has(name)) return name;
  }
}

export function checkScenarioName(t: Topology, oldName: string | null, name: string): NameCheck {
  if (name === oldName) return { ok: true };
  if (name.trim() === "") return { ok: false, reason: "A scenario needs a name." };
  if (name !== name.trim()) return { ok: false, reason: "No spaces at the start or end." };
  if ((t.scenarios ?? []).some((s) => s.name === name)) return { ok: false, reason: `Another scenario is called '${name}'.` };
  return { ok: true };
}

/** Appends a scenario (a fresh name when `init.name` is absent or taken); returns it with its name. */
export function addScenario(t: Topology, init: Partial<Scenario> = {}): [Topology, string] {
  const name = init.name && checkScenarioName(t, null, init.name).ok ? init.name : uniqueScenarioName(t, init.name || "scenario");
  const s: Scenario = { name, input: init.input ?? "" };
  if (init.description) s.description = init.description;
  if (init.history?.length) s.history = init.history;
  if (init.scripts && Object.keys(init.scripts).length) s.scripts = init.scripts;
  return [{ ...t, scenarios: [...(t.scenarios ?? []), s] }, name];
}

export function renameScenario(t: Topology, oldName: string, name: string): Topology {
  if (oldName === name || !checkScenarioName(t, oldName, name).ok) return t;
  return updateScenario(t, oldName, (s) => ({ ...s, name }));
}

export function removeScenario(t: Topology, name: string): Topology {
  const scenarios = (t.scenarios ?? []).filter((s) => s.name !== name);
  return { ...t, scenarios };
}

export function updateScenario(t: Topology, name: string, fn: (s: Scenario) => Scenario): Topology {
  const all = t.scenarios ?? [];
  if (!all.some((s) => s.name === name)) return t;
  return { ...t, scenarios: all.map((s) => (s.name === name ? fn(s) : s)) };
}

/** Sets one agent's rules; an empty list removes the agent's script. */
export function setRules(s: Scenario, agent: string, rules: MockRule[]): Scenario {
  const scripts = { ...(s.scripts ?? {}) };
  if (rules.length === 0) delete scripts[agent];
  else scripts[agent] = rules;
  const next: Scenario = { ...s, scripts };
  if (Object.keys(scripts).length === 0) delete next.scripts;
  return next;
}

export function setHistory(s: Scenario, history: PriorMessage[]): Scenario {
  const next: Scenario = { ...s, history };
  if (history.length === 0) delete next.history;
  return next;
}

export const WHEN_FIELDS = ["contains", "not_contains", "fact_present", "fact_absent", "call", "last_tool_result_contains"] as const;
export type WhenField = (typeof WHEN_FIELDS)[number];

export const WHEN_LABELS: Record<WhenField, string> = {
  call: "on its call number",
  contains: "it sees text",
  not_contains: "it does not see text",
  fact_present: "it holds the fact",
  fact_absent: "it lacks the fact",
  last_tool_result_contains: "the last tool result contains",
};

/** A rule with `field` set (or cleared with `undefined`); empty texts are dropped, not stored. */
export function setWhen(rule: MockRule, field: WhenField, value: string | number | undefined): MockRule {
  const when: Record<string, unknown> = { ...(rule.when ?? {}) };
  if (value === undefined || value === "") delete when[field];
  else when[field] = value;
  const next: MockRule = { ...rule, when: when as MockWhen };
  if (Object.keys(when).length === 0) delete next.when;
  return next;
}

/** A rule with its reasoning or reply set; an empty text removes it (an empty reply is no reply). */
export function setThen(rule: MockRule, field: "say" | "reasoning", value: string): MockRule {
  const next: MockRule = { ...rule };
  if (value === "") delete next[field];
  else next[field] = value;
  return next;
}

export function setCalls(rule: MockRule, calls: MockCall[]): MockRule {
  const next: MockRule = { ...rule, calls };
  if (calls.length === 0) delete next.calls;
  return next;
}

/** Moves item `i` of a list by `by` places (clamped). */
export function move<T>(list: readonly T[], i: number, by: number): T[] {
  const j = Math.max(0, Math.min(list.length - 1, i + by));
  if (i === j || i < 0 || i >= list.length) return [...list];
  const out = [...list];
  const [x] = out.splice(i, 1);
  out.splice(j, 0, x as T);
  return out;
}

export type AgentTool = {
  /** The name the model sees (what a mock call names). */
  name: string;
  kind: "tool" | "handoff" | "delegation";
  /** The target agent of a transfer. */
  target?: string;
};

/** The tools an agent's model sees: its own, then one per outgoing edge (as `tools.rs` lists them). */
export function agentTools(t: Topology, agent: string): AgentTool[] {
  const own = t.agents.find((a) => a.id === agent)?.tools ?? [];
  const out: AgentTool[] = own.map((x) => ({ name: x.name, kind: "tool" }));
  for (const e of t.edges) {
    if (e.from !== agent) continue;
    out.push({ name: e.tool ? e.tool : defaultToolName(t, e), kind: e.kind, target: e.to });
  }
  return out;
}

export type Severity = "error" | "warning";

export type ScenarioIssue = {
  /** Where in the scenario: `name`, `input`, `history[0].role`, `scripts.triage[1].calls[0].tool`… */
  field: string;
  severity: Severity;
  message: string;
};

/** A field path, as `ScenarioIssue.field` spells it. */
export const fieldOf = {
  history: (i: number, part: "role" | "content") => `history[${i}].${part}`,
  script: (agent: string) => `scripts.${agent}`,
  rule: (agent: string, r: number) => `scripts.${agent}[${r}]`,
  when: (agent: string, r: number, f: WhenField) => `scripts.${agent}[${r}].when.${f}`,
  call: (agent: string, r: number, c: number, part: "tool" | "args") => `scripts.${agent}[${r}].calls[${c}].${part}`,
};

const name = (t: Topology, id: string) => t.agents.find((a) => a.id === id)?.name || id;

function quoteList(xs: readonly string[]): string {
  return xs.length === 0 ? "none" : xs.join(", ");
}

/** Why a tool name is not one the agent can call, or null when it can. */
export function unknownToolReason(t: Topology, agent: string, tool: string): string | null {
  if (tool.trim() === "") return "Choose a tool to call.";
  const tools = agentTools(t, agent);
  if (tools.some((x) => x.name === tool)) return null;
  const who = name(t, agent);
  const transfers = tools.filter((x) => x.kind !== "tool").map((x) => x.name);
  if (tool.startsWith("transfer_to_")) {
    const snake = tool.slice("transfer_to_".length);
    const target = t.agents.find((a) => snakeCase(a.name) === snake || a.id === snake);
    if (!target) return `'${tool}' transfers to an agent that does not exist: no agent is called '${snake}' (${who}'s transfers: ${quoteList(transfers)}).`;
    if (target.id === agent) return `'${tool}' would transfer ${who} to itself; an agent cannot hand off to itself.`;
    return `${who} has no handoff to ${target.name}: connect them on the canvas first (${who}'s transfers: ${quoteList(transfers)}).`;
  }
  return `'${tool}' is not a tool of ${who} (it has: ${quoteList(tools.map((x) => x.name))}).`;
}

/**
 * Everything wrong with a scenario that the editor can point at, in the order of its fields:
 * errors make a run fail or be refused; warnings are rules or scripts that never do what they seem.
 */
export function validateScenario(t: Topology, s: Scenario): ScenarioIssue[] {
  const out: ScenarioIssue[] = [];
  const add = (field: string, severity: Severity, message: string) => out.push({ field, severity, message });
  const others = (t.scenarios ?? []).filter((x) => x !== s);
  if (s.name.trim() === "") add("name", "error", "A scenario needs a name.");
  else if (others.some((x) => x.name === s.name)) add("name", "error", `Another scenario is called '${s.name}': names must be unique.`);
  if (s.input.trim() === "") add("input", "warning", "The user's message is empty: the entry agent starts with nothing to answer.");
  (s.history ?? []).forEach((m, i) => {
    if (m.role !== "user" && m.role !== "assistant") add(fieldOf.history(i, "role"), "error", `A prior message is from 'user' or 'assistant', not '${m.role}'.`);
    if (m.content.trim() === "") add(fieldOf.history(i, "content"), "warning", "This prior message is empty.");
  });
  const facts = new Set((t.facts ?? []).map((f) => f.id));
  const scripts = s.scripts ?? {};
  for (const [agent, rules] of Object.entries(scripts)) {
    const a = t.agents.find((x) => x.id === agent);
    if (!a) {
      add(fieldOf.script(agent), "error", `'${agent}' is not an agent of this topology: the run is refused. Delete this script or rename it to an agent's id.`);
      continue;
    }
    if (agentKind(a) === "human") {
      add(fieldOf.script(agent), "warning", `${name(t, agent)} is a human: a run ends when it reaches them, so this script never answers.`);
    }
    let catchAll: number | null = null;
    rules.forEach((r, i) => {
      if (catchAll !== null) {
        add(fieldOf.rule(agent, i), "warning", `Never used: rule ${catchAll + 1} has no conditions, so it always answers first.`);
      }
      const when = r.when ?? {};
      const hasWhen = WHEN_FIELDS.some((f) => when[f] !== undefined && when[f] !== null);
      if (!hasWhen && catchAll === null) catchAll = i;
      if (when.call !== undefined && when.call !== null && (!Number.isInteger(when.call) || when.call < 1)) {
        add(fieldOf.when(agent, i, "call"), "error", "The call number counts from 1 (the agent's first model call).");
      }
      for (const f of ["fact_present", "fact_absent"] as const) {
        const id = when[f];
        if (id && !facts.has(id)) add(fieldOf.when(agent, i, f), "error", `No pinned fact has the id '${id}' (facts: ${quoteList([...facts])}).`);
      }
      const calls = r.calls ?? [];
      if (!r.say && !r.reasoning && calls.length === 0) {
        add(fieldOf.rule(agent, i), "error", "This rule answers nothing: give it a reply, a reasoning or a call (the run fails at it).");
      }
      calls.forEach((c, j) => {
        const why = unknownToolReason(t, agent, c.tool);
        if (why) add(fieldOf.call(agent, i, j, "tool"), "error", why);
        if (c.args !== undefined && c.args !== null && (typeof c.args !== "object" || Array.isArray(c.args))) {
          add(fieldOf.call(agent, i, j, "args"), "error", "Arguments are a JSON object, e.g. {\"ticket\": \"4812\"}.");
        }
      });
    });
  }
  const entry = t.agents.find((a) => a.id === t.entry);
  if (entry && agentKind(entry) !== "human" && !(scripts[entry.id]?.length)) {
    add(fieldOf.script(entry.id), "warning", `${name(t, entry.id)} is the entry agent and has no rules: without real providers the run fails at its first call.`);
  }
  return out;
}

/**
 * The scenario of a run started from a typed message: the message as its input, the mock rules
 * of `base` (so mock agents answer as in that scenario), no prior history; named so that it
 * collides with no scenario of the topology.
 */
export function adHocScenario(t: Topology, input: string, base?: Scenario): Scenario {
  const s: Scenario = { name: uniqueScenarioName(t, "message"), input };
  if (base?.scripts && Object.keys(base.scripts).length) s.scripts = base.scripts;
  return s;
}

/** The topology a typed message runs on: `t` with the ad-hoc scenario appended. */
export function withAdHocScenario(t: Topology, s: Scenario): Topology {
  return { ...t, scenarios: [...(t.scenarios ?? []), s] };
}

/**
 * The agents a mock run of `s` would reach without a rule to answer with (people excepted): in
 * topology order. Without `s`, every such agent.
 */
export function agentsWithoutRules(t: Topology, s: Scenario | null | undefined): string[] {
  return t.agents.filter((a) => agentKind(a) !== "human" && !(s?.scripts?.[a.id]?.length)).map((a) => a.id);
}

/**
 * Default mock rules for an agent, so a new topology runs before anyone writes a script: an agent
 * with transfers takes its first one on its first call and then answers; one without answers at
 * once. The answers say they are defaults.
 */
export function defaultRules(t: Topology, agent: string): MockRule[] {
  const name = t.agents.find((a) => a.id === agent)?.name ?? agent;
  const transfer = agentTools(t, agent).find((x) => x.kind !== "tool");
  const answer: MockRule = { say: `${name} (default mock rule): answered. Write rules for ${name} in the scenario to script what it does.` };
  return transfer ? [{ when: { call: 1 }, calls: [{ tool: transfer.name }] }, answer] : [answer];
}

/** `s` with default rules for every agent that has none (see {@link defaultRules}). */
export function withDefaultRules(t: Topology, s: Scenario): Scenario {
  return agentsWithoutRules(t, s).reduce((cur, agent) => setRules(cur, agent, defaultRules(t, agent)), s);
}

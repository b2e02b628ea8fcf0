// Forks in the window's terms: the fork dialog's choices turned into the `ForkSpec` fork_run takes
// (only what differs from the run), what is wrong with them, and a fork's divergence in words.
import type { Divergence } from "../bindings/Divergence";
import type { ForkSpec } from "../bindings/ForkSpec";
import type { Then } from "../bindings/Then";

/** What the run had, which a choice must differ from to count as a change. */
export type ForkBase = {
  /** Handoff edge id → its policy label in the run (`full`, `fields(ticket,status)`…). */
  policies: Record<string, string>;
  /** Agent id → `provider:model` in the run. */
  models: Record<string, string>;
  /** Agent id → its instructions in the run. */
  instructions: Record<string, string>;
  maxTurns: number | null;
};

/** The dialog's fields as the user left them. */
export type ForkChoices = {
  at: number;
  /** Edge id → the chosen policy label. */
  policies: Record<string, string>;
  /** Agent id → the typed `provider:model` (blank: unchanged). */
  models: Record<string, string>;
  /** Agent id → the instructions as edited. */
  instructions: Record<string, string>;
  /** Context items ticked to drop. */
  drop: Iterable<string>;
  /** Pinned facts ticked to restore. */
  restore: Iterable<string>;
  /** The typed max turns (blank: unchanged). */
  maxTurns: string;
  then: Then;
};

export const THEN_CHOICES: readonly { then: Then; label: string; help: string }[] = [
  { then: "mock", label: "Mock", help: "From the first changed call on, the scenario's mock scripts answer (no tokens)." },
  { then: "replay", label: "Replay only", help: "The fork stops at the first changed call: it shows where the run would leave the recording." },
  { then: "live", label: "Real providers", help: "From the first changed call on, each agent's configured provider answers (uses keys, costs tokens)." },
];

/** The policy labels a handoff can be given (the backend parses these: `ContextPolicy::parse_label`). */
export const POLICY_LABELS: readonly string[] = ["full", "remove_tools", "nest_summary", "none", "last_n(1)", "last_n(3)", "last_n(5)"];

/** The choices for one edge: its own policy first, then the usual ones. */
export function policyOptions(current: string): string[] {
  return [current, ...POLICY_LABELS.filter((p) => p !== current)];
}

const same = (a: string | undefined, b: string | undefined) => (a ?? "").trimEnd() === (b ?? "").trimEnd();

/** The spec fork_run takes: each field holds only what differs from the run. */
export function forkSpec(choices: ForkChoices, base: ForkBase): ForkSpec {
  const policies: Record<string, string> = {};
  for (const [edge, label] of Object.entries(choices.policies)) {
    if (label && label !== base.policies[edge]) policies[edge] = label;
  }
  const models: Record<string, string> = {};
  for (const [agent, typed] of Object.entries(choices.models)) {
    const m = typed.trim();
    if (m && m !== base.models[agent]) models[agent] = m;
  }
  const instructions: Record<string, string> = {};
  for (const [agent, text] of Object.entries(choices.instructions)) {
    if (!same(text, base.instructions[agent])) instructions[agent] = text;
  }
  const spec: ForkSpec = {
    at: choices.at,
    policies,
    models,
    instructions,
    drop: [...new Set(choices.drop)],
    restore: [...new Set(choices.restore)],
    put_back: [],
    then: choices.then,
  };
  const turns = choices.maxTurns.trim();
  if (turns && /^\d+$/.test(turns) && Number(turns) !== base.maxTurns) spec.max_turns = Number(turns);
  return spec;
}

/** Why the choices cannot be sent as they are (empty: they can). */
export function forkProblems(choices: ForkChoices, agentName: (id: string) => string = (id) => id): string[] {
  const out: string[] = [];
  for (const [agent, typed] of Object.entries(choices.models)) {
    const m = typed.trim();
    if (!m) continue;
    const [provider, model] = [m.slice(0, m.indexOf(":")), m.slice(m.indexOf(":") + 1)];
    if (!m.includes(":") || !provider.trim() || !model.trim()) {
      out.push(`Model of ${agentName(agent)}: write provider:model, e.g. openai:gpt-4o or mock:mock.`);
    }
  }
  const turns = choices.maxTurns.trim();
  if (turns && (!/^\d+$/.test(turns) || Number(turns) < 1)) out.push("Max turns: a whole number of at least 1.");
  return out;
}

/** True when the spec changes nothing: the fork would replay the recording to its end. */
export function changesNothing(spec: ForkSpec): boolean {
  return (
    Object.keys(spec.policies).length === 0 &&
    Object.keys(spec.models).length === 0 &&
    Object.keys(spec.instructions).length === 0 &&
    spec.drop.length === 0 &&
    spec.restore.length === 0 &&
    spec.put_back.length === 0 &&
    spec.max_turns === undefined
  );
}

/** A fork that gives one edge another policy at a transfer's step (the what-if's "Fork with this policy"). */
export function policyFork(at: number, edge: string, policy: string, then: Then = "mock"): ForkSpec {
  return { at, policies: { [edge]: policy }, models: {}, instructions: {}, drop: [], restore: [], put_back: [], then };
}

/** Where the fork left the recording, in words: "left the recording at call 1 of Verification: …". */
export function describeDivergence(d: Divergence | null, agentName: (id: string) => string): string {
  if (!d) return "replayed to the end unchanged: every call answered from the recording";
  const step = d.recorded_step !== null ? ` (recorded step ${d.recorded_step})` : "";
  return `left the recording at call ${d.call} of ${agentName(d.agent)}${step}: ${d.reason}`;
}

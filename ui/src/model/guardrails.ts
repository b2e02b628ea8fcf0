// Guardrails in the designer's terms: pure edits of `Topology.guardrails` (by index, as commit recipes), the check's kind and text, and when the SDK never runs one.
import type { Guardrail, GuardrailCheck, GuardrailOn, Topology } from "./types";

// A `custom` check (the user's own function, read by import-code) is kept as it is: the editor
// shows it and can only replace it with one of these.
export type CheckKind = "contains" | "regex" | "schema" | "agent";
export const CHECK_KINDS: readonly CheckKind[] = ["contains", "regex", "schema", "agent"];

/** Where a guardrail list belongs: an agent's id, or null for run-wide ones. */
export type GuardrailScope = string | null;

export function checkKind(c: GuardrailCheck): CheckKind | "custom" {
  if ("contains" in c) return "contains";
  if ("regex" in c) return "regex";
  if ("custom" in c) return "custom";
  if ("agent" in c) return "agent";
  return "schema";
}

/** The check's value as the user types it: the text or pattern, or the schema as JSON text. */
export function checkText(c: GuardrailCheck): string {
  if ("contains" in c) return c.contains;
  if ("regex" in c) return c.regex;
  if ("custom" in c) return c.custom;
  if ("agent" in c) return c.agent;
  return JSON.stringify(c.schema, null, 2);
}

/** A schema typed as JSON text: its value, or why it is not JSON (then the check is not changed). */
export function parseSchema(text: string): { ok: true; value: unknown } | { ok: false; reason: string } {
  try {
    const value: unknown = JSON.parse(text);
    if (value === null || typeof value !== "object" || Array.isArray(value)) return { ok: false, reason: "A JSON Schema is an object, e.g. {\"type\": \"object\"}." };
    return { ok: true, value };
  } catch (e) {
    return { ok: false, reason: `Not JSON: ${e instanceof Error ? e.message : String(e)}` };
  }
}

/** The check of another kind, keeping what can be kept (the text between contains and regex). */
export function withCheckKind(c: GuardrailCheck, kind: CheckKind): GuardrailCheck {
  if (checkKind(c) === kind) return c;
  const text = "contains" in c || "regex" in c ? checkText(c) : "";
  if (kind === "contains") return { contains: text };
  if (kind === "regex") return { regex: text };
  if (kind === "agent") return { agent: "" };
  return { schema: { type: "object" } };
}

/** The guardrails of one scope, each with its index in `Topology.guardrails`. */
export function guardrailsOf(t: Topology, scope: GuardrailScope): { g: Guardrail; index: number }[] {
  return (t.guardrails ?? []).flatMap((g, index) => ((g.agent ?? null) === scope ? [{ g, index }] : []));
}

function uniqueName(t: Topology, base: string): string {
  const taken = new Set((t.guardrails ?? []).map((g) => g.name));
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}_${n}`;
  return name;
}

/** A new input guardrail of `scope` (contains, empty text, beside the model call as the SDK defaults). */
export function addGuardrail(t: Topology, scope: GuardrailScope, on: GuardrailOn = "input"): Topology {
  const g: Guardrail = {
    name: uniqueName(t, on === "input" ? "input_guardrail" : "output_guardrail"),
    ...(scope !== null ? { agent: scope } : {}),
    on,
    check: { contains: "" },
    ...(on === "input" ? { run_in_parallel: true } : {}),
  };
  return { ...t, guardrails: [...(t.guardrails ?? []), g] };
}

export function updateGuardrail(t: Topology, index: number, fn: (g: Guardrail) => Guardrail): Topology {
  const list = t.guardrails ?? [];
  const old = list[index];
  if (!old) return t;
  const next = fn(old);
  if (next === old) return t;
  return { ...t, guardrails: list.map((g, i) => (i === index ? next : g)) };
}

/** On input or output: an output guardrail has no `run_in_parallel` (the SDK reads it on input ones only). */
export function setGuardrailOn(g: Guardrail, on: GuardrailOn): Guardrail {
  if (g.on === on) return g;
  const { run_in_parallel: _dropped, ...rest } = g;
  return on === "input" ? { ...rest, on, run_in_parallel: true } : { ...rest, on };
}

export function removeGuardrail(t: Topology, index: number): Topology {
  const list = t.guardrails ?? [];
  if (!list[index]) return t;
  const next = list.filter((_, i) => i !== index);
  const { guardrails: _old, ...rest } = t;
  return next.length ? { ...t, guardrails: next } : rest;
}

/** Why the SDK never runs this guardrail (an input one on an agent that is not the entry), or null. */
export function neverRuns(t: Topology, g: Guardrail): string | null {
  if (g.on !== "input" || g.agent === undefined || g.agent === t.entry) return null;
  return `Never runs: the Agents SDK checks input guardrails on the starting agent only (here ${t.entry || "none"}), not on an agent that receives a handoff.`;
}

/** One line for a guardrail: "input · contains 'refund'". */
export function guardrailSummary(g: Guardrail): string {
  const kind = checkKind(g.check);
  const what = kind === "schema" ? "JSON Schema" : `${kind} '${checkText(g.check)}'`;
  return `${g.on} · ${what}`;
}

/** The canvas badge of an agent: its guardrails' counts and a title listing them; null without any. */
export function guardrailBadge(t: Topology, agent: string): { input: number; output: number; title: string } | null {
  const own = guardrailsOf(t, agent).map(({ g }) => g);
  if (own.length === 0) return null;
  const input = own.filter((g) => g.on === "input").length;
  const title = ["Guardrails:", ...own.map((g) => `${g.name} (${guardrailSummary(g)})${neverRuns(t, g) ? " — never runs: not the entry agent" : ""}`)].join("\n");
  return { input, output: own.length - input, title };
}

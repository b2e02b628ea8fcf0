// Pure operations on a topology. Every function returns a new value and never mutates its input,
// so the store can keep old values as undo snapshots.
import { CATALOG } from "../bindings/commands";
import type {
  Agent,
  AgentKind,
  ContextPolicy,
  Edge,
  EdgeKind,
  Position,
  Provider,
  Topology,
} from "./types";

/** Every provider and its label, from the generated catalog (the Rust core's one list). */
export const PROVIDERS: readonly Provider[] = CATALOG.providers.map((c) => c.value);

export const PROVIDER_LABELS = Object.fromEntries(CATALOG.providers.map((c) => [c.value, c.label])) as Record<Provider, string>;

export const AGENT_KINDS: readonly AgentKind[] = ["agent", "supervisor", "human"];

/** An edge's id, as the backend fills it when missing. */
export function edgeId(e: Edge): string {
  return e.id !== undefined && e.id !== "" ? e.id : `${e.from}->${e.to}`;
}

export function agentKind(a: Agent): AgentKind {
  return a.kind ?? "agent";
}

/** Fills missing edge ids like the backend does: `<from>-><to>`, then `#2`, `#3`… when taken. */
export function normalizeTopology(t: Topology): Topology {
  if (t.edges.every((e) => e.id !== undefined && e.id !== "")) return t;
  const taken = new Set(t.edges.filter((e) => e.id).map((e) => e.id as string));
  const edges = t.edges.map((e) => {
    if (e.id) return e;
    const id = nextEdgeId(taken, e.from, e.to);
    taken.add(id);
    return { ...e, id };
  });
  return { ...t, edges };
}

function nextEdgeId(taken: Set<string>, from: string, to: string): string {
  const base = `${from}->${to}`;
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const id = `${base}#${n}`;
    if (!taken.has(id)) return id;
  }
}

/** A fresh edge id for `from → to` in this topology. */
export function uniqueEdgeId(t: Topology, from: string, to: string): string {
  return nextEdgeId(new Set(t.edges.map(edgeId)), from, to);
}

/** `Technical Support` → `technical_support`, as the SDK derives tool names. */
export function snakeCase(name: string): string {
  return name.replace(/[^A-Za-z0-9]/g, "_").toLowerCase();
}

/** The tool name the source's model sees when the edge has none of its own. */
export function defaultToolName(t: Topology, e: Pick<Edge, "kind" | "to">): string {
  const target = t.agents.find((a) => a.id === e.to);
  const snake = snakeCase(target?.name ?? e.to);
  return e.kind === "handoff" ? `transfer_to_${snake}` : snake;
}

/** `last_n(3)`, `fields(ticket,status)`, `full`… as the backend labels policies. */
export function policyLabel(p: ContextPolicy | undefined): string {
  if (p === undefined) return "full";
  if (typeof p === "string") return p;
  if ("last_n" in p) return `last_n(${p.last_n})`;
  if ("custom" in p) return `custom(${p.custom})`;
  return `fields(${p.fields.map((f) => f.name).join(",")})`;
}

/** The label drawn on an edge. */
export function edgeLabel(e: Edge): string {
  return e.kind === "handoff" ? `handoff · ${policyLabel(e.policy)}` : "delegates";
}

export type PolicyChoice = "full" | "remove_tools" | "last_n" | "nest_summary" | "none" | "fields" | "custom";
export const POLICY_CHOICES: readonly PolicyChoice[] = [
  "full",
  "remove_tools",
  "last_n",
  "nest_summary",
  "none",
  "fields",
];
export const POLICY_HELP: Record<PolicyChoice, string> = {
  full: "The whole history crosses (the default everywhere).",
  remove_tools: "History without tool calls and results.",
  last_n: "Only the last N history items.",
  nest_summary: "The transcript collapsed into one summary message.",
  none: "Nothing but the target's own instructions.",
  fields: "A structured input: only the named fields cross.",
  custom: "A filter function of the imported code. Baton cannot run it: runs carry the whole history.",
};

export function policyChoice(p: ContextPolicy | undefined): PolicyChoice {
  if (p === undefined) return "full";
  if (typeof p === "string") return p;
  if ("custom" in p) return "custom";
  return "last_n" in p ? "last_n" : "fields";
}

/** The policy for a choice, keeping parameters of the previous one when they fit. */
export function policyFor(choice: PolicyChoice, prev: ContextPolicy | undefined): ContextPolicy {
  switch (choice) {
    case "last_n":
      return { last_n: prev && typeof prev === "object" && "last_n" in prev ? prev.last_n : 3 };
    case "fields":
      return {
        fields:
          prev && typeof prev === "object" && "fields" in prev
            ? prev.fields
            : [{ name: "summary", type: "string" }],
      };
    case "custom":
      return prev && typeof prev === "object" && "custom" in prev ? prev : "full";
    default:
      return choice;
  }
}

/** Lowercase, dash-separated id material from a display name. */
export function slugify(name: string): string {
  const s = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return s === "" ? "agent" : s;
}

export function uniqueAgentId(t: Topology, base: string): string {
  const taken = new Set(t.agents.map((a) => a.id));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const id = `${base}-${n}`;
    if (!taken.has(id)) return id;
  }
}

function uniqueAgentName(t: Topology, base: string): string {
  const taken = new Set(t.agents.map((a) => a.name));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const name = `${base} ${n}`;
    if (!taken.has(name)) return name;
  }
}

const KIND_NAMES: Record<AgentKind, string> = { agent: "Agent", supervisor: "Supervisor", human: "Human" };

/** Adds an agent; returns the new topology and the new id. The first agent becomes the entry. */
export function addAgent(
  t: Topology,
  opts: { kind?: AgentKind; position?: Position; name?: string } = {},
): [Topology, string] {
  const kind = opts.kind ?? "agent";
  const name = uniqueAgentName(t, opts.name ?? KIND_NAMES[kind]);
  const id = uniqueAgentId(t, slugify(name));
  const agent: Agent =
    kind === "human"
      ? { id, name, kind, instructions: "", model: null, tools: [] }
      : { id, name, kind, instructions: "", model: { provider: "mock", name: "mock" }, tools: [] };
  const layout = opts.position ? { ...(t.layout ?? {}), [id]: opts.position } : t.layout;
  return [
    { ...t, agents: [...t.agents, agent], entry: t.agents.length === 0 ? id : t.entry, layout },
    id,
  ];
}

/** Adds an edge with a fresh id; returns the new topology and the id. */
export function addEdge(t: Topology, from: string, to: string, kind: EdgeKind): [Topology, string] {
  const id = uniqueEdgeId(t, from, to);
  const edge: Edge = { id, kind, from, to };
  return [{ ...t, edges: [...t.edges, edge] }, id];
}

export function updateAgent(t: Topology, id: string, fn: (a: Agent) => Agent): Topology {
  return { ...t, agents: t.agents.map((a) => (a.id === id ? fn(a) : a)) };
}

export function updateEdge(t: Topology, id: string, fn: (e: Edge) => Edge): Topology {
  return { ...t, edges: t.edges.map((e) => (edgeId(e) === id ? fn(e) : e)) };
}

/** Changes an edge's kind; a delegation carries no policy. */
export function setEdgeKind(e: Edge, kind: EdgeKind): Edge {
  if (kind === e.kind) return e;
  const { policy: _policy, ...rest } = e;
  return kind === "delegation" ? { ...rest, kind } : { ...e, kind };
}

/** Changes an agent's kind; humans have no model, others get a mock model when they had none. */
export function setAgentKind(a: Agent, kind: AgentKind): Agent {
  if (kind === "human") return { ...a, kind, model: null };
  return { ...a, kind, model: a.model ?? { provider: "mock", name: "mock" } };
}

export function removeEdges(t: Topology, ids: readonly string[]): Topology {
  if (ids.length === 0) return t;
  const gone = new Set(ids);
  return { ...t, edges: t.edges.filter((e) => !gone.has(edgeId(e))) };
}

/** Removes agents and everything that names them: edges, layout, fact holders, scripts, guards, their guardrails. */
export function removeAgents(t: Topology, ids: readonly string[]): Topology {
  if (ids.length === 0) return t;
  const gone = new Set(ids);
  const agents = t.agents.filter((a) => !gone.has(a.id));
  const layout = t.layout
    ? Object.fromEntries(Object.entries(t.layout).filter(([k]) => !gone.has(k)))
    : t.layout;
  const facts = t.facts?.map((f) => ({ ...f, holders: (f.holders ?? []).filter((h) => !gone.has(h)) }));
  const scenarios = t.scenarios?.map((s) =>
    s.scripts
      ? { ...s, scripts: Object.fromEntries(Object.entries(s.scripts).filter(([k]) => !gone.has(k))) }
      : s,
  );
  const escalate = t.guards.escalate_to;
  return {
    ...t,
    agents,
    edges: t.edges.filter((e) => !gone.has(e.from) && !gone.has(e.to)),
    entry: gone.has(t.entry) ? (agents[0]?.id ?? "") : t.entry,
    layout,
    facts,
    scenarios,
    guards: escalate && gone.has(escalate) ? { ...t.guards, escalate_to: null } : t.guards,
    ...(t.guardrails ? { guardrails: t.guardrails.filter((g) => g.agent === undefined || !gone.has(g.agent)) } : {}),
  };
}

export type RenameCheck = { ok: true } | { ok: false; reason: string };

const ID_RE = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

export function checkAgentId(t: Topology, oldId: string, newId: string): RenameCheck {
  if (newId === oldId) return { ok: true };
  if (newId.trim() === "") return { ok: false, reason: "An id cannot be empty." };
  if (!ID_RE.test(newId)) return { ok: false, reason: "Use letters, digits, '_', '-' and '.' only." };
  if (t.agents.some((a) => a.id === newId)) return { ok: false, reason: `'${newId}' is taken.` };
  return { ok: true };
}

/**
 * Renames an agent id everywhere it is referenced. Edge ids that follow the default scheme
 * (`<from>-><to>`, optionally `#n`) are renamed with it; custom edge ids stay.
 */
export function renameAgent(t: Topology, oldId: string, newId: string): Topology {
  if (oldId === newId || !checkAgentId(t, oldId, newId).ok) return t;
  const r = (id: string) => (id === oldId ? newId : id);
  const taken = new Set<string>();
  const edges = t.edges.map((e) => {
    if (e.from !== oldId && e.to !== oldId) return e;
    const id = edgeId(e);
    const base = `${e.from}->${e.to}`;
    const isDefault = id === base || id.startsWith(`${base}#`);
    const next: Edge = { ...e, from: r(e.from), to: r(e.to) };
    if (isDefault) next.id = `${next.from}->${next.to}${id.slice(base.length)}`;
    taken.add(edgeId(next));
    return next;
  });
  const layout = t.layout
    ? Object.fromEntries(Object.entries(t.layout).map(([k, v]) => [r(k), v]))
    : t.layout;
  return {
    ...t,
    entry: r(t.entry),
    agents: t.agents.map((a) => (a.id === oldId ? { ...a, id: newId } : a)),
    edges,
    layout,
    facts: t.facts?.map((f) => ({ ...f, holders: f.holders?.map(r) })),
    scenarios: t.scenarios?.map((s) =>
      s.scripts ? { ...s, scripts: Object.fromEntries(Object.entries(s.scripts).map(([k, v]) => [r(k), v])) } : s,
    ),
    guards: t.guards.escalate_to ? { ...t.guards, escalate_to: r(t.guards.escalate_to) } : t.guards,
    ...(t.guardrails ? { guardrails: t.guardrails.map((g) => (g.agent === oldId ? { ...g, agent: newId } : g)) } : {}),
  };
}

/** Agents without a position in the layout. */
export function unplacedAgents(t: Topology): string[] {
  return t.agents.filter((a) => !t.layout?.[a.id]).map((a) => a.id);
}

export function setPositions(t: Topology, positions: Record<string, Position>): Topology {
  return { ...t, layout: { ...(t.layout ?? {}), ...positions } };
}

/** The longest simple chain of handoffs starting at the entry agent (edge ids, in order). */
export function longestHandoffChain(t: Topology): string[] {
  let best: string[] = [];
  const walk = (agent: string, visited: Set<string>, path: string[]) => {
    if (path.length > best.length) best = path;
    for (const e of t.edges) {
      if (e.kind !== "handoff" || e.from !== agent || visited.has(e.to)) continue;
      visited.add(e.to);
      walk(e.to, visited, [...path, edgeId(e)]);
      visited.delete(e.to);
    }
  };
  walk(t.entry, new Set([t.entry]), []);
  return best;
}

/** Orders selected handoff edges into a chain (each edge's target is the next one's source). */
export function orderChain(t: Topology, edgeIds: readonly string[]): string[] | null {
  const edges = edgeIds.map((id) => t.edges.find((e) => edgeId(e) === id));
  if (edges.some((e) => e === undefined || e.kind !== "handoff")) return null;
  const list = edges as Edge[];
  const targets = new Set(list.map((e) => e.to));
  const starts = list.filter((e) => !targets.has(e.from));
  if (starts.length !== 1) return null;
  const out: Edge[] = [starts[0] as Edge];
  while (out.length < list.length) {
    const last = out[out.length - 1] as Edge;
    const next = list.find((e) => e.from === last.to && !out.includes(e));
    if (!next) return null;
    out.push(next);
  }
  return out.map(edgeId);
}

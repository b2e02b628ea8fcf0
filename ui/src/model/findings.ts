// A lint finding as the Problems panel shows it: its message split into text and `code` runs,
// and the fix the UI can apply for the rules whose fix follows exactly from the finding.
import { addAgent, agentKind, edgeId, longestHandoffChain, removeEdges, setEdgeKind, updateAgent, updateEdge } from "./topology";
import type { Finding, Topology } from "./types";

export type TextRun = { text: string; code: boolean };

/**
 * `set \`entry\` to one` → text, code, text. A backtick without its pair stays as text, so
 * nothing of the message is lost.
 */
export function messageRuns(message: string): TextRun[] {
  const out: TextRun[] = [];
  const push = (text: string, code: boolean) => {
    if (text === "") return;
    const last = out[out.length - 1];
    if (last && last.code === code && !code) last.text += text;
    else out.push({ text, code });
  };
  let rest = message;
  for (;;) {
    const open = rest.indexOf("`");
    const close = open < 0 ? -1 : rest.indexOf("`", open + 1);
    if (open < 0 || close < 0) {
      push(rest, false);
      break;
    }
    push(rest.slice(0, open), false);
    if (close === open + 1) push("``", false);
    else push(rest.slice(open + 1, close), true);
    rest = rest.slice(close + 1);
  }
  return out;
}

/** A fix: an edit of the topology (one undo step), or the supervisor refactor of some edges. */
export type Fix =
  | { kind: "edit"; label: string; apply: (t: Topology) => Topology }
  | { kind: "refactor"; label: string; edges: string[] }
  | { kind: "choose-entry"; label: string; candidates: string[] };

/** Lint codes the UI can fix (some only for some findings of the rule: see `findingFix`). */
export const FIXABLE = [
  "missing-entry",
  "missing-agent",
  "human-outgoing-edge",
  "delegation-to-human",
  "missing-model",
  "escalate-without-human",
  "zero-limit",
  "verify-handoff",
  "fact-cannot-cross",
] as const;

const known = (t: Topology, ids: readonly string[]) => ids.filter((id) => t.edges.some((e) => edgeId(e) === id));

/** The fix for a finding, or null when the rule has none that follows exactly from the finding. */
export function findingFix(t: Topology, f: Finding): Fix | null {
  const edges = known(t, f.edges);
  switch (f.code) {
    case "missing-entry": {
      if (t.agents.length === 0) return null;
      // The agents nothing leads to are where a run can start; one of them is the entry.
      const targets = new Set(t.edges.map((e) => e.to));
      const roots = t.agents.filter((a) => !targets.has(a.id) && agentKind(a) !== "human").map((a) => a.id);
      const models = t.agents.filter((a) => agentKind(a) !== "human").map((a) => a.id);
      const candidates = roots.length > 0 ? roots : models.length > 0 ? models : t.agents.map((a) => a.id);
      if (candidates.length === 1) {
        const id = candidates[0] as string;
        const who = t.agents.find((a) => a.id === id)?.name || id;
        return { kind: "edit", label: `Make ${who} the entry`, apply: (x) => ({ ...x, entry: id }) };
      }
      return { kind: "choose-entry", label: "Set the entry…", candidates };
    }
    case "missing-agent":
    case "human-outgoing-edge":
      if (edges.length === 0) return null;
      return { kind: "edit", label: edges.length === 1 ? "Delete the edge" : `Delete ${edges.length} edges`, apply: (x) => removeEdges(x, edges) };
    case "delegation-to-human":
      if (edges.length === 0) return null;
      return {
        kind: "edit",
        label: "Make it a handoff",
        apply: (x) => edges.reduce((acc, id) => updateEdge(acc, id, (e) => setEdgeKind(e, "handoff")), x),
      };
    case "missing-model": {
      const ids = f.agents.filter((id) => t.agents.some((a) => a.id === id && !a.model && agentKind(a) !== "human"));
      if (ids.length === 0) return null;
      return {
        kind: "edit",
        label: "Set the mock model",
        apply: (x) => ids.reduce((acc, id) => updateAgent(acc, id, (a) => ({ ...a, model: { provider: "mock", name: "mock" } })), x),
      };
    }
    case "escalate-without-human": {
      if (t.guards.on_revisit !== "escalate") return null;
      const human = t.agents.find((a) => agentKind(a) === "human");
      if (human) {
        return { kind: "edit", label: `Escalate to ${human.name || human.id}`, apply: (x) => ({ ...x, guards: { ...x.guards, escalate_to: human.id } }) };
      }
      return {
        kind: "edit",
        label: "Add a human to escalate to",
        apply: (x) => {
          const [next, id] = addAgent(x, { kind: "human", position: freeSpot(x) });
          return { ...next, guards: { ...next.guards, escalate_to: id } };
        },
      };
    }
    case "zero-limit":
      // max_handoffs: 0 says "remove it"; last_n: 0 says "use none"; max_turns: 0 has no exact value.
      if (edges.length > 0) {
        return {
          kind: "edit",
          label: "Use the policy none",
          apply: (x) => edges.reduce((acc, id) => updateEdge(acc, id, (e) => ({ ...e, policy: "none" })), x),
        };
      }
      if (t.guards.max_handoffs === 0 && /max_handoffs/.test(f.message)) {
        return { kind: "edit", label: "Remove the handoff limit", apply: (x) => ({ ...x, guards: { ...x.guards, max_handoffs: null } }) };
      }
      return null;
    // A fact that cannot cross a handoff stays with a supervisor that never hands off.
    case "fact-cannot-cross":
    case "verify-handoff": {
      if (edges.length === 0) return null;
      // The chain from the entry that holds the edge, as the top bar's refactor picks it.
      const chain = longestHandoffChain(t);
      return { kind: "refactor", label: "Refactor to a supervisor", edges: edges.every((id) => chain.includes(id)) ? chain : edges };
    }
    default:
      return null;
  }
}

/** Below every placed agent, left-aligned: where a fix puts the agent it adds. */
function freeSpot(t: Topology): { x: number; y: number } {
  const ps = Object.values(t.layout ?? {});
  if (ps.length === 0) return { x: 0, y: 0 };
  return { x: Math.min(...ps.map((p) => p.x)), y: Math.max(...ps.map((p) => p.y)) + 180 };
}

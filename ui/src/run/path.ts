// The path a run took over its topology (pure): how often each agent got the conversation, how
// often each edge was crossed and which facts were lost on it, and the transfers the topology's
// edges do not hold (a guard's escalation to a human), so the graph can draw them too.
import type { Steps } from "./steps";
import type { EdgeKind, TransferBrief } from "./types";

export type EdgeUse = {
  /** Crossings, the transfers that crossed it and the steps they happened at. */
  count: number;
  transfers: number[];
  steps: number[];
  /** Facts lost crossing it (each once). */
  lost: string[];
};

export type ExtraEdge = EdgeUse & {
  /** `run:<kind>:<from>-><to>`: never an id of the topology. */
  id: string;
  kind: EdgeKind;
  from: string;
  to: string;
  /** A guard's escalation (a handoff with no edge); otherwise an edge the topology lacks. */
  escalation: boolean;
};

export type RunPath = {
  /** Per agent: times it got the conversation (the entry counts once, then each transfer to it), steps it acted at. */
  agents: Map<string, { visits: number; steps: number }>;
  /** Per edge id of the topology. */
  edges: Map<string, EdgeUse>;
  extra: ExtraEdge[];
};

const newUse = (): EdgeUse => ({ count: 0, transfers: [], steps: [], lost: [] });

function add(u: EdgeUse, t: TransferBrief) {
  u.count++;
  u.transfers.push(t.index);
  u.steps.push(t.step);
  for (const f of t.facts) if (f.status === "lost" && !u.lost.includes(f.id)) u.lost.push(f.id);
}

export function runPath(edgeIds: ReadonlySet<string>, steps: Steps, transfers: readonly TransferBrief[]): RunPath {
  const agents = new Map<string, { visits: number; steps: number }>();
  const agent = (id: string) => {
    let a = agents.get(id);
    if (!a) agents.set(id, (a = { visits: 0, steps: 0 }));
    return a;
  };
  const first = steps.at(0);
  // The entry agent gets the conversation from the user (the first step's owner before any transfer).
  if (first) agent(first.transfer !== null ? (transfers.find((t) => t.index === first.transfer)?.from ?? first.owner) : first.owner).visits++;
  // Steps per agent, counted on the agent column; agents added in the order they first act.
  const perName = new Array<number>(steps.names.length).fill(0);
  const order: number[] = [];
  for (let i = 0; i < steps.length; i++) {
    const a = steps.agent[i] as number;
    if (perName[a]++ === 0) order.push(a);
  }
  for (const a of order) agent(steps.names[a] as string).steps += perName[a] as number;

  const edges = new Map<string, EdgeUse>();
  const extra = new Map<string, ExtraEdge>();
  for (const t of [...transfers].sort((a, b) => a.step - b.step)) {
    agent(t.to).visits++;
    if (t.edge && edgeIds.has(t.edge)) {
      let u = edges.get(t.edge);
      if (!u) edges.set(t.edge, (u = newUse()));
      add(u, t);
    } else {
      const id = `run:${t.kind}:${t.from}->${t.to}`;
      let x = extra.get(id);
      if (!x) extra.set(id, (x = { ...newUse(), id, kind: t.kind, from: t.from, to: t.to, escalation: t.edge === "" }));
      add(x, t);
    }
  }
  return { agents, edges, extra: [...extra.values()] };
}

// The step's highlight on the debugger's canvas, read per node and edge (issue #32 item 2): the
// same owner, acting agent and transfer under way the whole drawing was derived with before.
import { describe, expect, it } from "vitest";
import type { Topology } from "../model/types";
import { Steps, type RunOverview, type StepBrief, type TransferBrief } from "../run/types";
import { activeEdgeOf, runMarkOf } from "./runHighlight";

const step = (index: number, agent: string, owner: string, transfer: number | null = null): StepBrief =>
  ({ index, kind: transfer === null ? "model_call" : "handoff", agent, owner, depth: 0, transfer, detail: "", tokens: null, context_len: null, start_ms: null, duration_ms: null }) as StepBrief;

const transfer = (index: number, at: number, from: string, to: string, edge: string): TransferBrief => ({
  index,
  step: at,
  kind: "handoff",
  from,
  to,
  edge,
  policy: "full",
  carried: 0,
  transformed: 0,
  dropped: 0,
  added: 0,
  facts: [],
});

const topology = { name: "t", entry: "a", agents: [], edges: [{ kind: "handoff", from: "a", to: "b" }] } as unknown as Topology;
// a → b over the topology's edge; b → a escalates to a human with no edge ("")
const overview = {
  steps: Steps.of([step(0, "a", "a"), step(1, "a", "a", 0), step(2, "b", "b"), step(3, "b", "b", 1), step(4, "a", "a")]),
  transfers: [transfer(0, 1, "a", "b", "a->b"), transfer(1, 3, "b", "a", "")],
} as unknown as RunOverview;
const at = (cursor: number) => ({ overview, topology, cursor });

describe("the debugger canvas's highlight by id", () => {
  it("marks the owner and the acting agent, the others dim; one object per highlight", () => {
    const s = { overview: { ...overview, steps: Steps.of([step(0, "worker", "boss")]) } as RunOverview, cursor: 0 };
    expect(runMarkOf(s, "boss")).toEqual({ owner: true, acting: false, dim: false });
    expect(runMarkOf(s, "worker")).toEqual({ owner: false, acting: true, dim: false });
    expect(runMarkOf(s, "other")).toEqual({ owner: false, acting: false, dim: true });
    expect(runMarkOf(at(0), "a")).toEqual({ owner: true, acting: true, dim: false });
    expect(runMarkOf(at(0), "a")).toBe(runMarkOf(at(4), "a"));
    expect(runMarkOf({ overview: null, cursor: 0 }, "a")).toBeUndefined();
  });

  it("finds the edge under way: the topology's (keyed by the step) or the one drawn for a transfer it has no edge for", () => {
    expect(activeEdgeOf(at(0))).toBeNull();
    expect(activeEdgeOf(at(1))).toEqual({ id: "a->b", key: 1 });
    expect(activeEdgeOf(at(2))).toBeNull();
    expect(activeEdgeOf(at(3))).toEqual({ id: "run:handoff:b->a", key: "b->a" });
    // asked again for the same step (by every edge): the same answer
    expect(activeEdgeOf(at(3))).toBe(activeEdgeOf(at(3)));
  });
});

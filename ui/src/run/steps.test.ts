// The overview's steps by column: decoded from the backend's columns, a step's brief built once,
// a growing run's tail joined on, and two overviews compared without building briefs.
import { describe, expect, it } from "vitest";
import type { StepColumns } from "../bindings/StepColumns";
import { briefsOf, Steps } from "./steps";
import type { StepBrief } from "./types";

const brief = (index: number, agent: string, over: Partial<StepBrief> = {}): StepBrief => ({
  index,
  kind: "model_call",
  agent,
  owner: agent,
  depth: 0,
  transfer: null,
  detail: `step ${index}`,
  tokens: null,
  context_len: index + 2,
  start_ms: index * 10,
  duration_ms: 5,
  ...over,
});

// What the backend sends for triage (0), a handoff to billing (1) and billing's "thinks" (2), its
// third step's time not recorded: written out by hand, as the Rust type documents it.
const WIRE: StepColumns = {
  first: 0,
  names: ["triage", "billing"],
  kinds: ["model_call", "handoff", "final"],
  kind: [0, 1, 2],
  agent: [0, 0, 1],
  owner: [0, 0, 1],
  depth: [0, 0, 0],
  transfer: [null, 0, null],
  details: ["thinks", "transfer_to_billing"],
  detail: [0, 1, 0],
  tokens: [120, null, null],
  context_len: [2, 4, null],
  start_ms: [0, 400, null],
  duration_ms: [400, 0, null],
};

describe("steps by column", () => {
  it("decodes the backend's columns into the briefs they stand for", () => {
    const s = Steps.from(WIRE);
    expect(s.length).toBe(3);
    expect(s.at(1)).toEqual({ index: 1, kind: "handoff", agent: "triage", owner: "triage", depth: 0, transfer: 0, detail: "transfer_to_billing", tokens: null, context_len: 4, start_ms: 400, duration_ms: 0 });
    expect(s.at(2)).toMatchObject({ agent: "billing", kind: "final", detail: "thinks", tokens: null, context_len: null, start_ms: null, duration_ms: null });
    expect(s.at(0)?.tokens).toBe(120);
    expect(s.at(3)).toBeUndefined();
    expect(s.at(-1)).toBeUndefined();
    expect(s.timeAt(0)).toEqual({ start: 0, end: 400 });
    expect(s.timeAt(2)).toBeNull();
    expect(s.contextLenAt(2)).toBeNull();
    expect(s.actingAgents()).toEqual(["triage", "billing"]);
  });

  it("builds a step's brief once: the same object each time (React selectors compare by identity)", () => {
    const s = Steps.from(WIRE);
    expect(s.at(1)).toBe(s.at(1));
  });

  it("round-trips briefs, agent ids and kinds kept once", () => {
    const briefs = [brief(0, "a"), brief(1, "b", { kind: "handoff", transfer: 0, owner: "a" }), brief(2, "b"), brief(3, "a", { tokens: 7 })];
    const s = Steps.of(briefs);
    expect(s.names).toEqual(["a", "b"]);
    expect(s.kinds).toEqual(["model_call", "handoff"]);
    expect(briefsOf(s)).toEqual(briefs);
    expect(Steps.from(s.toColumns()).at(3)).toEqual(briefs[3]);
  });

  it("joins a tail after the steps it keeps; kept briefs stay the same objects; new agents join the table", () => {
    const prev = Steps.of([brief(0, "a"), brief(1, "a"), brief(2, "a", { detail: "still running" })]);
    const kept = prev.at(1);
    const tail = Steps.of([brief(2, "a", { detail: "done" }), brief(3, "c", { kind: "final" })]);
    const next = prev.spliced(2, tail);
    expect(briefsOf(next).map((b) => [b.index, b.agent, b.detail, b.kind])).toEqual([
      [0, "a", "step 0", "model_call"],
      [1, "a", "step 1", "model_call"],
      [2, "a", "done", "model_call"],
      [3, "c", "step 3", "final"],
    ]);
    expect(next.at(1)).toBe(kept);
    expect(next.names).toEqual(["a", "c"]);
  });

  it("compares a step across two overviews field by field", () => {
    const a = Steps.of([brief(0, "a"), brief(1, "a", { tokens: null })]);
    const same = Steps.of([brief(0, "a"), brief(1, "a", { tokens: null })]);
    const other = Steps.of([brief(0, "a"), brief(1, "a", { detail: "changed" })]);
    const moved = Steps.of([brief(0, "b"), brief(1, "a")]);
    expect(a.sameAt(1, same)).toBe(true);
    expect(a.sameAt(1, other)).toBe(false);
    expect(a.sameAt(0, moved)).toBe(false);
    expect(a.sameAt(2, same)).toBe(false);
  });
});

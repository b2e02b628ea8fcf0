// The debugger's pictures, checked against what a person reads in the example topologies
// (examples/*.yaml, replayed by the mock platform) and against hand-made runs.
import { describe, expect, it } from "vitest";
import { createMockRuns, RECORDED_RUNS } from "../platform/mock-runs";
import { barBox, contextSeries, factCell, factMap, nearestStep, niceTicks, thinned, waterfall } from "./charts";
import { callSummary, finishReason } from "./exchange";
import { runFacts } from "./facts";
import { runPath } from "./path";
import { filterSteps, kindCounts, neighbourVisible, NO_FILTER } from "./stepfilter";
import { briefsOf, Steps } from "./steps";
import { decodeOverview, type Step, type StepBrief, type TransferBrief } from "./types";

async function overview(name: string) {
  return decodeOverview(await createMockRuns().run_overview({ run_id: RECORDED_RUNS[name]!.summary.id }));
}

const edgeIds = (o: Awaited<ReturnType<typeof overview>>) => new Set((o.topology?.edges ?? []).map((e) => e.id || `${e.from}->${e.to}`));

describe("context size per step", () => {
  it("ticket-reopen: 13 items at resolution's handoff, 2 on verification's side (fields(ticket,status))", async () => {
    const o = await overview("ticket-reopen");
    const s = contextSeries(o.steps, o.transfers);
    expect(s.hasItems).toBe(true);
    // Resolution hands over: instructions, the pinned fact, the user's ticket, triage's reasoning,
    // message, transfer call and output (7 after the first handoff), its patch call and result,
    // its reasoning, message and transfer call, and that call's output: 13. Verification sees its
    // instructions and the structured {ticket, status} message: 2.
    const t1 = s.marks.find((m) => m.from === "resolution")!;
    expect(t1).toMatchObject({ step: 5, to: "verification", kind: "handoff", before: 13, after: 2, lost: ["resolved-meaning"], escalation: false });
    expect(s.biggestDrop?.transfer).toBe(t1.transfer);
    // The first handoff (policy full) keeps everything triage had (6) and adds resolution's
    // instructions and pinned fact, less triage's own instructions: 7.
    expect(s.marks[0]).toMatchObject({ step: 1, before: 6, after: 7, lost: [] });
    // a point half a step before each transfer holds the sender's count, and belongs to the transfer step
    const at = (x: number) => s.items[s.x.indexOf(x)];
    expect(at(4.5)).toBe(13);
    expect(at(5)).toBe(2);
    expect(s.stepOf[s.x.indexOf(4.5)]).toBe(5);
    // triage's first call sees its instructions and the user's ticket
    expect(at(0)).toBe(2);
    expect(s.maxItems).toBe(13);
    // tokens only at the six model calls (triage 1, resolution 2, verification 3)
    expect(s.tokens.filter((t) => t !== null)).toHaveLength(6);
  });

  it("a point picks the nearest step; a transfer's before-point picks the transfer", async () => {
    const o = await overview("ticket-reopen");
    const s = contextSeries(o.steps, o.transfers);
    expect(nearestStep(s, 4.6)).toBe(5);
    expect(nearestStep(s, 4.2)).toBe(4);
    expect(nearestStep(s, -3)).toBe(0);
    expect(nearestStep(s, 99)).toBe(11);
  });

  it("handoff-loop: the escalation to the human is a transfer with no edge", async () => {
    const o = await overview("handoff-loop");
    const s = contextSeries(o.steps, o.transfers);
    expect(s.marks.map((m) => [m.from, m.to, m.escalation])).toEqual([
      ["triage", "billing", false],
      ["billing", "technical", false],
      ["technical", "human", true],
    ]);
  });

  it("a store that kept no item counts says so (no items), tokens still shown", () => {
    const steps: StepBrief[] = [
      { index: 0, kind: "model_call", agent: "a", owner: "a", depth: 0, transfer: null, detail: "", tokens: 40, context_len: null, start_ms: null, duration_ms: null },
      { index: 1, kind: "final", agent: "a", owner: "a", depth: 0, transfer: null, detail: "", tokens: null, context_len: null, start_ms: null, duration_ms: null },
    ];
    const s = contextSeries(Steps.of(steps), []);
    expect(s.hasItems).toBe(false);
    expect(s.hasTokens).toBe(true);
    expect(s.items).toEqual([null, null]);
  });
});

describe("the fact × transfer map", () => {
  it("ticket-reopen: resolved-meaning added at triage → resolution (resolution holds it), lost at resolution → verification", async () => {
    const o = await overview("ticket-reopen");
    const m = factMap(runFacts(o.topology?.facts, o.transfers), o.transfers);
    expect(m.columns.map((t) => `${t.from}->${t.to}`)).toEqual(["triage->resolution", "resolution->verification"]);
    expect(m.rows).toHaveLength(1);
    expect(m.rows[0]!.fact.id).toBe("resolved-meaning");
    expect(m.rows[0]!.cells).toEqual(["added", "lost"]);
    expect(m.rows[0]!.lost).toBe(1);
  });

  it("ticket-supervisor: the supervisor's fact crosses each of its three delegations", async () => {
    const o = await overview("ticket-supervisor");
    const m = factMap(runFacts(o.topology?.facts, o.transfers), o.transfers);
    expect(m.columns.map((t) => t.to)).toEqual(["triage", "resolution", "verification"]);
    expect(m.rows[0]!.cells).toEqual(["carried", "carried", "carried"]);
  });

  it("a delegation that leaves a fact out withholds it (the caller keeps it); no check is 'not checked'", () => {
    expect(factCell("delegation", "lost")).toBe("withheld");
    expect(factCell("handoff", "lost")).toBe("lost");
    expect(factCell("handoff", "absent")).toBe("not_held");
    expect(factCell("handoff", undefined)).toBe("unchecked");
    const t = (index: number, kind: TransferBrief["kind"], facts: TransferBrief["facts"]): TransferBrief => ({
      index, step: index * 2 + 1, kind, from: "a", to: "b", edge: "a->b", policy: "full", carried: 0, transformed: 0, dropped: 0, added: 0, facts,
    });
    const m = factMap(
      [{ id: "f", text: "F", holders: ["a"] }, { id: "g", text: "G", holders: [] }],
      [t(0, "delegation", [{ id: "f", status: "lost" }, { id: "g", status: "absent" }]), t(1, "handoff", [{ id: "f", status: "transformed" }])],
    );
    expect(m.rows.map((r) => r.cells)).toEqual([["withheld", "transformed"], ["not_held", "unchecked"]]);
    expect(m.rows[0]!.lost).toBe(0);
  });
});

// A supervisor that delegates to triage: 0.4 s of its own call, a second for triage, then 0.8 s
// more: 2.2 s in all, as a person would lay it out on paper.
const timed = (index: number, kind: StepBrief["kind"], agent: string, depth: number, start: number | null, duration: number | null): StepBrief => ({
  index, kind, agent, owner: "supervisor", depth, transfer: kind === "delegation" ? 0 : null, detail: `${kind} ${agent}`, tokens: null,
  context_len: 1, start_ms: start, duration_ms: duration,
});
const DELEGATING = [
  timed(0, "model_call", "supervisor", 0, 0, 400),
  timed(1, "delegation", "triage", 1, 400, 0),
  timed(2, "model_call", "triage", 1, 400, 1000),
  timed(3, "final", "triage", 1, 1400, 0),
  timed(4, "delegation_return", "supervisor", 0, 1400, 0),
  timed(5, "model_call", "supervisor", 0, 1400, 800),
];

describe("the timing waterfall", () => {
  it("lays bars out from the run's start, with the delegation's span around its nested steps", () => {
    const w = waterfall(Steps.of(DELEGATING));
    expect(w.timed).toBe(6);
    expect(w.total).toBe(2200);
    expect(w.ticks).toEqual([0, 1000, 2000]);
    expect(w.rows.map((r) => r.depth)).toEqual([0, 1, 1, 1, 0, 0]);
    expect(w.rows[1]!.span).toEqual({ start: 400, end: 1400 });
    expect(w.rows[0]!.span).toBeNull();
    const b = barBox(w, w.rows[2]!.start!, w.rows[2]!.end!);
    expect(b.left).toBeCloseTo(400 / 2200);
    expect(b.width).toBeCloseTo(1000 / 2200);
  });

  it("a run whose steps kept no time has no extent (the panel says so)", async () => {
    const o = await overview("ticket-reopen");
    const w = waterfall(Steps.of(briefsOf(o.steps).map((s) => ({ ...s, start_ms: null, duration_ms: null }))));
    expect(w.timed).toBe(0);
    expect(w.total).toBe(0);
    expect(w.rows).toHaveLength(12);
    expect(w.rows.every((r) => r.start === null)).toBe(true);
  });

  it("steps with and without times: only the timed ones count; the origin is the earliest start", () => {
    const w = waterfall(Steps.of([timed(0, "model_call", "a", 0, 100, 50), timed(1, "tool_call", "a", 0, null, null), timed(2, "model_call", "a", 0, 300, 100)]));
    expect(w.timed).toBe(2);
    expect(w.origin).toBe(100);
    expect(w.total).toBe(300);
    expect(barBox(w, 300, 400)).toEqual({ left: 200 / 300, width: 100 / 300 });
  });

  it("ticks are 1, 2 or 5 times a power of ten", () => {
    expect(niceTicks(12)).toEqual([0, 5, 10]);
    expect(niceTicks(0.9)).toEqual([0, 0.2, 0.4, 0.6, 0.8]);
    expect(niceTicks(0)).toEqual([0]);
  });
});

describe("the path a run took", () => {
  it("handoff-loop: triage → billing → technical, the bounce back is stopped, the escalation to the human is drawn", async () => {
    const o = await overview("handoff-loop");
    const p = runPath(edgeIds(o), o.steps, o.transfers);
    expect(p.edges.get("triage->billing")?.count).toBe(1);
    expect(p.edges.get("billing->technical")?.count).toBe(1);
    // the guard stopped technical's hand-back to billing: never crossed
    expect(p.edges.get("technical->billing")).toBeUndefined();
    expect(p.extra).toHaveLength(1);
    expect(p.extra[0]).toMatchObject({ from: "technical", to: "human", kind: "handoff", escalation: true, count: 1, steps: [6] });
    expect(p.agents.get("human")).toEqual({ visits: 1, steps: 1 });
    expect(p.agents.get("triage")).toEqual({ visits: 1, steps: 1 });
    // technical: the handoff to it, its call, the guard
    expect(p.agents.get("technical")).toEqual({ visits: 1, steps: 3 });
  });

  it("ticket-reopen: each handoff crossed once; the fact lost on resolution → verification", async () => {
    const o = await overview("ticket-reopen");
    const p = runPath(edgeIds(o), o.steps, o.transfers);
    expect(p.edges.get("triage->resolution")).toMatchObject({ count: 1, lost: [] });
    expect(p.edges.get("resolution->verification")).toMatchObject({ count: 1, lost: ["resolved-meaning"], steps: [5] });
    expect(p.extra).toEqual([]);
    expect(p.agents.get("verification")?.steps).toBe(7);
  });

  it("ticket-supervisor: the supervisor keeps the conversation; each worker is visited once by delegation", async () => {
    const o = await overview("ticket-supervisor");
    const p = runPath(edgeIds(o), o.steps, o.transfers);
    expect(p.agents.get("supervisor")?.visits).toBe(1);
    for (const w of ["triage", "resolution", "verification"]) {
      expect(p.agents.get(w)?.visits).toBe(1);
      expect(p.edges.get(`supervisor->${w}`)?.count).toBe(1);
    }
  });
});

describe("the timeline's filter", () => {
  it("ticket-reopen: six model calls, three tools, two handoffs", async () => {
    const o = await overview("ticket-reopen");
    const only = (id: string) => briefsOf(filterSteps(o.steps, { query: "", kinds: new Set([id]) })).map((s) => s.index);
    expect(only("model")).toEqual([0, 2, 4, 6, 8, 10]);
    expect(only("tool")).toEqual([3, 7, 9]);
    expect(only("handoff")).toEqual([1, 5]);
    expect(Object.fromEntries(kindCounts(o.steps))).toMatchObject({ model: 6, tool: 3, handoff: 2, final: 1, delegation: 0, guard: 0 });
    expect(filterSteps(o.steps, NO_FILTER)).toBe(o.steps);
  });

  it("searches the detail, the agent (id or name) and the index", async () => {
    const o = await overview("ticket-reopen");
    const names: Record<string, string> = { triage: "Triage", resolution: "Resolution", verification: "Verification" };
    const q = (query: string, kinds: string[] = []) => briefsOf(filterSteps(o.steps, { query, kinds: new Set(kinds) }, (id) => names[id] ?? id)).map((s) => s.index);
    // "flag" is in patch_checkout's and check_flag's results and in the final answer
    expect(q("flag")).toEqual([3, 7, 11]);
    // every word must match: only patch_checkout's result speaks of the rollout
    expect(q("FLAG rollout")).toEqual([3]);
    expect(q("verification")).toEqual([5, 6, 7, 8, 9, 10, 11]);
    expect(q("verification", ["tool"])).toEqual([7, 9]);
    expect(q("#5")).toEqual([5]);
    expect(q("nothing-like-this")).toEqual([]);
  });

  it("steps to the next or previous visible step", () => {
    const vis = [{ index: 2 }, { index: 5 }, { index: 9 }] as StepBrief[];
    expect(neighbourVisible(vis, 5, 1)).toBe(9);
    expect(neighbourVisible(vis, 5, -1)).toBe(2);
    expect(neighbourVisible(vis, 3, -1)).toBe(2);
    expect(neighbourVisible(vis, 9, 1)).toBeNull();
  });
});

describe("a model call's summary", () => {
  const step = (exchange: Step["exchange"]): Step => ({
    index: 0, kind: "model_call", agent: "a", owner: "a", depth: 0, context: [], usage: { input_tokens: 120, output_tokens: 30 }, exchange,
  });

  it("Chat Completions: model and finish reason from the response, tokens from the step", () => {
    const s = callSummary(
      step({ request: { model: "gpt-4o-mini", messages: [] }, response: { model: "gpt-4o-mini-2024-07-18", choices: [{ finish_reason: "tool_calls" }], usage: { cost: 0.00042 } } }),
      { ...timed(0, "model_call", "a", 0, 0, 812) },
      "gpt-4o-mini",
    );
    expect(s).toMatchObject({ model: "gpt-4o-mini-2024-07-18", modelFrom: "exchange", finishReason: "tool_calls", inputTokens: 120, outputTokens: 30, cost: 0.00042, latencyMs: 812 });
  });

  it("Anthropic, Gemini and Responses name their finish differently", () => {
    expect(finishReason({ stop_reason: "end_turn" })).toBe("end_turn");
    expect(finishReason({ candidates: [{ finishReason: "STOP" }] })).toBe("STOP");
    expect(finishReason({ object: "response", status: "incomplete", incomplete_details: { reason: "max_output_tokens" }, output: [] })).toBe("incomplete: max_output_tokens");
  });

  it("a mock call has no exchange: the agent's model, no finish reason, no cost, no latency", () => {
    const s = callSummary(step(null), { index: 0, kind: "model_call", agent: "a", owner: "a", depth: 0, transfer: null, detail: "", tokens: 150, context_len: 3, start_ms: null, duration_ms: null }, "gpt-4o");
    expect(s).toMatchObject({ model: "gpt-4o", modelFrom: "topology", finishReason: null, cost: null, latencyMs: null, request: null, response: null });
  });
});

describe("a long run's chart is thinned for drawing", () => {
  // 100,000 made-up steps: context grows by one item a step and falls to 5 every 1,000 steps;
  // one spike of 90,000 items at step 77,777 and every 10th step a model call of 2x tokens.
  const steps: StepBrief[] = Array.from({ length: 100_000 }, (_, i) => ({
    index: i,
    kind: i % 10 === 0 ? "model_call" : "tool_call",
    agent: "a",
    owner: "a",
    depth: 0,
    transfer: null,
    detail: "",
    tokens: i % 10 === 0 ? 2 * (i % 1000) : null,
    context_len: i === 77_777 ? 90_000 : 5 + (i % 1000),
    start_ms: null,
    duration_ms: null,
  }));
  const full = contextSeries(Steps.of(steps), []);
  const thin = thinned(full);

  it("draws at most CHART_POINTS points, keeping the ends, every peak and dip", () => {
    expect(full.x.length).toBe(100_000);
    expect(thin.x.length).toBeLessThanOrEqual(8000);
    expect(thin.x[0]).toBe(0);
    expect(thin.x[thin.x.length - 1]).toBe(99_999);
    expect(Math.max(...(thin.items as number[]))).toBe(90_000);
    expect(thin.stepOf[thin.items.indexOf(90_000)]).toBe(77_777);
    expect(Math.min(...(thin.items as number[]))).toBe(5);
    expect(Math.max(...thin.tokens.filter((t): t is number => t !== null))).toBe(1980);
    // in order, and each point still says its step
    for (let i = 1; i < thin.x.length; i++) expect(thin.x[i] as number).toBeGreaterThan(thin.x[i - 1] as number);
    thin.x.forEach((x, i) => expect(thin.stepOf[i]).toBe(x));
  });

  it("leaves a short run as it is", () => {
    const short = contextSeries(Steps.of(steps.slice(0, 500)), []);
    expect(thinned(short)).toBe(short);
  });
});

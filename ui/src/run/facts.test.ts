import { describe, expect, it } from "vitest";
import { createMockRuns, RECORDED_RUNS } from "../platform/mock-runs";
import { factsAtStep, indexFacts, lastTransferAtOrBefore, runFacts } from "./facts";
import { decodeOverview, type TransferBrief } from "./types";

async function overview(name: string) {
  const runs = createMockRuns();
  return decodeOverview(await runs.run_overview({ run_id: RECORDED_RUNS[name]!.summary.id }));
}

const brief = (index: number, step: number, facts: TransferBrief["facts"]): TransferBrief => ({
  index,
  step,
  kind: "handoff",
  from: "a",
  to: "b",
  edge: "a->b",
  policy: "full",
  carried: 0,
  transformed: 0,
  dropped: 0,
  added: 0,
  facts,
});

describe("pinned facts through a run", () => {
  it("ticket-reopen: held before any transfer, added at the first handoff, lost at the second", async () => {
    const o = await overview("ticket-reopen");
    const facts = runFacts(o.topology?.facts, o.transfers);
    const idx = indexFacts(o.transfers);
    const at = (step: number) => factsAtStep(facts, idx, step)[0]!;
    expect(at(0)).toMatchObject({ status: "held", transfer: null });
    expect(at(0).fact.holders).toEqual(["resolution"]);
    expect(at(1)).toMatchObject({ status: "added", transfer: { index: 0 } });
    expect(at(4)).toMatchObject({ status: "added", transfer: { index: 0 } });
    expect(at(5)).toMatchObject({ status: "lost", transfer: { index: 1, from: "resolution", to: "verification" } });
    expect(at(11).status).toBe("lost");
    expect(at(0).lostAt.map((t) => t.step)).toEqual([5]);
  });

  it("ticket-supervisor: carried at every delegation, never lost", async () => {
    const o = await overview("ticket-supervisor");
    const facts = runFacts(o.topology?.facts, o.transfers);
    const idx = indexFacts(o.transfers);
    for (let s = 0; s < o.steps.length; s++) {
      const f = factsAtStep(facts, idx, s)[0]!;
      expect(f.lostAt).toEqual([]);
      expect(["held", "carried"]).toContain(f.status);
    }
    expect(factsAtStep(facts, idx, o.steps.length - 1)[0]!.status).toBe("carried");
  });

  it("a fact lost, then found again, reports the status of the latest transfer and every loss", () => {
    const ts = [brief(0, 2, [{ id: "f", status: "lost" }]), brief(1, 6, [{ id: "f", status: "carried" }]), brief(2, 9, [{ id: "f", status: "lost" }])];
    const facts = runFacts([{ id: "f", text: "F", holders: [] }], ts);
    const idx = indexFacts(ts);
    expect(factsAtStep(facts, idx, 1)[0]!.status).toBe("held");
    expect(factsAtStep(facts, idx, 5)[0]!.status).toBe("lost");
    expect(factsAtStep(facts, idx, 6)[0]!.status).toBe("carried");
    expect(factsAtStep(facts, idx, 100)[0]!.status).toBe("lost");
    expect(factsAtStep(facts, idx, 0)[0]!.lostAt.map((t) => t.step)).toEqual([2, 9]);
  });

  it("adds facts the transfers check but the topology does not name", () => {
    const facts = runFacts([], [brief(0, 1, [{ id: "ghost", status: "absent" }])]);
    expect(facts.map((f) => f.id)).toEqual(["ghost"]);
  });

  it("finds the last transfer at or before a step", () => {
    const ts = [brief(0, 2, []), brief(1, 6, []), brief(2, 9, [])];
    expect(lastTransferAtOrBefore(ts, 1)).toBe(-1);
    expect(lastTransferAtOrBefore(ts, 2)).toBe(0);
    expect(lastTransferAtOrBefore(ts, 8)).toBe(1);
    expect(lastTransferAtOrBefore(ts, 50)).toBe(2);
  });
});

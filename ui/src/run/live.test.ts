import { describe, expect, it } from "vitest";
import { RECORDED_RUNS } from "../platform/mock-runs";
import { isActive, newLiveRun, reduceLive } from "./live";
import { Lru } from "./lru";
import { neighbourTransfer } from "../store/debugger";

describe("live event reducer", () => {
  it("folds a recorded run's events, one by one or in one batch, to the same state", () => {
    const events = RECORDED_RUNS["ticket-reopen"]!.events;
    let one = newLiveRun("r", "ticket-reopen", "flagged-fix");
    for (const e of events) one = reduceLive(one, [e]);
    const batch = reduceLive(newLiveRun("r", "ticket-reopen", "flagged-fix"), events);
    expect(batch).toEqual(one);
    expect(one.status).toBe("finished");
    expect(one.steps.map((s) => s.index)).toEqual([...Array(12).keys()]);
    expect(one.transfers.map((t) => t.edge)).toEqual(["triage->resolution", "resolution->verification"]);
    expect(one.lostFacts).toBe(1);
    expect(one.owner).toBe("verification");
    expect(one.outcome?.status).toBe("completed");
    expect(isActive(one)).toBe(false);
  });

  it("tracks the owner as steps arrive, and pause / resume", () => {
    const events = RECORDED_RUNS["ticket-reopen"]!.events;
    let r = reduceLive(newLiveRun("r", "t", "s"), events.slice(0, 4));
    expect(r.status).toBe("running");
    expect(r.owner).toBe("resolution");
    r = reduceLive(r, [{ type: "paused", step: 5, edge: "resolution->verification" }]);
    expect(r.status).toBe("paused");
    expect(isActive(r)).toBe(true);
    expect(r.paused).toEqual({ step: 5, edge: "resolution->verification" });
    r = reduceLive(r, [{ type: "resumed" }]);
    expect(r.status).toBe("running");
    expect(r.paused).toBeNull();
  });

  it("keeps store errors, and marks a broken stream as disconnected", () => {
    let r = reduceLive(newLiveRun("r", "t", "s"), [{ type: "store_error", message: "disk full" }]);
    expect(r.errors).toEqual(["disk full"]);
    expect(r.status).toBe("starting");
    r = reduceLive(r, [{ type: "stream_error", message: "gone" }]);
    expect(r.status).toBe("disconnected");
    expect(isActive(r)).toBe(false);
  });

  it("returns the same object for an empty batch", () => {
    const r = newLiveRun("r", "t", "s");
    expect(reduceLive(r, [])).toBe(r);
  });
});

describe("debugger helpers", () => {
  it("finds neighbouring transfers", () => {
    const steps = [1, 5, 9];
    expect(neighbourTransfer(steps, 0, 1)).toBe(1);
    expect(neighbourTransfer(steps, 1, 1)).toBe(5);
    expect(neighbourTransfer(steps, 9, 1)).toBeNull();
    expect(neighbourTransfer(steps, 5, -1)).toBe(1);
    expect(neighbourTransfer(steps, 6, -1)).toBe(5);
    expect(neighbourTransfer(steps, 1, -1)).toBeNull();
    expect(neighbourTransfer([], 3, 1)).toBeNull();
  });

  it("evicts least recently used entries by count and by weight, never the newest", () => {
    const lru = new Lru<string, number>(3, 10, (v) => v);
    lru.set("a", 1);
    lru.set("b", 1);
    lru.set("c", 1);
    lru.get("a");
    lru.set("d", 1);
    expect(lru.keys()).toEqual(["c", "a", "d"]);
    lru.set("big", 9);
    expect(lru.keys()).toEqual(["d", "big"]);
    lru.set("huge", 50);
    expect(lru.keys()).toEqual(["huge"]);
  });
});

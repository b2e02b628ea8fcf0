// When the Runs home asks its list again by itself: only while a listed run is still running.
import { describe, expect, it } from "vitest";
import type { RunPage } from "../bindings/RunPage";
import { anyRunning } from "./useRunPages";

const page = (...statuses: string[]) => ({ runs: statuses.map((status, i) => ({ id: `r${i}`, outcome: { status, reason: "" } })), total: statuses.length, topologies: [] }) as unknown as RunPage;

describe("anyRunning", () => {
  it("is true while any loaded page lists a running run", () => {
    expect(anyRunning(undefined)).toBe(false);
    expect(anyRunning([])).toBe(false);
    expect(anyRunning([page("completed", "failed")])).toBe(false);
    expect(anyRunning([page("completed"), page("interrupted", "running")])).toBe(true);
  });
});

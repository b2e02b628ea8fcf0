// The Tests panel's state: the last `test_topology` results of a topology (by name), whether a test run is under way, and why the last one could not run.
import { create } from "zustand";
import type { CaseResult } from "../bindings/CaseResult";

type TestsState = {
  /** The topology the results are of (its name). */
  topology: string | null;
  results: CaseResult[] | null;
  running: boolean;
  error: string | null;
  /** A "Show step" under way: the scenario being run again. */
  showing: string | null;
  begin(topology: string): void;
  finish(topology: string, results: CaseResult[]): void;
  fail(topology: string, error: string): void;
  setShowing(scenario: string | null): void;
};

export const useTests = create<TestsState>()((set, get) => ({
  topology: null,
  results: null,
  running: false,
  error: null,
  showing: null,
  begin(topology) {
    const keep = get().topology === topology ? get().results : null;
    set({ topology, results: keep, running: true, error: null });
  },
  finish(topology, results) {
    if (get().topology !== topology) return;
    set({ results, running: false, error: null });
  },
  fail(topology, error) {
    if (get().topology !== topology) return;
    set({ running: false, error });
  },
  setShowing(showing) {
    set({ showing });
  },
}));

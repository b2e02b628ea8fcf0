// The live run as the UI sees it, folded from the backend's events (pure; the run store applies
// events in batches, one per animation frame, so a fast run does not re-render per event).
import type { RunStreamEvent } from "../platform/types";
import type { Outcome, StepBrief, TransferBrief, Usage } from "./types";

export type LiveStatus = "starting" | "running" | "paused" | "finished" | "disconnected";

export type LiveRun = {
  runId: string;
  topology: string;
  scenario: string;
  status: LiveStatus;
  startedAt: string | null;
  endedAt: string | null;
  steps: StepBrief[];
  transfers: TransferBrief[];
  /** Who owns the conversation after the latest step. */
  owner: string | null;
  /** The agent acting at the latest step. */
  agent: string | null;
  paused: { step: number; edge: string } | null;
  outcome: Outcome | null;
  usage: Usage | null;
  /** Fact checks with status `lost` so far. */
  lostFacts: number;
  /** Store or stream problems, in order. */
  errors: string[];
};

export function newLiveRun(runId: string, topology: string, scenario: string): LiveRun {
  return {
    runId,
    topology,
    scenario,
    status: "starting",
    startedAt: null,
    endedAt: null,
    steps: [],
    transfers: [],
    owner: null,
    agent: null,
    paused: null,
    outcome: null,
    usage: null,
    lostFacts: 0,
    errors: [],
  };
}

/** Applies a batch of events in order; returns the same object when nothing changed. */
export function reduceLive(run: LiveRun, events: readonly RunStreamEvent[]): LiveRun {
  if (events.length === 0) return run;
  const next: LiveRun = { ...run };
  let steps: StepBrief[] | null = null;
  let transfers: TransferBrief[] | null = null;
  for (const e of events) {
    switch (e.type) {
      case "started":
        next.startedAt = e.started_at;
        next.topology = e.topology;
        next.scenario = e.scenario;
        if (next.status === "starting") next.status = "running";
        break;
      case "step":
        steps ??= run.steps.slice();
        steps.push(e.step);
        next.owner = e.step.owner;
        next.agent = e.step.agent;
        if (next.status === "starting") next.status = "running";
        break;
      case "transfer":
        transfers ??= run.transfers.slice();
        transfers.push(e.transfer);
        next.lostFacts += e.transfer.facts.filter((f) => f.status === "lost").length;
        break;
      case "paused":
        if (next.status !== "finished") next.status = "paused";
        next.paused = { step: e.step, edge: e.edge };
        break;
      case "resumed":
        if (next.status === "paused") next.status = "running";
        next.paused = null;
        break;
      case "finished":
        next.status = "finished";
        next.paused = null;
        next.outcome = e.outcome;
        next.usage = e.usage;
        next.endedAt = e.ended_at;
        next.owner = e.outcome.owner || next.owner;
        break;
      case "store_error":
        next.errors = [...next.errors, e.message];
        break;
      case "stream_error":
        next.errors = [...next.errors, e.message];
        if (next.status !== "finished") next.status = "disconnected";
        break;
    }
  }
  if (steps) next.steps = steps;
  if (transfers) next.transfers = transfers;
  return next;
}

/** Whether the run can still change (the Cancel button's state). */
export function isActive(run: LiveRun | null): boolean {
  return run !== null && (run.status === "starting" || run.status === "running" || run.status === "paused");
}

// The mock platform's runs: recorded runs of the examples (scripts/run-fixtures.mjs records them
// through `baton serve`), replayed as live events and served as debugger views.
import type { ContextPage } from "../bindings/ContextPage";
import type { Item } from "../bindings/Item";
import type { ItemWindow } from "../bindings/ItemWindow";
import type { LiveEvent } from "../bindings/LiveEvent";
import type { MarkArgs } from "../bindings/MarkArgs";
import type { RunMark } from "../bindings/RunMark";
import type { RunOverview } from "../bindings/RunOverview";
import type { RunTail } from "../bindings/RunTail";
import type { StepBrief } from "../bindings/StepBrief";
import { columnsOf } from "./stepColumns";
import type { RunOrigin } from "../bindings/RunOrigin";
import type { RunPage } from "../bindings/RunPage";
import type { RunQuery } from "../bindings/RunQuery";
import type { RunSummary } from "../bindings/RunSummary";
import type { Step } from "../bindings/Step";
import type { StepArgs } from "../bindings/StepArgs";
import type { StepContextArgs } from "../bindings/StepContextArgs";
import type { StepView } from "../bindings/StepView";
import type { Topology } from "../bindings/Topology";
import type { Transfer } from "../bindings/Transfer";
import type { TransferBrief } from "../bindings/TransferBrief";
import type { TransferView } from "../bindings/TransferView";
import RECORDED from "./run-fixtures.json";
import type { RunStreamEvent, StartRunInput } from "./types";
import { PlatformError } from "./types";

export type RecordedRun = {
  summary: RunSummary;
  topology: Topology | null;
  events: LiveEvent[];
  steps: Step[];
  transfers: Transfer[];
  items: Record<string, Item>;
};

export const RECORDED_RUNS = RECORDED as unknown as Record<string, RecordedRun>;

const clone = <T,>(v: T): T => structuredClone(v);

/** The store's window rule: `limit` (at most 2,000) ids from `offset`, both cut to the context. */
function windowOf(ids: readonly string[], w: ItemWindow): { offset: number; ids: readonly string[] } {
  if (w.limit < 1 || w.limit > 2000) throw new PlatformError("api.args", `a context window's limit is ${w.limit}: ask for 1 to 2000 items at a time`);
  const offset = Math.min(w.offset, ids.length);
  return { offset, ids: ids.slice(offset, offset + w.limit) };
}

const pickItems = (r: RecordedRun, ids: readonly string[]) => ids.map((id) => r.items[id]).filter((i): i is Item => !!i).map(clone);

/** Where a run came from, by the rule of the store (src/store/search.rs `RunOrigin::of`). */
export function originOf(s: Pick<RunSummary, "source">): RunOrigin {
  const src = s.source;
  if (src === null || typeof src !== "object" || Array.isArray(src)) return "native";
  return (src as { captured?: unknown }).captured === true ? "captured" : "imported";
}

/** A run's step briefs as the store derives them: briefs recorded before `context_len` and timing
 * were kept get the items from the step and no time (these runs kept none). */
function stepBriefs(r: RecordedRun): StepBrief[] {
  return r.events.flatMap((e) =>
    e.type === "step"
      ? [{ ...clone(e.step), context_len: e.step.context_len ?? r.steps[e.step.index]?.context.length ?? null, start_ms: e.step.start_ms ?? null, duration_ms: e.step.duration_ms ?? null }]
      : [],
  );
}

function transferBrief(index: number, t: Transfer): TransferBrief {
  return {
    index,
    step: t.step,
    kind: t.kind,
    from: t.from,
    to: t.to,
    edge: t.edge,
    policy: t.policy,
    carried: t.carried.length,
    transformed: t.transformed.length,
    dropped: t.dropped.length,
    added: t.added.length,
    facts: t.facts,
  };
}

export type MockRuns = ReturnType<typeof createMockRuns>;

/** The reason live capture saves a trace whose spans are still arriving with (status `running`). */
export const CAPTURING_REASON = "capturing: spans of this trace are still arriving";

/**
 * What live capture shows of a trace still arriving: the run's first `steps` steps and the
 * transfers among them, saved as running (no end, no answer yet).
 */
export function runningPart(r: RecordedRun, steps: number): RecordedRun {
  const transfers = r.transfers.filter((t) => t.step < steps);
  let seen = 0;
  const events = r.events.filter((e) =>
    e.type === "step" ? seen++ < steps : e.type === "transfer" ? e.transfer.step < steps : e.type !== "finished",
  );
  return {
    ...r,
    summary: {
      ...r.summary,
      ended_at: null,
      outcome: { status: "running", reason: CAPTURING_REASON },
      final_output: null,
      steps: Math.min(steps, r.steps.length),
      transfers: transfers.length,
      lost_facts: transfers.reduce((n, t) => n + t.facts.filter((f) => f.status === "lost").length, 0),
    },
    events,
    steps: r.steps.slice(0, steps),
    transfers,
  };
}

/** `delayMs` paces the replay (per event) when a run asks for no latency of its own. */
export function createMockRuns(recorded: Record<string, RecordedRun> = RECORDED_RUNS, delayMs = 1) {
  const runs = new Map<string, RecordedRun>();
  const live = new Map<string, { cancelled: boolean; resume: (() => void) | null; paused: boolean }>();
  let seq = 0;

  // Runs recorded before the session, newest first, like a store that has history.
  for (const r of Object.values(recorded)) runs.set(r.summary.id, clone(r));

  const get = (run_id: string): RecordedRun => {
    const r = runs.get(run_id);
    if (!r) throw new PlatformError("store.no_run", `no run with id '${run_id}' in the store`);
    return r;
  };
  const sleep = (ms: number) => new Promise((res) => setTimeout(res, ms));

  function transferView(r: RecordedRun, index: number): TransferView {
    const t = r.transfers[index];
    if (!t) throw new PlatformError("store.no_step", `run '${r.summary.id}' has no transfer ${index}`);
    const ids = new Set([...t.sender, ...t.receiver]);
    const stack = [...ids];
    while (stack.length) {
      const it = r.items[stack.pop() as string];
      for (const d of it?.derived_from ?? []) {
        if (!ids.has(d)) {
          ids.add(d);
          stack.push(d);
        }
      }
    }
    return { index, transfer: clone(t), items: [...ids].map((id) => r.items[id]).filter((i): i is Item => !!i).map(clone) };
  }

  async function startRun(args: StartRunInput, onEvent: (e: RunStreamEvent) => void): Promise<string> {
    const base = recorded[args.topology.name];
    if (!base) throw new PlatformError("run.unknown_scenario", `the mock backend has no recorded run of '${args.topology.name}'`);
    if (args.scenario && base.summary.scenario !== args.scenario) {
      throw new PlatformError("run.unknown_scenario", `the mock backend recorded only scenario '${base.summary.scenario}'`);
    }
    const id = `mock-run-${++seq}`;
    const startedAt = new Date().toISOString();
    const r = clone(base);
    r.summary = { ...r.summary, id, started_at: startedAt, ended_at: null, outcome: { status: "running", reason: "running" } };
    runs.set(id, r);
    const ctl = { cancelled: false, resume: null as (() => void) | null, paused: false };
    live.set(id, ctl);
    const breakpoints = new Set(args.breakpoints);
    const pace = args.mock_delay_ms ?? delayMs;
    void (async () => {
      for (const e0 of base.events) {
        await sleep(pace);
        if (ctl.cancelled) break;
        let e = clone(e0);
        if (e.type === "started") e = { ...e, run_id: id, started_at: startedAt };
        if (e.type === "transfer" && breakpoints.has(e.transfer.edge)) {
          ctl.paused = true;
          onEvent({ type: "paused", step: e.transfer.step, edge: e.transfer.edge });
          await new Promise<void>((res) => (ctl.resume = res));
          ctl.paused = false;
          if (ctl.cancelled) break;
          onEvent({ type: "resumed" });
        }
        if (e.type === "finished") {
          const endedAt = new Date().toISOString();
          e = { ...e, ended_at: endedAt };
          r.summary = { ...base.summary, id, started_at: startedAt, ended_at: endedAt };
        }
        onEvent(e);
      }
      if (ctl.cancelled) {
        const endedAt = new Date().toISOString();
        r.summary = { ...r.summary, ended_at: endedAt, outcome: { status: "cancelled", reason: "Cancelled by the user" } };
        onEvent({
          type: "finished",
          outcome: { status: "cancelled", reason: "Cancelled by the user", owner: base.summary.owner },
          usage: { input_tokens: 0, output_tokens: 0 },
          ended_at: endedAt,
        });
      }
      live.delete(id);
    })();
    return id;
  }

  return {
    startRun,
    /** Saves a run as the store would after an import; returns its id. `id`: replaces that run (live capture saves a trace again as it grows). */
    add(r: RecordedRun, replace?: string): string {
      const id = replace ?? `mock-import-${++seq}`;
      const copy = clone(r);
      copy.summary = { ...copy.summary, id };
      runs.set(id, copy);
      return id;
    },
    async cancel_run({ run_id }: { run_id: string }) {
      const c = live.get(run_id);
      if (!c) throw new PlatformError("run.not_live", `run '${run_id}' is not running in this session`);
      c.cancelled = true;
      c.resume?.();
      return null;
    },
    async resume_run({ run_id }: { run_id: string }) {
      const c = live.get(run_id);
      if (!c) throw new PlatformError("run.not_live", `run '${run_id}' is not running in this session`);
      const go = c.resume;
      c.resume = null;
      go?.();
      return null;
    },
    async list_runs({ topology }: { topology?: string }) {
      return [...runs.values()]
        .map((r) => clone(r.summary))
        .filter((s) => !topology || s.topology === topology)
        .sort((a, b) => b.started_at.localeCompare(a.started_at));
    },
    /** The Runs home's query, as the store answers it (filters, newest first, a page, the total). */
    async search_runs(q: RunQuery): Promise<RunPage> {
      const text = q.search?.trim().toLowerCase() ?? "";
      const all = [...runs.values()].map((r) => ({ ...clone(r.summary), origin: originOf(r.summary) }));
      const hits = all
        .filter((s) => !q.topology || s.topology === q.topology)
        .filter((s) => !q.parent || s.parent === q.parent)
        .filter((s) => !q.origin || s.origin === q.origin)
        .filter((s) => !q.status || s.outcome.status === q.status)
        .filter((s) => q.lost == null || (q.lost ? s.lost_facts > 0 : s.lost_facts === 0))
        .filter((s) => !q.judgement || s.mark?.judgement === q.judgement)
        .filter((s) => !q.since || s.started_at >= q.since)
        .filter((s) => !q.until || s.started_at < q.until)
        .filter((s) => !text || [s.id, s.topology, s.scenario, s.final_output ?? "", JSON.stringify(s.source ?? "")].join(" ").toLowerCase().includes(text))
        .sort((a, b) => b.started_at.localeCompare(a.started_at) || b.id.localeCompare(a.id));
      const offset = q.offset ?? 0;
      return {
        runs: hits.slice(offset, offset + (q.limit ?? 100)),
        total: hits.length,
        topologies: [...new Set(all.map((s) => s.topology))].sort(),
      };
    },
    async run_overview({ run_id }: { run_id: string }): Promise<RunOverview> {
      const r = get(run_id);
      return {
        // the store's summary always says where the run came from
        summary: { ...clone(r.summary), origin: originOf(r.summary) },
        topology: clone(r.topology),
        steps: columnsOf(stepBriefs(r)),
        transfers: r.transfers.map((t, i) => transferBrief(i, t)),
      };
    },
    async run_tail({ run_id, from_step, from_transfer }: { run_id: string; from_step: number; from_transfer: number }): Promise<RunTail> {
      const all = await this.run_overview({ run_id });
      const tail = stepBriefs(get(run_id)).slice(from_step);
      return { ...all, steps: { ...columnsOf(tail), first: from_step }, transfers: all.transfers.slice(from_transfer), from_step, from_transfer };
    },
    async step_view({ run_id, step, context: w }: StepArgs): Promise<StepView> {
      const r = get(run_id);
      const s = r.steps[step];
      if (!s) throw new PlatformError("store.no_step", `run '${run_id}' has no step ${step} (it has ${r.steps.length})`);
      const steps = r.transfers.map((t) => t.step);
      const prev = steps.filter((x) => x < step).pop() ?? null;
      const next = steps.find((x) => x > step) ?? null;
      const ids = w ? windowOf(s.context, w) : { offset: 0, ids: s.context };
      return {
        step: { ...clone(s), context: [...ids.ids] },
        context: pickItems(r, ids.ids),
        context_offset: ids.offset,
        context_total: s.context.length,
        output: pickItems(r, s.output ?? []),
        transfer: s.transfer != null ? transferView(r, s.transfer) : null,
        step_count: r.steps.length,
        prev_transfer: prev,
        next_transfer: next,
      };
    },
    async step_context({ run_id, step, offset, limit }: StepContextArgs): Promise<ContextPage> {
      const r = get(run_id);
      const s = r.steps[step];
      if (!s) throw new PlatformError("store.no_step", `run '${run_id}' has no step ${step} (it has ${r.steps.length})`);
      const ids = windowOf(s.context, { offset, limit });
      return { step, offset: ids.offset, total: s.context.length, items: pickItems(r, ids.ids) };
    },
    async transfer_view({ run_id, index }: { run_id: string; index: number }) {
      return transferView(get(run_id), index);
    },
    async fact_lost_steps({ run_id, fact }: { run_id: string; fact: string }) {
      return get(run_id)
        .transfers.filter((t) => t.facts.some((f) => f.id === fact && f.status === "lost"))
        .map((t) => t.step);
    },
    /** A person's mark on a run, as the store keeps it (null clears it). */
    async mark_run({ run_id, judgement, why }: MarkArgs): Promise<RunMark | null> {
      const r = get(run_id);
      const text = why?.trim();
      const mark: RunMark | null = judgement ? { judgement, ...(text ? { why: text } : {}), at: new Date().toISOString().replace(/\.\d+Z$/, "Z") } : null;
      r.summary = { ...r.summary, mark };
      return clone(mark);
    },
    async delete_run({ run_id }: { run_id: string }) {
      get(run_id);
      runs.delete(run_id);
      return null;
    },
  };
}

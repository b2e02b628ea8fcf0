// What the Run panel, the Runs list and the debugger do, bound to a platform. Like the designer's
// commands, they read the stores at call time, so the object is stable. A run the debugger opened
// while it was still running is read again by `refreshRun` (the debugger's `useFollowRun` says when).
import { useMemo } from "react";
import { usePlatform } from "./platform";
import { warmLayout, withLayout } from "../model/layout";
import { FIRST_WINDOW } from "../run/contextWindow";
import { edgeId, normalizeTopology } from "../model/topology";
import type { CaptureStatus } from "../bindings/CaptureStatus";
import { toPlatformError, type Platform, type RunStreamEvent, type TraceFormat } from "../platform/types";
import { decodeOverview, decodeTail, type RunOverview, type StepView } from "../run/types";
import { appendTail, staleFrom, tailFrom } from "../run/progress";
import { fileName } from "../recent";
import { cacheKey, neighbourTransfer, stepCache, useDebugger } from "../store/debugger";
import { useDesigner } from "../store/designer";
import { useRun } from "../store/run";
import { useUi } from "../store/ui";
import { isActive, newLiveRun } from "../run/live";
import { runSource } from "../run/source";
import { runBlocker } from "../run/blocker";
import { adHocScenario, pickScenario, withAdHocScenario } from "../model/scenario";
import { describeError } from "./messages";

/** The backend's message as the window says it (`windowText`), with its code. */
function message(e: unknown): string {
  if (e && typeof e === "object" && "message" in e) {
    const { code, message: text } = describeError(e);
    return code ? `${text} (${code})` : text;
  }
  return String(e);
}

/** Fetches of step views in flight, by cache key. */
const inflight = new Map<string, Promise<StepView>>();
/** Prefetches in flight at most (the step the debugger shows is fetched whatever the count). */
const MAX_INFLIGHT = 2;
/** Steps whose fetch failed: not prefetched again (that would loop), only fetched when shown. */
const failed = new Set<string>();

export function makeRunCommands(platform: Platform) {
  const ui = () => useUi.getState();
  const dbg = () => useDebugger.getState();
  const run = () => useRun.getState();

  // ---------- live runs ----------

  /**
   * Runs the chosen scenario, or (`message`) the typed message as an ad-hoc scenario that keeps the
   * chosen scenario's mock rules; the document is not changed. Refused with why by `runBlocker`,
   * the one rule every Run control shares. `asTested`: the way `test_topology` runs it (mock
   * models, no breakpoints, no latency), so its steps are the ones a test result names.
   */
  async function startRun(opts: { message?: string; asTested?: boolean } = {}): Promise<string | null> {
    const doc = useDesigner.getState().topology;
    const blocked = runBlocker(doc, run().live, opts.message !== undefined ? { kind: "message", message: opts.message } : { kind: "scenario" });
    if (blocked || !doc) {
      if (!isActive(run().live)) ui().notify("error", "Cannot run yet", blocked ?? undefined);
      return null;
    }
    let t = doc;
    let scenario: string;
    const chosen = pickScenario(doc, run().scenario[doc.name]);
    if (opts.message !== undefined) {
      const adHoc = adHocScenario(doc, opts.message.trim(), chosen);
      t = withAdHocScenario(doc, adHoc);
      scenario = adHoc.name;
    } else {
      scenario = (chosen?.name ?? "") as string;
    }
    const known = new Set(t.edges.map(edgeId));
    const breakpoints = opts.asTested ? [] : (run().breakpoints[t.name] ?? []).filter((e) => known.has(e));
    const latency = opts.asTested ? 0 : run().latencyMs;
    ui().setBottom("run");
    const token = run().begin(newLiveRun("", t.name, scenario));
    let buffer: RunStreamEvent[] = [];
    let scheduled = false;
    const flush = () => {
      scheduled = false;
      const batch = buffer;
      buffer = [];
      run().apply(token, batch);
    };
    const onEvent = (e: RunStreamEvent) => {
      buffer.push(e);
      if (!scheduled) {
        scheduled = true;
        setTimeout(flush, 30);
      }
    };
    try {
      const runId = await platform.startRun(
        { topology: normalizeTopology(t), scenario, breakpoints, mock_delay_ms: latency > 0 ? latency : null, real_providers: opts.asTested ? false : run().useLive },
        onEvent,
      );
      const live = run().live;
      if (live && run().liveToken === token && live.runId === "") {
        useRun.setState({ live: { ...live, runId } });
      }
      return runId;
    } catch (e) {
      if (run().liveToken === token) run().clearLive();
      ui().notify("error", "Could not start the run", message(e));
      return null;
    }
  }

  async function cancelRun(): Promise<void> {
    const live = run().live;
    if (!live?.runId || !isActive(live)) return;
    try {
      await platform.cancel_run({ run_id: live.runId });
    } catch (e) {
      ui().notify("error", "Could not cancel the run", message(e));
    }
  }

  async function resumeRun(): Promise<void> {
    const live = run().live;
    if (!live?.runId || live.status !== "paused") return;
    try {
      await platform.resume_run({ run_id: live.runId });
    } catch (e) {
      ui().notify("error", "Could not resume the run", message(e));
    }
  }

  function toggleBreakpoint(edge?: string): void {
    const t = useDesigner.getState().topology;
    if (!t) return;
    const target = edge ?? useDesigner.getState().selection.edges[0];
    if (!target) {
      ui().notify("info", "Select an edge first", "A breakpoint pauses the run before that transfer.");
      return;
    }
    run().toggleBreakpoint(t.name, target);
  }

  async function deleteRun(runId: string, label: string): Promise<boolean> {
    const choice = await ui().ask({
      title: "Delete this run?",
      message: `${label} and its whole trace will be removed from the store. This cannot be undone.`,
      confirmLabel: "Delete",
    });
    if (choice !== "confirm") return false;
    try {
      await platform.delete_run({ run_id: runId });
      run().bumpRuns();
      if (dbg().runId === runId) dbg().exit();
      return true;
    } catch (e) {
      ui().notify("error", "Could not delete the run", message(e));
      return false;
    }
  }

  // ---------- the debugger ----------

  /**
   * A step's view: from the cache, else the fetch already in flight, else a new fetch (cached when
   * it lands, then the neighbours are prefetched). Rejects with the backend's error.
   */
  function loadStep(runId: string, step: number): Promise<StepView> {
    const key = cacheKey(runId, step);
    const cached = stepCache.get(key);
    if (cached) return Promise.resolve(cached);
    let pending = inflight.get(key);
    if (!pending) {
      // A fetch dropped meanwhile (its step changed: `forgetSteps`) is neither cached nor counted.
      const fetch: Promise<StepView> = platform.step_view({ run_id: runId, step, context: FIRST_WINDOW }).then((v) => {
        if (inflight.get(key) === fetch) {
          stepCache.set(key, v);
          failed.delete(key);
        }
        return v;
      });
      pending = fetch;
      inflight.set(key, fetch);
      void fetch
        .catch(() => {
          // The debugger shows the current step's error; the others are asked again when shown.
          if (inflight.get(key) === fetch) failed.add(key);
        })
        .finally(() => {
          if (inflight.get(key) === fetch) inflight.delete(key);
          if (dbg().runId === runId) pump();
        });
    }
    return pending;
  }

  /** Drops what is known of a run's steps from `from` on: cached views, fetches in flight, failures. */
  function forgetSteps(runId: string, from: number): void {
    const prefix = `${runId}:`;
    const stale = (key: string) => key.startsWith(prefix) && Number(key.slice(prefix.length)) >= from;
    for (const key of stepCache.keys()) if (stale(key)) stepCache.delete(key);
    for (const key of [...inflight.keys()]) if (stale(key)) inflight.delete(key);
    for (const key of [...failed]) if (stale(key)) failed.delete(key);
  }

  /** Prefetches what the cursor needs next: the current step first, then its neighbours. */
  function pump(): void {
    const s = dbg();
    const runId = s.runId;
    if (!runId || !s.overview) return;
    const n = s.overview.steps.length;
    const c = s.cursor;
    const wanted = [c, c + 1, c - 1, neighbourTransfer(s.transferSteps, c, 1), neighbourTransfer(s.transferSteps, c, -1)];
    for (const step of wanted) {
      if (inflight.size >= MAX_INFLIGHT) return;
      if (step === null || step < 0 || step >= n) continue;
      const key = cacheKey(runId, step);
      if (stepCache.has(key) || inflight.has(key) || failed.has(key)) continue;
      void loadStep(runId, step).catch(() => undefined);
    }
  }

  function goTo(step: number): void {
    dbg().setCursor(step);
    stepCache.get(cacheKey(dbg().runId ?? "", dbg().cursor)); // mark as recently used
    pump();
  }

  /** Refreshes in flight, by run id (one at a time: a tick while one is out shares it). */
  const refreshing = new Map<string, Promise<void>>();

  /**
   * Reads the open run's overview again (a run still running grows): steps, transfers, summary and
   * topology are replaced, the cursor kept; the step views it may have changed are dropped. A
   * failure keeps the last good view with a note (the next tick tries again). An answer for a run
   * no longer shown, or one opened again meanwhile, is dropped.
   */
  function refreshRun(runId: string): Promise<void> {
    let pending = refreshing.get(runId);
    if (!pending) {
      pending = refreshOnce(runId).finally(() => refreshing.delete(runId));
      refreshing.set(runId, pending);
    }
    return pending;
  }

  async function refreshOnce(runId: string): Promise<void> {
    const prev = dbg().overview;
    if (dbg().runId !== runId || !prev) return;
    const current = () => dbg().runId === runId && dbg().overview === prev;
    let next: RunOverview;
    try {
      // Baton's own runs only grow: only their end (the last step and transfer, and what came
      // after) crosses, and the whole overview again only when that end is not where the window
      // has it, or once the run has ended (what stays on screen is then exactly what was saved).
      // A captured run is rebuilt from its spans each time (a late span may amend an early step):
      // read whole.
      const tail = prev.summary.origin === "native" ? decodeTail(await platform.run_tail({ run_id: runId, ...tailFrom(prev) })) : null;
      const appended = tail ? appendTail(prev, tail) : null;
      next = appended && tail?.summary.outcome.status === "running" ? appended : decodeOverview(await platform.run_overview({ run_id: runId }));
    } catch (e) {
      if (!current()) return;
      if (toPlatformError(e).code === "store.no_run") dbg().setProgressGone(runId);
      else dbg().setProgressError(runId, message(e));
      return;
    }
    if (!current()) return;
    const from = staleFrom(prev, next);
    if (from === null) {
      dbg().setProgressError(runId, null);
      return;
    }
    let topology = dbg().topology;
    if (JSON.stringify(prev.topology) !== JSON.stringify(next.topology)) {
      try {
        topology = next.topology ? await withLayout(normalizeTopology(next.topology), ui().nodeSizes) : null;
      } catch (e) {
        if (current()) dbg().setProgressError(runId, message(e));
        return;
      }
      if (!current()) return;
    }
    forgetSteps(runId, from);
    dbg().update(runId, next, topology, true);
    pump();
  }

  /** Follow the newest step of a run still running (the cursor moves there now), or stay put. */
  function follow(on: boolean): void {
    dbg().setFollow(on);
    pump();
  }

  async function openRun(runId: string, opts: { step?: number } = {}): Promise<boolean> {
    failed.clear();
    // A run seen before may have been replaced since (a captured trace that was still arriving).
    forgetSteps(runId, 0);
    dbg().begin(runId);
    ui().setBusy("Opening run…");
    // The step shown first is asked for beside the overview, not after it: on a long run the two
    // answers take about as long each (issue #32). A step past the run's end fails quietly here;
    // the cursor is clamped when the overview lands.
    const first = opts.step ?? 0;
    void loadStep(runId, first).catch(() => undefined);
    warmLayout();
    try {
      const overview = decodeOverview(await platform.run_overview({ run_id: runId }));
      const topology = overview.topology ? await withLayout(normalizeTopology(overview.topology), ui().nodeSizes) : null;
      dbg().load(runId, overview, topology, first);
      pump();
      return true;
    } catch (e) {
      // The debugger shows why, with the ways out (debugger/RunOpenError.tsx): no toast as well.
      dbg().fail(message(e));
      return false;
    } finally {
      ui().setBusy(null);
    }
  }

  // ---------- imported traces ----------

  /**
   * Imports a trace file (all or nothing) and opens its first run in the debugger; throws the
   * backend's error, naming the format, the line or byte, and what was expected.
   */
  async function importTraceOrThrow(path: string, from?: TraceFormat): Promise<string[]> {
    ui().setBusy("Importing trace…");
    let ids: string[];
    try {
      ids = await platform.import_trace(from && from !== "auto" ? { path, from } : { path });
    } finally {
      ui().setBusy(null);
    }
    run().bumpRuns();
    const first = ids[0];
    if (!first) {
      ui().notify("info", `${fileName(path)} holds no runs`);
      return ids;
    }
    ui().openDialog(null);
    if (await openRun(first)) {
      const source = runSource(dbg().overview?.summary ?? { source: null });
      const more = ids.length > 1 ? `${ids.length} runs imported; showing the first. The others are in the Runs list of their topology.` : undefined;
      const notes = source?.notes.length ? `Importer notes: ${source.notes.join("; ")}` : undefined;
      ui().notify("success", `Imported ${fileName(path)}`, [more, notes].filter(Boolean).join(" ") || undefined);
    }
    return ids;
  }

  /** Like `importTraceOrThrow`, with failures shown as a toast; the imported run ids, or null. */
  async function importTrace(path: string, from?: TraceFormat): Promise<string[] | null> {
    try {
      return await importTraceOrThrow(path, from);
    } catch (e) {
      ui().notify("error", `Could not import ${fileName(path)}`, message(e));
      return null;
    }
  }

  /** File → Open trace…: the native dialog where there is one, else Baton's own. */
  async function openTrace(): Promise<string[] | null> {
    if (!platform.dialogs) {
      ui().openDialog("trace");
      return null;
    }
    let path: string | null;
    try {
      path = await platform.dialogs.choose_open_path({ extensions: ["json", "jsonl"], label: "Trace" });
    } catch (e) {
      ui().notify("error", "Could not show the file dialog", message(e));
      return null;
    }
    return path ? importTrace(path) : null;
  }

  // ---------- live capture ----------

  /**
   * Starts capturing: an OTLP/HTTP endpoint on 127.0.0.1:`port` (the backend's 4318 when absent,
   * a free port for 0) whose traces become saved runs. Resolves with the status (the one already
   * running, if any); throws the backend's `{code, message}` (`capture.listen`: the port is
   * taken), which the Runs tab shows by the switch.
   */
  function startCapture(port?: number): Promise<CaptureStatus> {
    return platform.capture_start(port === undefined ? {} : { port });
  }

  /** Stops capturing; the traces still open are saved first, so the run lists are asked again. */
  async function stopCapture(): Promise<CaptureStatus> {
    try {
      return await platform.capture_stop();
    } finally {
      run().bumpRuns();
    }
  }

  function nextTransfer(dir: 1 | -1): void {
    const s = dbg();
    const to = neighbourTransfer(s.transferSteps, s.cursor, dir);
    if (to !== null) goTo(to);
  }

  return {
    platform,
    startRun,
    cancelRun,
    resumeRun,
    toggleBreakpoint,
    deleteRun,
    openRun,
    refreshRun,
    follow,
    importTrace,
    importTraceOrThrow,
    openTrace,
    startCapture,
    stopCapture,
    goTo,
    stepBy: (d: number) => goTo(dbg().cursor + d),
    nextTransfer: () => nextTransfer(1),
    prevTransfer: () => nextTransfer(-1),
    home: () => goTo(0),
    end: () => goTo((dbg().overview?.steps.length ?? 1) - 1),
    exitDebugger: () => dbg().exit(),
    loadStep,
  };
}

export type RunCommands = ReturnType<typeof makeRunCommands>;

export function useRunCommands(): RunCommands {
  const platform = usePlatform();
  return useMemo(() => makeRunCommands(platform), [platform]);
}

// What the debugger's Suspects panel does: ask the backend for a run's suspects and verdict, prove
// them (forks with what was lost put back, followed until done, cancellable), mark the run good or
// bad, and pin a suspect as a fact (in the designer's document for a native run, in the run's
// facts overlay for an imported or captured one, which has no topology file).
import { useMemo } from "react";
import type { Judgement } from "../bindings/Judgement";
import type { PinnedFact } from "../bindings/PinnedFact";
import type { ProveState } from "../bindings/ProveState";
import type { RunMark } from "../bindings/RunMark";
import { normalizeTopology } from "../model/topology";
import type { Topology } from "../model/types";
import { toPlatformError, type Platform } from "../platform/types";
import { markKey, proveArgs, type ProveOptions } from "../run/prove";
import { factFromSuspect, pinnedAs, runOrigin, withPinnedFact, type Suspect, type SuspectReport, type TransferSuspects } from "../run/suspects";
import { useDebugger } from "../store/debugger";
import { selectDirty, useDesigner } from "../store/designer";
import { overlayOf, useFactOverlay } from "../store/factOverlay";
import { proofOf, useProofs } from "../store/prove";
import { useRun } from "../store/run";
import { useUi } from "../store/ui";
import { usePlatform } from "./platform";

/** A failed status poll is asked again this many times (with a growing pause) before the proof is given up on. */
const STATUS_RETRIES = 5;

/** Where a pin went: the designer's document (`opened`: the run's topology was opened for it), the run's overlay, or nowhere. */
export type PinResult =
  | { kind: "designer"; fact: PinnedFact; opened: boolean; already: boolean }
  | { kind: "overlay"; fact: PinnedFact; already: boolean }
  | { kind: "none"; why: string };

/** Where a native run's facts go: the open document when it has the run's topology's name, else that topology opened. */
export function pinTarget(doc: Topology | null, runTopology: Topology | null): "document" | "open" | "none" {
  if (doc && runTopology && doc.name === runTopology.name) return "document";
  return runTopology ? "open" : "none";
}

export function makeSuspectCommands(platform: Platform) {
  const ui = () => useUi.getState();
  const dbg = () => useDebugger.getState();

  /** The run's suspects at every transfer and its verdict; throws the backend's `{code, message}`. */
  function report(runId: string): Promise<SuspectReport> {
    return platform.suspects({ run_id: runId });
  }

  /** A suspect's text pinned as a fact held by its agent (see `factFromSuspect`). The user is told where it went. */
  async function pin(s: Suspect, t: TransferSuspects): Promise<PinResult> {
    const { overview, runId, topology: runTopology } = dbg();
    if (!overview || !runId) return { kind: "none", why: "No run is open." };
    const refuse = (why: string): PinResult => {
      ui().notify("error", "Cannot pin this as a fact", why);
      return { kind: "none", why };
    };

    if (runOrigin(overview.summary) !== "native") {
      const overlay = overlayOf(useFactOverlay.getState(), runId);
      const have = pinnedAs(overlay, s.text);
      if (have) return { kind: "overlay", fact: have, already: true };
      const agents = runTopology?.agents.map((a) => a.id) ?? overview.steps.actingAgents();
      const taken = new Set([...overlay, ...(runTopology?.facts ?? [])].map((f) => f.id));
      const fact = factFromSuspect(s, t, agents, taken);
      if (!fact) return refuse(`Neither ${s.agent} nor ${t.from} is an agent of this run.`);
      useFactOverlay.getState().pin(runId, fact);
      ui().notify(
        "success",
        `Pinned "${fact.id}" in this run's facts overlay`,
        "This run has no topology file, so the fact is kept by this window. Baton checks facts when a trace is imported: import the trace again with them (baton trace import … --facts) to see where it is lost.",
      );
      return { kind: "overlay", fact, already: false };
    }

    let d = useDesigner.getState();
    const target = pinTarget(d.topology, runTopology);
    if (target === "none" || !runTopology) return refuse("The run carries no topology to pin the fact in.");
    const had = target === "document" ? pinnedAs(d.topology?.facts, s.text) : undefined;
    if (had) return { kind: "designer", fact: had, opened: false, already: true };
    if (target === "open") {
      if (selectDirty(d)) {
        const choice = await ui().ask({
          title: "Replace the open document?",
          message: `${d.topology?.name ?? "The open document"} has unsaved changes. Pinning the fact opens the run's topology (${runTopology.name}) in its place, unsaved; those changes would be lost.`,
          confirmLabel: "Replace",
        });
        if (choice !== "confirm") return { kind: "none", why: "cancelled" };
      }
      const opened = normalizeTopology(structuredClone(runTopology));
      const findings = await platform.lint_topology({ topology: opened }).catch(() => []);
      d.load(opened, null, findings, { dirty: true });
      d = useDesigner.getState();
    }
    const doc = d.topology as Topology;
    const already = pinnedAs(doc.facts, s.text);
    if (already) return { kind: "designer", fact: already, opened: target === "open", already: true };
    const fact = factFromSuspect(
      s,
      t,
      doc.agents.map((a) => a.id),
      new Set((doc.facts ?? []).map((f) => f.id)),
    );
    if (!fact) return refuse(`Neither ${s.agent} nor ${t.from} is an agent of ${doc.name} in the designer.`);
    d.commit((x) => withPinnedFact(x, fact));
    const holder = doc.agents.find((a) => a.id === fact.holders?.[0]);
    ui().notify(
      "success",
      `Pinned "${fact.id}" in ${doc.name}`,
      `Held by ${holder?.name || holder?.id}. ${target === "open" ? "The run's topology was opened in the designer as an unsaved document. " : ""}Undo takes it back; save to keep it; run again to see it checked at every transfer.`,
    );
    return { kind: "designer", fact, opened: target === "open", already: false };
  }

  /** Removes a fact from the open run's overlay. */
  function unpinOverlay(factId: string): void {
    const runId = dbg().runId;
    if (runId) useFactOverlay.getState().unpin(runId, factId);
  }

  /**
   * A topology file for `baton trace import --facts`: the run's (rebuilt) topology holding the
   * overlay's facts, as YAML.
   */
  function factsFile(runTopology: Topology, facts: readonly PinnedFact[]): Promise<string> {
    return platform.export_topology({ topology: { ...runTopology, facts: [...facts] }, format: "yaml" });
  }

  /**
   * Proves the run's suspects (one transfer's, or every transfer's): forks with what was lost put
   * back, answered as `options` say; the forks that change the ending are saved. Progress and the
   * report go to the proofs store (`useProofs`); resolves when the proof has ended.
   */
  async function prove(runId: string, options: ProveOptions, transfer: number | null = null): Promise<void> {
    const proofs = useProofs.getState;
    if (proofOf(proofs(), runId).running) return;
    const d = dbg();
    proofs().begin(runId, transfer, d.runId === runId ? markKey(d.overview?.summary.mark) : "");
    proofs().setOptions(runId, options);
    let job: string;
    try {
      ({ job } = await platform.prove_start(proveArgs(runId, options, transfer)));
    } catch (e) {
      const err = toPlatformError(e);
      proofs().finish(runId, { report: null, error: { code: err.code, message: err.message }, cancelled: false });
      return;
    }
    proofs().started(runId, job);
    // Cancel pressed before the job had an id.
    if (proofOf(proofs(), runId).cancelling) void platform.prove_cancel({ job }).catch(() => undefined);
    let seen = 0;
    let failures = 0;
    for (;;) {
      let s: ProveState;
      try {
        s = await platform.prove_status({ job, seen });
      } catch (e) {
        const err = toPlatformError(e);
        if (++failures > STATUS_RETRIES) {
          proofs().finish(runId, { report: null, error: { code: err.code, message: `lost the proof's progress: ${err.message}` }, cancelled: false });
          return;
        }
        await new Promise((res) => setTimeout(res, 300 * failures));
        continue;
      }
      failures = 0;
      const last = s.progress[s.progress.length - 1];
      if (last && s.progress.length > seen) proofs().progress(runId, last);
      seen = s.progress.length;
      if (s.done) {
        proofs().finish(runId, { report: s.report, error: s.error, cancelled: s.cancelled });
        // The forks that changed the ending were saved: the run lists show them.
        if (s.report?.transfers.some((t) => t.proof?.fork_run || t.suspects.some((x) => x.proof?.fork_run))) useRun.getState().bumpRuns();
        return;
      }
    }
  }

  /** Cancels the run's proof under way: the fork running ends, the rest is reported "not tested (cancelled)". */
  async function cancelProof(runId: string): Promise<void> {
    const p = proofOf(useProofs.getState(), runId);
    if (!p.running) return;
    useProofs.getState().cancelling(runId);
    if (!p.job) return;
    try {
      await platform.prove_cancel({ job: p.job });
    } catch (e) {
      ui().notify("error", "Could not cancel the proof", toPlatformError(e).message);
    }
  }

  /**
   * Marks a saved run good or bad, with why (null clears the mark); the open run's verdict is read
   * again (its ending is judged by the mark now). Resolves with the mark, or undefined when it failed.
   */
  async function mark(runId: string, judgement: Judgement | null, why = ""): Promise<RunMark | null | undefined> {
    const text = why.trim();
    try {
      const m = await platform.mark_run({ run_id: runId, judgement, ...(judgement && text ? { why: text } : {}) });
      dbg().setMark(runId, m);
      useRun.getState().bumpRuns();
      return m;
    } catch (e) {
      ui().notify("error", judgement ? `Could not mark the run ${judgement}` : "Could not clear the run's mark", toPlatformError(e).message);
      return undefined;
    }
  }

  return { report, pin, unpinOverlay, factsFile, prove, cancelProof, mark };
}

export type SuspectCommands = ReturnType<typeof makeSuspectCommands>;

export function useSuspectCommands(): SuspectCommands {
  const platform = usePlatform();
  return useMemo(() => makeSuspectCommands(platform), [platform]);
}

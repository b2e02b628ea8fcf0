// What the debugger's what-if, fork and lineage controls do, bound to the run commands: ask the
// backend for a handoff's what-if, fork a run and open the fork, give an edge a policy in the
// designer's document, compare a fork with its parent.
import { useMemo } from "react";
import type { ContextPolicy } from "../bindings/ContextPolicy";
import type { ForkedRun } from "../bindings/ForkedRun";
import type { ForkSpec } from "../bindings/ForkSpec";
import type { WhatIf } from "../bindings/WhatIf";
import { edgeId, normalizeTopology, policyLabel, updateEdge } from "../model/topology";
import type { Topology } from "../model/types";
import { describeDivergence } from "../run/fork";
import { useDebugger } from "../store/debugger";
import { selectDirty, useDesigner } from "../store/designer";
import { useFork } from "../store/fork";
import { useRun } from "../store/run";
import { useUi } from "../store/ui";
import type { RunCommands } from "./run";

/** Where "Apply to topology" puts the policy: the open document, the run's topology opened in its place, or nowhere (why). */
export type ApplyTarget = { kind: "document" } | { kind: "open" } | { kind: "none"; why: string };

/** The open document is the run's topology when it has the run's name and the edge. */
export function applyTarget(doc: Topology | null, runTopology: Topology | null, edge: string | null): ApplyTarget {
  if (!edge) return { kind: "none", why: "This transfer is an escalation by a guard: it has no edge to set a policy on." };
  if (doc && runTopology && doc.name === runTopology.name && doc.edges.some((e) => edgeId(e) === edge)) return { kind: "document" };
  if (runTopology?.edges.some((e) => edgeId(e) === edge)) return { kind: "open" };
  return { kind: "none", why: "The run carries no topology with this edge to edit." };
}

export function makeForkCommands(run: RunCommands) {
  const platform = run.platform;
  const ui = () => useUi.getState();
  const dbg = () => useDebugger.getState();

  /** Every policy at one handoff of a saved run (no model call); throws the backend's error. */
  function whatIf(runId: string, index: number): Promise<WhatIf> {
    return platform.what_if({ run_id: runId, index });
  }

  /**
   * Forks a saved run, then opens the fork in the debugger at the fork step; resolves with the
   * fork, throws the backend's `{code, message}` (the caller shows it where the fork was asked).
   */
  async function fork(runId: string, spec: ForkSpec): Promise<ForkedRun> {
    const names = new Map(dbg().topology?.agents.map((a) => [a.id, a.name || a.id]) ?? []);
    const agentName = (id: string) => names.get(id) ?? id;
    ui().setBusy("Forking…");
    let forked: ForkedRun;
    try {
      forked = await platform.fork_run({ run_id: runId, fork: spec });
    } finally {
      ui().setBusy(null);
    }
    useFork.getState().remember(forked.run_id, forked.fork);
    useRun.getState().bumpRuns();
    useRun.getState().setLastFork({ runId: forked.run_id, parent: runId });
    if (await run.openRun(forked.run_id, { step: spec.at })) {
      ui().notify("success", `Forked at step ${spec.at}`, `The fork ${describeDivergence(forked.fork.divergence, agentName)}.`);
    }
    return forked;
  }

  /**
   * Gives an edge of the open run's topology `policy` in the designer: in the open document when
   * it is that topology, else in the run's topology opened as an unsaved document (after asking,
   * when the open one has unsaved changes); the editor is shown with the edge selected.
   */
  async function applyPolicy(edge: string, policy: ContextPolicy): Promise<boolean> {
    const runTopology = dbg().topology;
    const d = useDesigner.getState();
    const target = applyTarget(d.topology, runTopology, edge);
    if (target.kind === "none" || !runTopology) {
      ui().notify("error", "Cannot apply the policy", target.kind === "none" ? target.why : undefined);
      return false;
    }
    const set = (t: Topology) => updateEdge(t, edge, (e) => ({ ...e, policy }));
    const select = { agents: [], edges: [edge] };
    if (target.kind === "document") {
      d.commit(set, { select });
    } else {
      if (selectDirty(d)) {
        const choice = await ui().ask({
          title: "Replace the open document?",
          message: `${d.topology?.name ?? "The open document"} has unsaved changes. Applying the policy opens the run's topology (${runTopology.name}) in its place, unsaved; those changes would be lost.`,
          confirmLabel: "Replace",
        });
        if (choice !== "confirm") return false;
      }
      const t = set(normalizeTopology(structuredClone(runTopology)));
      const findings = await platform.lint_topology({ topology: t }).catch(() => []);
      d.load(t, null, findings, { dirty: true });
      useDesigner.getState().setSelection(select);
    }
    const e = runTopology.edges.find((x) => edgeId(x) === edge);
    const name = (id: string | undefined) => runTopology.agents.find((a) => a.id === id)?.name ?? id ?? "";
    dbg().exit();
    ui().notify(
      "success",
      `${name(e?.from)} → ${name(e?.to)} now uses ${policyLabel(policy)}`,
      target.kind === "document" ? "In the open document (Undo takes it back); save it to keep it." : "In the run's topology, opened as an unsaved document.",
    );
    return true;
  }

  /** The compare dialog on a fork and its parent (transfers lined up by from, to and occurrence). */
  function compareWithParent(parent: string, child: string): void {
    ui().setCompare([parent, child]);
  }

  return { whatIf, fork, applyPolicy, compareWithParent };
}

export type ForkCommands = ReturnType<typeof makeForkCommands>;

export function useForkCommands(run: RunCommands): ForkCommands {
  return useMemo(() => makeForkCommands(run), [run]);
}

// The open run's suspects report, asked once per run (and again as a running run completes a
// transfer or ends, or when the run is marked: the mark judges its ending), shared by the
// Suspects tab and the marks in the transfer diff. Not at every new step: on a long run the
// report takes seconds, and a followed run gains steps every second.
import { useMemo } from "react";
import type { SuspectCommands } from "../commands/suspects";
import { useQuery, type Query } from "../hooks/useQuery";
import { markKey, withProofs } from "../run/prove";
import { suspectMarks, type Suspect, type SuspectReport } from "../run/suspects";
import { useDebugger } from "../store/debugger";
import { proofOf, useProofs, type ProofRun } from "../store/prove";

export function useSuspectReport(commands: Pick<SuspectCommands, "report">, enabled = true): Query<SuspectReport> {
  const runId = useDebugger((s) => s.runId);
  const transfers = useDebugger((s) => s.overview?.transfers.length ?? 0);
  const status = useDebugger((s) => s.overview?.summary.outcome.status);
  const mark = useDebugger((s) => markKey(s.overview?.summary.mark));
  return useQuery(["suspects", runId, transfers, status, mark], () => commands.report(runId as string), {
    enabled: enabled && runId !== null,
    staleTime: Infinity,
    keepPrevious: (prev) => prev[1] === runId,
  });
}

/** The suspects of one transfer by item id, for the diff's marks (none while the report loads or failed). */
export function useSuspectMarks(commands: Pick<SuspectCommands, "report">, transfer: number | null): ReadonlyMap<string, Suspect> {
  const q = useSuspectReport(commands, transfer !== null);
  return useMemo(() => suspectMarks(transfer === null ? undefined : q.data, transfer ?? -1), [q.data, transfer]);
}

/**
 * The report the Suspects tab shows: the proofs' report once a proof ran (under the run's current
 * mark); the report read again with those proofs attached when the run was marked since (`stale`:
 * the verdict is not the proofs'); else the ranking alone.
 */
export function useShownReport(commands: Pick<SuspectCommands, "report">): { q: Query<SuspectReport>; report: SuspectReport | undefined; proof: ProofRun; stale: boolean } {
  const q = useSuspectReport(commands);
  const runId = useDebugger((s) => s.runId);
  const mark = useDebugger((s) => markKey(s.overview?.summary.mark));
  const proof = useProofs((s) => proofOf(s, runId));
  const base = q.data;
  const proved = proof.report;
  const merged = useMemo(() => (base && proved ? withProofs(base, proved) : undefined), [base, proved]);
  if (!proved) return { q, report: base, proof, stale: false };
  if (proof.mark === mark) return { q, report: proved, proof, stale: false };
  return { q, report: merged, proof, stale: merged !== undefined && proved.verdict.basis === "proven" };
}

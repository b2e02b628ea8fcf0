// The open run's suspects report, asked once per run (and again as a running run grows), shared
// by the Suspects tab and the marks in the transfer diff.
import { useMemo } from "react";
import type { SuspectCommands } from "../commands/suspects";
import { useQuery, type Query } from "../hooks/useQuery";
import { suspectMarks, type Suspect, type SuspectReport } from "../run/suspects";
import { useDebugger } from "../store/debugger";

export function useSuspectReport(commands: Pick<SuspectCommands, "report">, enabled = true): Query<SuspectReport> {
  const runId = useDebugger((s) => s.runId);
  const steps = useDebugger((s) => s.overview?.steps.length ?? 0);
  return useQuery(["suspects", runId, steps], () => commands.report(runId as string), {
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

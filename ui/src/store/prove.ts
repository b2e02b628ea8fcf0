// Proofs of the runs' suspects, per run: the one running (its job, the latest progress line,
// whether Cancel was pressed), the report with every proof so far, why the last one failed, and
// the options last used. Kept outside the Suspects tab, so a proof goes on while another tab is
// shown, and its report is still there when the tab comes back.
import { create } from "zustand";
import type { ProveProgress } from "../bindings/ProveProgress";
import { defaultProveOptions, mergeProofReports, type ProveOptions } from "../run/prove";
import type { SuspectReport } from "../run/suspects";

export type ProofRun = {
  /** The backend's job, once `prove_start` answered. */
  job: string | null;
  /** The transfer being proved (null: every transfer). */
  transfer: number | null;
  running: boolean;
  /** Cancel was pressed; the job is ending. */
  cancelling: boolean;
  /** The latest progress line of the proof under way (or of the last one). */
  progress: ProveProgress | null;
  /** The report with every proof so far (a later proof of one transfer keeps the others'). */
  report: SuspectReport | null;
  /** The run's mark (`markKey`) when the report's proofs ran: another mark means another ending. */
  mark: string;
  error: { code: string; message: string } | null;
  /** The last proof was cancelled: what it did not reach is "not tested (cancelled)". */
  cancelled: boolean;
};

const IDLE: ProofRun = { job: null, transfer: null, running: false, cancelling: false, progress: null, report: null, mark: "", error: null, cancelled: false };

type ProveState = {
  runs: Record<string, ProofRun>;
  options: Record<string, ProveOptions>;
  begin(runId: string, transfer: number | null, mark: string): void;
  started(runId: string, job: string): void;
  progress(runId: string, line: ProveProgress): void;
  cancelling(runId: string): void;
  finish(runId: string, result: { report: SuspectReport | null; error: { code: string; message: string } | null; cancelled: boolean }): void;
  setOptions(runId: string, options: ProveOptions): void;
};

/** The proof state of a run (idle when none ran). */
export const proofOf = (s: Pick<ProveState, "runs">, runId: string | null): ProofRun => (runId ? (s.runs[runId] ?? IDLE) : IDLE);

/** The options of a run's next proof: the last used, else the default for where it came from. */
export const optionsOf = (s: Pick<ProveState, "options">, runId: string | null, hasMockScripts: boolean): ProveOptions =>
  (runId ? s.options[runId] : undefined) ?? (hasMockScripts ? MOCK_DEFAULT : MODELS_DEFAULT);

// One object each (a selector must answer the same object for the same state).
const MOCK_DEFAULT = defaultProveOptions(true);
const MODELS_DEFAULT = defaultProveOptions(false);

export const useProofs = create<ProveState>()((set, get) => {
  const patch = (runId: string, p: Partial<ProofRun>) => set({ runs: { ...get().runs, [runId]: { ...proofOf(get(), runId), ...p } } });
  return {
    runs: {},
    options: {},
    begin(runId, transfer, mark) {
      const prev = proofOf(get(), runId);
      // Proofs made under another mark compared other endings: they are not merged with the new ones.
      patch(runId, { job: null, transfer, running: true, cancelling: false, progress: null, error: null, cancelled: false, mark, report: prev.mark === mark ? prev.report : null });
    },
    started(runId, job) {
      patch(runId, { job });
    },
    progress(runId, line) {
      patch(runId, { progress: line });
    },
    cancelling(runId) {
      if (proofOf(get(), runId).running) patch(runId, { cancelling: true });
    },
    finish(runId, { report, error, cancelled }) {
      const prev = proofOf(get(), runId);
      patch(runId, { running: false, cancelling: false, error, cancelled, report: report ? mergeProofReports(prev.report, report) : prev.report });
    },
    setOptions(runId, options) {
      set({ options: { ...get().options, [runId]: options } });
    },
  };
});

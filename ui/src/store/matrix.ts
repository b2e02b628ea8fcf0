// The Matrix tab's state: its form per topology (kept while the user switches tabs), the last `run_matrix` report, whether a matrix is running, and why the last one failed (with the backend's code).
import { create } from "zustand";
import type { MatrixReport } from "../bindings/MatrixReport";
import type { MatrixForm } from "../model/matrix";

type MatrixState = {
  /** The topology the form, report and error are of (its name). */
  topology: string | null;
  form: MatrixForm | null;
  report: MatrixReport | null;
  running: boolean;
  error: string | null;
  setForm(topology: string, form: MatrixForm): void;
  begin(topology: string): void;
  finish(topology: string, report: MatrixReport): void;
  fail(topology: string, error: string): void;
};

export const useMatrix = create<MatrixState>()((set, get) => ({
  topology: null,
  form: null,
  report: null,
  running: false,
  error: null,
  setForm(topology, form) {
    if (get().topology !== topology) set({ topology, form, report: null, running: false, error: null });
    else set({ form });
  },
  begin(topology) {
    if (get().topology !== topology) set({ topology, form: null, report: null });
    set({ running: true, error: null });
  },
  finish(topology, report) {
    if (get().topology !== topology) return;
    set({ report, running: false, error: null });
  },
  fail(topology, error) {
    if (get().topology !== topology) return;
    set({ running: false, error });
  },
}));

// The Runs home's state: whether the window shows it (over the editor or the debugger), and its
// filters, kept while it is closed so that coming back finds the same list.
import { create } from "zustand";
import { NO_FILTERS, type RunFilters } from "../run/runsQuery";

type RunsHomeState = {
  open: boolean;
  filters: RunFilters;
  show(): void;
  hide(): void;
  toggle(): void;
  setFilters(patch: Partial<RunFilters>): void;
  clearFilters(): void;
};

export const useRunsHome = create<RunsHomeState>()((set, get) => ({
  open: false,
  filters: NO_FILTERS,
  show() {
    set({ open: true });
  },
  hide() {
    set({ open: false });
  },
  toggle() {
    set({ open: !get().open });
  },
  setFilters(patch) {
    set({ filters: { ...get().filters, ...patch } });
  },
  clearFilters() {
    set({ filters: NO_FILTERS });
  },
}));

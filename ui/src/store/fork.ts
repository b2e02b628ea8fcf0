// Fork state that outlives one component: the fork dialog's request (which run, which step) and
// what this window learned of the forks it made (a run list does not carry a fork's divergence).
import { create } from "zustand";
import type { ForkInfo } from "../bindings/ForkInfo";

export type ForkRequest = { runId: string; step: number };

type ForkState = {
  /** The fork dialog, open on this run and step; null: closed. */
  dialog: ForkRequest | null;
  /** Forks made in this window, by their run id: what changed and where they left the recording. */
  made: Record<string, ForkInfo>;
  openDialog(req: ForkRequest): void;
  closeDialog(): void;
  remember(runId: string, info: ForkInfo): void;
};

export const useFork = create<ForkState>()((set, get) => ({
  dialog: null,
  made: {},
  openDialog(dialog) {
    set({ dialog });
  },
  closeDialog() {
    set({ dialog: null });
  },
  remember(runId, info) {
    set({ made: { ...get().made, [runId]: info } });
  },
}));

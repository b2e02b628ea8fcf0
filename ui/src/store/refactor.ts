// The supervisor refactor's pending preview: the command asks, the preview dialog answers.
import { create } from "zustand";
import type { Change } from "../bindings/Change";
import type { Finding, Topology } from "../model/types";

export type RefactorPreview = {
  before: Topology;
  after: Topology;
  chain: string[];
  chosen: boolean;
  changes: Change[];
  findings: Finding[];
};

type State = {
  preview: RefactorPreview | null;
  resolve: ((apply: boolean) => void) | null;
  /** Shows the preview; resolves true when the user applies it. */
  ask(p: RefactorPreview): Promise<boolean>;
  answer(apply: boolean): void;
};

export const useRefactorPreview = create<State>((set, get) => ({
  preview: null,
  resolve: null,
  ask: (preview) =>
    new Promise<boolean>((resolve) => {
      get().resolve?.(false);
      set({ preview, resolve });
    }),
  answer: (apply) => {
    get().resolve?.(apply);
    set({ preview: null, resolve: null });
  },
}));


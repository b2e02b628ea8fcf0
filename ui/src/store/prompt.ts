// A promise-returning path prompt (Save As and export in the browser, where there is no native dialog).
// `check` refuses a path before anything is written (and may offer a corrected one); `submit`
// writes it: its error keeps the prompt open with the typed path, so nothing typed is lost.
import { create } from "zustand";

export type PathProblem = { ok: true } | { ok: false; reason: string; fixed?: string };

export type PathPrompt = {
  title: string;
  message: string;
  defaultPath: string;
  confirmLabel: string;
  /** Refuses a path with why (and the path it should be); checked before `submit`. */
  check?: (path: string) => PathProblem;
  /** Does the work; resolves with an error to show (the prompt stays open) or null when done. */
  submit?: (path: string) => Promise<string | null>;
  resolve: (path: string | null) => void;
};

type PromptState = {
  prompt: PathPrompt | null;
  ask(p: Omit<PathPrompt, "resolve">): Promise<string | null>;
};

export const usePrompt = create<PromptState>()((set) => ({
  prompt: null,
  ask(p) {
    return new Promise((resolve) => {
      set({
        prompt: {
          ...p,
          resolve: (path) => {
            set({ prompt: null });
            resolve(path);
          },
        },
      });
    });
  },
}));

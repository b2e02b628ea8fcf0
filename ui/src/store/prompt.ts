// A promise-returning path prompt (Save As and export in the browser, where there is no native dialog).
import { create } from "zustand";

export type PathPrompt = {
  title: string;
  message: string;
  defaultPath: string;
  confirmLabel: string;
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

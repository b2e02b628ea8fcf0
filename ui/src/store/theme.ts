// The colour theme (issue #31 item 10): the Appearance setting (System, Light or Dark; kept in
// localStorage like the other view preferences) resolved against the system's
// prefers-color-scheme, and set as data-theme on <html>, where the CSS palette reads it. On
// System the theme follows the system's preference live.
import { create, type StoreApi, type UseBoundStore } from "zustand";

export type ThemeChoice = "system" | "light" | "dark";
export type Theme = "light" | "dark";

export const THEME_CHOICES: readonly ThemeChoice[] = ["system", "light", "dark"];
export const THEME_KEY = "baton.theme";
export const DARK_QUERY = "(prefers-color-scheme: dark)";

/** The part of a MediaQueryList the theme listens to (a fake in tests). */
export type DarkQuery = {
  readonly matches: boolean;
  addEventListener(type: "change", listener: (e: { matches: boolean }) => void): void;
  removeEventListener(type: "change", listener: (e: { matches: boolean }) => void): void;
};

/** A stored value as a choice: anything but "light" or "dark" is System. */
export function parseChoice(value: unknown): ThemeChoice {
  return value === "light" || value === "dark" ? value : "system";
}

export function resolveTheme(choice: ThemeChoice, systemDark: boolean): Theme {
  if (choice === "system") return systemDark ? "dark" : "light";
  return choice;
}

type ThemeState = {
  choice: ThemeChoice;
  /** Whether the system prefers dark (prefers-color-scheme). */
  systemDark: boolean;
  /** The theme shown: the choice, or on System the system's preference. */
  theme: Theme;
  setChoice(choice: ThemeChoice): void;
  setSystemDark(dark: boolean): void;
};

export type ThemeStore = UseBoundStore<StoreApi<ThemeState>>;

export type ThemeEnv = { storage?: Pick<Storage, "getItem" | "setItem"> | null; query?: DarkQuery | null };

function defaultEnv(): ThemeEnv {
  let storage: ThemeEnv["storage"] = null;
  let query: DarkQuery | null = null;
  try {
    storage = globalThis.localStorage ?? null;
  } catch {
    /* storage refused (private mode): System, not remembered */
  }
  try {
    query = typeof globalThis.matchMedia === "function" ? globalThis.matchMedia(DARK_QUERY) : null;
  } catch {
    /* no media queries: the system counts as light */
  }
  return { storage, query };
}

/** A theme store over `env` (the window's localStorage and media query unless given). */
export function createThemeStore(env: ThemeEnv = defaultEnv()): ThemeStore {
  let stored: string | null = null;
  try {
    stored = env.storage?.getItem(THEME_KEY) ?? null;
  } catch {
    /* unreadable: System */
  }
  const choice = parseChoice(stored);
  const systemDark = env.query?.matches ?? false;
  return create<ThemeState>()((set, get) => ({
    choice,
    systemDark,
    theme: resolveTheme(choice, systemDark),
    setChoice(next) {
      try {
        env.storage?.setItem(THEME_KEY, next);
      } catch {
        /* storage refused: applied, not remembered */
      }
      set({ choice: next, theme: resolveTheme(next, get().systemDark) });
    },
    setSystemDark(dark) {
      set({ systemDark: dark, theme: resolveTheme(get().choice, dark) });
    },
  }));
}

/**
 * Sets the store's theme as data-theme on `root` now and on every change, and follows the
 * system's preference (`query`'s change events). Returns a function that stops both.
 */
export function followTheme(store: ThemeStore, root: HTMLElement, query: DarkQuery | null): () => void {
  const apply = (theme: Theme) => {
    if (root.dataset.theme !== theme) root.dataset.theme = theme;
  };
  if (query) store.getState().setSystemDark(query.matches);
  apply(store.getState().theme);
  const unsubscribe = store.subscribe((s) => apply(s.theme));
  const onChange = (e: { matches: boolean }) => store.getState().setSystemDark(e.matches);
  query?.addEventListener("change", onChange);
  return () => {
    unsubscribe();
    query?.removeEventListener("change", onChange);
  };
}

const env = defaultEnv();

/** The window's theme. */
export const useTheme: ThemeStore = createThemeStore(env);

/** Called once at startup, before the first render (main.tsx): data-theme is set from then on. */
export function startTheme(): () => void {
  return followTheme(useTheme, document.documentElement, env.query ?? null);
}

// The theme's resolution (issue #31 item 10): System follows prefers-color-scheme, live; Light and
// Dark hold whatever the system says; the choice is remembered; data-theme on the root follows.
import { describe, expect, it } from "vitest";
import { createThemeStore, followTheme, parseChoice, resolveTheme, THEME_KEY, type DarkQuery } from "./theme";

/** A prefers-color-scheme query the test flips. */
function fakeQuery(dark: boolean) {
  const listeners = new Set<(e: { matches: boolean }) => void>();
  const q = {
    matches: dark,
    addEventListener: (_: "change", l: (e: { matches: boolean }) => void) => void listeners.add(l),
    removeEventListener: (_: "change", l: (e: { matches: boolean }) => void) => void listeners.delete(l),
    set(next: boolean) {
      q.matches = next;
      for (const l of listeners) l({ matches: next });
    },
    listeners,
  };
  return q satisfies DarkQuery;
}

function fakeStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v), data };
}

describe("theme resolution", () => {
  it("System is the system's preference; Light and Dark are themselves", () => {
    expect(resolveTheme("system", false)).toBe("light");
    expect(resolveTheme("system", true)).toBe("dark");
    expect(resolveTheme("light", true)).toBe("light");
    expect(resolveTheme("light", false)).toBe("light");
    expect(resolveTheme("dark", false)).toBe("dark");
    expect(resolveTheme("dark", true)).toBe("dark");
  });

  it("a stored value other than light or dark (none, garbage) is System", () => {
    expect(parseChoice("light")).toBe("light");
    expect(parseChoice("dark")).toBe("dark");
    expect(parseChoice("system")).toBe("system");
    expect(parseChoice(null)).toBe("system");
    expect(parseChoice("purple")).toBe("system");
  });

  it("starts from the stored choice and the system's preference", () => {
    expect(createThemeStore({ storage: fakeStorage(), query: fakeQuery(true) }).getState()).toMatchObject({ choice: "system", theme: "dark" });
    expect(createThemeStore({ storage: fakeStorage(), query: fakeQuery(false) }).getState()).toMatchObject({ choice: "system", theme: "light" });
    expect(createThemeStore({ storage: fakeStorage({ [THEME_KEY]: "light" }), query: fakeQuery(true) }).getState()).toMatchObject({ choice: "light", theme: "light" });
    expect(createThemeStore({ storage: fakeStorage({ [THEME_KEY]: "dark" }), query: fakeQuery(false) }).getState()).toMatchObject({ choice: "dark", theme: "dark" });
    // no storage, no media queries: System, light
    expect(createThemeStore({ storage: null, query: null }).getState()).toMatchObject({ choice: "system", theme: "light" });
  });

  it("a choice is applied at once and remembered; unreadable or refusing storage is survived", () => {
    const storage = fakeStorage();
    const store = createThemeStore({ storage, query: fakeQuery(true) });
    store.getState().setChoice("light");
    expect(store.getState().theme).toBe("light");
    expect(storage.data.get(THEME_KEY)).toBe("light");
    // the next start reads it back
    expect(createThemeStore({ storage, query: fakeQuery(true) }).getState().theme).toBe("light");

    const refusing = {
      getItem: () => {
        throw new Error("denied");
      },
      setItem: () => {
        throw new Error("denied");
      },
    };
    const s2 = createThemeStore({ storage: refusing, query: fakeQuery(true) });
    expect(s2.getState().theme).toBe("dark");
    s2.getState().setChoice("light");
    expect(s2.getState().theme).toBe("light");
  });

  it("data-theme on the root follows the choice and, on System, the system's preference live", () => {
    const query = fakeQuery(false);
    const store = createThemeStore({ storage: fakeStorage(), query });
    const root = document.createElement("html");
    const stop = followTheme(store, root, query);
    expect(root.dataset.theme).toBe("light");

    // the system turns dark: System follows
    query.set(true);
    expect(root.dataset.theme).toBe("dark");
    // Light holds while the system is dark…
    store.getState().setChoice("light");
    expect(root.dataset.theme).toBe("light");
    query.set(false);
    query.set(true);
    expect(root.dataset.theme).toBe("light");
    // …and Dark while it is light
    store.getState().setChoice("dark");
    query.set(false);
    expect(root.dataset.theme).toBe("dark");
    // back on System: the system's preference now
    store.getState().setChoice("system");
    expect(root.dataset.theme).toBe("light");
    query.set(true);
    expect(root.dataset.theme).toBe("dark");

    // stopped: no listener left, the root no longer follows
    stop();
    expect(query.listeners.size).toBe(0);
    query.set(false);
    store.getState().setChoice("dark");
    store.getState().setChoice("light");
    expect(root.dataset.theme).toBe("dark");
  });

  it("following re-reads the system's preference (it may have changed since the store was made)", () => {
    const query = fakeQuery(false);
    const store = createThemeStore({ storage: fakeStorage(), query });
    query.matches = true; // changed with no event seen yet
    const root = document.createElement("html");
    followTheme(store, root, query);
    expect(root.dataset.theme).toBe("dark");
  });
});

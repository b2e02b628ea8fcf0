// Every key the shortcut sheet lists does what it says: each entry of SHORTCUTS with a key event
// is pressed against the hooks that handle keys, and the command it names must be the one called.
import { renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SHORTCUTS } from "../commands/keymap";
import { useDebuggerKeys } from "../debugger/useDebuggerKeys";
import { useDebugger } from "../store/debugger";
import { useUi } from "../store/ui";
import { useSheetKeys } from "./useSheetKeys";
import { useShortcuts } from "./useShortcuts";

type Spies = Record<string, ReturnType<typeof vi.fn>>;

function spies(): Spies {
  return new Proxy({} as Spies, { get: (t, k: string) => (t[k] ??= vi.fn()) });
}

function press(p: { key: string; mod?: boolean; shift?: boolean }) {
  window.dispatchEvent(new KeyboardEvent("keydown", { key: p.key, ctrlKey: !!p.mod, shiftKey: !!p.shift, bubbles: true, cancelable: true }));
}

describe("the shortcut table", () => {
  beforeEach(() => {
    useUi.setState({ dialog: null, confirm: null, compare: null });
    useDebugger.setState({ mode: "design" });
  });
  afterEach(() => {
    useDebugger.setState({ mode: "design" });
    useUi.setState({ dialog: null });
  });

  for (const s of SHORTCUTS.filter((x) => x.press)) {
    it(`${s.mode}: ${s.keys} → ${s.calls}`, () => {
      const commands = spies();
      const run = spies();
      useDebugger.setState({ mode: s.mode === "debug" ? "debug" : "design" });
      renderHook(() => {
        useShortcuts(commands as never, run as never);
        useDebuggerKeys(run as never, s.mode === "debug", () => useUi.getState().dialog !== null);
        useSheetKeys();
      });
      press(s.press as NonNullable<typeof s.press>);
      const [where, name] = (s.calls as string).split(".") as [string, string];
      if (where === "ui") expect(useUi.getState().dialog).toBe(name);
      else expect((where === "commands" ? commands : run)[name]).toHaveBeenCalled();
    });
  }

  it("lists who handles the keys it cannot press", () => {
    for (const s of SHORTCUTS.filter((x) => !x.press)) expect(s.handledBy).toBeTruthy();
  });

  it("? and Ctrl+K close their own sheet; ? waits while a field has the keyboard", () => {
    renderHook(() => useSheetKeys());
    press({ key: "?", shift: true });
    expect(useUi.getState().dialog).toBe("shortcuts");
    press({ key: "?", shift: true });
    expect(useUi.getState().dialog).toBeNull();
    const input = document.createElement("input");
    document.body.appendChild(input);
    input.dispatchEvent(new KeyboardEvent("keydown", { key: "?", shiftKey: true, bubbles: true }));
    expect(useUi.getState().dialog).toBeNull();
    input.dispatchEvent(new KeyboardEvent("keydown", { key: "k", ctrlKey: true, bubbles: true }));
    expect(useUi.getState().dialog).toBe("palette");
    press({ key: "k", mod: true });
    expect(useUi.getState().dialog).toBeNull();
    input.remove();
  });
});

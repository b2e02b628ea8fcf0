// The palette's fuzzy filter and its entries (what they call, when they are refused).
import { describe, expect, it, vi } from "vitest";
import { fuzzyFilter, fuzzyScore, paletteEntries, type PaletteContext } from "./palette";

const fn = () => vi.fn();

function context(over: Partial<PaletteContext> = {}): PaletteContext {
  const commands = new Proxy({}, { get: (target: Record<string, unknown>, k: string) => (target[k] ??= fn()) });
  const run = new Proxy({}, { get: (target: Record<string, unknown>, k: string) => (target[k] ??= fn()) });
  return {
    commands: commands as never,
    run: run as never,
    mode: "design",
    hasDoc: true,
    runBlocked: null,
    canUndo: true,
    canRedo: false,
    hasSelection: false,
    running: false,
    paused: false,
    minimap: true,
    ui: { showShortcuts: fn(), toggleMinimap: fn(), showTab: fn(), newScenario: fn() },
    ...over,
  };
}

describe("fuzzy filter", () => {
  const items = [{ label: "Save" }, { label: "Save As…" }, { label: "Auto-layout" }, { label: "Fit view" }, { label: "Show saved runs", words: "history" }];

  it("keeps the labels whose letters appear in order", () => {
    expect(fuzzyFilter(items, "sv").map((x) => x.label)).toEqual(["Save", "Save As…", "Show saved runs"]);
    expect(fuzzyFilter(items, "al").map((x) => x.label)).toEqual(["Auto-layout"]);
    expect(fuzzyFilter(items, "vw").map((x) => x.label)).toEqual(["Fit view"]);
    expect(fuzzyFilter(items, "zz")).toEqual([]);
    expect(fuzzyFilter(items, "")).toHaveLength(items.length);
  });

  it("ranks word starts and runs of letters first", () => {
    expect(fuzzyFilter(items, "fv")[0]?.label).toBe("Fit view");
    expect(fuzzyFilter(items, "save as")[0]?.label).toBe("Save As…");
    expect((fuzzyScore("lay", "Auto-layout") ?? 0) > (fuzzyScore("lay", "Show all ways") ?? 0)).toBe(true);
  });

  it("finds an entry by its other words, after the label matches", () => {
    expect(fuzzyFilter(items, "hist").map((x) => x.label)).toEqual(["Show saved runs"]);
  });
});

describe("palette entries", () => {
  it("runs the designer's and the run commands", () => {
    const c = context();
    const entries = paletteEntries(c);
    entries.find((e) => e.id === "layout")?.perform();
    expect((c.commands as unknown as Record<string, ReturnType<typeof vi.fn>>).layout).toHaveBeenCalled();
    entries.find((e) => e.id === "run")?.perform();
    expect((c.run as unknown as Record<string, ReturnType<typeof vi.fn>>).startRun).toHaveBeenCalled();
    expect(entries.find((e) => e.id === "save")?.keys).toMatch(/S$/);
  });

  it("says why an entry cannot run now", () => {
    const entries = paletteEntries(context({ hasDoc: false, runBlocked: "Open or create a topology first.", canUndo: false }));
    expect(entries.find((e) => e.id === "run")?.disabled).toBe("Open or create a topology first.");
    expect(entries.find((e) => e.id === "undo")?.disabled).toBe("Nothing to undo.");
    expect(entries.find((e) => e.id === "save")?.disabled).toBe("Open or create a topology first.");
    expect(entries.find((e) => e.id === "new")?.disabled).toBeUndefined();
  });

  it("offers the debugger's commands in debug mode only", () => {
    const design = paletteEntries(context()).map((e) => e.id);
    const debug = paletteEntries(context({ mode: "debug" })).map((e) => e.id);
    expect(design).not.toContain("next-transfer");
    expect(debug).toContain("next-transfer");
    expect(debug).not.toContain("save");
  });
});

// The keyboard shortcuts as one table: the shortcut sheet lists it, the command palette shows each
// command's keys from it, and a test presses every key here against `useShortcuts`,
// `useDebuggerKeys` and `useSheetKeys` (the hooks that handle them), so the table cannot drift.
const isMac = typeof navigator !== "undefined" && /Mac/.test(navigator.platform);
/** The modifier as shown in hints: ⌘ on macOS, Ctrl+ elsewhere. */
export const MOD = isMac ? "⌘" : "Ctrl+";

export type KeyMode = "design" | "debug" | "anywhere";

export type Press = { key: string; mod?: boolean; shift?: boolean };

export type Shortcut = {
  /** As shown: `Ctrl+Shift+S`, `→`. */
  keys: string;
  label: string;
  mode: KeyMode;
  /** The key event, for the test; absent for what another part handles (the canvas, a popover). */
  press?: Press;
  /** What it calls: `commands.<name>`, `run.<name>` or `ui.<dialog>`, for the test and the palette. */
  calls?: string;
  /** Who handles it when `press` is absent. */
  handledBy?: string;
};

export const SHORTCUTS: readonly Shortcut[] = [
  { keys: "?", label: "Show these shortcuts", mode: "anywhere", press: { key: "?", shift: true }, calls: "ui.shortcuts" },
  { keys: `${MOD}K`, label: "Command palette", mode: "anywhere", press: { key: "k", mod: true }, calls: "ui.palette" },

  { keys: "F5", label: "Run the topology", mode: "design", press: { key: "F5" }, calls: "run.startRun" },
  { keys: "F9", label: "Toggle a breakpoint on the selected edge", mode: "design", press: { key: "F9" }, calls: "run.toggleBreakpoint" },
  { keys: `${MOD}N`, label: "New topology", mode: "design", press: { key: "n", mod: true }, calls: "commands.newTopology" },
  { keys: `${MOD}O`, label: "Open…", mode: "design", press: { key: "o", mod: true }, calls: "commands.showOpen" },
  { keys: `${MOD}Shift+O`, label: "Open trace…", mode: "design", press: { key: "o", mod: true, shift: true }, calls: "run.openTrace" },
  { keys: `${MOD}S`, label: "Save", mode: "design", press: { key: "s", mod: true }, calls: "commands.save" },
  { keys: `${MOD}Shift+S`, label: "Save As…", mode: "design", press: { key: "s", mod: true, shift: true }, calls: "commands.saveAs" },
  { keys: `${MOD}E`, label: "Export…", mode: "design", press: { key: "e", mod: true }, calls: "commands.showExport" },
  { keys: `${MOD}Z`, label: "Undo", mode: "design", press: { key: "z", mod: true }, calls: "commands.undo" },
  { keys: `${MOD}Shift+Z`, label: "Redo", mode: "design", press: { key: "z", mod: true, shift: true }, calls: "commands.redo" },
  { keys: `${MOD}Y`, label: "Redo", mode: "design", press: { key: "y", mod: true }, calls: "commands.redo" },
  { keys: `${MOD}A`, label: "Select everything", mode: "design", press: { key: "a", mod: true }, calls: "commands.selectAll" },
  { keys: "Esc", label: "Clear the selection", mode: "design", press: { key: "Escape" }, calls: "commands.clearSelection" },
  { keys: "L", label: "Auto-layout", mode: "design", press: { key: "l" }, calls: "commands.layout" },
  { keys: "F", label: "Fit view", mode: "design", press: { key: "f" }, calls: "commands.fitView" },
  { keys: "Shift+A", label: "Add an agent", mode: "design", press: { key: "A", shift: true }, calls: "commands.addAgent" },
  { keys: "Delete / Backspace", label: "Delete the selection", mode: "design", handledBy: "the canvas" },
  { keys: "H / D", label: "After connecting two agents: handoff / delegation", mode: "design", handledBy: "the edge chooser" },

  { keys: "→ / ←", label: "Next / previous step", mode: "debug", press: { key: "ArrowRight" }, calls: "run.stepBy" },
  { keys: "N", label: "Next transfer", mode: "debug", press: { key: "n" }, calls: "run.nextTransfer" },
  { keys: "Shift+N", label: "Previous transfer", mode: "debug", press: { key: "N", shift: true }, calls: "run.prevTransfer" },
  { keys: "Home", label: "First step", mode: "debug", press: { key: "Home" }, calls: "run.home" },
  { keys: "End", label: "Last step", mode: "debug", press: { key: "End" }, calls: "run.end" },
  { keys: "Esc", label: "Back to the editor", mode: "debug", press: { key: "Escape" }, calls: "run.exitDebugger" },
  { keys: `${MOD}Shift+O`, label: "Open trace…", mode: "debug", press: { key: "o", mod: true, shift: true }, calls: "run.openTrace" },
];

export const MODE_TITLES: Record<KeyMode, string> = { anywhere: "Anywhere", design: "Designing", debug: "Debugging a run" };

/** The keys of a command (`commands.save`) in a mode, for the palette's hints. */
export function keysOf(calls: string, mode: "design" | "debug"): string | undefined {
  return SHORTCUTS.find((s) => s.calls === calls && (s.mode === mode || s.mode === "anywhere"))?.keys;
}

// The command palette's list (the designer's and the run commands, with their keys and whether
// they can run now) and its fuzzy filter: the letters typed, in order, anywhere in a label, with
// word starts and runs of letters ranked first.
import type { Commands } from "./designer";
import { keysOf } from "./keymap";
import type { RunCommands } from "./run";

export type PaletteEntry = {
  id: string;
  label: string;
  group: string;
  keys?: string;
  /** Why it cannot run now; absent when it can. */
  disabled?: string;
  /** Other words it is found by. */
  words?: string;
  perform: () => void;
};

export type PaletteContext = {
  commands: Commands;
  run: RunCommands;
  mode: "design" | "debug";
  hasDoc: boolean;
  /** Why a run cannot start (`runBlocker`), or null. */
  runBlocked: string | null;
  canUndo: boolean;
  canRedo: boolean;
  hasSelection: boolean;
  running: boolean;
  paused: boolean;
  minimap: boolean;
  ui: {
    showShortcuts: () => void;
    toggleMinimap: () => void;
    showTab: (tab: "problems" | "run" | "runs") => void;
    newScenario: () => void;
  };
};

const NO_DOC = "Open or create a topology first.";

export function paletteEntries(c: PaletteContext): PaletteEntry[] {
  const { commands: d, run: r, mode } = c;
  const k = (calls: string) => keysOf(calls, mode);
  const doc = c.hasDoc ? undefined : NO_DOC;
  const all: (PaletteEntry & { modes: ("design" | "debug")[] })[] = [
    { id: "new", label: "New topology", group: "File", keys: k("commands.newTopology"), perform: () => void d.newTopology(), modes: ["design"] },
    { id: "open", label: "Open topology…", group: "File", keys: k("commands.showOpen"), perform: d.showOpen, modes: ["design"] },
    { id: "open-trace", label: "Open trace…", group: "File", words: "import", keys: k("run.openTrace"), perform: () => void r.openTrace(), modes: ["design", "debug"] },
    { id: "import-code", label: "Import from code…", group: "File", words: "python sdk adk", perform: d.showImportCode, modes: ["design"] },
    { id: "save", label: "Save", group: "File", keys: k("commands.save"), disabled: doc, perform: () => void d.save(), modes: ["design"] },
    { id: "save-as", label: "Save As…", group: "File", keys: k("commands.saveAs"), disabled: doc, perform: () => void d.saveAs(), modes: ["design"] },
    { id: "export", label: "Export…", group: "File", words: "python mermaid dot json yaml adk", keys: k("commands.showExport"), disabled: doc, perform: d.showExport, modes: ["design"] },
    { id: "settings", label: "Settings: model providers", group: "File", words: "keys api", perform: d.showSettings, modes: ["design", "debug"] },

    { id: "undo", label: "Undo", group: "Edit", keys: k("commands.undo"), disabled: c.canUndo ? undefined : "Nothing to undo.", perform: d.undo, modes: ["design"] },
    { id: "redo", label: "Redo", group: "Edit", keys: k("commands.redo"), disabled: c.canRedo ? undefined : "Nothing to redo.", perform: d.redo, modes: ["design"] },
    { id: "select-all", label: "Select everything", group: "Edit", keys: k("commands.selectAll"), disabled: doc, perform: d.selectAll, modes: ["design"] },
    { id: "delete", label: "Delete the selection", group: "Edit", keys: "Delete", disabled: doc ?? (c.hasSelection ? undefined : "Select agents or edges first."), perform: d.deleteSelection, modes: ["design"] },
    { id: "add-agent", label: "Add an agent", group: "Edit", keys: k("commands.addAgent"), disabled: doc, perform: () => void d.addAgent("agent"), modes: ["design"] },
    { id: "add-supervisor", label: "Add a supervisor", group: "Edit", disabled: doc, perform: () => void d.addAgent("supervisor"), modes: ["design"] },
    { id: "add-human", label: "Add a human", group: "Edit", disabled: doc, perform: () => void d.addAgent("human"), modes: ["design"] },
    { id: "new-scenario", label: "New scenario", group: "Edit", words: "mock script input", disabled: doc, perform: c.ui.newScenario, modes: ["design"] },
    { id: "refactor", label: "Refactor to supervisor", group: "Edit", words: "delegate", disabled: doc, perform: () => void d.refactorSupervisor(), modes: ["design"] },

    { id: "layout", label: "Auto-layout", group: "View", keys: k("commands.layout"), disabled: doc, perform: () => void d.layout(), modes: ["design"] },
    { id: "fit", label: "Fit view", group: "View", words: "zoom", keys: k("commands.fitView"), disabled: doc, perform: d.fitView, modes: ["design"] },
    { id: "minimap", label: c.minimap ? "Hide the minimap" : "Show the minimap", group: "View", disabled: doc, perform: c.ui.toggleMinimap, modes: ["design"] },
    { id: "tab-problems", label: "Show Problems", group: "View", words: "lint findings", disabled: doc, perform: () => c.ui.showTab("problems"), modes: ["design"] },
    { id: "tab-run", label: "Show the Run tab", group: "View", disabled: doc, perform: () => c.ui.showTab("run"), modes: ["design"] },
    { id: "tab-runs", label: "Show saved runs", group: "View", words: "history", disabled: doc, perform: () => c.ui.showTab("runs"), modes: ["design"] },
    { id: "shortcuts", label: "Keyboard shortcuts", group: "View", words: "keys help", keys: "?", perform: c.ui.showShortcuts, modes: ["design", "debug"] },

    { id: "run", label: "Run the topology", group: "Run", words: "start", keys: k("run.startRun"), disabled: c.runBlocked ?? undefined, perform: () => void r.startRun(), modes: ["design"] },
    { id: "cancel", label: "Cancel the run", group: "Run", disabled: c.running ? undefined : "No run is going on.", perform: () => void r.cancelRun(), modes: ["design"] },
    { id: "resume", label: "Resume the run", group: "Run", disabled: c.paused ? undefined : "The run is not paused.", perform: () => void r.resumeRun(), modes: ["design"] },
    { id: "breakpoint", label: "Toggle a breakpoint on the selected edge", group: "Run", keys: k("run.toggleBreakpoint"), disabled: doc, perform: () => r.toggleBreakpoint(), modes: ["design"] },

    { id: "next-step", label: "Next step", group: "Debugger", keys: "→", perform: () => r.stepBy(1), modes: ["debug"] },
    { id: "prev-step", label: "Previous step", group: "Debugger", keys: "←", perform: () => r.stepBy(-1), modes: ["debug"] },
    { id: "next-transfer", label: "Next transfer", group: "Debugger", keys: k("run.nextTransfer"), perform: r.nextTransfer, modes: ["debug"] },
    { id: "prev-transfer", label: "Previous transfer", group: "Debugger", keys: k("run.prevTransfer"), perform: r.prevTransfer, modes: ["debug"] },
    { id: "first-step", label: "First step", group: "Debugger", keys: k("run.home"), perform: r.home, modes: ["debug"] },
    { id: "last-step", label: "Last step", group: "Debugger", keys: k("run.end"), perform: r.end, modes: ["debug"] },
    { id: "edit-run-topology", label: "Edit the run's topology", group: "Debugger", perform: () => void d.editRunTopology(), modes: ["debug"] },
    { id: "exit-debugger", label: "Back to the editor", group: "Debugger", keys: k("run.exitDebugger"), perform: r.exitDebugger, modes: ["debug"] },
  ];
  return all.filter((e) => e.modes.includes(mode)).map(({ modes: _modes, ...e }) => e);
}

/**
 * How well `query` matches `text`: null unless every letter of the query appears in order.
 * Matches at word starts and consecutive letters score higher; a gap costs a little.
 */
export function fuzzyScore(query: string, text: string): number | null {
  const q = query.toLowerCase().replace(/\s+/g, "");
  if (q === "") return 0;
  const s = text.toLowerCase();
  let score = 0;
  let at = 0;
  let prev = -2;
  for (const ch of q) {
    const i = s.indexOf(ch, at);
    if (i < 0) return null;
    const wordStart = i === 0 || /[^a-z0-9]/.test(s[i - 1] ?? "");
    score += 1 + (wordStart ? 8 : 0) + (i === prev + 1 ? 5 : 0) - Math.min(3, (i - at) * 0.1);
    prev = i;
    at = i + 1;
  }
  // A shorter text with the same letters is the closer match.
  return score - s.length * 0.01;
}

/** The entries that match, best first (ties keep the list's order); all of them for an empty query. */
export function fuzzyFilter<T extends { label: string; words?: string; group?: string }>(entries: readonly T[], query: string): T[] {
  if (query.trim() === "") return [...entries];
  const scored: { e: T; score: number; i: number }[] = [];
  entries.forEach((e, i) => {
    const byLabel = fuzzyScore(query, e.label);
    const byWords = e.words || e.group ? fuzzyScore(query, `${e.group ?? ""} ${e.words ?? ""}`) : null;
    const score = byLabel ?? (byWords === null ? null : byWords - 20);
    if (score !== null) scored.push({ e, score, i });
  });
  scored.sort((a, b) => b.score - a.score || a.i - b.i);
  return scored.map((x) => x.e);
}

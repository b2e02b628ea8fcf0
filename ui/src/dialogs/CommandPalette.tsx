// The command palette (Ctrl/⌘+K): the designer's and the run commands, filtered as you type
// (letters in order, best first); ↑/↓ move, Enter runs the highlighted one, Esc closes. A command
// that cannot run now is listed with why.
import { Search } from "lucide-react";
import { useEffect, useMemo, useRef, useState } from "react";
import "../styles/editor.css";
import type { Commands } from "../commands/designer";
import { fuzzyFilter, paletteEntries, type PaletteEntry } from "../commands/palette";
import type { RunCommands } from "../commands/run";
import { createScenario } from "../commands/scenarios";
import { runBlocker } from "../run/blocker";
import { isActive } from "../run/live";
import { useDebugger } from "../store/debugger";
import { selectCanRedo, selectCanUndo, useDesigner } from "../store/designer";
import { useEditor } from "../store/editor";
import { useRun } from "../store/run";
import { useUi } from "../store/ui";
import { Modal } from "./Modal";

export function CommandPalette({ entries }: { entries: PaletteEntry[] }) {
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const [refused, setRefused] = useState<string | null>(null);
  const list = useMemo(() => fuzzyFilter(entries, query), [entries, query]);
  const listRef = useRef<HTMLUListElement>(null);
  const close = () => useUi.getState().openDialog(null);
  const current = Math.min(active, Math.max(0, list.length - 1));

  useEffect(() => {
    listRef.current?.querySelector(`[data-index="${current}"]`)?.scrollIntoView({ block: "nearest" });
  }, [current]);

  function perform(e: PaletteEntry | undefined) {
    if (!e) return;
    if (e.disabled) {
      setRefused(`${e.label}: ${e.disabled}`);
      return;
    }
    close();
    // After the palette is gone, so a command that opens a dialog is not closed with it.
    setTimeout(e.perform, 0);
  }

  return (
    <Modal title="Commands" onClose={close} width={560} testId="palette">
      <div className="palette-search">
        <Search size={14} className="muted" />
        <input
          className="input-bare palette-input"
          autoFocus
          placeholder="Type a command…"
          value={query}
          data-testid="palette-input"
          aria-label="Command"
          aria-controls="palette-list"
          aria-activedescendant={list[current] ? `palette-${list[current].id}` : undefined}
          spellCheck={false}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
            setRefused(null);
          }}
          onKeyDown={(e) => {
            if (e.key === "ArrowDown") {
              e.preventDefault();
              setActive((current + 1) % Math.max(1, list.length));
            } else if (e.key === "ArrowUp") {
              e.preventDefault();
              setActive((current - 1 + list.length) % Math.max(1, list.length));
            } else if (e.key === "Enter") {
              e.preventDefault();
              perform(list[current]);
            }
          }}
        />
      </div>
      {refused && (
        <div className="palette-refused" role="alert" data-testid="palette-refused">
          {refused}
        </div>
      )}
      <ul className="palette-list" id="palette-list" role="listbox" ref={listRef} data-testid="palette-list">
        {list.length === 0 && <li className="palette-empty muted">No command matches “{query}”.</li>}
        {list.map((e, i) => (
          <li
            key={e.id}
            id={`palette-${e.id}`}
            role="option"
            aria-selected={i === current}
            aria-disabled={e.disabled ? true : undefined}
            className={`palette-item${i === current ? " is-active" : ""}${e.disabled ? " is-disabled" : ""}`}
            data-testid="palette-item"
            data-id={e.id}
            data-index={i}
            title={e.disabled}
            onMouseEnter={() => setActive(i)}
            onMouseDown={(ev) => ev.preventDefault()}
            onClick={() => perform(e)}
          >
            <span className="palette-group">{e.group}</span>
            <span className="palette-label">{e.label}</span>
            {e.disabled && <span className="palette-why">{e.disabled}</span>}
            {e.keys && <kbd>{e.keys}</kbd>}
          </li>
        ))}
      </ul>
    </Modal>
  );
}

/** The palette over the current state: which commands can run now, and why not. */
export function CommandPaletteHost({ commands, run }: { commands: Commands; run: RunCommands }) {
  const topology = useDesigner((s) => s.topology);
  const canUndo = useDesigner(selectCanUndo);
  const canRedo = useDesigner(selectCanRedo);
  const hasSelection = useDesigner((s) => s.selection.agents.length + s.selection.edges.length > 0);
  const live = useRun((s) => s.live);
  const mode = useDebugger((s) => s.mode);
  const minimap = useEditor((s) => s.minimap);
  // Built once per opening: the state it shows is the one the palette was opened on.
  const [entries] = useState(() =>
    paletteEntries({
      commands,
      run,
      mode,
      hasDoc: topology !== null,
      runBlocked: runBlocker(topology, live),
      canUndo,
      canRedo,
      hasSelection,
      running: isActive(live),
      paused: live?.status === "paused",
      minimap,
      ui: {
        showShortcuts: () => useUi.getState().openDialog("shortcuts"),
        toggleMinimap: () => useEditor.getState().toggleMinimap(),
        showTab: (tab) => useUi.getState().setBottom(tab),
        newScenario: () => void createScenario(),
      },
    }),
  );
  return <CommandPalette entries={entries} />;
}

// The shortcut sheet (`?`): every key of `SHORTCUTS`, the table the key handlers are tested
// against, by where it works; the current mode's keys first.
import "../styles/editor.css";
import { MODE_TITLES, SHORTCUTS, type KeyMode } from "../commands/keymap";
import { useUi } from "../store/ui";
import { Modal } from "./Modal";

export function ShortcutSheet({ mode }: { mode: "design" | "debug" }) {
  const close = () => useUi.getState().openDialog(null);
  const order: KeyMode[] = mode === "debug" ? ["debug", "anywhere", "design"] : ["design", "debug", "anywhere"];
  return (
    <Modal title="Keyboard shortcuts" subtitle="Keys do nothing while you type in a field, except Ctrl/⌘ ones." onClose={close} width={860} testId="shortcut-sheet">
      <div className="sheet-columns">
        {order.map((m) => (
          <section key={m} className={`sheet-group${m === mode ? " is-current" : ""}${m === "design" ? " is-design" : ""}`} data-testid={`sheet-${m}`}>
            <h3>
              {MODE_TITLES[m]}
              {m === mode && <span className="pill pill-accent">now</span>}
            </h3>
            <dl>
              {SHORTCUTS.filter((s) => s.mode === m).map((s, i) => (
                <div key={i} className="sheet-row" data-testid="sheet-row">
                  <dt>
                    {s.keys.split(" / ").map((k, j) => (
                      <span key={j}>
                        {j > 0 && <span className="muted"> / </span>}
                        <kbd>{k}</kbd>
                      </span>
                    ))}
                  </dt>
                  <dd>{s.label}</dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </div>
      <p className="muted small sheet-foot">Also: double-click the canvas to add an agent; drag from an agent's right handle to another agent to connect them.</p>
    </Modal>
  );
}

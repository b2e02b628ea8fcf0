// After a drag from one agent to another: choose what the new edge is. A kind that would repeat an
// edge (same agents, same kind) is marked, and choosing it says why instead of adding it.
import { ArrowRightLeft, CornerDownRight, X } from "lucide-react";
import { useEffect } from "react";
import "../styles/editor.css";
import { edgeRefusal } from "../model/refusals";
import { addEdge } from "../model/topology";
import type { EdgeKind } from "../model/types";
import { useDesigner } from "../store/designer";
import { useEditor } from "../store/editor";
import { useUi } from "../store/ui";

export function EdgeKindChooser() {
  const pending = useUi((s) => s.pendingConnection);
  const setPending = useUi((s) => s.setPendingConnection);
  const topology = useDesigner((s) => s.topology);

  useEffect(() => {
    if (!pending) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") setPending(null);
      if (e.key === "h" || e.key === "H") choose("handoff");
      if (e.key === "d" || e.key === "D") choose("delegation");
    };
    window.addEventListener("keydown", onKey, true);
    return () => window.removeEventListener("keydown", onKey, true);
  });

  if (!pending || !topology) return null;
  const name = (id: string) => topology.agents.find((a) => a.id === id)?.name ?? id;

  const refusal = (kind: EdgeKind) => edgeRefusal(topology, pending.from, pending.to, kind);

  function choose(kind: EdgeKind) {
    const p = useUi.getState().pendingConnection;
    const t = useDesigner.getState().topology;
    if (!p || !t) return;
    const refused = edgeRefusal(t, p.from, p.to, kind);
    if (refused) {
      useEditor.getState().refuse(refused, { x: p.x, y: p.y });
      setPending(null);
      return;
    }
    let newId = "";
    useDesigner.getState().commit((cur) => {
      const [next, id] = addEdge(cur, p.from, p.to, kind);
      newId = id;
      return next;
    });
    useDesigner.getState().setSelection({ agents: [], edges: [newId] });
    setPending(null);
  }

  const left = Math.min(pending.x + 8, window.innerWidth - 300);
  const top = Math.min(pending.y + 8, window.innerHeight - 200);
  return (
    <div className="popover edge-chooser" style={{ left, top }} data-testid="edge-kind-chooser" role="dialog" aria-label="Choose the edge kind">
      <div className="popover-header">
        <span className="chooser-title" title={`${name(pending.from)} → ${name(pending.to)}`}>
          {name(pending.from)} <span className="muted">→</span> {name(pending.to)}
        </span>
        <button className="icon-btn sm" aria-label="Cancel" onClick={() => setPending(null)}>
          <X size={14} />
        </button>
      </div>
      <button
        className={`chooser-option${refusal("handoff") ? " is-taken" : ""}`}
        data-testid="edge-kind-handoff"
        aria-disabled={refusal("handoff") ? true : undefined}
        title={refusal("handoff") ?? undefined}
        onClick={() => choose("handoff")}
        autoFocus={!refusal("handoff")}
      >
        <span className="chooser-icon handoff">
          <ArrowRightLeft size={15} />
        </span>
        <span className="chooser-text">
          <strong>Handoff</strong>
          <span>{refusal("handoff") ? "Already there: one handoff per pair." : "Ownership moves; the sender steps out."}</span>
        </span>
        <kbd>H</kbd>
      </button>
      <button
        className={`chooser-option${refusal("delegation") ? " is-taken" : ""}`}
        data-testid="edge-kind-delegation"
        aria-disabled={refusal("delegation") ? true : undefined}
        title={refusal("delegation") ?? undefined}
        onClick={() => choose("delegation")}
        autoFocus={!!refusal("handoff") && !refusal("delegation")}
      >
        <span className="chooser-icon delegation">
          <CornerDownRight size={15} />
        </span>
        <span className="chooser-text">
          <strong>Delegation</strong>
          <span>{refusal("delegation") ? "Already there: one delegation per pair." : "Agent as a tool; the caller keeps ownership."}</span>
        </span>
        <kbd>D</kbd>
      </button>
    </div>
  );
}

// The supervisor refactor's preview, as IDE refactorings show one: its scope (the selected
// edges, or the longest chain from the entry), every change it makes (agents, edges, the entry,
// mock scripts, facts) and the findings the result would have, before the user applies it.
import { AlertTriangle, CheckCircle2, GitMerge } from "lucide-react";
import type { Change } from "../bindings/Change";
import type { Topology } from "../model/types";
import { useRefactorPreview } from "../store/refactor";
import { Modal } from "./Modal";

const AREA_LABEL: Record<Change["area"], string> = { agent: "Agents", entry: "Entry", edge: "Edges", script: "Mock scripts", fact: "Pinned facts" };
const AREAS: Change["area"][] = ["agent", "entry", "edge", "script", "fact"];

function chainText(t: Topology, chain: string[]): string {
  const name = (id: string) => t.agents.find((a) => a.id === id)?.name ?? id;
  const edges = chain.map((id) => t.edges.find((e) => (e.id || `${e.from}->${e.to}`) === id)).filter((e) => !!e);
  if (edges.length === 0) return chain.join(", ");
  return [edges[0]!.from, ...edges.map((e) => e.to)].map(name).join(" → ");
}

export function RefactorPreviewDialog() {
  const preview = useRefactorPreview((s) => s.preview);
  const answer = useRefactorPreview((s) => s.answer);
  if (!preview) return null;
  const errors = preview.findings.filter((f) => f.severity === "error");
  return (
    <Modal
      title="Refactor to supervisor: preview"
      subtitle="Nothing changes until you apply it; undo restores the handoffs."
      onClose={() => answer(false)}
      width={680}
      testId="refactor-preview"
      footer={
        <>
          <span className="muted small">{preview.changes.length} changes</span>
          <div className="spacer" />
          <button className="btn btn-ghost" data-testid="refactor-cancel" onClick={() => answer(false)}>
            Cancel
          </button>
          <button className="btn btn-primary" data-testid="refactor-apply" autoFocus onClick={() => answer(true)}>
            <GitMerge size={15} /> Apply refactor
          </button>
        </>
      }
    >
      <div className="refactor-scope" data-testid="refactor-scope" data-chosen={preview.chosen}>
        <div className="field-label">Scope</div>
        <div>
          {preview.chosen ? "The selected handoffs" : "The longest handoff chain from the entry (nothing was selected)"}:{" "}
          <strong className="mono">{chainText(preview.before, preview.chain)}</strong>
        </div>
        {preview.chosen && <div className="muted small">Clear the selection to refactor the longest chain from the entry instead.</div>}
      </div>
      <div className="refactor-changes" data-testid="refactor-changes">
        {AREAS.map((area) => {
          const items = preview.changes.filter((c) => c.area === area);
          if (items.length === 0) return null;
          return (
            <section key={area} className="refactor-group">
              <div className="file-group">{AREA_LABEL[area]}</div>
              <ul>
                {items.map((c, i) => (
                  <li key={i} data-testid="refactor-change" data-area={c.area}>
                    {c.text}
                  </li>
                ))}
              </ul>
            </section>
          );
        })}
      </div>
      <div className={`refactor-after ${errors.length ? "has-error" : "is-clean"}`} data-testid="refactor-after" data-errors={errors.length}>
        {errors.length === 0 ? (
          <>
            <CheckCircle2 size={15} /> The result has no errors{preview.findings.length ? ` (${preview.findings.length} warnings or notes)` : ""}: it runs.
          </>
        ) : (
          <>
            <AlertTriangle size={15} /> The result would have {errors.length} error{errors.length === 1 ? "" : "s"}: {errors.map((f) => f.message).join(" · ")}
          </>
        )}
      </div>
    </Modal>
  );
}

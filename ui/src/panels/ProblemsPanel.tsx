// The Problems tab: lint findings, worst first, each with its whole message (wrapped, `code` as
// code), a click that shows it on the canvas, and a Fix button where the fix follows from it.
import { CheckCircle2, Wrench } from "lucide-react";
import "../styles/editor.css";
import { useCommands, type Commands } from "../commands/designer";
import { windowText } from "../commands/messages";
import { SeverityIcon } from "../canvas/icons";
import { severityRank } from "../canvas/lint";
import { findingFix, messageRuns, type Fix } from "../model/findings";
import type { Finding, Topology } from "../model/types";
import { useDesigner } from "../store/designer";

export function FindingText({ message }: { message: string }) {
  return (
    <>
      {messageRuns(message).map((r, i) =>
        r.code ? (
          <code key={i} className="finding-inline-code">
            {r.text}
          </code>
        ) : (
          <span key={i}>{r.text}</span>
        ),
      )}
    </>
  );
}

export function ProblemsPanel() {
  const findings = useDesigner((s) => s.findings);
  const topology = useDesigner((s) => s.topology);
  const commands = useCommands();
  const sorted = [...findings].sort((a, b) => severityRank(b.severity) - severityRank(a.severity));
  const name = (id: string) => topology?.agents.find((a) => a.id === id)?.name ?? id;

  if (sorted.length === 0) {
    return (
      <div className="problems-empty" data-testid="problems">
        <CheckCircle2 size={16} className="ok-icon" /> No problems found in this topology.
      </div>
    );
  }
  return (
    <ul className="problems" data-testid="problems" role="list">
      {sorted.map((f, i) => {
        const fix = topology ? findingFix(topology, f) : null;
        const where = f.edges.length > 0 ? f.edges.join(", ") : f.agents.map(name).join(", ");
        return (
          <li key={`${f.code}-${i}`} className="finding-row">
            <button
              className={`finding sev-row-${f.severity}`}
              data-testid="finding"
              data-code={f.code}
              data-severity={f.severity}
              data-fix={fix ? fix.kind : undefined}
              onClick={() => commands.focusFinding(f)}
              title="Select and show on the canvas"
            >
              <SeverityIcon severity={f.severity} size={14} />
              <span className="finding-code mono">{f.code}</span>
              <span className="finding-message">
                <FindingText message={windowText(f.code, f.message)} />
              </span>
              <span className="finding-where" title={where}>
                {where}
              </span>
            </button>
            {fix && topology && <FixControl fix={fix} finding={f} topology={topology} commands={commands} />}
          </li>
        );
      })}
    </ul>
  );
}

function FixControl({ fix, finding, topology, commands }: { fix: Fix; finding: Finding; topology: Topology; commands: Commands }) {
  const commit = useDesigner((s) => s.commit);
  if (fix.kind === "choose-entry") {
    return (
      <select
        className="select select-sm finding-fix-select"
        data-testid="finding-fix"
        data-code={finding.code}
        aria-label="Set the entry agent"
        value=""
        onChange={(e) => {
          const id = e.target.value;
          if (id) commit((t) => ({ ...t, entry: id }));
        }}
      >
        <option value="">Fix: set the entry…</option>
        {fix.candidates.map((id) => (
          <option key={id} value={id}>
            {topology.agents.find((a) => a.id === id)?.name || id}
          </option>
        ))}
      </select>
    );
  }
  return (
    <button
      className="btn btn-secondary btn-sm finding-fix"
      data-testid="finding-fix"
      data-code={finding.code}
      title={fix.kind === "refactor" ? "A supervisor delegates the chain and verifies the claim (one undo step)" : "Apply this fix (one undo step)"}
      onClick={() => {
        if (fix.kind === "edit") commit(fix.apply);
        else {
          useDesigner.getState().setSelection({ agents: [], edges: fix.edges });
          void commands.refactorSupervisor();
        }
      }}
    >
      <Wrench size={12} /> {fix.label}
    </button>
  );
}

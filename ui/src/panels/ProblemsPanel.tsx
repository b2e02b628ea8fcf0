import { CheckCircle2 } from "lucide-react";
import { useCommands } from "../commands/designer";
import { SeverityIcon } from "../canvas/icons";
import { severityRank } from "../canvas/lint";
import { useDesigner } from "../store/designer";

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
      {sorted.map((f, i) => (
        <li key={`${f.code}-${i}`}>
          <button
            className={`finding sev-row-${f.severity}`}
            data-testid="finding"
            data-code={f.code}
            data-severity={f.severity}
            onClick={() => commands.focusFinding(f)}
            title="Select and show on the canvas"
          >
            <SeverityIcon severity={f.severity} size={14} />
            <span className="finding-code mono">{f.code}</span>
            <span className="finding-message">{f.message}</span>
            <span className="finding-where">
              {f.edges.length > 0 ? f.edges.join(", ") : f.agents.map(name).join(", ")}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}

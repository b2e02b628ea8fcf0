// The bottom panel: tabs (Problems now; the debugger's Run and Timeline tabs join here later).
import { ChevronDown, ChevronUp } from "lucide-react";
import type { ReactNode } from "react";
import { SeverityIcon } from "../canvas/icons";
import { useDesigner } from "../store/designer";
import { useUi, type BottomTab } from "../store/ui";
import { ProblemsPanel } from "./ProblemsPanel";

type TabDef = { id: BottomTab; label: string; badge?: ReactNode; render: () => ReactNode };

export function BottomPanel() {
  const findings = useDesigner((s) => s.findings);
  const tab = useUi((s) => s.bottomTab);
  const open = useUi((s) => s.bottomOpen);
  const setBottom = useUi((s) => s.setBottom);
  const toggle = useUi((s) => s.toggleBottom);
  const errors = findings.filter((f) => f.severity === "error").length;
  const warnings = findings.filter((f) => f.severity === "warning").length;
  const infos = findings.length - errors - warnings;

  const tabs: TabDef[] = [
    {
      id: "problems",
      label: "Problems",
      badge: (
        <span className="tab-counts" data-testid="problems-count">
          {errors > 0 && (
            <span className="tab-count">
              <SeverityIcon severity="error" size={12} /> {errors}
            </span>
          )}
          {warnings > 0 && (
            <span className="tab-count">
              <SeverityIcon severity="warning" size={12} /> {warnings}
            </span>
          )}
          {infos > 0 && (
            <span className="tab-count">
              <SeverityIcon severity="info" size={12} /> {infos}
            </span>
          )}
          {findings.length === 0 && <span className="tab-count muted">0</span>}
        </span>
      ),
      render: () => <ProblemsPanel />,
    },
  ];
  const current = tabs.find((t) => t.id === tab) ?? tabs[0];

  return (
    <section className={`bottom-panel${open ? "" : " is-collapsed"}`} data-testid="bottom-panel">
      <div className="bottom-tabs" role="tablist">
        {tabs.map((t) => (
          <button
            key={t.id}
            role="tab"
            aria-selected={t.id === tab}
            className={`bottom-tab${t.id === tab ? " is-active" : ""}`}
            data-testid={`tab-${t.id}`}
            onClick={() => (t.id === tab ? toggle() : setBottom(t.id))}
          >
            {t.label}
            {t.badge}
          </button>
        ))}
        <div className="spacer" />
        <button className="icon-btn sm" aria-label={open ? "Collapse panel" : "Expand panel"} onClick={toggle}>
          {open ? <ChevronDown size={14} /> : <ChevronUp size={14} />}
        </button>
      </div>
      {open && current && <div className="bottom-content">{current.render()}</div>}
    </section>
  );
}

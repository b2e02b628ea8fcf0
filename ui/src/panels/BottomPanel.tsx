// The bottom panel: Problems (lint), Run (start, watch, pause and resume a run), Runs (saved
// runs of this topology), Tests (the scenarios' expectations checked) and Matrix (models × scenarios). Its top edge drags to resize it.
import { ChevronDown, ChevronUp, Loader2, Pause } from "lucide-react";
import { useRef, type ReactNode } from "react";
import { SeverityIcon } from "../canvas/icons";
import { isActive } from "../run/live";
import type { RunCommands } from "../commands/run";
import { useDesigner } from "../store/designer";
import { useRun } from "../store/run";
import { useUi, type BottomTab } from "../store/ui";
import { ProblemsPanel } from "./ProblemsPanel";
import { RunPanel } from "./RunPanel";
import { RunsPanel } from "./RunsPanel";
import { TestsPanel } from "./TestsPanel";
import { MatrixPanel } from "./MatrixPanel";
import { useMatrixCommands } from "../commands/matrix";
import { useMatrix } from "../store/matrix";
import { caseVerdict } from "../model/expect";
import { useTestCommands } from "../commands/tests";
import { useTests } from "../store/tests";

type TabDef = { id: BottomTab; label: string; badge?: ReactNode; render: () => ReactNode };

export function BottomPanel({ run }: { run: RunCommands }) {
  const findings = useDesigner((s) => s.findings);
  const tab = useUi((s) => s.bottomTab);
  const open = useUi((s) => s.bottomOpen);
  const height = useUi((s) => s.bottomHeight);
  const live = useRun((s) => s.live);
  const testCommands = useTestCommands(run);
  const topologyName = useDesigner((s) => s.topology?.name);
  const tests = useTests();
  const matrixCommands = useMatrixCommands(run);
  const matrixRunning = useMatrix((s) => s.running && s.topology === topologyName);
  const testResults = tests.topology === topologyName ? tests.results : null;
  const testsBad = testResults?.filter((r) => caseVerdict(r) !== "passed").length ?? 0;
  const drag = useRef<{ y: number; h: number } | null>(null);
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
    {
      id: "run",
      label: "Run",
      badge:
        live?.status === "paused" ? (
          <Pause size={12} className="tab-paused" aria-label="paused" />
        ) : isActive(live) ? (
          <Loader2 size={12} className="spin" aria-label="running" />
        ) : undefined,
      render: () => <RunPanel commands={run} />,
    },
    { id: "runs", label: "Runs", render: () => <RunsPanel commands={run} /> },
    {
      id: "tests",
      label: "Tests",
      badge:
        tests.running && tests.topology === topologyName ? (
          <Loader2 size={12} className="spin" aria-label="testing" />
        ) : testResults ? (
          <span className={`tab-count tests-tab-count${testsBad ? " is-bad" : " is-good"}`} data-testid="tests-count">
            {testsBad ? `${testsBad} failed` : `${testResults.length} passed`}
          </span>
        ) : undefined,
      render: () => <TestsPanel commands={testCommands} />,
    },
    {
      id: "matrix",
      label: "Matrix",
      badge: matrixRunning ? <Loader2 size={12} className="spin" aria-label="running the matrix" /> : undefined,
      render: () => <MatrixPanel commands={matrixCommands} />,
    },
  ];
  const current = tabs.find((t) => t.id === tab) ?? tabs[0];

  return (
    <section className={`bottom-panel${open ? "" : " is-collapsed"}`} data-testid="bottom-panel" style={open ? { height } : undefined}>
      {open && (
        <div
          className="bottom-resizer"
          role="separator"
          aria-orientation="horizontal"
          aria-label="Resize panel"
          aria-valuenow={height}
          aria-valuemin={120}
          aria-valuemax={Math.max(120, window.innerHeight - 240)}
          tabIndex={0}
          onPointerDown={(e) => {
            drag.current = { y: e.clientY, h: height };
            (e.target as HTMLElement).setPointerCapture(e.pointerId);
          }}
          onPointerMove={(e) => {
            if (drag.current) useUi.getState().setBottomHeight(drag.current.h + drag.current.y - e.clientY);
          }}
          onPointerUp={() => (drag.current = null)}
          onKeyDown={(e) => {
            if (e.key === "ArrowUp" || e.key === "ArrowDown") {
              e.preventDefault();
              useUi.getState().setBottomHeight(height + (e.key === "ArrowUp" ? 24 : -24));
            }
          }}
        />
      )}
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
      </div>
      <button className="icon-btn sm bottom-fold" aria-label={open ? "Collapse panel" : "Expand panel"} onClick={toggle}>
        {open ? <ChevronDown size={14} /> : <ChevronUp size={14} />}
      </button>
      {open && current && <div className="bottom-content">{current.render()}</div>}
    </section>
  );
}

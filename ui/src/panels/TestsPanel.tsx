// The Tests tab: "Run tests" runs the open topology's scenarios that carry `expect` (test_topology, mock models) and lists each PASSED, FAILED or ERROR with its expectations in words and its failures; a failure that names a step has "Show step", which runs that scenario again and opens the debugger there.
import { Bug, CheckCircle2, FlaskConical, Loader2, SearchCode, TriangleAlert, XCircle } from "lucide-react";
import "../styles/guardrails.css";
import type { CaseResult } from "../bindings/CaseResult";
import type { TestCommands } from "../commands/tests";
import { caseVerdict, describeExpect, testSummary } from "../model/expect";
import type { Topology } from "../model/types";
import { useDesigner } from "../store/designer";
import { useRun } from "../store/run";
import { useTests } from "../store/tests";
import { isActive } from "../run/live";

const ICON = { passed: CheckCircle2, failed: XCircle, error: TriangleAlert } as const;

export function TestsPanel({ commands }: { commands: TestCommands }) {
  const topology = useDesigner((s) => s.topology);
  const state = useTests();
  const live = useRun((s) => s.live);
  if (!topology) return null;
  const mine = state.topology === topology.name;
  const results = mine ? state.results : null;
  const running = mine && state.running;
  const withExpect = (topology.scenarios ?? []).filter((s) => s.expect !== undefined);
  const without = (topology.scenarios ?? []).length - withExpect.length;

  return (
    <div className="tests-panel" data-testid="tests-panel">
      <div className="tests-toolbar">
        <button
          className="btn btn-primary btn-sm"
          data-testid="tests-run"
          disabled={running || withExpect.length === 0}
          title={withExpect.length === 0 ? "No scenario has expectations (expect: in the file)." : "Run every scenario with expectations on the mock models and check them"}
          onClick={() => void commands.runTests()}
        >
          {running ? <Loader2 size={14} className="spin" /> : <FlaskConical size={14} />} Run tests
        </button>
        {results && (
          <span className={`tests-summary${results.some((r) => caseVerdict(r) !== "passed") ? " is-bad" : " is-good"}`} data-testid="tests-summary" role="status">
            {testSummary(results)}
          </span>
        )}
        <span className="muted small tests-note">
          {withExpect.length} {withExpect.length === 1 ? "scenario has" : "scenarios have"} expectations
          {without > 0 ? ` · ${without} without (not tested)` : ""} · mock models, as <code>baton test</code>
        </span>
      </div>
      {mine && state.error && (
        <div className="tests-error" data-testid="tests-error" role="alert">
          <TriangleAlert size={14} /> Could not run the tests: {state.error}
        </div>
      )}
      {!results && !state.error && (
        <div className="empty-hint tests-empty" data-testid="tests-empty">
          {withExpect.length === 0
            ? "Give a scenario an expect: block in the file (status, output_contains, facts_kept…) to test it here."
            : "Run tests to check each scenario's expectations."}
        </div>
      )}
      {results && (
        <ul className="tests-list" role="list">
          {results.map((r) => (
            <CaseRow key={r.scenario} r={r} topology={topology} commands={commands} busy={isActive(live) || state.showing !== null} showing={state.showing === r.scenario} />
          ))}
        </ul>
      )}
    </div>
  );
}

function CaseRow({ r, topology, commands, busy, showing }: { r: CaseResult; topology: Topology; commands: TestCommands; busy: boolean; showing: boolean }) {
  const verdict = caseVerdict(r);
  const Icon = ICON[verdict];
  const expect = topology.scenarios?.find((s) => s.name === r.scenario)?.expect;
  const words = describeExpect(expect);
  return (
    <li className={`test-case is-${verdict}`} data-testid="test-case" data-scenario={r.scenario} data-verdict={verdict}>
      <div className="test-case-head">
        <Icon size={15} className="test-case-icon" />
        <span className="test-case-name">{r.scenario}</span>
        <span className={`test-verdict verdict-${verdict}`} data-testid="test-verdict">
          {verdict.toUpperCase()}
        </span>
        <span className="muted small">
          {r.checked} {r.checked === 1 ? "check" : "checks"} · {r.duration_ms} ms
        </span>
        {verdict !== "passed" && (
          <button
            className="btn btn-ghost btn-xs test-open-run"
            data-testid="test-open-run"
            disabled={busy}
            title={`Run ${r.scenario} again (mock models) and open it in the debugger`}
            onClick={() => void commands.showStep(r.scenario)}
          >
            {showing ? <Loader2 size={12} className="spin" /> : <Bug size={12} />} Open run
          </button>
        )}
      </div>
      {words && (
        <div className="test-expect" data-testid="test-expect" title="What the scenario's expect: says">
          expects {words}
        </div>
      )}
      {r.error !== null && (
        <div className="test-failure" data-testid="test-error">
          <span className="test-failure-reason">{r.error}</span>
        </div>
      )}
      {r.failures.map((f, i) => (
        <div className="test-failure" key={i} data-testid="test-failure" data-expectation={f.expectation} data-step={f.step ?? undefined}>
          <code className="test-failure-what">{f.expectation}</code>
          <span className="test-failure-reason">{f.reason}</span>
          {f.step !== null && (
            <button
              className="btn btn-secondary btn-xs"
              data-testid="test-show-step"
              disabled={busy}
              title={`Run ${r.scenario} again (mock models) and open the debugger at step ${f.step}`}
              onClick={() => void commands.showStep(r.scenario, f.step as number)}
            >
              {showing ? <Loader2 size={12} className="spin" /> : <SearchCode size={12} />} Show step {f.step}
            </button>
          )}
        </div>
      ))}
    </li>
  );
}

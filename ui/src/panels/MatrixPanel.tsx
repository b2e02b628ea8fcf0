// The Matrix tab: pick the agents to vary and their models, the scenarios, repeat, mock_rest and a price table, run `run_matrix`, and read one row per cell (models × scenario); a row opens its first run in the debugger, its #1…#n buttons each repeat's run.
import { Grid3x3, Loader2, Play, TriangleAlert } from "lucide-react";
import "../styles/matrix.css";
import type { Cell } from "../bindings/Cell";
import type { MatrixCommands } from "../commands/matrix";
import { buildArgs, cellModels, costText, initialForm, MAX_REPEAT, modelText, parsePrices, type MatrixForm } from "../model/matrix";
import type { Topology } from "../model/types";
import { useDesigner } from "../store/designer";
import { useMatrix } from "../store/matrix";

export function MatrixPanel({ commands }: { commands: MatrixCommands }) {
  const topology = useDesigner((s) => s.topology);
  const state = useMatrix();
  if (!topology) return null;
  const mine = state.topology === topology.name;
  const form = mine && state.form ? state.form : initialForm(topology);
  const running = mine && state.running;
  const report = mine ? state.report : null;
  const error = mine ? state.error : null;
  const set = (f: Partial<MatrixForm>) => useMatrix.getState().setForm(topology.name, { ...form, ...f });
  const built = buildArgs(topology, form);
  const priceError = parsePrices(form.prices).error;

  return (
    <div className="matrix-panel" data-testid="matrix-panel">
      <form
        className="matrix-form"
        data-testid="matrix-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (built.args && !running) void commands.runMatrix(topology.name, built.args);
        }}
      >
        <fieldset className="matrix-section">
          <legend>Vary</legend>
          {topology.agents.map((a) => {
            const on = form.vary[a.id] ?? false;
            return (
              <div className="matrix-agent" key={a.id} data-testid="matrix-agent" data-agent={a.id}>
                <label className="matrix-check">
                  <input type="checkbox" data-testid={`matrix-vary-${a.id}`} checked={on} onChange={(e) => set({ vary: { ...form.vary, [a.id]: e.target.checked } })} />
                  <span className="matrix-agent-name">{a.name ?? a.id}</span>
                  <span className="muted small matrix-agent-model">{modelText(a.model) || "no model"}</span>
                </label>
                {on && (
                  <textarea
                    className="input matrix-models"
                    data-testid={`matrix-models-${a.id}`}
                    aria-label={`Models for ${a.name ?? a.id}, one provider:model[@url] a line`}
                    rows={2}
                    spellCheck={false}
                    value={form.models[a.id] ?? modelText(a.model)}
                    placeholder="provider:model[@url], one a line"
                    aria-describedby={`matrix-models-format-${a.id}`}
                    onChange={(e) => set({ models: { ...form.models, [a.id]: e.target.value } })}
                  />
                )}
                {on && (
                  <div className="muted small matrix-models-format" id={`matrix-models-format-${a.id}`} data-testid="matrix-models-format">
                    One model a line: <code>provider:model</code>, or <code>provider:model@URL</code> for a server of your own, e.g. <code>anthropic:claude-sonnet-4-5</code>
                  </div>
                )}
              </div>
            );
          })}
        </fieldset>
        <fieldset className="matrix-section">
          <legend>Scenarios</legend>
          {(topology.scenarios ?? []).length === 0 && <span className="muted small">No scenarios in the file.</span>}
          {(topology.scenarios ?? []).map((s) => (
            <label className="matrix-check" key={s.name}>
              <input
                type="checkbox"
                data-testid={`matrix-scenario-${s.name}`}
                checked={form.scenarios[s.name] !== false}
                onChange={(e) => set({ scenarios: { ...form.scenarios, [s.name]: e.target.checked } })}
              />
              {s.name}
            </label>
          ))}
        </fieldset>
        <fieldset className="matrix-section matrix-inline">
          <label className="matrix-repeat">
            Repeat
            <input
              type="number"
              className="input"
              data-testid="matrix-repeat"
              min={1}
              max={MAX_REPEAT}
              step={1}
              value={Number.isNaN(form.repeat) ? "" : form.repeat}
              onChange={(e) => set({ repeat: e.target.value === "" ? Number.NaN : Number(e.target.value) })}
            />
          </label>
          <label className="matrix-check" title="Agents that are not varied answer from the scenarios' mock scripts (no provider calls for them)">
            <input type="checkbox" data-testid="matrix-mock-rest" checked={form.mockRest} onChange={(e) => set({ mockRest: e.target.checked })} />
            Others answer from the mock scripts
          </label>
        </fieldset>
        <fieldset className="matrix-section matrix-prices">
          <legend>Prices (optional, per million tokens)</legend>
          <textarea
            className={`input matrix-prices-text${priceError ? " is-invalid" : ""}`}
            data-testid="matrix-prices"
            aria-label="Price table, YAML or JSON"
            aria-invalid={priceError ? true : undefined}
            rows={3}
            spellCheck={false}
            placeholder={"openai:gpt-4o-mini: {input_per_mtok: 0.15, output_per_mtok: 0.6}"}
            value={form.prices}
            onChange={(e) => set({ prices: e.target.value })}
          />
          {priceError && (
            <div className="matrix-field-error" data-testid="matrix-prices-error" role="alert">
              {priceError}
            </div>
          )}
        </fieldset>
        <div className="matrix-actions">
          <button
            type="submit"
            className="btn btn-primary btn-sm"
            data-testid="matrix-run"
            disabled={running || built.args === null}
            title={built.args === null ? built.problems.join("\n") : "Run every combination on each chosen scenario; every run is saved"}
          >
            {running ? <Loader2 size={14} className="spin" /> : <Play size={14} />} {running ? "Running…" : "Run"}
          </button>
          {built.args === null && !priceError && (
            <span className="muted small matrix-why" data-testid="matrix-why">
              {built.problems[0]}
            </span>
          )}
        </div>
      </form>
      <div className="matrix-results" aria-busy={running || undefined}>
        {error && (
          <div className="tests-error matrix-error" data-testid="matrix-error" role="alert">
            <TriangleAlert size={14} /> Could not run the matrix: {error}
          </div>
        )}
        {running && (
          <div className="empty-hint matrix-busy" data-testid="matrix-busy" role="status">
            <Loader2 size={14} className="spin" /> Running the matrix…
          </div>
        )}
        {!running && !report && !error && (
          <div className="empty-hint matrix-empty" data-testid="matrix-empty">
            <Grid3x3 size={14} /> Pick the agents to vary and their models, then Run: one row per combination and scenario.
          </div>
        )}
        {report && <MatrixTable cells={report.cells} topology={topology} commands={commands} stale={running} />}
      </div>
    </div>
  );
}

function MatrixTable({ cells, topology, commands, stale }: { cells: Cell[]; topology: Topology; commands: MatrixCommands; stale: boolean }) {
  return (
    <div className={`matrix-table-wrap${stale ? " is-stale" : ""}`}>
      <table className="runs-table matrix-table" data-testid="matrix-table">
        <thead>
          <tr>
            <th>Models</th>
            <th>Scenario</th>
            <th className="num" title="Runs that completed / runs">
              Completed
            </th>
            <th className="num" title="Expectations passed / expectations checked, over the cell's runs">
              Expectations passed
            </th>
            <th className="num" title="Facts lost over the cell's runs">
              Facts lost
            </th>
            <th className="num mx-narrow-hide">Tokens</th>
            <th className="num">Cost</th>
            <th className="num" title="Latency of a run, median and 95th percentile">
              <span className="matrix-nowrap">p50/p95</span> ms
            </th>
            <th className="num mx-narrow-hide">Retries</th>
            <th>Runs</th>
          </tr>
        </thead>
        <tbody>
          {cells.map((c, i) => (
            <CellRow key={i} c={c} topology={topology} commands={commands} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function CellRow({ c, topology, commands }: { c: Cell; topology: Topology; commands: MatrixCommands }) {
  const models = cellModels(topology, c.models);
  const first = c.runs.find((r) => r.run_id !== null)?.run_id ?? null;
  const allDone = c.completed === c.runs.length;
  const allPassed = c.expectations_passed === c.expectations;
  const open = () => {
    if (first) void commands.openCellRun(first);
  };
  return (
    <tr
      className={`matrix-row${first ? " is-openable" : ""}`}
      data-testid="matrix-row"
      data-scenario={c.scenario}
      data-models={models.map(([a, m]) => `${a}=${m}`).join(",")}
      tabIndex={first ? 0 : undefined}
      title={`${first ? "Open this cell's first run in the debugger" : "This cell's runs were not saved"} · ${c.tokens} tokens · ${c.retries} retries`}
      onClick={open}
      onKeyDown={(e) => {
        if (e.key === "Enter" && e.target === e.currentTarget) open();
      }}
    >
      <td>
        <div className="matrix-models-cell">
        {models.map(([a, m]) => (
          <span className="matrix-model" key={a}>
            <span className="muted">{topology.agents.find((x) => x.id === a)?.name ?? a}</span> <code>{m}</code>
          </span>
        ))}
        </div>
      </td>
      <td>{c.scenario}</td>
      <td className={`num ${allDone ? "is-good" : "is-bad"}`} data-testid="matrix-completed">
        {c.completed}/{c.runs.length}
      </td>
      <td className={`num ${allPassed ? "is-good" : "is-bad"}`} data-testid="matrix-expectations" title={failedText(c) ?? "Every expectation checked passed"}>
        {c.expectations_passed}/{c.expectations}
        {!allPassed && (
          <span className="matrix-failed" data-testid="matrix-failed">
            {" "}
            {failedExpectations(c)
              .map((f) => f.expectation)
              .join(", ")}
          </span>
        )}
      </td>
      <td className={`num${c.facts_lost ? " is-bad" : ""}`} data-testid="matrix-facts-lost">
        {c.facts_lost}
      </td>
      <td className="num mx-narrow-hide" data-testid="matrix-tokens">
        {c.tokens.toLocaleString("en-US")}
      </td>
      <td className={`num${c.cost === null ? " muted" : ""}`} data-testid="matrix-cost">
        {costText(c.cost)}
      </td>
      <td className="num" data-testid="matrix-latency">
        {c.p50_ms} / {c.p95_ms}
      </td>
      <td className="num mx-narrow-hide" data-testid="matrix-retries">
        {c.retries}
      </td>
      <td>
        <div className="matrix-runs">
        {c.runs.map((r, i) => (
          <button
            key={i}
            type="button"
            className={`btn btn-ghost btn-xs matrix-run-btn is-${r.status}`}
            data-testid="matrix-open-run"
            data-run={r.run_id ?? undefined}
            disabled={r.run_id === null}
            title={`Run ${i + 1}: ${r.status}${r.reason ? ` — ${r.reason}` : ""} · ${r.expectations_passed}/${r.expectations} expectations · ${r.latency_ms} ms${r.run_id ? " — open in the debugger" : " (not saved)"}`}
            onClick={(e) => {
              e.stopPropagation();
              if (r.run_id) void commands.openCellRun(r.run_id);
            }}
          >
            #{i + 1}
          </button>
        ))}
        </div>
      </td>
    </tr>
  );
}

/** Each expectation that failed in some of the cell's runs: in how many, and the first reason. */
function failedExpectations(c: Cell): { expectation: string; runs: number; reason: string }[] {
  const out: { expectation: string; runs: number; reason: string }[] = [];
  for (const f of c.runs.flatMap((r) => r.failures ?? [])) {
    const seen = out.find((x) => x.expectation === f.expectation);
    if (seen) seen.runs += 1;
    else out.push({ expectation: f.expectation, runs: 1, reason: f.reason });
  }
  return out;
}

function failedText(c: Cell): string | null {
  const failed = failedExpectations(c);
  if (failed.length === 0) return null;
  return failed.map((f) => `Failed ${f.expectation} in ${f.runs}/${c.runs.length} run(s): ${f.reason}`).join("\n");
}

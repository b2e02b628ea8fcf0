// The long-list fixtures of issue #21, generated (never committed as big files):
// - `runsTopologyYaml()`: a one-agent topology with two scenarios, "first-run" (run once, first,
//   so it is the oldest run: the last row newest-first) and "bulk" (what a model matrix repeats to
//   fill the store with thousands of runs through the product's own `run_matrix`);
// - `findingsTopologyYaml(n)`: two agents whose scenario script makes the entry call `n` tools it
//   does not have (`tool-0000` …), so lint reports `n` script-unknown-tool errors, one a tool,
//   while the canvas holds two agents;
// - `longRunYaml` (./fixtures.mjs) makes the diff's fixture: a late transfer of a run of about
//   24,000 steps has a sender context of more than 10,000 items.
// And the helpers to fill a store: `saveRun` (the CLI's `baton run --save`) and `runMatrix`
// (`POST /api/run_matrix` to a `baton serve`, the app's Matrix panel's path, which saves its runs).
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { backendPlan, startBackend } from "../e2e/harness.mjs";
import { longRunYaml } from "./fixtures.mjs";

export const RUNS_TOPOLOGY = "lists-runs";
export const FIRST_SCENARIO = "first-run";
export const BULK_SCENARIO = "bulk";
/** The answer of the oldest run (what the Runs list's last row shows once opened). */
export const FIRST_ANSWER = "The oldest run of the list fixture.";

export function runsTopologyYaml() {
  return `version: 1
name: ${RUNS_TOPOLOGY}
entry: a
agents:
  - { id: a, name: Answerer, instructions: Answer in one line., model: { provider: mock, name: mock } }
layout: { a: { x: 0, y: 0 } }
scenarios:
  - name: ${FIRST_SCENARIO}
    input: Say which run this is.
    scripts:
      a:
        - say: ${FIRST_ANSWER}
  - name: ${BULK_SCENARIO}
    input: Say anything.
    scripts:
      a:
        - say: One of many runs.
`;
}

/** The tool the `i`th finding names (zero-padded so they sort as they are numbered). */
export const findingTool = (i) => `tool-${String(i).padStart(4, "0")}`;

export function findingsTopologyYaml(n = 1000) {
  const calls = [];
  for (let i = 0; i < n; i++) calls.push(`        - calls: [{ tool: ${findingTool(i)} }]`);
  return `version: 1
name: lists-findings
entry: a
agents:
  - { id: a, name: Caller, instructions: Call the tools., model: { provider: mock, name: mock } }
  - { id: b, name: Helper, instructions: Help., model: { provider: mock, name: mock } }
layout: { a: { x: 0, y: 0 }, b: { x: 320, y: 0 } }
edges:
  - { kind: handoff, from: a, to: b }
scenarios:
  - name: many-tools
    input: Call every tool.
    scripts:
      a:
${calls.join("\n")}
`;
}

/** `baton run FILE --scenario S --save --db DB`; returns the run id it prints. */
export function saveRun(bin, file, db, scenario) {
  const args = ["run", file, "--save", "--db", db];
  if (scenario) args.push("--scenario", scenario);
  const out = execFileSync(bin, args, { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  const m = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/.exec(out);
  return m ? m[0] : null;
}

/** A backend command over HTTP, as the page's http adapter sends it. */
export async function api(backend, command, args) {
  const r = await fetch(`${backend.url}/api/${command}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${backend.token}` },
    body: JSON.stringify(args),
  });
  if (!r.ok) throw new Error(`${command}: ${r.status} ${await r.text()}`);
  return r.json();
}

/**
 * `repeat` runs of the bulk scenario through `run_matrix` (the Matrix panel's command), in batches
 * so no one request runs for minutes; every run is saved to the serve's store.
 */
export async function runMatrix(backend, file, repeat, batch = 2500) {
  const { topology } = await api(backend, "open_topology", { path: file });
  for (let done = 0; done < repeat; done += batch) {
    await api(backend, "run_matrix", {
      topology,
      vary: [{ agent: "a", models: ["mock:mock"] }],
      scenarios: [BULK_SCENARIO],
      repeat: Math.min(batch, repeat - done),
    });
  }
}

/** The tool result every poll of the diff's run returns (each one an item of the context). */
export const POLL_RESULT = "Deploy d-42 is still rolling out.";

/** Writes the fixture files into `dir`; returns their paths. */
export function writeListFixtures(dir, { findings = 1000, diffSteps = 8000 } = {}) {
  const runs = join(dir, `${RUNS_TOPOLOGY}.yaml`);
  const problems = join(dir, "lists-findings.yaml");
  const diff = join(dir, "lists-diff.yaml");
  writeFileSync(runs, runsTopologyYaml());
  writeFileSync(problems, findingsTopologyYaml(findings));
  writeFileSync(diff, longRunYaml(diffSteps));
  return { runs, problems, diff };
}

/**
 * A `baton serve` whose store holds the lists' fixtures: the oldest run of `lists-runs`
 * (first-run, the oldest in the store), `runs - 1` more from the model matrix, and one long run (`diffSteps` steps) for
 * the diff. The files are in the root (`lists-runs.yaml`, `lists-findings.yaml`,
 * `lists-diff.yaml`). Returns { plan, backend, firstRun, diffRun }.
 */
export async function startListsBackend({ runs = 10_000, findings = 1000, diffSteps = 8000 } = {}) {
  const plan = backendPlan();
  if (plan.skip) throw new Error(plan.skip);
  let firstRun = null;
  let diffRun = null;
  const backend = await startBackend(plan, {
    setup: (root) => {
      const db = join(root, ".baton", "runs.db");
      const f = writeListFixtures(root, { findings, diffSteps });
      // first-run first: the oldest run in the store, the last row of both lists
      firstRun = saveRun(plan.bin, f.runs, db, FIRST_SCENARIO);
      diffRun = saveRun(plan.bin, f.diff, db);
    },
  });
  try {
    await runMatrix(backend, `${RUNS_TOPOLOGY}.yaml`, runs - 1);
  } catch (e) {
    await backend.stop();
    throw e;
  }
  return { plan, backend, firstRun, diffRun };
}

// `node bench/list-fixtures.mjs DIR` writes them for a manual look.
if (import.meta.url === `file://${process.argv[1]}`) console.log(writeListFixtures(process.argv[2] ?? "."));

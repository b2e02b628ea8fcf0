// `npm run e2e`: build the UI, then run the browser tests with node's test runner.
import { spawnSync } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ui = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const step = (cmd, args) => {
  const r = spawnSync(cmd, args, { cwd: ui, stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
if (process.env.BATON_E2E_NO_BUILD !== "1") step("npx", ["vite", "build", "--logLevel", "warn"]);
// `npm run e2e -- e2e/run.spec.mjs` runs one file.
const specs = process.argv.slice(2).length ? process.argv.slice(2) : ["e2e/designer.spec.mjs", "e2e/run.spec.mjs", "e2e/providers-trace.spec.mjs", "e2e/capture.spec.mjs", "e2e/code.spec.mjs", "e2e/diff.spec.mjs", "e2e/refactor.spec.mjs", "e2e/charts.spec.mjs", "e2e/editor.spec.mjs", "e2e/runs-home.spec.mjs", "e2e/fork.spec.mjs", "e2e/suspects.spec.mjs", "e2e/prove.spec.mjs", "e2e/tests-panel.spec.mjs", "e2e/default-rules.spec.mjs", "e2e/a11y.spec.mjs", "e2e/identity.spec.mjs", "e2e/room.spec.mjs", "e2e/matrix.spec.mjs", "e2e/lists.spec.mjs", "e2e/long-run.spec.mjs", "e2e/scale-canvas.spec.mjs"];
step(process.execPath, ["--test", "--test-concurrency=1", "--test-reporter=spec", ...specs]);

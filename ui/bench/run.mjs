// `make bench-ui`: builds the UI (unless BATON_E2E_NO_BUILD=1), then runs every ui/bench/*.bench.mjs
// (or the files named) one after another; each prints its figures as `name: value (bound)` lines.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const ui = resolve(here, "..");
const step = (cmd, args) => {
  const r = spawnSync(cmd, args, { cwd: ui, stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
if (process.env.BATON_E2E_NO_BUILD !== "1") step("npx", ["vite", "build", "--logLevel", "warn"]);
const files = process.argv.slice(2).length
  ? process.argv.slice(2)
  : readdirSync(here).filter((f) => f.endsWith(".bench.mjs")).sort().map((f) => join("bench", f));
for (const f of files) {
  console.log(`\n## ${f}`);
  step(process.execPath, [f]);
}

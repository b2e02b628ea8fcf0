#!/usr/bin/env node
// Fails when the production bundle (dist/assets/*.js) holds any of the mock platform: the mock
// adapter, its fixtures and its recorded runs are for tests and the dev server only
// (src/platform/index.ts loads them with a dynamic import that a production build drops).
//
// The markers are taken from the mock's own sources, so they follow the code: the string
// literals of src/platform/{mock,mock-runs,fixtures}.ts and the ids and texts of
// run-fixtures.json that no other source file holds. Run after `vite build`:
//   npm run build && npm run check-bundle
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

const UI = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const SRC = path.join(UI, "src");
const ASSETS = path.join(UI, "dist", "assets");
const MOCK_SOURCES = ["mock.ts", "mock-runs.ts", "fixtures.ts"].map((f) => path.join(SRC, "platform", f));
const MOCK_JSON = path.join(SRC, "platform", "run-fixtures.json");

function fail(message) {
  console.error(`check-bundle: ${message}`);
  process.exit(1);
}

/**
 * Strings a minifier keeps as they are (printable ASCII, no quotes, escapes or template syntax),
 * long enough to be the mock's own; addresses (provider endpoints) are not.
 */
const plain = (s) => s.length >= 16 && /^[\x20-\x7e]+$/.test(s) && !/["'`\\$]/.test(s) && !/^[a-z]+:\/\//.test(s);

function stringLiterals(file) {
  const source = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const out = [];
  const visit = (node) => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) out.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

function jsonStrings(value, out = []) {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) value.forEach((v) => jsonStrings(v, out));
  else if (value && typeof value === "object") Object.values(value).forEach((v) => jsonStrings(v, out));
  return out;
}

/** Every other source file of src/ (tests aside): a marker must not occur in any of them. */
function otherSources(dir = SRC, out = []) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) otherSources(p, out);
    else if (/\.(ts|tsx|css|html)$/.test(e.name) && !/\.test\./.test(e.name) && !MOCK_SOURCES.includes(p)) out.push(fs.readFileSync(p, "utf8"));
  }
  return out;
}

if (!fs.existsSync(ASSETS)) fail(`${path.relative(UI, ASSETS)} is missing: run \`npx vite build\` first`);
const bundles = fs.readdirSync(ASSETS).filter((f) => f.endsWith(".js"));
if (bundles.length === 0) fail("no .js file in dist/assets");

const others = otherSources().join("\n");
const candidates = [
  ...MOCK_SOURCES.flatMap(stringLiterals),
  ...jsonStrings(JSON.parse(fs.readFileSync(MOCK_JSON, "utf8"))),
];
const markers = [...new Set(candidates.filter(plain))].filter((s) => !others.includes(s));
// Enough of them that the mock cannot slip in unseen (there are hundreds today).
if (markers.length < 50) fail(`only ${markers.length} markers found in the mock's sources: has it moved?`);

let found = 0;
for (const file of bundles) {
  const text = fs.readFileSync(path.join(ASSETS, file), "utf8");
  const hits = markers.filter((m) => text.includes(m));
  if (hits.length > 0) {
    found += hits.length;
    console.error(`check-bundle: dist/assets/${file} holds the mock platform (${hits.length} markers), e.g.:`);
    for (const h of hits.slice(0, 5)) console.error(`  ${JSON.stringify(h.length > 100 ? `${h.slice(0, 100)}…` : h)}`);
  }
}
if (found > 0) fail("the mock platform is in the production bundle (see src/platform/index.ts)");
console.log(`check-bundle: ${bundles.length} bundle files, none holds any of ${markers.length} mock markers`);

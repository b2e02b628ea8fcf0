// Stepping in Chromium (issue #32 item 2): a key press to the frame that shows the next step, and
// the frame times meanwhile, on an example run (ticket-reopen, 12 steps) and on the 100,020-step
// run of ui/bench/fixtures.mjs, for one or more builds of the UI side by side (before and after a
// change), in rounds that alternate the builds so that a busy machine weighs on both alike.
//
//   BATON_BIN=… node e2e/step-bench.mjs before=/tmp/dist-a after=/tmp/dist-b
//
// Each argument is LABEL=DIST (a `vite build --outDir DIST`) or LABEL=DIST:BIN when the builds
// also differ in the backend (its wire format): that build is served by BIN; none: BATON_UI_DIST
// or ui/dist. Opening the run (page load to the step shown) and the size of its `run_overview`
// answer are printed beside the stepping.
// STEP_BENCH_ROUNDS (2) rounds; STEP_BENCH_LONG=0 skips the long run (saving it takes 2–6 minutes
// on a 2-core machine); STEP_BENCH_STORE=DIR keeps the store there and uses it again next time.
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { writeScaleFixtures } from "../bench/fixtures.mjs";
import { keyProbe, stats } from "../bench/probes.mjs";
import { backendPlan, launchBrowser, REPO, startBackend, UI_DIR } from "./harness.mjs";

const plan = backendPlan();
if (plan.skip) throw new Error(plan.skip);

const builds = process.argv.slice(2).map((a) => {
  const [label, rest] = a.split("=");
  const [dist, bin] = rest.split(":");
  return { label, dist, bin };
});
if (builds.length === 0) builds.push({ label: "current", dist: process.env.BATON_UI_DIST ?? join(UI_DIR, "dist") });
const rounds = Number(process.env.STEP_BENCH_ROUNDS ?? 2);
const withLong = process.env.STEP_BENCH_LONG !== "0";
/** Presses per measurement. */
const PRESSES = 60;

/** Runs a topology on its scenario into `db`: its id and step count. */
function saveRun(file, db) {
  const t0 = performance.now();
  const out = execFileSync(plan.bin, ["run", file, "--save", "--db", db], { maxBuffer: 1 << 30 }).toString();
  const id = /^run id: (\S+)$/m.exec(out)?.[1];
  const steps = out.split("\n").filter((l) => /^#\d+ /.test(l)).length;
  console.log(`# ${file.split("/").pop()}: ${steps} steps, saved in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return { id, steps };
}

const load = () => loadavg().map((l) => l.toFixed(2)).join(" ");

/** One store for every build: the example and (unless skipped) the long run; kept in STEP_BENCH_STORE. */
const kept = process.env.STEP_BENCH_STORE;
const store = kept ?? mkdtempSync(join(tmpdir(), "baton-step-bench-"));
const db = join(store, "runs.db");
const runsFile = join(store, "runs.json");
let { example, long } = kept && existsSync(runsFile) ? JSON.parse(readFileSync(runsFile, "utf8")) : { example: null, long: null };
if (!example) {
  mkdirSync(store, { recursive: true });
  example = saveRun(join(REPO, "examples", "ticket-reopen.yaml"), db);
}
if (withLong && !long) {
  writeScaleFixtures(store);
  long = saveRun(join(store, "polling-run.yaml"), db);
}
if (kept) writeFileSync(runsFile, JSON.stringify({ example, long }));
if (!withLong) long = null;

/**
 * Steps `PRESSES` times from `at`: on a short run forwards to its end, back to its start, and so
 * on (the keys' direction flips at either end); on a long run forwards.
 */
async function stepRun(page, backend, run, at) {
  let overviewBytes = 0;
  page.on("response", async (r) => {
    if (r.url().includes("/api/run_overview")) overviewBytes = Number(r.headers()["content-length"] ?? (await r.body()).length);
  });
  const t0 = performance.now();
  await page.goto(backend.page(`run=${run.id}&step=${at}`));
  await page.waitForSelector(`[data-testid="step-detail"][data-step="${at}"]:not([data-loading])`, { timeout: 60_000 });
  const open = performance.now() - t0;
  // Let the first paint, the chart and the canvas's fit settle.
  await page.waitForTimeout(800);
  // The main thread's work meanwhile (Chromium's own counters): all of it, and the script's part.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Performance.enable");
  const metrics = async () => Object.fromEntries((await cdp.send("Performance.getMetrics")).metrics.map((m) => [m.name, m.value]));
  const m0 = await metrics();
  const lat = [];
  const frames = [];
  let pos = at;
  let dir = 1;
  while (lat.length < PRESSES) {
    const room = dir > 0 ? run.steps - 1 - pos : pos;
    if (room === 0) {
      dir = -dir;
      continue;
    }
    const n = Math.min(room, PRESSES - lat.length);
    const r = await page.evaluate(keyProbe, { key: dir > 0 ? "ArrowRight" : "ArrowLeft", n });
    lat.push(...r.lat);
    frames.push(...r.frames);
    pos += dir * n;
  }
  const m1 = await metrics();
  await cdp.detach();
  const perStep = (k) => ((m1[k] - m0[k]) * 1000) / lat.length;
  return { open, overviewBytes, lat: stats(lat), frames: stats(frames), task: perStep("TaskDuration"), script: perStep("ScriptDuration") };
}

const results = new Map();
const record = (key, round, r) => {
  if (!results.has(key)) results.set(key, []);
  results.get(key)[round] = r;
};

const browser = await launchBrowser();
try {
  for (let round = 0; round < rounds; round++) {
    for (const b of builds) {
      process.env.BATON_UI_DIST = b.dist;
      const backend = await startBackend(b.bin ? { bin: b.bin } : plan, {
        setup(root) {
          mkdirSync(join(root, ".baton"), { recursive: true });
          for (const f of ["runs.db", "runs.db-wal"]) if (existsSync(join(store, f))) copyFileSync(join(store, f), join(root, ".baton", f));
        },
      });
      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      try {
        console.log(`# round ${round + 1}, ${b.label}: load average ${load()}`);
        record(`${b.label}|example (ticket-reopen, ${example.steps} steps)`, round, await stepRun(page, backend, example, 0));
        if (long) record(`${b.label}|${long.steps}-step run, from step 50,000`, round, await stepRun(page, backend, long, 50_000));
      } finally {
        await page.close();
        await backend.stop();
      }
    }
  }
} finally {
  await browser.close();
  if (!kept) rmSync(store, { recursive: true, force: true });
}

const f = (n) => n.toFixed(1);
console.log(`\nStepping (→/←, ${PRESSES} presses a measurement; ms; frame = requestAnimationFrame interval while stepping; main thread = Chromium's TaskDuration and ScriptDuration over the presses, a step)`);
for (const [key, rs] of results) {
  const [label, what] = key.split("|");
  rs.forEach((r, i) => {
    console.log(
      `${label.padEnd(8)} ${what}, round ${i + 1}: open ${f(r.open)} (run_overview ${(r.overviewBytes / 1e6).toFixed(2)} MB) · frame p50 ${f(r.frames.p50)} p95 ${f(r.frames.p95)} max ${f(r.frames.max)} · press to shown p50 ${f(r.lat.p50)} p95 ${f(r.lat.p95)} · main thread ${f(r.task)} a step (script ${f(r.script)})`,
    );
  });
}
console.log(`# load average at the end: ${load()}`);

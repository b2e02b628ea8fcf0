// The debugger at scale in Debian's Chromium against `baton serve` and a real SQLite store
// (issue #21): a 100,000-step run (ui/bench/fixtures.mjs, saved by `baton run --save`) opened at
// its start, middle and end; stepping, jumping between transfers and scrolling the timeline,
// timed in the page (key press to the frame that shows the step; rAF intervals); a step whose
// context holds 17,000 items, and how many bytes its step view carries.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { backendPlan, launchBrowser, startBackend } from "../e2e/harness.mjs";
import { writeScaleFixtures } from "./fixtures.mjs";
import { figure } from "./frames.mjs";
import { keyProbe, scrollProbe, stats, untilProbe } from "./probes.mjs";

const plan = backendPlan();
if (plan.skip) throw new Error(plan.skip);

function saveRun(root, file) {
  const t0 = performance.now();
  const out = execFileSync(plan.bin, ["run", join(root, file), "--save", "--db", join(root, ".baton", "runs.db")], { maxBuffer: 1 << 30 }).toString();
  const id = /^run id: (\S+)$/m.exec(out)?.[1];
  const steps = out.split("\n").filter((l) => /^#\d+ /.test(l)).length;
  console.log(`# ${file}: ${steps} steps, run and saved in ${((performance.now() - t0) / 1000).toFixed(1)} s by ${plan.bin}`);
  return { id, steps };
}

let long;
let wide;
const backend = await startBackend(plan, {
  setup(root) {
    writeScaleFixtures(root);
    long = saveRun(root, "polling-run.yaml");
    wide = saveRun(root, "wide-context.yaml");
  },
});
const browser = await launchBrowser();
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  const bytes = new Map();
  page.on("response", async (r) => {
    const m = /\/api\/(step_view|run_overview|step_context)/.exec(r.url());
    if (m) bytes.set(m[1], Math.max(bytes.get(m[1]) ?? 0, Number(r.headers()["content-length"] ?? (await r.body()).length)));
  });
  const detail = (k) => `[data-testid="step-detail"][data-step="${k}"]:not([data-loading])`;

  // Opening the run, at three positions (a fresh document each time: load, overview, first step).
  for (const at of [0, Math.floor(long.steps / 2), long.steps - 1]) {
    await page.goto(backend.page(`run=${long.id}&step=${at}`));
    const ms = await page.evaluate(untilProbe, { selector: detail(at) });
    figure(`open the ${long.steps}-step run at step ${at} (page load to step shown)`, ms, "ms", "1000 ms", ms < 1000);
  }
  console.log(`# run_overview response: ${((bytes.get("run_overview") ?? 0) / 1e6).toFixed(1)} MB`);

  for (const at of [0, Math.floor(long.steps / 2), long.steps - 200]) {
    await page.goto(backend.page(`run=${long.id}&step=${at}`));
    await page.waitForSelector(detail(at));
    const step = await page.evaluate(keyProbe, { key: "ArrowRight", n: 60 });
    const s = stats(step.lat);
    const f = stats(step.frames);
    figure(`step (→) at ${at}: press to step shown, p50`, s.p50, "ms");
    figure(`step (→) at ${at}: press to step shown, p95`, s.p95, "ms");
    figure(`step (→) at ${at}: frame time p95 (max ${f.max.toFixed(1)})`, f.p95, "ms", "16.7 ms, one 60 Hz frame", f.p95 <= 17);
    // Near the end there are no transfers ahead: jump back (Shift+N) instead.
    const back = at > long.steps / 2 + 1;
    const jump = await page.evaluate(keyProbe, back ? { key: "N", shift: true, n: 20 } : { key: "n", n: 20 });
    const j = stats(jump.lat);
    const jf = stats(jump.frames);
    const what = back ? "jump to the previous transfer (Shift+N)" : "jump to the next transfer (n)";
    figure(`${what} at ${at}: press to step shown, p50`, j.p50, "ms");
    figure(`${what} at ${at}: frame time p95 (max ${jf.max.toFixed(1)})`, jf.p95, "ms", "16.7 ms, one 60 Hz frame", jf.p95 <= 17);
  }

  const scroll = await page.evaluate(scrollProbe, { selector: '[data-testid="timeline"]', steps: 240 });
  const sc = stats(scroll.frames);
  figure(`scroll the timeline top to bottom (${long.steps} rows): frame time p95 (max ${sc.max.toFixed(1)})`, sc.p95, "ms", "16.7 ms, one 60 Hz frame", sc.p95 <= 17);

  // The 17,000-item context: one window in the step view, the rest paged as the list scrolls.
  const last = wide.steps - 102;
  bytes.clear();
  await page.goto(backend.page(`run=${wide.id}&step=${last}`));
  const ms = await page.evaluate(untilProbe, { selector: detail(last) });
  await page.getByTestId("tab-context").click();
  const total = await page.getByTestId("context-tokens").getAttribute("data-total");
  figure(`open the step whose context holds ${total} items`, ms, "ms", "1000 ms", ms < 1000);
  console.log(`# its step_view response: ${((bytes.get("step_view") ?? 0) / 1e3).toFixed(0)} kB (the whole context was 1.6 MB before paging)`);
  const cs = await page.evaluate(scrollProbe, { selector: '[data-testid="context-list"]', steps: 240 });
  const c = stats(cs.frames);
  figure(`scroll that context top to bottom (pages load on the way): frame time p95 (max ${c.max.toFixed(1)})`, c.p95, "ms", "16.7 ms, one 60 Hz frame", c.p95 <= 17);
} finally {
  await browser.close();
  await backend.stop();
}

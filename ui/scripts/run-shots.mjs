// Screenshots of a run: the Run panel after a live run, the debugger on a run, and the
// resolution → verification transfer diff of ticket-reopen, against `baton serve`.
// usage: node scripts/run-shots.mjs [OUTDIR=../docs/screenshots] [WxH=1600x1000] [--all]
// (--all adds run-live.png, paused at a breakpoint, and run-panel.png, the finished run)
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { backendPlan, launchBrowser, startBackend, UI_DIR } from "../e2e/harness.mjs";

const all = process.argv.includes("--all");
const args = process.argv.slice(2).filter((a) => a !== "--all");
const out = resolve(args[0] ?? join(UI_DIR, "..", "docs", "screenshots"));
const [w, h] = (args[1] ?? "1600x1000").split("x").map(Number);
mkdirSync(out, { recursive: true });
const plan = backendPlan();
if (plan.skip) throw new Error(plan.skip);
const backend = await startBackend(plan);
const browser = await launchBrowser();
try {
  const page = await browser.newPage({ viewport: { width: w, height: h }, deviceScaleFactor: 1 });
  page.on("pageerror", (e) => console.error("pageerror:", e.message));
  const by = (id) => page.getByTestId(id);
  const shot = async (name, extra = false) => {
    if (extra && !all) return;
    await page.waitForTimeout(600);
    await page.screenshot({ path: join(out, `${name}.png`) });
    console.log(`wrote ${join(out, `${name}.png`)}`);
  };

  await page.goto(`${backend.url}/?open=ticket-reopen.yaml`);
  await by("node-triage").waitFor();
  // a breakpoint on the lossy edge, then a run with some latency: the live view pauses there
  await by("edge-label-resolution->verification").click();
  await by("tab-run").click();
  await by("breakpoint-toggle").click();
  await by("latency-select").selectOption("100");
  await by("run-start").click();
  await page.locator('[data-testid="run-status"][data-status="paused"]').waitFor();
  await page.keyboard.press("Escape");
  await shot("run-live", true);
  await by("run-resume").click();
  await page.locator('[data-testid="run-status"][data-status="finished"]').waitFor();
  await shot("run-panel", true);

  await by("run-debug").click();
  await by("debugger").waitFor();
  await page.locator('[data-testid="timeline-step"]').first().waitFor();
  await by("step-next").click();
  await by("step-next").click();
  await by("step-next").click();
  await by("step-next").click();
  await by("tab-context").click();
  await page.locator('[data-testid="step-detail"][data-step="4"]').waitFor();
  await shot("run");
  await by("next-transfer").click();
  await by("tab-diff").click();
  // a little less graph, a little more diff
  const split = await by("graph-splitter").boundingBox();
  await page.mouse.move(split.x + 200, split.y + 3);
  await page.mouse.down();
  await page.mouse.move(split.x + 200, split.y - 50, { steps: 5 });
  await page.mouse.up();
  await page.mouse.move(5, h - 5);
  await page.locator('[data-testid="transfer-diff"][data-from="resolution"]').waitFor();
  await shot("transfer-diff");
} finally {
  await browser.close();
  await backend.stop();
}

// Screenshots of the designer's main states against `baton serve` (the http adapter).
// usage: node scripts/shots.mjs OUTDIR
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { backendPlan, launchBrowser, startBackend } from "../e2e/harness.mjs";

const out = process.argv[2] ?? "/tmp/shots";
const [w, h] = (process.argv[3] ?? "1440x900").split("x").map(Number);
mkdirSync(out, { recursive: true });
const plan = backendPlan();
if (plan.skip) throw new Error(plan.skip);
const backend = await startBackend(plan);
const browser = await launchBrowser();
try {
  const page = await browser.newPage({ viewport: { width: w, height: h } });
  page.on("pageerror", (e) => console.error("pageerror:", e.message));
  const shot = async (name) => {
    await page.waitForTimeout(450);
    await page.screenshot({ path: join(out, `${name}.png`) });
  };
  await page.goto(backend.url);
  await page.waitForTimeout(600);
  await shot("welcome");
  await page.getByTestId("menu-open").click();
  await shot("open-dialog");
  await page.locator('[data-testid="open-file"][data-path="ticket-reopen.yaml"]').click();
  await page.getByTestId("node-triage").waitFor();
  await shot("designer-plain");
  await page.getByTestId("edge-label-resolution->verification").click();
  await shot("designer");
  await page.getByTestId("node-resolution").click();
  await shot("agent");
  await page.getByTestId("edge-label-resolution->verification").click();
  await shot("edge");
  await page.getByTestId("export-open").click();
  await page.getByTestId("export-format").selectOption("mermaid");
  await shot("export");
  await page.keyboard.press("Escape");
  await page.getByTestId("refactor-supervisor").click();
  await page.getByTestId("node-supervisor").waitFor();
  await shot("refactored");
  await page.goto(`${backend.url}/?open=handoff-loop.yaml`);
  await page.getByTestId("node-billing").waitFor();
  await shot("loop");
  await page.goto(`${backend.url}/?open=support-triage.yaml`);
  await page.waitForTimeout(500);
  await shot("triage");
  await page.goto(`${backend.url}/?open=ticket-supervisor.yaml`);
  await page.waitForTimeout(500);
  await shot("supervisor");
} finally {
  await browser.close();
  await backend.stop();
}

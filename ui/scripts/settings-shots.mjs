// Screenshots of Settings (model providers) and File → Open trace, against `baton serve` with
// OPENAI_API_KEY set and its endpoint on a closed port (no real keyring, no network).
// usage: node scripts/settings-shots.mjs [OUTDIR=../docs/screenshots] [WxH=1600x1000]
import { copyFileSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { backendPlan, freePort, launchBrowser, REPO, startBackend, UI_DIR } from "../e2e/harness.mjs";

const out = resolve(process.argv[2] ?? join(UI_DIR, "..", "docs", "screenshots"));
const [w, h] = (process.argv[3] ?? "1600x1000").split("x").map(Number);
mkdirSync(out, { recursive: true });
const plan = backendPlan();
if (plan.skip) throw new Error(plan.skip);
const closed = await freePort();
const backend = await startBackend(plan, {
  setup: (root) => copyFileSync(join(REPO, "tests/import/fixtures/otlp_genai.json"), join(root, "otlp_genai.json")),
  env: {
    OPENAI_API_KEY: "sk-test",
    OPENAI_BASE_URL: `http://127.0.0.1:${closed}/v1`,
    ANTHROPIC_API_KEY: "",
    GEMINI_API_KEY: "",
    GOOGLE_API_KEY: "",
    OPENAI_COMPATIBLE_API_KEY: "",
    OPENAI_COMPATIBLE_BASE_URL: "",
    BATON_NO_KEYRING: "1",
  },
});
const browser = await launchBrowser();
try {
  const page = await browser.newPage({ viewport: { width: w, height: h }, deviceScaleFactor: 1 });
  page.on("pageerror", (e) => console.error("pageerror:", e.message));
  const by = (id) => page.getByTestId(id);
  const shot = async (name) => {
    await page.waitForTimeout(500);
    await page.screenshot({ path: join(out, `${name}.png`) });
    console.log(`wrote ${join(out, `${name}.png`)}`);
  };

  await page.goto(`${backend.url}/?open=support-triage.yaml`);
  await by("node-triage").waitFor();
  await by("settings-open").click();
  await page.locator('[data-testid="provider-row"]').first().waitFor({ timeout: 20000 });
  await shot("settings");
  await page.keyboard.press("Escape");

  await by("tab-run").click();
  await by("run-live").check({ force: true });
  await by("run-live-missing").waitFor({ timeout: 20000 });
  await shot("run-live-providers");
  await by("run-live").uncheck({ force: true });

  await by("menu-open-trace").click();
  await page.locator('[data-testid="trace-file"][data-path="otlp_genai.json"]').click();
  await shot("open-trace");
  await by("trace-import").click();
  await by("transport").waitFor();
  await by("next-transfer").click();
  await page.locator('[data-testid="transfer-diff"][data-from="triage"]').waitFor();
  await shot("imported-trace");
} finally {
  await browser.close();
  await backend.stop();
}

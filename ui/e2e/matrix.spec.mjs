// Browser tests of the Matrix tab against `baton serve`, at 1280x720 and 1440x900: examples/support-triage.yaml has two scenarios with expect: (double-charge, app-error); varying triage over mock:a and mock:b with the others on the mock scripts gives 2 models × 2 scenarios = 4 cells, each run completing with its expectations passed; a row opens its saved run in the debugger, whose timeline has Triage's steps.
// BATON_E2E_SHOTS=DIR writes a screenshot of each stage there.
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { backendPlan, launchBrowser, startBackend } from "./harness.mjs";

const plan = backendPlan();
if (plan.skip && process.env.BATON_E2E_REQUIRE === "1") throw new Error(plan.skip);
const SHOTS = process.env.BATON_E2E_SHOTS;

for (const [width, height] of [
  [1280, 720],
  [1440, 900],
]) {
  describe(`the Matrix tab at ${width}x${height} (browser, http adapter)`, { skip: plan.skip ?? false }, () => {
    let backend;
    let browser;
    let page;
    const errors = [];

    before(async () => {
      backend = await startBackend(plan);
      browser = await launchBrowser();
      page = await browser.newPage({ viewport: { width, height } });
      page.on("pageerror", (e) => errors.push(e.message));
    });

    after(async () => {
      await browser?.close();
      await backend?.stop();
      assert.deepEqual(errors, []);
    });

    const byId = (id) => page.getByTestId(id);
    const sel = (css) => page.locator(css);
    const shot = async (name) => {
      if (!SHOTS) return;
      await page.waitForTimeout(300);
      await page.screenshot({ path: join(SHOTS, `matrix-${width}x${height}-${name}.png`) });
    };

    it("support-triage: vary triage over mock:a and mock:b → 4 rows, each 1/1 completed with every expectation passed; a row opens its run", async () => {
      await page.goto(backend.page("open=support-triage.yaml"));
      await byId("node-triage").waitFor();
      await byId("tab-matrix").click();
      if ((await byId("bottom-panel").getAttribute("class")).includes("is-collapsed")) await byId("tab-matrix").click();
      await byId("matrix-panel").waitFor();
      await shot("form");

      await byId("matrix-vary-triage").check();
      // the agent's current model, from the file
      assert.equal(await byId("matrix-models-triage").inputValue(), "openai:gpt-4o-mini");
      await byId("matrix-models-triage").fill("mock:a\nmock:b");
      assert.equal(await byId("matrix-scenario-double-charge").isChecked(), true);
      assert.equal(await byId("matrix-scenario-app-error").isChecked(), true);
      assert.equal(await byId("matrix-mock-rest").isChecked(), true);
      await byId("matrix-prices").fill("mock:a: {input_per_mtok: 1}");
      assert.equal(await byId("matrix-prices-error").textContent(), "mock:a: missing output_per_mtok");
      assert.equal(await byId("matrix-run").isDisabled(), true);
      await shot("price-error");
      await byId("matrix-prices").fill("");
      await byId("matrix-run").click();
      await byId("matrix-table").waitFor({ timeout: 60000 });
      await shot("report");

      const rows = sel('[data-testid="matrix-row"]');
      assert.equal(await rows.count(), 4);
      const seen = [];
      for (let i = 0; i < 4; i++) {
        const row = rows.nth(i);
        seen.push(`${await row.getAttribute("data-models")} ${await row.getAttribute("data-scenario")}`);
        assert.equal(await row.getByTestId("matrix-completed").textContent(), "1/1");
        const [passed, total] = (await row.getByTestId("matrix-expectations").textContent()).split("/").map(Number);
        // each scenario's expect: has status, visits, not_visits and output_contains
        assert.ok(total >= 4, `expectations checked: ${total}`);
        assert.equal(passed, total);
        assert.equal(await row.getByTestId("matrix-cost").textContent(), "no price");
        assert.equal(await row.getByTestId("matrix-open-run").count(), 1);
      }
      assert.deepEqual(seen.sort(), ["triage=mock:a app-error", "triage=mock:a double-charge", "triage=mock:b app-error", "triage=mock:b double-charge"]);

      const first = rows.first();
      // Every column the row shows lies inside the viewport (the per-repeat buttons too).
      const btn = await first.getByTestId("matrix-open-run").boundingBox();
      assert.ok(btn && btn.x >= 0 && btn.x + btn.width <= width, `the run button at ${JSON.stringify(btn)} is on screen at ${width}`);
      const runId = await first.getByTestId("matrix-open-run").getAttribute("data-run");
      assert.ok(runId);
      await first.locator("td").nth(1).click();
      await sel('[data-testid="app"][data-mode="debug"]').waitFor({ timeout: 30000 });
      const triageSteps = sel('[data-testid="timeline-step"][data-agent="triage"]');
      await triageSteps.first().waitFor();
      assert.ok((await triageSteps.count()) >= 1);
      assert.match(page.url(), new RegExp(`run=${runId}`));
      await shot("debugger");
    });
  });
}

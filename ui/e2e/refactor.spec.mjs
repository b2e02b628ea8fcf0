// Browser test of the supervisor refactor as a user meets it: the verify-handoff finding selects
// its edge, the refactor shows a preview of that scope and of every change (scripts included)
// before anything changes, and the applied result runs to completion without losing the fact.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { backendPlan, launchBrowser, startBackend } from "./harness.mjs";

const plan = backendPlan();
if (plan.skip && process.env.BATON_E2E_REQUIRE === "1") throw new Error(plan.skip);

for (const [width, height] of [
  [1280, 720],
  [1440, 900],
]) {
  describe(`refactor preview at ${width}x${height} (browser, http adapter)`, { skip: plan.skip ?? false }, () => {
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
    });

    const byId = (id) => page.getByTestId(id);
    const inViewport = async (loc) => {
      const b = await loc.boundingBox();
      return b !== null && b.x >= 0 && b.y >= 0 && b.x + b.width <= width && b.y + b.height <= height;
    };

    it("warns before any run that the pinned fact cannot cross the fields handoff", async () => {
      await page.goto(backend.page("open=ticket-reopen.yaml"));
      await byId("node-triage").waitFor();
      // ticket-reopen.yaml: resolved-meaning is held by Resolution; resolution → verification
      // passes fields(ticket, status) only.
      const finding = page.locator('[data-testid="finding"][data-code="fact-cannot-cross"]');
      await finding.waitFor();
      assert.match(await finding.innerText(), /resolved-meaning/);
      const chip = byId("fact-chip-resolution->verification");
      await chip.waitFor();
      assert.equal(await chip.getAttribute("data-state"), "blocked");
      assert.equal(await chip.getAttribute("data-facts"), "resolved-meaning=blocked");
      // Triage's edge carries no fact: Triage does not hold it and nothing gives it one.
      assert.equal(await byId("fact-chip-triage->resolution").count(), 0);
      assert.equal(await byId("app").getAttribute("data-mode"), "design", "no run was started");
    });

    it("previews the selected edge's refactor, and nothing changes on Cancel", async () => {
      // ticket-reopen.yaml: resolution → verification is a handoff with `acceptance: verify`.
      await page.locator('[data-testid="finding"][data-code="verify-handoff"]').first().click();
      await byId("refactor-supervisor").click();
      await byId("refactor-preview").waitFor();
      const scope = byId("refactor-scope");
      assert.equal(await scope.getAttribute("data-chosen"), "true");
      assert.match(await scope.innerText(), /selected handoffs: Resolution → Verification/);
      const changes = await page.locator('[data-testid="refactor-change"]').allInnerTexts();
      assert.ok(changes.includes("Triage's handoff to Resolution now goes to Supervisor"), changes.join("\n"));
      assert.ok(changes.some((c) => c.includes("Triage's script calls transfer_to_supervisor instead of transfer_to_resolution")), changes.join("\n"));
      assert.equal(await byId("refactor-after").getAttribute("data-errors"), "0");
      assert.ok(await inViewport(byId("refactor-apply")), "Apply is on screen");
      await byId("refactor-cancel").click();
      await byId("refactor-preview").waitFor({ state: "detached" });
      assert.equal(await byId("node-supervisor").count(), 0);
    });

    it("applies it, and the result runs to completion with the fact kept", async () => {
      await page.locator('[data-testid="finding"][data-code="verify-handoff"]').first().click();
      await byId("refactor-supervisor").click();
      await byId("refactor-apply").click();
      await byId("node-supervisor").waitFor();
      assert.equal(await page.locator('[data-testid="finding"][data-severity="error"]').count(), 0);
      // The supervisor keeps the fact: no handoff is left that cannot carry it.
      await page.waitForFunction(() => !document.querySelector('[data-testid="finding"][data-code="fact-cannot-cross"]'));
      if ((await byId("tab-run").getAttribute("aria-selected")) !== "true") await byId("tab-run").click();
      if ((await byId("bottom-panel").getAttribute("class")).includes("is-collapsed")) await byId("tab-run").click();
      await byId("run-start").click();
      await page.locator('[data-testid="run-status"][data-status="finished"]').waitFor({ timeout: 30000 });
      assert.equal(await page.locator('[data-testid="run-status"] [data-testid="outcome"]').getAttribute("data-status"), "completed");
      assert.deepEqual(errors, []);
    });
  });
}

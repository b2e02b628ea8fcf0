// Browser tests of what-if, forks and lineage against `baton serve`, at 1280x720 and 1440x900:
// ticket-reopen's resolution → verification handoff under every policy, a fork from step 5 with
// the pinned fact restored (opened, with its parent, and compared with it), a fork with another
// policy from a what-if row, and a row's policy applied to the open document.
// BATON_E2E_SHOTS=DIR writes a screenshot of each stage there.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { backendPlan, launchBrowser, startBackend } from "./harness.mjs";

const plan = backendPlan();
if (plan.skip && process.env.BATON_E2E_REQUIRE === "1") throw new Error(plan.skip);
const SHOTS = process.env.BATON_E2E_SHOTS;
if (SHOTS) mkdirSync(SHOTS, { recursive: true });

// What a person reads in examples/ticket-reopen.yaml.
const EDGE = "resolution->verification"; // the second handoff (transfer 1, at step 5 of a mock run)
const RECORDED = "fields(ticket,status)"; // its policy
const FACT = "resolved-meaning"; // pinned, held by Resolution
const STAYS = "The flag is off as expected for a fix pending manual rollout. Ticket 4812 stays resolved."; // Verification's rule when the fact is present
const REOPENED = "Reopened ticket 4812: the fix is not live (flag FIX_4812 is off)."; // and when it is absent

const VIEWPORTS = [
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
];

describe("what-if, forks and lineage (browser, http adapter)", { skip: plan.skip ?? false }, () => {
  let backend;
  let browser;
  let page;
  const errors = [];

  before(async () => {
    backend = await startBackend(plan);
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: VIEWPORTS[0] });
    page.on("pageerror", (e) => errors.push(e.message));
  });

  after(async () => {
    await browser?.close();
    await backend?.stop();
  });

  const byId = (id) => page.getByTestId(id);
  const sel = (css) => page.locator(css);
  const shot = async (name) => {
    if (SHOTS) await page.screenshot({ path: join(SHOTS, `${name}.png`) });
  };

  async function showTab(id) {
    if ((await byId(`tab-${id}`).getAttribute("aria-selected")) !== "true") await byId(`tab-${id}`).click();
    if ((await byId("bottom-panel").getAttribute("class")).includes("is-collapsed")) await byId(`tab-${id}`).click();
  }

  /** Runs ticket-reopen (mock), opens the debugger at the resolution → verification handoff; the run's id. */
  async function runToHandoff() {
    await page.goto(backend.page("open=ticket-reopen.yaml"));
    await byId("node-triage").waitFor();
    await showTab("run");
    await byId("run-start").click();
    await sel('[data-testid="run-status"][data-status="finished"]').waitFor();
    await byId("run-debug").click();
    await sel('[data-testid="app"][data-mode="debug"]').waitFor();
    await sel('[data-testid="timeline-step"]').first().waitFor();
    await byId("next-transfer").click();
    await byId("next-transfer").click();
    await sel('[data-testid="step-detail"][data-step="5"]:not([data-loading])').waitFor();
    await sel('[data-testid="transfer-diff"][data-from="resolution"][data-to="verification"]').waitFor();
    return byId("debugger").getAttribute("data-run");
  }

  async function openWhatIf() {
    await byId("tab-whatif").click();
    await byId("whatif-table").waitFor();
  }

  const row = (policy) => sel(`[data-testid="whatif-row"][data-policy="${policy}"]`);

  for (const vp of VIEWPORTS) {
    const at = `${vp.width}x${vp.height}`;

    it(`what-if at the handoff: the recorded policy marked, the fact lost under each, at ${at}`, async () => {
      await page.setViewportSize(vp);
      await runToHandoff();
      await openWhatIf();
      const policies = await sel('[data-testid="whatif-row"]').evaluateAll((els) => els.map((e) => e.dataset.policy));
      for (const p of ["full", "none", RECORDED]) assert.ok(policies.includes(p), `rows: ${policies}`);
      const recorded = await sel('[data-testid="whatif-row"][data-recorded="true"]').evaluateAll((els) => els.map((e) => e.dataset.policy));
      assert.deepEqual(recorded, [RECORDED]);
      assert.equal(await row(RECORDED).getByTestId("whatif-recorded").textContent(), "recorded");
      assert.equal(await row(RECORDED).locator(`[data-testid="whatif-fact"][data-fact="${FACT}"]`).getAttribute("data-status"), "lost");
      // the fact sits in Resolution's own context, which no policy passes: lost in every row, in red
      const statuses = await sel(`[data-testid="whatif-fact"][data-fact="${FACT}"]`).evaluateAll((els) => els.map((e) => e.dataset.status));
      assert.ok(statuses.length >= 3 && statuses.every((s) => s === "lost"), `statuses: ${statuses}`);
      const red = await row(RECORDED).locator(".fact-pill").evaluate((e) => getComputedStyle(e).backgroundColor);
      assert.equal(red, "rgb(200, 30, 30)");
      assert.match(await byId("whatif-note").first().innerText(), new RegExp(FACT));
      // every column fits the pane: the fact's status is not cut off at the right
      const fit = await page.evaluate(() => {
        const pane = document.querySelector('[data-testid="whatif"]').getBoundingClientRect();
        const cells = [...document.querySelectorAll('[data-testid="whatif-fact"]')].map((c) => c.getBoundingClientRect().right);
        return { pane: pane.right, cell: Math.max(...cells) };
      });
      assert.ok(fit.cell <= fit.pane + 1, `fact column ends at ${fit.cell}, the pane at ${fit.pane}`);
      // the recorded row is selected: Verification gets its instructions and the structured fields
      assert.equal(await byId("whatif-detail").getAttribute("data-policy"), RECORDED);
      assert.match(await byId("whatif-items").innerText(), /status: resolved/);
      await row("full").click();
      assert.equal(await byId("whatif-detail").getAttribute("data-policy"), "full");
      assert.ok((await sel('[data-testid="whatif-item"][data-status="carried"]').count()) > 0);
      await shot(`fork-whatif-${at}`);
    });

    it(`forks from step 5 with ${FACT} restored: the fork answers "stays resolved", shows its parent and compares, at ${at}`, async () => {
      await page.setViewportSize(vp);
      const parent = await runToHandoff();
      assert.match(await sel(".run-answer").innerText(), /Reopened ticket 4812/);
      await byId("fork-here").click();
      const dialog = byId("fork-dialog");
      await dialog.waitFor();
      assert.equal(await dialog.getAttribute("data-step"), "5");
      assert.equal(await sel(`[data-testid="fork-policy"][data-edge="${EDGE}"]`).inputValue(), RECORDED);
      await sel('[data-testid="fork-drop"]').first().waitFor();
      await sel(`[data-testid="fork-restore"][data-fact="${FACT}"]`).check();
      assert.equal(await byId("fork-summary").innerText(), "1 change from step 5");
      await page.waitForTimeout(200); // the dialog's fade-in, for the screenshot
      await shot(`fork-dialog-${at}`);
      await byId("fork-submit").click();

      await sel(`[data-testid="lineage-parent"][data-run="${parent}"]`).waitFor();
      const child = await byId("debugger").getAttribute("data-run");
      assert.notEqual(child, parent);
      await dialog.waitFor({ state: "detached" });
      assert.equal(await sel(".run-answer").innerText(), STAYS);
      assert.equal(await byId("lineage-forked-at").innerText(), "at step 5");
      assert.match(await byId("lineage-divergence").innerText(), /left the recording at call 1 of Verification/);
      // the fork opened at step 5, where the fact now crosses
      await sel('[data-testid="step-detail"][data-step="5"]:not([data-loading])').waitFor();
      assert.equal(await sel(`[data-testid="fact-status"][data-fact="${FACT}"]`).getAttribute("data-status"), "carried");
      await shot(`fork-opened-${at}`);

      await byId("lineage-compare").click();
      await byId("compare-view").waitFor();
      assert.equal(await sel('[data-testid="compare-run"][data-side="A"]').getAttribute("data-run"), parent);
      assert.equal(await sel('[data-testid="compare-run"][data-side="B"]').getAttribute("data-run"), child);
      const answers = await sel('[data-testid="compare-answer"]').allInnerTexts();
      assert.ok(answers.some((a) => a.includes(REOPENED)) && answers.some((a) => a.includes(STAYS)), `answers: ${answers}`);
      await page.waitForTimeout(200); // the dialog's fade-in, for the screenshot
      await shot(`fork-compare-${at}`);
      await page.keyboard.press("Escape");
      await byId("compare-view").waitFor({ state: "detached" });

      // the parent lists the fork
      await byId("lineage-parent").click();
      await sel(`[data-testid="debugger"][data-run="${parent}"]`).waitFor();
      const fork = sel(`[data-testid="lineage-fork"][data-run="${child}"]`);
      await fork.waitFor();
      assert.match(await fork.innerText(), /stays resolved/);
      await shot(`fork-parent-lineage-${at}`);

      // back in the editor, the Run tab's result is the parent's, and says a fork was made since
      await byId("debug-exit").click();
      await sel('[data-testid="app"][data-mode="design"]').waitFor();
      await showTab("run");
      assert.equal(await sel('[data-testid="run-status"]').getAttribute("data-run"), parent);
      const newer = byId("run-newer-fork");
      await newer.waitFor();
      assert.match(await newer.innerText(), new RegExp(`forked since:\\s+open the fork ${child.replace(/-/g, "").slice(-8)}`));
      await byId("run-open-fork").click();
      await sel(`[data-testid="debugger"][data-run="${child}"]`).waitFor();
      assert.deepEqual(errors, []);
    });
  }

  it("forks with another policy from a what-if row, and applies a row's policy to the open document", async () => {
    await page.setViewportSize(VIEWPORTS[1]);
    const parent = await runToHandoff();
    await openWhatIf();
    await row("none").click();
    await byId("whatif-fork").click();
    await sel(`[data-testid="lineage-parent"][data-run="${parent}"]`).waitFor();
    await sel('[data-testid="step-detail"][data-step="5"]:not([data-loading])').waitFor();
    await byId("tab-diff").click();
    await sel('[data-testid="transfer-diff"][data-from="resolution"][data-to="verification"]').waitFor();
    assert.equal(await byId("diff-policy").innerText(), "none");

    // back to the parent: its what-if row goes to the document, which is ticket-reopen
    await byId("lineage-parent").click();
    await sel(`[data-testid="debugger"][data-run="${parent}"]`).waitFor();
    await sel('[data-testid="step-detail"][data-step="5"]:not([data-loading])').waitFor();
    await openWhatIf();
    await row("full").click();
    await byId("whatif-apply").click();
    await sel('[data-testid="app"][data-mode="design"]').waitFor();
    assert.equal(await byId("policy-select").inputValue(), "full");
    await shot("fork-applied-1440x900");
    assert.deepEqual(errors, []);
  });
});

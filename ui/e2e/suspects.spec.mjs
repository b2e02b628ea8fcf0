// Browser tests of the debugger's Suspects tab against `baton serve`, at 1280x720 and 1440x900, on
// examples/ticket-reopen.yaml without its `facts:` section and the expectation about that fact
// (written into the served folder): with no fact, Verification's `fact_absent` rule fires and it
// reopens ticket 4812, which the run's structure judges bad. The verdict names transfer 1
// (Resolution → Verification); the top suspect there is Resolution's reasoning ("The fix is behind
// flag FIX_4812 and rollout is manual, so resolved means patched, pending rollout."), with high
// confidence; the diff marks it; Pin as fact adds it to the topology as a pinned fact held by
// Resolution, and the next run loses that fact at resolution → verification (fields(ticket,status)).
// The same run exported as OTLP and imported is a run without a topology file: its pin goes to the
// run's facts overlay, and the facts.yaml the tab gives, handed to `baton trace import --facts`,
// makes the import check the fact (lost at resolution → verification).
// BATON_E2E_SHOTS=DIR writes a screenshot of each stage there.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { backendPlan, launchBrowser, REPO, startBackend } from "./harness.mjs";

const plan = backendPlan();
if (plan.skip && process.env.BATON_E2E_REQUIRE === "1") throw new Error(plan.skip);
const SHOTS = process.env.BATON_E2E_SHOTS;

const FILE = "ticket-reopen-nofacts.yaml";
const OTLP = "ticket-reopen-otlp.json";
const FACT = "the-fix-is-behind-flag-fix-4812";

/**
 * examples/ticket-reopen.yaml with its `facts:` block (up to the next top-level key) taken out, and
 * the scenario's expectation that the fact is lost (there is no fact to lose).
 */
function withoutFacts() {
  const text = readFileSync(join(REPO, "examples/ticket-reopen.yaml"), "utf8");
  const out = text.replace(/^facts:\n(?:[ \t]+.*\n)+/m, "").replace(/^[ \t]+fact_lost_at:.*\n/m, "");
  assert.notEqual(out, text, "the example has a facts: section");
  assert.doesNotMatch(out, /^facts:/m);
  assert.doesNotMatch(out, /fact_lost_at/);
  return out;
}

for (const [width, height] of [
  [1280, 720],
  [1440, 900],
]) {
  describe(`the Suspects tab at ${width}x${height} (browser, http adapter)`, { skip: plan.skip ?? false }, () => {
    let backend;
    let browser;
    let page;
    const errors = [];
    const scratch = mkdtempSync(join(tmpdir(), "baton-suspects-"));

    before(async () => {
      backend = await startBackend(plan, {
        setup: (root) => {
          writeFileSync(join(root, FILE), withoutFacts());
          // the same run recorded elsewhere and exported as OTLP: a foreign trace to import
          const db = join(scratch, "export.db");
          const out = execFileSync(plan.bin, ["run", join(root, FILE), "--save", "--db", db], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
          const id = /run id: (\S+)/.exec(out)?.[1];
          assert.ok(id, out);
          execFileSync(plan.bin, ["trace", "export", "--to", "otlp", id, "--db", db, "-o", join(root, OTLP)], { stdio: ["ignore", "pipe", "pipe"] });
        },
      });
      browser = await launchBrowser();
      page = await browser.newPage({ viewport: { width, height } });
      page.on("pageerror", (e) => errors.push(e.message));
    });

    after(async () => {
      await browser?.close();
      await backend?.stop();
      rmSync(scratch, { recursive: true, force: true });
      assert.deepEqual(errors, []);
    });

    const byId = (id) => page.getByTestId(id);
    const sel = (css) => page.locator(css);
    const cursor = async () => Number(await byId("step-input").inputValue());
    const detailAt = (step) => sel(`[data-testid="step-detail"][data-step="${step}"]:not([data-loading])`).waitFor();
    const shot = async (name) => {
      if (!SHOTS) return;
      await page.waitForTimeout(300);
      await page.screenshot({ path: join(SHOTS, `suspects-${width}x${height}-${name}.png`) });
    };

    async function showTab(id) {
      if ((await byId(`tab-${id}`).getAttribute("aria-selected")) !== "true") await byId(`tab-${id}`).click();
      if ((await byId("bottom-panel").getAttribute("class")).includes("is-collapsed")) await byId(`tab-${id}`).click();
    }

    async function runAndDebug() {
      await showTab("run");
      await byId("run-start").click();
      await sel('[data-testid="run-status"][data-status="finished"]').waitFor({ timeout: 30000 });
      await byId("run-debug").click();
      await sel('[data-testid="app"][data-mode="debug"]').waitFor();
      await sel('[data-testid="timeline-step"]').first().waitFor();
    }

    const topSuspect = () => sel('[data-testid="suspect-group"][data-transfer="1"] [data-testid="suspect"]').first();

    it("the verdict names transfer 1 (Resolution → Verification); its top suspect is Resolution's FIX_4812 reasoning, high confidence", async () => {
      await page.goto(backend.page(`open=${FILE}`));
      await byId("node-triage").waitFor();
      // no fact in this copy
      assert.equal(await byId("facts").locator("h3").textContent(), "Pinned facts · 0");
      await runAndDebug();
      await byId("tab-suspects").click();
      const verdict = byId("verdict");
      await verdict.waitFor();
      assert.equal(await verdict.getAttribute("data-transfer"), "1");
      const text = await byId("verdict-text").innerText();
      assert.match(text, /^suspected cause: transfer 1 \(resolution → verification\)/);
      assert.match(text, /FIX_4812/);
      // ranked, not proven; judged bad by the run's structure (the reopen); the cause's class
      assert.equal(await verdict.getAttribute("data-basis"), "suspected");
      assert.equal(await byId("verdict-ending").getAttribute("data-by"), "signal");
      assert.match(await byId("verdict-ending").innerText(), /^Judged bad by the run's structure: .*reopen/);
      assert.equal(await byId("verdict-class").innerText(), "signal corruption");
      // the chain of evidence: open on a tall window, a click away on a short one; it starts from
      // why the run counts as bad (verification reopened the ticket)
      const toggle = byId("verdict-chain-toggle");
      assert.equal(await toggle.getAttribute("aria-expanded"), height >= 860 ? "true" : "false");
      if (height < 860) await shot("panel-top");
      if ((await toggle.getAttribute("aria-expanded")) !== "true") await toggle.click();
      assert.match(await byId("verdict-chain").innerText(), /reopen/);
      assert.match(await byId("verdict-chain").innerText(), /verification meets again what it was not told: FIX_4812/);
      // at step 0 no transfer has happened: the transfers in order
      const order = await sel('[data-testid="suspect-group"]').evaluateAll((els) => els.map((e) => e.dataset.transfer));
      assert.deepEqual(order, ["0", "1"]);

      const top = topSuspect();
      assert.equal(await top.getAttribute("data-confidence"), "high");
      assert.equal(await top.getAttribute("data-agent"), "resolution");
      assert.equal(await top.getAttribute("data-loss"), "dropped");
      const said = await top.getByTestId("suspect-text").innerText();
      assert.match(said, /FIX_4812/);
      assert.match(said, /rollout/);
      assert.equal(await top.getByTestId("suspect-confidence").textContent(), "high");
      assert.equal(await top.getByTestId("suspect-agent").innerText(), "Resolution");
      // its evidence: the constraint words, FIX_4812 met again by verification, 'resolved' handed over without it
      const evidence = await top.locator('[data-testid="suspect-evidence"] li').evaluateAll((els) => els.map((e) => e.dataset.kind));
      assert.ok(evidence.includes("reappears") && evidence.includes("claim"), evidence.join(","));
      // the chips' colours: high red, low grey
      const bg = (loc) => loc.evaluate((e) => getComputedStyle(e).backgroundColor);
      assert.equal(await bg(top.getByTestId("suspect-confidence")), "rgb(200, 30, 30)");
      const low = sel('[data-testid="suspect"][data-confidence="low"] [data-testid="suspect-confidence"]').first();
      assert.equal(await bg(low), "rgb(234, 236, 240)");
      await shot("panel");
    });

    it("a click on the suspect opens the transfer's diff, where the item is flashed and marked as a suspect", async () => {
      const item = await topSuspect().getAttribute("data-item");
      await topSuspect().click();
      await detailAt(5);
      assert.equal(await cursor(), 5);
      assert.equal(await byId("tab-diff").getAttribute("aria-selected"), "true");
      const card = sel(`[data-testid="transfer-diff"][data-from="resolution"][data-to="verification"] [data-testid="diff-item"][data-side="sender"][data-item="${item}"]`);
      await card.waitFor();
      assert.match(await card.getAttribute("class"), /is-flash/);
      const mark = card.locator(".item-tag.tag-suspect-high");
      await mark.waitFor();
      assert.equal(await mark.textContent(), "suspect");
      assert.equal(await mark.evaluate((e) => getComputedStyle(e).backgroundColor), "rgb(200, 30, 30)");
      assert.match(await card.innerText(), /FIX_4812/);
      // scrolled into the diff's view (smoothly)
      const inView = () =>
        card.evaluate((e) => {
          const list = e.closest('[data-testid="diff-rows"]').getBoundingClientRect();
          const r = e.getBoundingClientRect();
          return r.top >= list.top - 1 && r.top < list.bottom;
        });
      for (let i = 0; i < 40 && !(await inView()); i++) await page.waitForTimeout(50);
      assert.ok(await inView(), "the suspect's card is scrolled into the diff's view");
      await shot("diff");
      // back at the Suspects tab, the cursor's transfer comes first
      await byId("tab-suspects").click();
      const order = await sel('[data-testid="suspect-group"]').evaluateAll((els) => els.map((e) => [e.dataset.transfer, e.dataset.current ?? ""]));
      assert.deepEqual(order, [
        ["1", "true"],
        ["0", ""],
      ]);
    });

    it("Pin as fact puts it in the topology (the inspector lists it); the next run loses it at resolution → verification", async () => {
      await topSuspect().getByTestId("suspect-pin").click();
      const pinned = topSuspect().getByTestId("suspect-pinned");
      await pinned.waitFor();
      assert.equal(await pinned.getAttribute("data-where"), "designer");
      assert.equal(await pinned.getAttribute("data-fact"), FACT);
      await sel(".toast").filter({ hasText: `Pinned "${FACT}" in ticket-reopen` }).waitFor();
      await shot("pinned");

      await page.keyboard.press("Escape");
      await sel('[data-testid="app"][data-mode="design"]').waitFor();
      const facts = byId("facts");
      await facts.waitFor();
      assert.equal(await facts.locator("h3").textContent(), "Pinned facts · 1");
      assert.equal(await byId("fact-0").getByLabel("Fact id").inputValue(), FACT);
      assert.match(await byId("fact-0").getByLabel("Fact text").inputValue(), /^The fix is behind flag FIX_4812/);
      assert.equal(await byId("fact-0").locator('.chip-toggle[aria-pressed="true"]').innerText(), "Resolution");
      await facts.scrollIntoViewIfNeeded();
      await shot("inspector");

      await runAndDebug();
      const row = sel(`[data-testid="fact-status"][data-fact="${FACT}"]`);
      await row.waitFor();
      const jump = row.getByTestId("fact-jump-lost");
      assert.equal(await jump.count(), 1);
      assert.equal(await jump.getAttribute("data-step"), "5");
      assert.match(await jump.innerText(), /Lost at step 5 · Resolution → Verification/);
      await jump.click();
      await detailAt(5);
      await byId("tab-diff").click();
      const check = sel(`[data-testid="transfer-diff"][data-from="resolution"] [data-testid="diff-fact"][data-fact="${FACT}"]`);
      await check.waitFor();
      assert.equal(await check.getAttribute("data-status"), "lost");
      await shot("rerun");
    });

    it("an imported run: Pin as fact goes to the run's overlay (kept on reload), and its facts.yaml makes a re-import check the fact", async () => {
      await page.goto(backend.page());
      await byId("welcome").waitFor();
      await byId("menu-open-trace").click();
      await byId("trace-path-input").fill(OTLP);
      await byId("trace-import").click();
      await sel('[data-testid="app"][data-mode="debug"]').waitFor();
      await byId("transport").waitFor();
      const runId = await byId("debugger").getAttribute("data-run");
      await byId("tab-suspects").click();
      await sel('[data-testid="suspects"][data-origin="imported"]').waitFor();
      assert.match(await byId("overlay-facts").innerText(), /Baton checks facts when it imports a trace/);
      const top = topSuspect();
      assert.equal(await top.getAttribute("data-confidence"), "high");
      assert.match(await top.getByTestId("suspect-text").innerText(), /FIX_4812/);
      await top.getByTestId("suspect-pin").click();
      const pinned = top.getByTestId("suspect-pinned");
      await pinned.waitFor();
      assert.equal(await pinned.getAttribute("data-where"), "overlay");
      assert.equal(await pinned.textContent(), " pinned (overlay)");
      const overlay = byId("overlay-facts");
      assert.equal(await overlay.getAttribute("data-count"), "1");
      assert.equal(await overlay.getByTestId("overlay-fact").getAttribute("data-fact"), FACT);
      assert.match(await byId("overlay-how").innerText(), /these facts apply when the trace is imported again with them/);
      // the file the run was imported from
      assert.equal(await byId("overlay-command").innerText(), `baton trace import ${join(backend.root, OTLP)} --facts facts.yaml --again`);
      // nothing is checked in the window: the run's facts are still the import's (none)
      assert.match(await byId("facts-panel").innerText(), /This topology pins no facts/);
      await overlay.scrollIntoViewIfNeeded();
      await shot("overlay");

      // kept by the window, per run: still there after a reload
      await page.reload();
      await byId("transport").waitFor();
      assert.equal(await byId("debugger").getAttribute("data-run"), runId);
      await byId("tab-suspects").click();
      await sel('[data-testid="overlay-facts"][data-count="1"]').waitFor();
      await byId("overlay-yaml").click();
      const yaml = await byId("overlay-yaml-text").inputValue();
      assert.match(yaml, new RegExp(`id: ${FACT}`));
      await shot("overlay-yaml");

      // the facts file, as the tab says: the import checks the fact at every transfer
      writeFileSync(join(scratch, "facts.yaml"), yaml);
      const shown = execFileSync(plan.bin, ["trace", "import", join(backend.root, OTLP), "--facts", join(scratch, "facts.yaml"), "--again", "--format", "json", "--db", join(scratch, "again.db")], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
      const [trace] = JSON.parse(shown);
      const lostAt = trace.transfers.filter((t) => t.facts.some((f) => f.id === FACT && f.status === "lost")).map((t) => [t.from, t.to]);
      assert.deepEqual(lostAt, [["resolution", "verification"]]);
    });
  });
}

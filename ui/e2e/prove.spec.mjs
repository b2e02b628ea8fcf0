// Browser tests of Prove and the good/bad mark against `baton serve`, at 1440x900, on
// examples/ticket-reopen.yaml as it is (its fact "Resolved means patched behind a feature flag,
// pending manual rollout." is held by Resolution and lost at Resolution → Verification, which
// reopens ticket 4812). Prove forks the run with what was lost put back, the mock answering: the
// progress shows while it runs, then the verdict is proven and the pinned fact "changes the ending
// (1/1)"; its saved fork opens beside the run in the compare view. Marking the run Bad with a why
// makes the verdict's ending "judged bad by your mark", and the Runs home filters by the mark.
// BATON_E2E_SHOTS=DIR writes a screenshot of each stage there.
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { backendPlan, launchBrowser, startBackend } from "./harness.mjs";

const plan = backendPlan();
if (plan.skip && process.env.BATON_E2E_REQUIRE === "1") throw new Error(plan.skip);
const SHOTS = process.env.BATON_E2E_SHOTS;
const [width, height] = [1440, 900];
const WHY = "verification reopened a ticket whose fix was only waiting for rollout";

describe(`Prove and the mark at ${width}x${height} (browser, http adapter)`, { skip: plan.skip ?? false }, () => {
  let backend;
  let browser;
  let page;
  const errors = [];
  let runId;

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
    await page.screenshot({ path: join(SHOTS, `prove-${width}x${height}-${name}.png`) });
  };
  const factSuspect = () => sel('[data-testid="suspect-group"][data-transfer="1"] [data-testid="suspect"][data-kind="pinned_fact"]');

  it("Prove shows its progress, then the proven verdict; the pinned fact at Resolution → Verification changes the ending (1/1)", async () => {
    await page.goto(backend.page("open=ticket-reopen.yaml"));
    await byId("node-triage").waitFor();
    if ((await byId("tab-run").getAttribute("aria-selected")) !== "true") await byId("tab-run").click();
    if ((await byId("bottom-panel").getAttribute("class")).includes("is-collapsed")) await byId("tab-run").click();
    await byId("run-start").click();
    await sel('[data-testid="run-status"][data-status="finished"]').waitFor({ timeout: 30000 });
    await byId("run-debug").click();
    await sel('[data-testid="app"][data-mode="debug"]').waitFor();
    runId = await byId("debugger").getAttribute("data-run");
    await byId("tab-suspects").click();
    const verdict = byId("verdict");
    await verdict.waitFor();
    // ranked from the recording, not proven yet
    assert.equal(await verdict.getAttribute("data-basis"), "suspected");
    assert.match(await byId("verdict-text").innerText(), /^suspected cause: /);
    assert.match(await byId("verdict-ending").innerText(), /^Judged bad by the run's structure: /);
    assert.equal(await factSuspect().count(), 1);
    assert.equal(await factSuspect().getByTestId("suspect-proof").count(), 0);

    // the mock proof is quick: a watcher records what the progress line said while it ran
    await page.evaluate(() => {
      window.__progress = [];
      const seen = () => {
        const el = document.querySelector('[data-testid="prove-progress"]');
        if (el) window.__progress.push(el.textContent);
      };
      window.__watch = new MutationObserver(seen);
      window.__watch.observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await byId("prove-all").click();
    await sel('[data-testid="verdict"][data-basis="proven"]').waitFor({ timeout: 60000 });
    const progress = await page.evaluate(() => (window.__watch.disconnect(), window.__progress));
    assert.ok(progress.length > 0, "the progress line showed while the proof ran");
    assert.ok(
      progress.some((t) => /Starting|transfer \d|put back/.test(t)),
      progress.join(" | "),
    );
    assert.equal(await byId("prove-progress").count(), 0);

    assert.equal(await byId("verdict-basis").innerText(), "PROVEN");
    assert.match(await byId("verdict-text").innerText(), /^proven cause: transfer 1 \(resolution → verification\) lost "Resolved means patched behind a feature flag/);
    assert.match(await byId("verdict-text").innerText(), /changes the ending \(1\/1\)/);
    const proof = factSuspect().getByTestId("suspect-proof");
    assert.equal(await proof.getAttribute("data-status"), "changes");
    assert.equal(await proof.getByTestId("proof-badge").innerText(), "changes the ending (1/1)");
    assert.match(await proof.getByTestId("proof-changed").innerText(), /verification no longer calls reopen_ticket/);
    // the group is Resolution → Verification
    const group = sel('[data-testid="suspect-group"][data-transfer="1"] .suspect-group-head');
    assert.match(await group.innerText(), /Resolution\s*→?\s*Verification/);
    // the others, restored alone, changed nothing (or cannot be put back: the sender's own instructions)
    const others = await sel('[data-testid="suspect-group"][data-transfer="1"] [data-testid="suspect"]:not([data-kind="pinned_fact"]) [data-testid="proof-badge"]').allInnerTexts();
    assert.ok(others.includes("no effect (0/1)"), others.join(", "));
    assert.ok(others.every((t) => t === "no effect (0/1)" || t.startsWith("not tested: ")), others.join(", "));
    // what it cost
    assert.match(await byId("prove-cost").innerText(), /\d+ forks · \d+ model calls · [\d,]+ tokens · .* answered by mock/);
    await shot("proven");
    // BATON_E2E_PROVE_SHOT=FILE: the tab after Prove with room for it (the graph smaller and fitted
    // again, the chain folded, the verdict on top), as a person would look at it
    if (process.env.BATON_E2E_PROVE_SHOT) {
      const splitter = byId("graph-splitter");
      for (let i = 0; i < 5; i++) await splitter.press("ArrowUp");
      await sel(".react-flow__controls-fitview").click();
      if ((await byId("verdict-chain-toggle").getAttribute("aria-expanded")) === "true") await byId("verdict-chain-toggle").click();
      await byId("suspects").evaluate((e) => (e.scrollTop = 0));
      await page.waitForTimeout(400);
      await page.screenshot({ path: process.env.BATON_E2E_PROVE_SHOT });
    }
  });

  it("the proof's fork opens beside the run in the compare view", async () => {
    const button = factSuspect().getByTestId("proof-open-fork");
    const fork = await factSuspect().getByTestId("suspect-proof").getAttribute("data-fork");
    assert.ok(fork && fork !== runId);
    await button.click();
    const view = byId("compare-view");
    await view.waitFor();
    // the dialog shows "Loading…" until both overviews arrive; its cards come with them
    await view.locator('[data-testid="compare-run"]').nth(1).waitFor();
    const sides = await view.locator('[data-testid="compare-run"]').evaluateAll((els) => els.map((e) => [e.dataset.side, e.dataset.run]));
    assert.deepEqual(sides, [
      ["A", runId],
      ["B", fork],
    ]);
    // the fork ended otherwise: verification no longer reopens the ticket
    await byId("compare-verdicts").waitFor();
    assert.equal(await byId("verdict-answer").getAttribute("data-same"), "false");
    await shot("compare");
    await page.keyboard.press("Escape");
    await view.waitFor({ state: "detached" });
    assert.equal(await byId("debugger").getAttribute("data-run"), runId);
  });

  it("marking the run Bad with a why makes the verdict's ending judged by your mark", async () => {
    const mark = byId("run-mark");
    assert.equal(await mark.getAttribute("data-judgement"), "");
    await mark.getByTestId("mark-why").fill(WHY);
    await mark.getByTestId("mark-bad").click();
    await sel('[data-testid="run-mark"][data-judgement="bad"]').waitFor();
    assert.equal(await mark.getByTestId("mark-bad").getAttribute("aria-pressed"), "true");
    const ending = sel('[data-testid="verdict-ending"][data-by="mark"]');
    await ending.waitFor();
    assert.equal(await ending.innerText(), `Judged bad by your mark: ${WHY}`);
    await shot("marked");
  });

  it("the Runs home shows the mark and filters by Bad", async () => {
    await byId("runs-home-toggle").click();
    await byId("runs-home").waitFor();
    await sel('[data-testid="runs-home-row"]').first().waitFor();
    // the run and its saved fork(s)
    assert.ok((await sel('[data-testid="runs-home-row"]').count()) >= 2);
    await byId("runs-home-judgement").selectOption("bad");
    await sel('[data-testid="runs-home-total"][data-total="1"]').waitFor();
    const rows = await sel('[data-testid="runs-home-row"]').evaluateAll((els) => els.map((e) => [e.dataset.run, e.dataset.judgement]));
    assert.deepEqual(rows, [[runId, "bad"]]);
    const badge = sel('[data-testid="runs-home-row"] [data-testid="run-mark-badge"]');
    assert.equal((await badge.innerText()).trim(), "Bad");
    assert.match(await badge.getAttribute("title"), new RegExp(`Marked bad: ${WHY}`));
    await shot("runs-home");
    await byId("runs-home-judgement").selectOption("good");
    await sel('[data-testid="runs-home-empty"]').waitFor();
  });
});

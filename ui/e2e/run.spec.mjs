// Browser tests of runs and the debugger against `baton serve` (its own temp store), in headless
// Chromium: live runs, breakpoints, the runs list and compare, the transfer diff, pinned facts,
// and a 10,000-step run.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { backendPlan, launchBrowser, startBackend } from "./harness.mjs";

const plan = backendPlan();
if (plan.skip && process.env.BATON_E2E_REQUIRE === "1") throw new Error(plan.skip);

// One agent that calls a tool forever (19 calls per model call), stopped by max_turns:
// 500 model calls + 9,500 tool calls + the guard = 10,001 steps.
const BIG_LOOP = `version: 1
name: big-loop
description: One agent polls a queue forever; the max_turns guard stops it.
entry: worker
agents:
  - id: worker
    name: Worker
    instructions: Poll the queue until it is empty.
    model: { provider: mock, name: mock }
    tools:
      - name: poll
        description: Poll the queue.
        parameters: { type: object, properties: {} }
        mock_result: "queue: 1 item left"
edges: []
guards: { max_turns: 500, on_revisit: stop }
scenarios:
  - name: forever
    input: Drain the queue.
    scripts:
      worker:
        - calls: [${Array.from({ length: 19 }, () => "{ tool: poll }").join(", ")}]
`;

describe("runs and the debugger (browser, http adapter)", { skip: plan.skip ?? false }, () => {
  let backend;
  let browser;
  let page;
  const errors = [];

  before(async () => {
    backend = await startBackend(plan, { setup: (root) => writeFileSync(join(root, "big-loop.yaml"), BIG_LOOP) });
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    page.on("pageerror", (e) => errors.push(e.message));
  });

  after(async () => {
    await browser?.close();
    await backend?.stop();
  });

  const byId = (id) => page.getByTestId(id);
  const sel = (css) => page.locator(css);
  const attr = (css, name) => sel(css).first().getAttribute(name);

  /** Shows a bottom-panel tab (clicking the active tab would fold the panel). */
  async function showTab(id) {
    if ((await byId(`tab-${id}`).getAttribute("aria-selected")) !== "true") await byId(`tab-${id}`).click();
    if ((await byId("bottom-panel").getAttribute("class")).includes("is-collapsed")) await byId(`tab-${id}`).click();
  }

  async function openTopology(path, node) {
    await page.goto(backend.page(`open=${path}`));
    await byId(`node-${node}`).waitFor();
  }

  /** Starts a run from the Run tab and waits for its outcome. */
  async function runToEnd({ timeout = 30000 } = {}) {
    await showTab("run");
    await byId("run-start").click();
    await sel('[data-testid="run-status"][data-status="finished"]').waitFor({ timeout });
    return attr('[data-testid="run-status"] [data-testid="outcome"]', "data-status");
  }

  async function openInDebugger() {
    await byId("run-debug").click();
    await sel('[data-testid="app"][data-mode="debug"]').waitFor();
    await sel('[data-testid="timeline-step"]').first().waitFor();
  }

  const detailAt = (step) => sel(`[data-testid="step-detail"][data-step="${step}"]:not([data-loading])`).waitFor();

  it("runs ticket-reopen; the resolution → verification transfer drops the pinned fact", async () => {
    await openTopology("ticket-reopen.yaml", "triage");
    assert.equal(await runToEnd(), "completed");
    // steps arrived live
    assert.equal(await byId("live-timeline").getAttribute("data-count"), "12");
    await openInDebugger();
    assert.equal(await byId("timeline").getAttribute("data-count"), "12");
    // before any transfer the fact is simply held
    assert.equal(await attr('[data-testid="fact-status"][data-fact="resolved-meaning"]', "data-status"), "held");

    await byId("next-transfer").click(); // triage → resolution
    await detailAt(1);
    await sel('[data-testid="transfer-diff"][data-from="triage"][data-to="resolution"]').waitFor();
    assert.equal(await attr('[data-testid="fact-status"][data-fact="resolved-meaning"]', "data-status"), "added");

    await byId("next-transfer").click(); // resolution → verification
    await detailAt(5);
    const diff = sel('[data-testid="transfer-diff"]');
    assert.equal(await diff.getAttribute("data-from"), "resolution");
    assert.equal(await diff.getAttribute("data-to"), "verification");
    assert.equal(await diff.getAttribute("data-kind"), "handoff");
    assert.equal(await byId("diff-policy").innerText(), "fields(ticket,status)");
    assert.equal(await attr('[data-testid="fact-status"][data-fact="resolved-meaning"]', "data-status"), "lost");

    const dropped = await sel('[data-testid="diff-item"][data-status="dropped"]').evaluateAll((els) => els.map((e) => e.dataset.kind));
    assert.equal(dropped.length, 12);
    assert.ok(dropped.includes("pinned_fact"), `dropped: ${dropped}`);
    assert.ok(dropped.includes("reasoning"), `dropped: ${dropped}`);
    // the structured handoff message sits next to the transfer call it was derived from
    assert.equal(await sel('[data-testid="diff-item"][data-status="transformed"][data-side="receiver"]').count(), 1);
    assert.equal(await attr('[data-testid="diff-item"][data-status="transformed"][data-side="sender"]', "data-kind"), "transfer_call");
    assert.equal(await attr('[data-testid="diff-item"][data-status="added"]', "data-kind"), "instructions");
    // the owner moved to verification on the graph, and the transfer's edge is the active one
    assert.equal(await byId("node-verification").getAttribute("data-run"), "acting");
    await byId("edge-active-resolution->verification").waitFor({ state: "attached" });

    // the context tab shows what verification sees: its instructions and the handoff message
    await byId("tab-context").click();
    assert.equal(await sel('[data-testid="context-item"]').count(), 2);
    await byId("tab-diff").click();
  });

  it("steps with the keyboard and jumps from the facts panel to the loss", async () => {
    await page.keyboard.press("Home");
    await detailAt(0);
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    await detailAt(2);
    assert.equal(await byId("step-input").inputValue(), "2");
    await page.keyboard.press("n");
    await detailAt(5);
    await page.keyboard.press("Shift+N");
    await detailAt(1);
    await page.keyboard.press("End");
    await detailAt(11);
    assert.equal(await attr('[data-testid="timeline-step"][aria-selected="true"]', "data-kind"), "final");
    await byId("fact-jump-lost").click();
    await detailAt(5);
    await sel('[data-testid="transfer-diff"][data-from="resolution"]').waitFor();
    // Esc goes back to the designer, with the document as it was
    await page.keyboard.press("Escape");
    await sel('[data-testid="app"][data-mode="design"]').waitFor();
    await byId("node-triage").waitFor();
  });

  it("a breakpoint on an edge pauses a live run; Resume continues it", async () => {
    await byId("edge-label-resolution->verification").click();
    await showTab("run");
    await byId("breakpoint-toggle").click();
    await byId("breakpoint-dot-resolution->verification").waitFor();
    assert.equal(await sel('[data-testid="breakpoint-item"]').count(), 1);
    await byId("latency-select").selectOption("100");
    await byId("run-start").click();
    await sel('[data-testid="run-status"][data-status="paused"]').waitFor();
    assert.equal(await byId("run-paused").getAttribute("data-edge"), "resolution->verification");
    // paused before the transfer: no step of verification yet
    assert.equal(await sel('[data-testid="live-timeline"] [data-testid="timeline-step"][data-agent="verification"]').count(), 0);
    assert.ok(await byId("run-resume").isEnabled());
    await byId("run-resume").click();
    await sel('[data-testid="run-status"][data-status="finished"]').waitFor();
    assert.equal(await attr('[data-testid="run-status"] [data-testid="outcome"]', "data-status"), "completed");
    assert.equal(await byId("live-timeline").getAttribute("data-count"), "12");
    // clean up for the next tests: no breakpoint, no latency
    await byId("breakpoint-toggle").click();
    await byId("latency-select").selectOption("0");
  });

  it("lists both runs and compares their transfer tables", async () => {
    await showTab("runs");
    await sel('[data-testid="run-row"]').nth(1).waitFor();
    assert.equal(await sel('[data-testid="run-row"]').count(), 2);
    const statuses = await sel('[data-testid="run-row"]').evaluateAll((els) => els.map((e) => e.dataset.status));
    assert.deepEqual(statuses, ["completed", "completed"]);
    assert.match(await byId("runs-list").innerText(), /Verification gave the final answer/);
    await sel('[data-testid="run-pick"]').nth(0).check();
    await sel('[data-testid="run-pick"]').nth(1).check();
    await byId("runs-compare").click();
    await byId("compare-view").waitFor();
    await sel('[data-testid="transfer-table"]').nth(1).waitFor();
    assert.equal(await sel('[data-testid="transfer-table"]').count(), 2);
    assert.equal(await sel('[data-testid="transfer-table"]').nth(0).locator('[data-testid="transfer-row"]').count(), 2);
    assert.equal(await sel('[data-testid="transfer-table"]').nth(1).locator('[data-testid="transfer-row"]').count(), 2);
    await page.keyboard.press("Escape");
    await byId("compare-view").waitFor({ state: "detached" });
  });

  it("Cancel ends a run paused at a breakpoint; the run is saved as cancelled", async () => {
    await byId("edge-label-resolution->verification").click();
    await showTab("run");
    await byId("breakpoint-toggle").click();
    await byId("run-start").click();
    await sel('[data-testid="run-status"][data-status="paused"]').waitFor();
    await byId("run-cancel").click();
    await sel('[data-testid="run-status"][data-status="finished"]').waitFor();
    assert.equal(await attr('[data-testid="run-status"] [data-testid="outcome"]', "data-status"), "cancelled");
    await byId("breakpoint-toggle").click();
    await showTab("runs");
    await sel('[data-testid="run-row"][data-status="cancelled"]').waitFor();
  });

  it("deletes a run after confirmation", async () => {
    const before = await sel('[data-testid="run-row"]').count();
    await sel('[data-testid="run-row"][data-status="cancelled"] [data-testid="run-delete"]').click();
    await byId("confirm-dialog").waitFor();
    await byId("confirm-ok").click();
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="run-row"]').length === n, before - 1);
    assert.equal(await sel('[data-testid="run-row"][data-status="cancelled"]').count(), 0);
  });

  it("runs ticket-supervisor: no fact is lost anywhere", async () => {
    await openTopology("ticket-supervisor.yaml", "supervisor");
    assert.equal(await runToEnd(), "completed");
    await openInDebugger();
    assert.equal(await byId("fact-jump-lost").count(), 0);
    const transfers = await sel('[data-testid="timeline-step"][data-kind="delegation"]').count();
    assert.equal(transfers, 3);
    for (let i = 0; i < transfers; i++) {
      await byId("next-transfer").click();
      await sel('[data-testid="transfer-diff"][data-kind="delegation"]').waitFor();
      assert.equal(await attr('[data-testid="fact-status"][data-fact="resolved-meaning"]', "data-status"), "carried");
      assert.equal(await attr('[data-testid="diff-fact"][data-fact="resolved-meaning"]', "data-status"), "carried");
    }
    // steps inside a delegation are indented (depth 1)
    assert.ok((await sel('[data-testid="timeline-step"] .tl-guide').count()) > 0);
    await byId("debug-exit").click();
    await sel('[data-testid="app"][data-mode="design"]').waitFor();
  });

  it("runs handoff-loop: the revisit guard escalates to a human", async () => {
    await openTopology("handoff-loop.yaml", "billing");
    assert.equal(await runToEnd(), "escalated");
    assert.match(await byId("run-status").innerText(), /escalated to Human Agent/);
    await openInDebugger();
    assert.equal(await byId("outcome").getAttribute("data-status"), "escalated");
    assert.equal(await sel('[data-testid="timeline-step"][data-kind="guard"]').count(), 1);
    await page.keyboard.press("End");
    await sel('[data-testid="transfer-diff"][data-to="human"]').waitFor();
    await page.keyboard.press("Escape");
  });

  it("a 10,000-step run opens, scrolls and steps to a far step", { timeout: 240000 }, async () => {
    await openTopology("big-loop.yaml", "worker");
    assert.equal(await runToEnd({ timeout: 180000 }), "stopped");
    await openInDebugger();
    assert.equal(await byId("timeline").getAttribute("data-count"), "10001");
    // virtualised: only a window of rows is in the page
    const rendered = await sel('[data-testid="timeline-step"]').count();
    assert.ok(rendered > 5 && rendered < 200, `${rendered} rows rendered`);
    // jump far by typing a step number
    await byId("step-input").fill("9000");
    await byId("step-input").press("Enter");
    await detailAt(9000);
    await sel('[data-testid="timeline-step"][data-index="9000"][aria-selected="true"]').waitFor();
    // every 20th step is a model call (it asks for 19 tool calls)
    assert.equal(await attr('[data-testid="timeline-step"][data-index="9000"]', "data-kind"), "model_call");
    await byId("tab-context").click();
    assert.match(await byId("context-panel").innerText(), /What Worker sees/);
    assert.ok(Number(await byId("context-tokens").getAttribute("data-tokens")) > 10000);
    // step on from there, then to the end: the guard that stopped the run
    await page.keyboard.press("ArrowRight");
    await detailAt(9001);
    assert.equal(await attr('[data-testid="timeline-step"][aria-selected="true"]', "data-kind"), "tool_call");
    await page.keyboard.press("End");
    await detailAt(10000);
    assert.equal(await attr('[data-testid="timeline-step"][aria-selected="true"]', "data-kind"), "guard");
    assert.equal(await byId("outcome").getAttribute("data-status"), "stopped");
    // scrolling the timeline by hand renders the rows scrolled to
    await byId("timeline").evaluate((el) => (el.scrollTop = 28 * 5000));
    await sel('[data-testid="timeline-step"][data-index="5000"]').waitFor();
    assert.deepEqual(errors, []);
  });
});

// Browser tests of the debugger's pictures against `baton serve`, at 1280x720 and 1440x900: the
// context-size chart (ticket-reopen's 13 items → 2 at the fields(ticket,status) handoff; a click
// moves the cursor), the fact × transfer map, the timing waterfall, the run's path on the graph
// (the lossy edge marked, handoff-loop's escalation to the human drawn), labels legible at fit
// zoom, the timeline's search and kind filters, and an imported trace's real timing.
import assert from "node:assert/strict";
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { backendPlan, launchBrowser, REPO, startBackend } from "./harness.mjs";

const plan = backendPlan();
if (plan.skip && process.env.BATON_E2E_REQUIRE === "1") throw new Error(plan.skip);

for (const [width, height] of [
  [1280, 720],
  [1440, 900],
]) {
  describe(`the debugger's pictures at ${width}x${height} (browser, http adapter)`, { skip: plan.skip ?? false }, () => {
    let backend;
    let browser;
    let page;
    const errors = [];

    before(async () => {
      backend = await startBackend(plan, { setup: (root) => copyFileSync(join(REPO, "tests/import/fixtures/otlp_genai.json"), join(root, "otlp_genai.json")) });
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
    const cursor = async () => Number(await byId("step-input").inputValue());
    const detailAt = (step) => sel(`[data-testid="step-detail"][data-step="${step}"]:not([data-loading])`).waitFor();

    async function showTab(id) {
      if ((await byId(`tab-${id}`).getAttribute("aria-selected")) !== "true") await byId(`tab-${id}`).click();
      if ((await byId("bottom-panel").getAttribute("class")).includes("is-collapsed")) await byId(`tab-${id}`).click();
    }

    /** Opens a topology, runs its first scenario (each mock model call waiting `latency` ms) and opens the run in the debugger. */
    async function runAndDebug(file, latency = "0") {
      await page.goto(backend.page(`open=${file}`));
      await byId("node-triage").waitFor();
      await showTab("run");
      await byId("latency-select").selectOption(latency);
      await byId("run-start").click();
      await sel('[data-testid="run-status"][data-status="finished"]').waitFor({ timeout: 30000 });
      await byId("run-debug").click();
      await sel('[data-testid="app"][data-mode="debug"]').waitFor();
      await sel('[data-testid="timeline-step"]').first().waitFor();
    }

    it("ticket-reopen: the context chart shows 13 items → 2 at resolution → verification; a click moves the cursor", async () => {
      // 100 ms per model call, so the waterfall below has real lengths to compare
      await runAndDebug("ticket-reopen.yaml", "100");
      const chart = byId("context-chart");
      await chart.waitFor();
      assert.equal(await chart.getAttribute("data-has-items"), "true");
      // Resolution held 13 items when it handed over (see the list in src/run/charts.test.ts);
      // the fields policy leaves verification its instructions and the {ticket, status} message.
      const lossy = sel('[data-testid="context-mark"][data-transfer="1"]');
      await lossy.waitFor();
      assert.equal(await lossy.getAttribute("data-kind"), "handoff");
      assert.equal(await lossy.getAttribute("data-before"), "13");
      assert.equal(await lossy.getAttribute("data-after"), "2");
      assert.equal(await lossy.getAttribute("data-lost"), "resolved-meaning");
      assert.match(await lossy.innerText(), /13\s*→\s*2/);
      // the first handoff (policy full) keeps what triage had
      assert.equal(await sel('[data-testid="context-mark"][data-transfer="0"]').getAttribute("data-before"), "6");
      assert.equal(await chart.getAttribute("data-max"), "13");

      // a click on the plot at step 8 moves the cursor there
      const plot = byId("context-chart-plot");
      const over = plot.locator(".u-over");
      const box = await over.boundingBox();
      const min = Number(await plot.getAttribute("data-x-min"));
      const max = Number(await plot.getAttribute("data-x-max"));
      await page.mouse.click(box.x + ((8 - min) / (max - min)) * box.width, box.y + box.height / 2);
      await detailAt(8);
      assert.equal(await cursor(), 8);
      assert.equal(await byId("context-chart-cursor").getAttribute("data-step"), "8");
      // the lossy mark's chip opens the handoff
      await lossy.click();
      await detailAt(5);
      assert.equal(await cursor(), 5);
      assert.match(await byId("context-readout").innerText(), /13\s*→\s*2 items/);
    });

    it("the fact map: resolved-meaning added at triage → resolution, lost at resolution → verification; a cell opens the transfer", async () => {
      await byId("step-first").click();
      await detailAt(0);
      await byId("tab-facts").click();
      await byId("fact-map").waitFor();
      const cells = await sel('[data-testid="fact-map-cell"]').evaluateAll((els) =>
        els.map((e) => [e.dataset.fact, e.dataset.from, e.dataset.to, e.dataset.status]),
      );
      assert.deepEqual(cells, [
        ["resolved-meaning", "triage", "resolution", "added"],
        ["resolved-meaning", "resolution", "verification", "lost"],
      ]);
      await sel('[data-testid="fact-map-cell"][data-status="lost"]').click();
      await detailAt(5);
      await sel('[data-testid="transfer-diff"][data-from="resolution"][data-to="verification"]').waitFor();
      assert.equal(await byId("tab-diff").getAttribute("aria-selected"), "true");
    });

    it("the waterfall: a bar per step, the six model calls the long ones; a bar's click moves the cursor", async () => {
      await byId("tab-waterfall").click();
      const wf = byId("waterfall");
      await wf.waitFor();
      assert.equal(await wf.getAttribute("data-timed"), "12");
      const rows = await sel('[data-testid="waterfall-row"]').evaluateAll((els) =>
        els.map((e) => ({ step: Number(e.dataset.step), ms: Number(e.dataset.end) - Number(e.dataset.start) })),
      );
      assert.equal(rows.length, 12);
      // each mock model call waits the 100 ms chosen; tools and transfers answer at once
      const calls = [0, 2, 4, 6, 8, 10];
      for (const r of rows) {
        if (calls.includes(r.step)) assert.ok(r.ms >= 95, `model call at step ${r.step}: ${r.ms} ms`);
        else assert.ok(r.ms < 50, `step ${r.step}: ${r.ms} ms`);
      }
      assert.ok(Number(await wf.getAttribute("data-total")) >= 600);
      assert.equal(await sel('[data-testid="waterfall-bar"]').count(), 12);
      await sel('[data-testid="waterfall-row"][data-step="6"]').click();
      await detailAt(6);
      assert.equal(await cursor(), 6);
    });

    it("a model call's detail: its model, latency and tokens (a mock call keeps no exchange, and says so)", async () => {
      await byId("tab-call").click();
      await sel('[data-testid="model-call"][data-step="6"]').waitFor();
      assert.match(await byId("call-model").innerText(), /openai\/gpt-4o-mini/);
      const latency = await byId("call-latency").innerText();
      assert.match(latency, /ms|s/);
      assert.match(await byId("call-tokens").innerText(), /\d+ in · \d+ out/);
      assert.match(await byId("call-missing").innerText(), /no provider exchange/);
    });

    it("the graph: the path taken counted, the lossy edge marked, labels >= 11 px at fit zoom", async () => {
      const lossy = byId("edge-label-resolution->verification");
      assert.equal(await lossy.getAttribute("data-lost"), "resolved-meaning");
      assert.equal(await lossy.getAttribute("data-count"), "1");
      await byId("edge-lost-resolution->verification").waitFor();
      assert.match(await sel('[data-testid="edge-resolution->verification"] path.transfer-path').first().getAttribute("class"), /is-lossy/);
      assert.equal(await byId("edge-label-triage->resolution").getAttribute("data-count"), "1");
      assert.equal(await byId("edge-label-triage->resolution").getAttribute("data-lost"), null);
      assert.equal(await byId("node-verification").getAttribute("data-visits"), "1");
      assert.match(await byId("node-visits-verification").innerText(), /1× · 7 steps/);

      // at the zoom the canvas fitted the graph to, every text on it renders at 11 px or more
      await byId("debug-canvas").locator(".react-flow__viewport").waitFor();
      const zoom = Number(await byId("debug-canvas").getAttribute("data-zoom"));
      const sizes = await byId("debug-canvas").evaluate((root) => {
        const out = [];
        for (const el of root.querySelectorAll(".react-flow__viewport *, .react-flow__edgelabel-renderer *")) {
          const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim() !== "");
          const r = el.getBoundingClientRect();
          if (!own || r.width === 0 || el.offsetHeight === 0 || getComputedStyle(el).visibility === "hidden") continue;
          const px = parseFloat(getComputedStyle(el).fontSize) * (r.height / el.offsetHeight);
          out.push({ text: el.textContent.trim().slice(0, 30), px: Math.round(px * 100) / 100 });
        }
        return out;
      });
      assert.ok(sizes.length >= 8, `texts found: ${JSON.stringify(sizes)}`);
      // the three agents, laid out compactly for the debugger, fit at full zoom or below (the
      // far-out case, a long chain at zoom ~0.36, is room.spec's six ADK agents)
      assert.ok(zoom <= 1, `the fit zoom is ${zoom}`);
      const small = sizes.filter((s) => s.px < 10.95);
      assert.deepEqual(small, [], `at zoom ${zoom}: ${JSON.stringify(sizes)}`);
      assert.ok(sizes.some((s) => s.text === "Verification"), JSON.stringify(sizes));
    });

    it("the timeline's search and kind filters narrow the rows", async () => {
      const rows = () => sel('[data-testid="timeline"] [data-testid="timeline-step"]').evaluateAll((els) => els.map((e) => Number(e.dataset.index)));
      assert.equal((await rows()).length, 12);
      // "flag" is in patch_checkout's and check_flag's results and in the final answer
      await byId("timeline-search").fill("flag");
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="timeline"] [data-testid="timeline-step"]').length === 3);
      assert.deepEqual(await rows(), [3, 7, 11]);
      assert.equal(await byId("timeline-filter-meta").innerText(), "3 of 12");
      await byId("timeline-kind-tool").click();
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="timeline"] [data-testid="timeline-step"]').length === 2);
      assert.deepEqual(await rows(), [3, 7]);
      await byId("timeline-search").fill("");
      await byId("timeline-kind-handoff").click();
      // tools (3) and handoffs (2)
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="timeline"] [data-testid="timeline-step"]').length === 5);
      assert.deepEqual(await rows(), [1, 3, 5, 7, 9]);
      // a row of the filtered list still moves the cursor
      await sel('[data-testid="timeline"] [data-testid="timeline-step"][data-index="9"]').click();
      await detailAt(9);
      await byId("timeline-filter-clear").click();
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="timeline"] [data-testid="timeline-step"]').length === 12);
      await page.keyboard.press("Escape");
      await sel('[data-testid="app"][data-mode="design"]').waitFor();
    });

    it("handoff-loop: the guard's escalation to the human is drawn, the bounce back never crossed", async () => {
      await runAndDebug("handoff-loop.yaml");
      const esc = byId("edge-label-run:handoff:technical->human");
      await esc.waitFor();
      assert.equal(await esc.getAttribute("data-extra"), "escalation");
      assert.equal(await esc.getAttribute("data-count"), "1");
      await sel('[data-testid="edge-run:handoff:technical->human"] path.transfer-path').first().waitFor({ state: "attached" });
      assert.equal(await byId("node-human").getAttribute("data-visits"), "1");
      // the guard stopped technical's hand-back to billing
      assert.equal(await byId("edge-label-technical->billing").getAttribute("data-count"), "0");
      assert.equal(await byId("edge-label-billing->technical").getAttribute("data-count"), "1");
      // the chart marks the escalation too
      assert.equal(await sel('[data-testid="context-mark"][data-transfer="2"]').getAttribute("data-escalation"), "true");
      // stepping onto the escalation animates its edge
      await byId("step-last").click();
      await detailAt(6);
      await byId("edge-active-run:handoff:technical->human").waitFor({ state: "attached" });
      await page.keyboard.press("Escape");
      await sel('[data-testid="app"][data-mode="design"]').waitFor();
    });

    it("an imported OTLP trace: the waterfall lays its spans' own times out", async () => {
      await page.goto(backend.page());
      await byId("welcome").waitFor();
      await byId("menu-open-trace").click();
      await sel('[data-testid="trace-file"][data-path="otlp_genai.json"]').click();
      await byId("trace-import").click();
      await sel('[data-testid="app"][data-mode="debug"]').waitFor();
      await byId("transport").waitFor();
      await byId("tab-waterfall").click();
      await byId("waterfall").waitFor();
      // The file's chat spans start 3, 7 and 13 ms after its root (1735694600.001 s) and each
      // lasts 1 ms; Triage's first two, then Billing's after the transfer.
      const calls = await sel('[data-testid="waterfall-row"][data-kind="model_call"]').evaluateAll((els) =>
        els.map((e) => ({ agent: e.dataset.agent, start: Number(e.dataset.start), ms: Number(e.dataset.end) - Number(e.dataset.start) })),
      );
      assert.deepEqual(
        calls.map((c) => [c.agent, Math.round((c.start - calls[0].start) * 1000) / 1000, Math.round(c.ms * 1000) / 1000]),
        [
          ["triage", 0, 1],
          ["triage", 4, 1],
          ["billing", 10, 1],
        ],
      );
      assert.ok(Number(await byId("waterfall").getAttribute("data-timed")) >= 3);
    });
  });
}

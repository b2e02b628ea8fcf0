// Browser tests of the editor against `baton serve`, at 1280x720 and 1440x900: a topology drawn
// in the app runs from the canvas without touching YAML (new topology, an agent, a handoff, a
// scenario with mock rules, Run, and Run with a typed message); a self-edge and a duplicate edge
// say why they are refused; a refused and a failed Save As keep the typed path; `?` shows the
// shortcut sheet, Ctrl+K runs a command; stepping in the debugger updates the address's step;
// after Fit view the minimap covers no agent, and it can be hidden.
// BATON_E2E_SHOTS=DIR writes a screenshot of each stage there.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
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
  describe(`the editor at ${width}x${height} (browser, http adapter)`, { skip: plan.skip ?? false }, () => {
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
      await page.waitForTimeout(300); // popovers and dialogs fade in
      await page.screenshot({ path: join(SHOTS, `editor-${width}-${name}.png`) });
    };

    async function handle(agent, side) {
      const box = await sel(`[data-testid="node-${agent}"] .react-flow__handle-${side}`).boundingBox();
      assert.ok(box, `the ${side} handle of ${agent} is on screen`);
      return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    }

    /** Drags from `from`'s output handle to `to`'s input handle, as a person does. */
    async function connect(from, to) {
      const a = await handle(from, "right");
      const b = await handle(to, "left");
      await page.mouse.move(a.x, a.y);
      await page.mouse.down();
      await page.mouse.move(a.x + 40, a.y + 30, { steps: 5 });
      await page.mouse.move(b.x, b.y, { steps: 12 });
      await page.mouse.up();
    }

    /** Clicks the empty canvas (nothing selected: the inspector shows the topology). */
    async function clickPane() {
      const box = await byId("canvas").boundingBox();
      await page.mouse.click(box.x + box.width - 60, box.y + 70);
    }

    async function showTab(id) {
      if ((await byId(`tab-${id}`).getAttribute("aria-selected")) !== "true") await byId(`tab-${id}`).click();
      if ((await byId("bottom-panel").getAttribute("class")).includes("is-collapsed")) await byId(`tab-${id}`).click();
    }

    it("draws a new topology: an agent and a handoff; the minimap covers no agent after Fit view", async () => {
      await page.goto(backend.page());
      await byId("menu-new").click();
      await byId("node-agent").waitFor();
      await byId("add-agent").click();
      await byId("node-agent-2").waitFor();
      await byId("fit-view").click();
      await page.waitForTimeout(500);
      await connect("agent", "agent-2");
      await byId("edge-kind-chooser").waitFor();
      await byId("edge-kind-handoff").click();
      await byId("edge-label-agent->agent-2").waitFor();

      await byId("fit-view").click();
      await page.waitForTimeout(500);
      const map = await sel(".react-flow__minimap").boundingBox();
      assert.ok(map, "the minimap shows");
      for (const id of ["agent", "agent-2"]) {
        const n = await byId(`node-${id}`).boundingBox();
        const overlaps = n.x < map.x + map.width && map.x < n.x + n.width && n.y < map.y + map.height && map.y < n.y + n.height;
        assert.equal(overlaps, false, `${id} is clear of the minimap after Fit view`);
      }
      await shot("drawn");
      // Hidden, and remembered across a reload.
      await byId("minimap-toggle").click();
      assert.equal(await sel(".react-flow__minimap").count(), 0);
      assert.equal(await page.evaluate(() => localStorage.getItem("baton.minimap")), "off");
      await byId("minimap-toggle").click();
      await sel(".react-flow__minimap").waitFor();
    });

    it("refuses a self-edge and a duplicate edge, saying why", async () => {
      // From Agent's output handle back onto its own input handle.
      const a = await handle("agent", "right");
      const b = await handle("agent", "left");
      await page.mouse.move(a.x, a.y);
      await page.mouse.down();
      await page.mouse.move(a.x + 30, a.y + 40, { steps: 5 });
      await page.mouse.move(b.x, b.y, { steps: 12 });
      await page.mouse.up();
      const refusal = byId("canvas-refusal");
      await refusal.waitFor();
      assert.match(await refusal.innerText(), /Agent cannot hand off or delegate to itself/);
      assert.equal(await sel('[data-testid^="edge-label-agent->agent"]').count(), 1);
      await shot("self-edge");

      // Agent → Agent 2 again: the handoff is taken (a delegation would still be allowed).
      await connect("agent", "agent-2");
      await byId("edge-kind-chooser").waitFor();
      assert.equal(await byId("edge-kind-handoff").getAttribute("aria-disabled"), "true");
      assert.equal(await byId("edge-kind-delegation").getAttribute("aria-disabled"), null);
      await shot("duplicate-chooser");
      // Choosing it anyway (H, as the chooser offers) is refused with why.
      await page.keyboard.press("h");
      assert.match(await byId("canvas-refusal").innerText(), /Agent already has a handoff to Agent 2/);
      await byId("edge-kind-chooser").waitFor({ state: "detached" });
      assert.equal(await sel('[data-testid^="edge-label-agent->agent-2"]').count(), 1);
    });

    it("creates a scenario with mock rules and runs it to completion from the canvas", async () => {
      await clickPane();
      await byId("inspector-topology").waitFor();
      // Before a scenario exists, both Run controls wait, and say why.
      assert.equal(await byId("topbar-run").isDisabled(), true);
      assert.match(await byId("topbar-run").getAttribute("data-blocked"), /Add a scenario first/);
      await showTab("run");
      assert.equal(await byId("run-start").isDisabled(), true);
      assert.equal(await byId("run-start").getAttribute("data-blocked"), await byId("topbar-run").getAttribute("data-blocked"));
      assert.match(await byId("run-blocked").innerText(), /Add a scenario first/);

      await byId("scenario-new").click();
      await byId("scenario-editor").waitFor();
      await byId("scenario-input").fill("I was charged twice for order 1182.");
      // Agent (the entry): reply and hand off to Agent 2 with the transfer tool its edge gives it.
      await byId("rule-add-agent").click();
      await byId("rule-say-agent-0").fill("Passing you to Agent 2.");
      await byId("call-add-agent-0").selectOption("transfer_to_agent_2");
      await byId("call-tool-agent-0-0").waitFor();
      // Agent 2: the final answer.
      if ((await byId("script-toggle-agent-2").getAttribute("aria-expanded")) !== "true") await byId("script-toggle-agent-2").click();
      await byId("rule-add-agent-2").click();
      await byId("rule-say-agent-2-0").fill("Refunded the duplicate charge on order 1182.");
      await page.waitForFunction(() => !document.querySelector('[data-testid="scenario-issues"][data-errors]:not([data-errors="0"])'));
      assert.equal(await sel('[data-testid="field-issue"][data-severity="error"]').count(), 0);
      await byId("dirty-marker").waitFor();
      await byId("scenarios").scrollIntoViewIfNeeded();
      await shot("scenario");

      assert.equal(await byId("topbar-run").isDisabled(), false);
      assert.equal(await byId("run-start").isDisabled(), false);
      await byId("topbar-run").click();
      await sel('[data-testid="run-status"][data-status="finished"]').waitFor({ timeout: 30000 });
      assert.equal(await sel('[data-testid="run-status"] [data-testid="outcome"]').getAttribute("data-status"), "completed");
      assert.match(await byId("run-panel").innerText(), /Refunded the duplicate charge|2 transfers|1 transfers|steps/);
      await shot("ran");
    });

    it("names the field of a call the agent cannot make", async () => {
      // Renaming Agent 2 changes its transfer tool's name: Agent's call no longer matches.
      await byId("node-agent-2").click();
      await byId("agent-name").fill("Billing");
      await clickPane();
      const issue = sel('[data-testid="field-issue"][data-field="scripts.agent[0].calls[0].tool"]');
      await issue.waitFor();
      assert.match(await issue.innerText(), /'transfer_to_agent_2' transfers to an agent that does not exist/);
      await byId("undo").click();
      await sel('[data-testid="field-issue"][data-field="scripts.agent[0].calls[0].tool"]').waitFor({ state: "detached" });
    });

    it("runs with a typed message", async () => {
      await showTab("run");
      await byId("run-message").fill("Where is my parcel?");
      await byId("run-message-send").click();
      await sel('[data-testid="run-status"][data-status="running"], [data-testid="run-status"][data-status="starting"], [data-testid="run-status"][data-status="finished"]').first().waitFor();
      await sel('[data-testid="run-status"][data-status="finished"]').waitFor({ timeout: 30000 });
      assert.equal(await sel('[data-testid="run-status"] [data-testid="outcome"]').getAttribute("data-status"), "completed");
      await shot("message-run");
    });

    it("keeps the typed path when Save As is refused or fails, then saves", async () => {
      await byId("menu-save-as").click();
      const input = byId("path-input");
      await input.fill("drawn.txt");
      await byId("path-ok").click();
      await byId("path-error").waitFor();
      assert.match(await byId("path-error").innerText(), /A topology is saved as \.yaml, \.yml or \.json/);
      assert.equal(await input.inputValue(), "drawn.txt");
      assert.equal(existsSync(join(backend.root, "drawn.txt")), false);
      await shot("save-refused");

      // Outside the folder Baton serves: the backend refuses; the prompt stays with the path.
      await input.fill("../outside.yaml");
      await byId("path-ok").click();
      await page.waitForFunction(() => document.querySelector('[data-testid="path-error"]')?.textContent?.length > 0);
      assert.equal(await byId("path-dialog").isVisible(), true);
      assert.equal(await input.inputValue(), "../outside.yaml");
      await shot("save-failed");

      await input.fill("drawn.yml");
      await byId("path-ok").click();
      await byId("path-dialog").waitFor({ state: "detached" });
      const saved = readFileSync(join(backend.root, "drawn.yml"), "utf8");
      assert.match(saved, /I was charged twice for order 1182\./);
      assert.match(saved, /transfer_to_agent_2/);
      assert.equal(await byId("dirty-marker").count(), 0);
    });

    it("? shows the shortcut sheet; Ctrl+K runs a command", async () => {
      await clickPane();
      await page.keyboard.press("Shift+?");
      const sheet = byId("shortcut-sheet");
      await sheet.waitFor();
      assert.match(await sheet.innerText(), /Command palette/);
      assert.match(await sheet.innerText(), /Next transfer/);
      await shot("sheet");
      await page.keyboard.press("Escape");
      await sheet.waitFor({ state: "detached" });

      await page.keyboard.press("Control+k");
      await byId("palette").waitFor();
      await page.keyboard.type("saved runs");
      assert.equal(await sel('[data-testid="palette-item"]').first().getAttribute("data-id"), "tab-runs");
      await shot("palette");
      await page.keyboard.press("Enter");
      await byId("palette").waitFor({ state: "detached" });
      await sel('[data-testid="tab-runs"][aria-selected="true"]').waitFor();
    });

    it("stepping in the debugger updates the address's step, without a history entry per step", async () => {
      await showTab("run");
      await byId("run-debug").click();
      await sel('[data-testid="app"][data-mode="debug"]').waitFor();
      await sel('[data-testid="timeline-step"]').first().waitFor();
      await page.waitForFunction(() => new URLSearchParams(location.search).get("step") === "0");
      const runId = new URL(page.url()).searchParams.get("run");
      assert.ok(runId);
      const entries = await page.evaluate(() => history.length);
      await page.keyboard.press("ArrowRight");
      await page.keyboard.press("ArrowRight");
      await page.waitForFunction(() => new URLSearchParams(location.search).get("step") === "2");
      assert.equal(new URL(page.url()).searchParams.get("run"), runId);
      assert.equal(new URL(page.url()).searchParams.get("token"), backend.token);
      assert.equal(await page.evaluate(() => history.length), entries);
      await shot("debugger");
      // A reload opens the same step.
      await page.reload();
      await sel('[data-testid="app"][data-mode="debug"]').waitFor();
      await page.waitForFunction(() => new URLSearchParams(location.search).get("step") === "2");
      await byId("debug-exit").click();
      await page.waitForFunction(() => !new URLSearchParams(location.search).has("run"));
    });
  });
}

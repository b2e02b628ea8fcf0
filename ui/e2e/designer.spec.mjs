// Browser tests of the designer against `baton serve` (the http adapter), in headless Chromium.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { backendPlan, launchBrowser, startBackend } from "./harness.mjs";

const plan = backendPlan();
if (plan.skip && process.env.BATON_E2E_REQUIRE === "1") throw new Error(plan.skip);
if (!plan.skip) console.log(`# backend: ${plan.bin} serve`);

describe("designer (browser, http adapter)", { skip: plan.skip ?? false }, () => {
  let backend;
  let browser;
  let page;
  const errors = [];

  before(async () => {
    backend = await startBackend(plan);
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    page.on("pageerror", (e) => errors.push(e.message));
  });

  after(async () => {
    await browser?.close();
    await backend?.stop();
  });

  const byId = (id) => page.getByTestId(id);
  const findingCodes = () => page.locator('[data-testid="finding"]').evaluateAll((els) => els.map((e) => e.dataset.code));

  /** Drags from one agent's output handle to another's input handle. */
  async function connect(from, to) {
    const src = await page.locator(`[data-testid="node-${from}"] .react-flow__handle-right`).boundingBox();
    const dst = await page.locator(`[data-testid="node-${to}"] .react-flow__handle-left`).boundingBox();
    assert.ok(src && dst, "handles are visible");
    await page.mouse.move(src.x + src.width / 2, src.y + src.height / 2);
    await page.mouse.down();
    await page.mouse.move(src.x + 40, src.y + 30, { steps: 5 });
    await page.mouse.move(dst.x + dst.width / 2, dst.y + dst.height / 2, { steps: 12 });
    await page.mouse.up();
  }

  it("opens an example from the Open dialog", async () => {
    await page.goto(backend.page());
    await byId("menu-open").click();
    await byId("open-dialog").waitFor();
    await page.locator('[data-testid="open-file"][data-path="ticket-reopen.yaml"]').click();
    await byId("node-triage").waitFor();
    assert.equal(await byId("app").getAttribute("data-platform"), "http");
    assert.match(await byId("doc-title").innerText(), /ticket-reopen\.yaml/);
    assert.equal(await byId("node-triage").getAttribute("data-entry"), "true");
    // The id the first design named is on React Flow's node element, around the card.
    assert.equal(await page.locator('[data-testid="agent-node-triage"] [data-testid="node-triage"]').count(), 1);
    await page.locator('[data-testid="finding"][data-code="verify-handoff"]').waitFor();
  });

  it("adds an agent and connects a handoff to it", async () => {
    await byId("add-agent").click();
    await byId("node-agent").waitFor();
    await byId("fit-view").click();
    await page.waitForTimeout(400);
    await connect("resolution", "agent");
    await byId("edge-kind-chooser").waitFor();
    await byId("edge-kind-handoff").click();
    await byId("edge-label-resolution->agent").waitFor();
    assert.match(await byId("edge-label-resolution->agent").innerText(), /handoff · full/);
    // the new edge is selected: the inspector shows it
    await byId("inspector-edge").waitFor();
  });

  it("changes the handoff's policy", async () => {
    await byId("edge-label-resolution->agent").click();
    await byId("policy-select").selectOption("last_n");
    await byId("policy-last-n").fill("3");
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="edge-label-resolution->agent"]')?.textContent?.includes("handoff · last_n(3)"),
    );
  });

  it("shows a lint finding for a handoff back to the source, live", async () => {
    await connect("agent", "resolution");
    await byId("edge-kind-handoff").click();
    await page.locator('[data-testid="finding"][data-code="handoff-back-to-source"]').waitFor();
    assert.ok(await byId("lint-marker-agent").isVisible());
  });

  it("undo removes the back edge and its finding", async () => {
    await byId("undo").click();
    await byId("edge-label-agent->resolution").waitFor({ state: "detached" });
    await page.waitForFunction(() => !document.querySelector('[data-testid="finding"][data-code="handoff-back-to-source"]'));
    assert.ok(!(await findingCodes()).includes("handoff-back-to-source"));
    // keyboard redo and undo again
    await page.keyboard.press("Control+Shift+Z");
    await byId("edge-label-agent->resolution").waitFor();
    await page.keyboard.press("Control+Z");
    await byId("edge-label-agent->resolution").waitFor({ state: "detached" });
  });

  it("exports Mermaid with the new edge", async () => {
    await byId("export-open").click();
    await byId("export-format").selectOption("mermaid");
    await page.waitForFunction(() => document.querySelector('[data-testid="export-preview"]')?.textContent?.includes("flowchart"));
    const text = await byId("export-preview").innerText();
    assert.match(text, /n_resolution ==>\|"handoff · last_n\(3\)"\| n_agent/);
    await page.keyboard.press("Escape");
    await byId("export-dialog").waitFor({ state: "detached" });
  });

  it("saves to the file it was opened from, positions included", async () => {
    assert.ok(await byId("dirty-marker").isVisible());
    await page.keyboard.press("Control+S");
    await byId("dirty-marker").waitFor({ state: "detached" });
    const saved = readFileSync(join(backend.root, "ticket-reopen.yaml"), "utf8");
    assert.match(saved, /last_n: 3/);
    assert.match(saved, /layout:/);
    assert.match(saved, /id: agent/);
  });

  it("moves an agent by dragging, as one undo step", async () => {
    const node = byId("node-verification");
    const before = await node.boundingBox();
    await page.mouse.move(before.x + before.width / 2, before.y + 20);
    await page.mouse.down();
    for (let i = 1; i <= 10; i++) await page.mouse.move(before.x + before.width / 2, before.y + 20 + i * 12);
    await page.mouse.up();
    const moved = await node.boundingBox();
    assert.ok(moved.y > before.y + 80, `moved from ${before.y} to ${moved.y}`);
    await byId("undo").click();
    await page.waitForTimeout(100);
    const back = await node.boundingBox();
    assert.ok(Math.abs(back.y - before.y) < 1 && Math.abs(back.x - before.x) < 1, "one undo restores the position");
  });

  it("deletes the selection with the Delete key, and undo brings it back", async () => {
    await byId("node-agent").click();
    assert.match(await byId("statusbar").innerText(), /1 selected/);
    await page.keyboard.press("Delete");
    await byId("node-agent").waitFor({ state: "detached" });
    assert.equal(await page.locator('[data-testid="edge-resolution->agent"]').count(), 0);
    await page.keyboard.press("Control+Z");
    await byId("node-agent").waitFor();
    await page.locator('[data-testid="edge-resolution->agent"]').waitFor();
  });

  it("double-click on the canvas adds an agent there; Ctrl+A selects everything", async () => {
    const pane = await page.locator(".react-flow__pane").boundingBox();
    await page.mouse.dblclick(pane.x + 120, pane.y + pane.height - 120);
    await byId("node-agent-2").waitFor();
    await page.locator(".react-flow__pane").click({ position: { x: 200, y: 200 } });
    await page.keyboard.press("Control+A");
    assert.match(await byId("statusbar").innerText(), /8 selected/); // 5 agents + 3 edges
    await byId("inspector-multi").waitFor();
    assert.deepEqual(errors, []);
  });
});

// The canvas at scale (issue #21), in headless Chromium against `baton serve`: a generated
// 1,000-agent, 3,000-edge topology with no layout (ui/bench/fixtures.mjs) opens, is laid out off
// the main thread, draws only what is in view, and selects. Speed figures are in
// ui/bench/canvas.bench.mjs, not here.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { writeScaleFixtures } from "../bench/fixtures.mjs";
import { backendPlan, launchBrowser, startBackend } from "./harness.mjs";

const plan = backendPlan();
if (plan.skip && process.env.BATON_E2E_REQUIRE === "1") throw new Error(plan.skip);
if (!plan.skip) console.log(`# backend: ${plan.bin} serve`);

/** The `layout:` block of a saved topology: id → {x, y}. */
function savedLayout(yaml) {
  const block = yaml.split(/^layout:\s*$/m)[1];
  assert.ok(block, "the saved file has a layout");
  const out = {};
  let id = null;
  for (const line of block.split("\n")) {
    if (/^\S/.test(line)) break; // the next top-level key
    let m = line.match(/^\s+(\w+):\s*\{\s*x:\s*(-?\d+),\s*y:\s*(-?\d+)\s*\}/);
    if (m) {
      out[m[1]] = { x: Number(m[2]), y: Number(m[3]) };
      continue;
    }
    if ((m = line.match(/^ {2}(\w+):\s*$/))) id = m[1];
    else if (id && (m = line.match(/^\s+([xy]):\s*(-?\d+)/))) (out[id] ??= {})[m[1]] = Number(m[2]);
  }
  return out;
}

describe("the canvas at 1,000 agents (browser, http adapter)", { skip: plan.skip ?? false }, () => {
  let backend;
  let browser;
  let page;
  const errors = [];

  before(async () => {
    backend = await startBackend(plan, { setup: (root) => writeScaleFixtures(root, { steps: 10 }) });
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    page.on("pageerror", (e) => errors.push(e.message));
    // Every frame the page draws, from its first script on: a main thread busy with the layout
    // would draw none while it runs.
    await page.addInitScript(() => {
      window.__frameTimes = [];
      const tick = (t) => {
        window.__frameTimes.push(t);
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
  });

  after(async () => {
    await browser?.close();
    await backend?.stop();
  });

  const cards = () => page.locator('.canvas [data-testid^="node-a"]');

  it("opens, lays the agents out in the worker while the page keeps drawing, and draws what is in view", async () => {
    await page.goto(backend.page("open=scale-1000.yaml"));
    await cards().first().waitFor({ timeout: 60_000 });
    await page.waitForFunction(() => performance.getEntriesByName("baton:layout").length > 0);
    const { layout, framesDuring, framesBefore } = await page.evaluate(() => {
      const e = performance.getEntriesByName("baton:layout")[0];
      const end = e.startTime + e.duration;
      return {
        layout: { ...e.detail, duration: e.duration },
        framesBefore: window.__frameTimes.filter((t) => t < e.startTime).length,
        framesDuring: window.__frameTimes.filter((t) => t >= e.startTime && t <= end).length,
      };
    });
    assert.equal(layout.thread, "worker", "laid out off the main thread");
    assert.equal(layout.engine, "layers", "a graph this size skips ELK");
    assert.equal(layout.nodes, 1000);
    assert.equal(layout.edges, 3000);
    assert.ok(framesBefore > 0, "the frame counter runs");
    // Behaviour, not a time bound: the page drew about every frame while the worker worked
    // (a main-thread layout draws none however long it takes).
    assert.ok(framesDuring >= Math.floor(layout.duration / 100), `${framesDuring} frames in ${layout.duration.toFixed(0)} ms of layout`);
    assert.match(await page.getByTestId("doc-title").innerText(), /scale-1000\.yaml/);
    // Only the agents in view are mounted, and they are drawn: some, not all 1,000.
    const mounted = await page.locator(".canvas .react-flow__node").count();
    assert.ok(mounted > 10 && mounted < 1000, `${mounted} agents mounted`);
    assert.ok((await page.locator(".canvas .react-flow__edge").count()) > 10);
    const inView = await page.evaluate(() => {
      const r = document.querySelector(".canvas .react-flow__pane").getBoundingClientRect();
      return [...document.querySelectorAll('.canvas [data-testid^="node-a"]')].filter((el) => {
        const b = el.getBoundingClientRect();
        return b.right > r.left && b.left < r.right && b.bottom > r.top && b.top < r.bottom && b.width > 0;
      }).length;
    });
    assert.ok(inView > 10, `${inView} agents on screen`);
    assert.deepEqual(errors, []);
  });

  it("gives distinct agents distinct places, the entry alone in the first layer (as saved)", async () => {
    await page.keyboard.press("Control+S");
    const file = join(backend.root, "scale-1000.yaml");
    let saved = "";
    for (let i = 0; i < 100 && !/^layout:/m.test(saved); i++) {
      await page.waitForTimeout(100);
      saved = readFileSync(file, "utf8");
    }
    const layout = savedLayout(saved);
    assert.equal(Object.keys(layout).length, 1000, "every agent placed");
    const places = new Set(Object.values(layout).map((p) => `${p.x},${p.y}`));
    assert.equal(places.size, 1000, "no two agents in the same place");
    const xs = Object.values(layout).map((p) => p.x);
    const minX = Math.min(...xs);
    assert.equal(layout.a0.x, minX, "the entry is in the leftmost layer");
    assert.equal(xs.filter((x) => x === minX).length, 1, "and alone there");
    assert.ok(layout.a1.x > layout.a0.x && layout.a2.x > layout.a0.x, "its handoff and delegation to the right");
    assert.ok(new Set(xs).size > 20, "in many layers");
  });

  it("far out, edges go unlabelled and cards bare; close in, labels are back", async () => {
    await page.getByTestId("fit-view").click();
    await page.waitForTimeout(500);
    const box = await page.locator(".canvas .react-flow__pane").boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    for (let i = 0; i < 10; i++) await page.mouse.wheel(0, 200); // out to the minimum zoom
    await page.waitForTimeout(600);
    assert.equal(await page.locator(".canvas").getAttribute("class"), "canvas is-large is-far");
    assert.ok((await page.locator(".canvas .react-flow__edge").count()) > 10);
    assert.equal(await page.locator(".canvas .edge-label").count(), 0);
    assert.equal(await page.locator(".canvas .react-flow__background").count(), 0, "no dot grid far out");
    for (let i = 0; i < 5; i++) await page.mouse.wheel(0, -200); // to about 0.8
    await page.waitForTimeout(600);
    assert.doesNotMatch(await page.locator(".canvas").getAttribute("class"), /is-far|is-moving/);
    assert.ok((await page.locator(".canvas .edge-label").count()) > 0, "labels drawn again");
    assert.equal(await page.locator(".canvas .react-flow__background").count(), 1);
  });

  it("clicking an agent selects it and the inspector shows it", async () => {
    const target = await page.evaluate(() => {
      const r = document.querySelector(".canvas .react-flow__pane").getBoundingClientRect();
      for (const el of document.querySelectorAll('.canvas [data-testid^="node-a"]')) {
        const b = el.getBoundingClientRect();
        if (b.left > r.left + 20 && b.right < r.right - 20 && b.top > r.top + 20 && b.bottom < r.bottom - 20) {
          return { id: el.getAttribute("data-testid").slice(5), x: b.left + b.width / 2, y: b.top + 14 };
        }
      }
      return null;
    });
    assert.ok(target, "an agent fully on screen");
    await page.mouse.click(target.x, target.y);
    await page.getByTestId("inspector-agent").waitFor();
    assert.equal(await page.getByTestId("agent-name").inputValue(), `Agent ${target.id.slice(1)}`);
    assert.match((await page.getByTestId(`node-${target.id}`).getAttribute("class")) ?? "", /is-selected/);
    assert.equal(await page.locator(".canvas .node-card.is-selected").count(), 1);
    // Another: the selection moves.
    const other = await page.evaluate((skip) => {
      const r = document.querySelector(".canvas .react-flow__pane").getBoundingClientRect();
      for (const el of document.querySelectorAll('.canvas [data-testid^="node-a"]')) {
        const id = el.getAttribute("data-testid").slice(5);
        const b = el.getBoundingClientRect();
        if (id !== skip && b.left > r.left + 20 && b.right < r.right - 20 && b.top > r.top + 20 && b.bottom < r.bottom - 20) return { id, x: b.left + b.width / 2, y: b.top + 14 };
      }
      return null;
    }, target.id);
    assert.ok(other, "a second agent on screen");
    await page.mouse.click(other.x, other.y);
    await page.waitForFunction((name) => document.querySelector('[data-testid="agent-name"]')?.value === name, `Agent ${other.id.slice(1)}`);
    assert.equal(await page.locator(".canvas .node-card.is-selected").count(), 1);
    assert.deepEqual(errors, []);
  });
});

// The canvas at scale (issue #21): a generated 1,000-agent, 3,000-edge topology with no layout,
// opened in headless Chromium against `baton serve`, as a user opens it (the Open dialog).
// Prints: auto-layout time and the longest main-thread frame while it runs, pan and zoom frame
// rates (rAF intervals while page.mouse drags and wheels for ~2 s each), click-to-inspector
// latency (median of 10 selections) and the lint round trip the window makes.
//   cd ui && BATON_UI_DIST=/tmp/canvas-dist BATON_E2E_NO_BUILD=1 node bench/canvas.bench.mjs
import { backendPlan, launchBrowser, startBackend } from "../e2e/harness.mjs";
import { figure, fmt, startFrames, stopFrames } from "./frames.mjs";
import { writeScaleFixtures } from "./fixtures.mjs";

const AGENTS = Number(process.env.BATON_BENCH_AGENTS ?? 1000);
const FILE = `scale-${AGENTS}.yaml`;

const plan = backendPlan();
if (plan.skip) {
  console.log(`skipped: ${plan.skip}`);
  process.exit(process.env.BATON_E2E_REQUIRE === "1" ? 1 : 0);
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : NaN;
};

/** Every rAF timestamp (absolute, page clock) from now on; the page's own record of its frames. */
async function startFrameLog(page) {
  await page.evaluate(() => {
    const log = { times: [], stop: false };
    window.__frameLog = log;
    const tick = (t) => {
      log.times.push(t);
      if (!log.stop) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}

/** A point on the empty pane (nothing but the pane under it), to drag the view from. */
async function emptyPanePoint(page) {
  return page.evaluate(() => {
    const pane = document.querySelector(".canvas .react-flow__pane");
    if (!pane) return null;
    const r = pane.getBoundingClientRect();
    for (let y = r.top + 30; y < r.bottom - 30; y += 17) {
      for (let x = r.left + 30; x < r.right - 30; x += 23) {
        if (document.elementFromPoint(x, y) === pane) return { x, y };
      }
    }
    return null;
  });
}

const backend = await startBackend(plan, { setup: (root) => writeScaleFixtures(root, { agents: AGENTS, steps: 10 }) });
const browser = await launchBrowser();
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(backend.page());
  await page.getByTestId("menu-open").click();
  await page.getByTestId("open-dialog").waitFor();

  // --- open: the backend reads it, the window lays it out (no layout in the file) and draws it
  await startFrameLog(page);
  const opened = await page.evaluate(() => performance.now());
  await page.locator(`[data-testid="open-file"][data-path="${FILE}"]`).click();
  // (only the agents in view are mounted: any of them)
  // (a cheap check each frame: a locator's visibility polling would load the page it measures)
  await page.waitForFunction(() => document.querySelector('.canvas [data-testid^="node-a"]'), null, { timeout: 180_000, polling: 100 });
  await page.waitForTimeout(500);
  const open = await page.evaluate((opened) => {
    const log = window.__frameLog;
    log.stop = true;
    const drawn = performance.getEntriesByName("baton:layout").at(-1);
    const read = performance.getEntriesByType("resource").filter((e) => e.name.endsWith("/api/open_topology")).at(-1);
    // The layout's window: the build's own measure when it has one, else the whole open.
    const from = drawn ? drawn.startTime : opened;
    const to = drawn ? drawn.startTime + drawn.duration : performance.now();
    // Frames while the layout ran, each cut to the layout's window: a main-thread layout makes
    // one frame as long as itself; the render of its answer comes after and is counted apart.
    const gaps = [];
    for (let i = 1; i < log.times.length; i++) gaps.push({ a: log.times[i - 1], b: log.times[i] });
    const during = gaps.filter((g) => g.b > from && g.a < to).map((g) => Math.min(g.b, to) - Math.max(g.a, from));
    const longest = Math.max(0, ...during);
    const after = gaps.filter((g) => g.b > to).map((g) => g.b - g.a);
    const nodes = document.querySelectorAll(".canvas .react-flow__node").length;
    const edges = document.querySelectorAll(".canvas .react-flow__edge").length;
    return {
      layout: drawn ? drawn.duration : NaN,
      engine: drawn?.detail?.engine ?? null,
      thread: drawn?.detail?.thread ?? null,
      framesDuring: during.length,
      longest,
      firstRender: Math.max(0, ...after),
      read: read ? read.responseEnd - read.startTime : NaN,
      total: performance.now() - opened,
      nodes,
      edges,
    };
  }, opened);
  const layoutMs = Number.isFinite(open.layout) ? open.layout : open.total;
  figure(`auto-layout of ${AGENTS} agents${open.engine ? ` (${open.engine}, ${open.thread} thread)` : " (open to drawn: no layout measure in this build)"}`, layoutMs, "ms", "1000 ms", layoutMs < 1000);
  figure(`longest main-thread frame during the layout (${open.framesDuring} frames)`, open.longest, "ms", "50 ms", open.longest < 50);
  console.log(
    `open: backend read ${fmt(open.read)} ms, open to drawn ${fmt(open.total - 500)} ms; the first render's longest frame ${fmt(open.firstRender)} ms; ${open.nodes} agents and ${open.edges} edges mounted (those in view)`,
  );

  // --- pan: drag the empty pane for ~2 s, back and forth 300 px each way
  const zoomNow = () => page.evaluate(() => Number(document.querySelector(".canvas .react-flow__viewport").style.transform.match(/scale\(([\d.]+)\)/)?.[1]));
  async function pan(label) {
    const from = await emptyPanePoint(page);
    if (!from) throw new Error("no empty spot on the pane to drag from");
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await startFrames(page);
    const until = Date.now() + 2000;
    for (let i = 0; Date.now() < until; i++) {
      const phase = (i % 60) / 60;
      const dx = (phase < 0.5 ? phase : 1 - phase) * 600;
      await page.mouse.move(from.x - dx, from.y - dx / 3);
      await page.waitForTimeout(8);
    }
    const f = await stopFrames(page);
    await page.mouse.up();
    figure(`pan ${label} (p50 ${fmt(f.p50)} ms, p95 ${fmt(f.p95)} ms, max ${fmt(f.max)} ms, ${f.frames} frames)`, f.fps, "fps", ">= 50 fps", f.fps >= 50);
  }
  await page.getByTestId("fit-view").click();
  await page.waitForTimeout(600);
  await pan(`at fit view (zoom ${fmt(await zoomNow(), 2)})`);
  const mid = await page.locator(".canvas .react-flow__pane").boundingBox();
  await page.mouse.move(mid.x + mid.width / 2, mid.y + mid.height / 2);
  for (let i = 0; i < 4; i++) await page.mouse.wheel(0, -200);
  await page.waitForTimeout(600);
  await pan(`close in (zoom ${fmt(await zoomNow(), 2)})`);
  await page.getByTestId("fit-view").click();
  await page.waitForTimeout(600);

  // --- zoom: wheel in and out over the middle for ~2 s (from fit view to about 1 and back)
  const box = await page.locator(".canvas .react-flow__pane").boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await startFrames(page);
  const zoomUntil = Date.now() + 2000;
  for (let i = 0; Date.now() < zoomUntil; i++) {
    await page.mouse.wheel(0, i % 40 < 20 ? -60 : 60);
    await page.waitForTimeout(16);
  }
  const zoom = await stopFrames(page);
  figure(`zoom (p50 ${fmt(zoom.p50)} ms, p95 ${fmt(zoom.p95)} ms, max ${fmt(zoom.max)} ms, ${zoom.frames} frames)`, zoom.fps, "fps", ">= 50 fps", zoom.fps >= 50);

  // --- click an agent: time from the press to the inspector showing its name (painted)
  await page.getByTestId("fit-view").click();
  await page.waitForTimeout(600);
  await page.mouse.wheel(0, -400); // close enough to click cards
  await page.waitForTimeout(400);
  const visible = await page.evaluate(() => {
    const r = document.querySelector(".canvas .react-flow__pane").getBoundingClientRect();
    return [...document.querySelectorAll('.canvas [data-testid^="node-a"]')]
      .map((el) => ({ id: el.getAttribute("data-testid").slice(5), b: el.getBoundingClientRect() }))
      .filter(({ b }) => b.left > r.left + 10 && b.right < r.right - 10 && b.top > r.top + 10 && b.bottom < r.bottom - 10 && b.width > 20)
      .map(({ id, b }) => ({ id, x: b.left + b.width / 2, y: b.top + Math.min(14, b.height / 4) }));
  });
  const clicks = [];
  for (const n of visible.slice(0, 10)) {
    const name = `Agent ${n.id.slice(1)}`;
    await page.evaluate((name) => {
      window.__sel = new Promise((resolve) => {
        let t0 = null;
        document.addEventListener("pointerdown", () => (t0 = performance.now()), { capture: true, once: true });
        const check = () => {
          const el = document.querySelector('[data-testid="inspector-agent"] [data-testid="agent-name"]');
          const v = el && ("value" in el ? el.value : el.textContent);
          // the frame after the one that shows it: painted
          if (t0 !== null && v === name) requestAnimationFrame(() => resolve(performance.now() - t0));
          else requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      });
    }, name);
    await page.mouse.click(n.x, n.y);
    clicks.push(await page.evaluate(() => Promise.race([window.__sel, new Promise((r) => setTimeout(() => r(NaN), 10_000))])));
  }
  const sel = median(clicks);
  figure(`click to inspector (median of ${clicks.length}; max ${fmt(Math.max(...clicks))} ms)`, sel, "ms", "100 ms", sel < 100);

  // --- lint: the round trips useLint makes (lint_topology and fact_flow, in parallel), as the
  // window makes them: the build's own measure of the last edit when it has one, and a direct one
  const lint = await page.evaluate(
    async ({ token, file }) => {
      const call = async (command, args) => {
        const res = await fetch(`/api/${command}`, {
          method: "POST",
          headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
          body: JSON.stringify(args),
        });
        if (!res.ok) throw new Error(`${command}: ${res.status}`);
        return res.json();
      };
      const { topology } = await call("open_topology", { path: file });
      const lintOnly = [];
      const flowOnly = [];
      const both = [];
      for (let i = 0; i < 7; i++) {
        let t = performance.now();
        await call("lint_topology", { topology });
        lintOnly.push(performance.now() - t);
        t = performance.now();
        await call("fact_flow", { topology });
        flowOnly.push(performance.now() - t);
        t = performance.now();
        await Promise.all([call("lint_topology", { topology }), call("fact_flow", { topology })]);
        both.push(performance.now() - t);
      }
      const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
      return { lintOnly: med(lintOnly), flowOnly: med(flowOnly), both: med(both) };
    },
    { token: backend.token, file: FILE },
  );
  figure("lint round trip (lint_topology, median of 7)", lint.lintOnly, "ms", "50 ms", lint.lintOnly < 50);
  console.log(`fact_flow round trip (median of 7): ${fmt(lint.flowOnly)} ms`);
  figure("lint and fact flow round trip (useLint's two calls in parallel)", lint.both, "ms", "50 ms", lint.both < 50);

  // --- and as the window sees it after an edit: rename the selected agent five times, each time
  // the time from useLint's request to both answers applied (its `baton:lint` measure)
  const own = [];
  for (let i = 0; i < 5; i++) {
    const before = await page.evaluate(() => performance.getEntriesByName("baton:lint").length);
    await page.getByTestId("agent-name").fill(`Renamed ${i}`);
    await page.waitForFunction((n) => performance.getEntriesByName("baton:lint").length > n, before, { timeout: 30_000 });
    own.push(await page.evaluate(() => performance.getEntriesByName("baton:lint").at(-1).duration));
  }
  if (own.length) figure(`lint as the window saw it after an edit (useLint, median of ${own.length})`, median(own), "ms", "50 ms", median(own) < 50);
  if (errors.length) console.log(`page errors: ${errors.join(" | ")}`);
} finally {
  await browser.close();
  await backend.stop();
}

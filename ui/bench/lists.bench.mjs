// Long lists at scale (issue #21), in Debian's Chromium against a real `baton serve` and SQLite
// store: the Runs home and the Runs tab over 10,000 runs, the Problems tab over 1,000 findings and
// a transfer diff of more than 10,000 items. For each: the time from the action that shows the list
// to its first rows, and the frame times while the list is scrolled from top to bottom (a viewport
// a frame, the worst case for a virtualised list: every frame shows rows not seen before), bound
// 16 ms a frame; also how many rows the page holds at the end (virtualised: a window, not all).
// Fixtures: bench/list-fixtures.mjs (generated, never committed).
import { launchBrowser } from "../e2e/harness.mjs";
import { figure, fmt, startFrames, stopFrames } from "./frames.mjs";
import { api, findingTool, startListsBackend } from "./list-fixtures.mjs";

const RUNS = Number(process.env.BATON_BENCH_RUNS ?? 10_000);
const FINDINGS = Number(process.env.BATON_BENCH_FINDINGS ?? 1000);
const DIFF_STEPS = Number(process.env.BATON_BENCH_DIFF_STEPS ?? 8000);
const FRAME_BOUND = 16;

const t0 = performance.now();
const { backend, firstRun, diffRun } = await startListsBackend({ runs: RUNS, findings: FINDINGS, diffSteps: DIFF_STEPS });
console.log(`fixtures: ${RUNS} runs, ${FINDINGS} findings, a ${DIFF_STEPS}-step run, in ${fmt((performance.now() - t0) / 1000)} s`);
const browser = await launchBrowser();
const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
const errors = [];
page.on("pageerror", (e) => errors.push(e.message));

/**
 * Scrolls `scroller` down a viewport a frame until its end shows `end` ({ selector, text }: an
 * element matching, holding the text) and it is at the bottom; returns the frame figures.
 */
async function scrollThrough(scroller, end, maxMs = 120_000) {
  await startFrames(page);
  const reached = await page.evaluate(
    async ({ scroller, end, maxMs }) => {
      const el = document.querySelector(scroller);
      if (!el) return { ok: false, why: `no ${scroller}` };
      const started = performance.now();
      const shows = () => [...document.querySelectorAll(end.selector)].some((e) => !end.text || e.textContent.includes(end.text));
      while (performance.now() - started < maxMs) {
        el.scrollTop += el.clientHeight;
        await new Promise((r) => requestAnimationFrame(r));
        if (el.scrollTop + el.clientHeight >= el.scrollHeight - 2 && shows()) return { ok: true, ms: performance.now() - started };
      }
      return { ok: false, why: `not at the end after ${maxMs} ms (scrollTop ${el.scrollTop} of ${el.scrollHeight})` };
    },
    { scroller, end, maxMs },
  );
  const frames = await stopFrames(page);
  return { ...frames, reached };
}

async function measure(name, { show, first, scroller, end, rows }) {
  const start = performance.now();
  await show();
  await page.locator(first).first().waitFor({ timeout: 120_000 });
  const firstMs = performance.now() - start;
  await page.waitForTimeout(300);
  const f = await scrollThrough(scroller, end);
  const inDom = await page.locator(rows).count();
  figure(`${name}: first rows`, firstMs, "ms");
  figure(`${name}: scroll frame rate`, f.fps, "fps");
  figure(`${name}: scroll p95 frame`, f.p95, "ms", `${FRAME_BOUND} ms`, f.p95 <= FRAME_BOUND);
  console.log(
    `${name}: ${f.frames} frames, p50 ${fmt(f.p50)} ms, max ${fmt(f.max)} ms, ${f.long} long frames; ${f.reached.ok ? `end reached in ${fmt(f.reached.ms / 1000)} s` : `END NOT REACHED: ${f.reached.why}`}; ${inDom} rows in the page at the end`,
  );
}

async function showTab(id) {
  const tab = page.getByTestId(`tab-${id}`);
  if ((await tab.getAttribute("aria-selected")) !== "true") await tab.click();
  if ((await page.getByTestId("bottom-panel").getAttribute("class")).includes("is-collapsed")) await tab.click();
}

try {
  await measure(`Runs home (${RUNS.toLocaleString("en")} runs)`, {
    show: async () => {
      await page.goto(backend.page());
      await page.getByTestId("runs-home-toggle").click();
    },
    first: '[data-testid="runs-home-row"]',
    scroller: ".rh-scroll",
    end: { selector: `[data-testid="runs-home-row"][data-run="${firstRun}"]` },
    rows: '[data-testid="runs-home-row"]',
  });

  await page.goto(backend.page("open=lists-runs.yaml"));
  await page.getByTestId("node-a").waitFor();
  await measure(`Runs tab (${RUNS.toLocaleString("en")} runs of one topology)`, {
    show: () => showTab("runs"),
    first: '[data-testid="run-row"]',
    scroller: ".runs-table-wrap",
    end: { selector: `[data-testid="run-row"][data-run="${firstRun}"]` },
    rows: '[data-testid="run-row"]',
  });

  await measure(`Problems (${FINDINGS.toLocaleString("en")} findings)`, {
    show: async () => {
      await page.goto(backend.page("open=lists-findings.yaml"));
      await page.getByTestId("node-a").waitFor();
      await showTab("problems");
    },
    first: '[data-testid="finding"]',
    scroller: '[data-testid="problems-scroll"]',
    end: { selector: '[data-testid="finding"]', text: `'${findingTool(FINDINGS - 1)}'` },
    rows: '[data-testid="finding"]',
  });

  const overview = await api(backend, "run_overview", { run_id: diffRun });
  const last = overview.transfers.at(-1);
  const items = last.carried + last.transformed + last.dropped;
  await measure(`Diff (a transfer of ${items.toLocaleString("en")} sender items)`, {
    show: () => page.goto(backend.page(`run=${diffRun}&step=${last.step}`)),
    first: '[data-testid="transfer-diff"] [data-testid="diff-row"]',
    scroller: '[data-testid="diff-rows"]',
    end: { selector: '[data-testid="diff-row"]' },
    rows: '[data-testid="diff-row"]',
  });
  if (errors.length) console.log(`page errors: ${errors.join("; ")}`);
} finally {
  await browser.close();
  await backend.stop();
}

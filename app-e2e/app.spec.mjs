// The real desktop app (target/debug/baton-app, its UI embedded at build time), under Xvfb when
// there is no display, driven through tauri-driver and WebKitWebDriver. Each test starts the app
// on a private copy of a file (its command line) with a private data directory and store.
//   cd app-e2e && npm test          (BATON_APP=... for another binary)
// A: open ticket-reopen, rename an agent in the inspector, Ctrl+S, read the YAML back.
// B: the ticket-reopen walk-through against the real backend and store: run, debug, the pinned
//    fact lost at resolution → verification; a screenshot of the real window.
// C: the app started on a trace (OTLP JSON) imports it and opens the run in the debugger.
// D: live capture: the Runs tab's Capture switch, a trace POSTed by the test, its handoff diff.
// F: fork from the debugger: ticket-reopen's run forked at the lossy handoff with the fact
//    restored answers "stays resolved", shows its parent and compares with it.
// E: a trace file dropped on the real window opens in the debugger; the Runs home lists it beside
//    a run of the open topology, filters them, and opens one.
// G: Settings → About names the version and the commit git reports, the store, and the WebKit
//    compositing the app chose for this machine; a crash of the app writes its report.
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, describe, it } from "node:test";
import { exampleCopy, REPO, screenshot, startApp } from "./harness.mjs";

// The first start of the app (WebKit's caches, the store's migrations) can take a while.
const START = 180_000;
const STEP = 60_000;
// A test run never rewrites tracked files: the screenshot goes to target/ unless
// BATON_UPDATE_SHOTS=1 asks for the one in docs/.
const SHOT = process.env.BATON_UPDATE_SHOTS === "1"
  ? join(REPO, "docs/screenshots/app-debugger.png")
  : join(REPO, "target/app-e2e/app-debugger.png");

const work = mkdtempSync(join(tmpdir(), "baton-app-files-"));
after(() => rmSync(work, { recursive: true, force: true }));
/** Where a failing test leaves its screenshot (kept after the run). */
const FAILURES = join(tmpdir(), "baton-app-e2e-failures");

/** Starts the app on `file`; `fn(browser, app)`; always stops it (and keeps a screenshot on failure). */
async function withApp(file, name, fn, opts = {}) {
  const app = await startApp(file, opts);
  try {
    await fn(app.browser, app);
  } catch (e) {
    try {
      mkdirSync(FAILURES, { recursive: true });
      const path = join(FAILURES, `${name}.png`);
      screenshot(app.env, path);
      const text = await app.browser.execute(() => document.body.innerText.slice(0, 2000)).catch(() => "(no page text)");
      e.message += `\n--- screenshot: ${path}\n--- page text:\n${text}`;
    } catch {
      /* the app is gone */
    }
    throw e;
  } finally {
    await app.stop();
  }
}

const byId = (b, id) => b.$(`[data-testid="${id}"]`);
const waitFor = (b, css, timeout = STEP) => b.$(css).waitForExist({ timeout });
/** The text of the first element matching `css` (textContent: WebDriver's rendered text is unreliable on the canvas). */
const textOf = (b, css) => b.execute((sel) => document.querySelector(sel)?.textContent ?? "", css);

/** Runs the open topology's scenario from the Run tab and opens the run in the debugger. */
async function runAndDebug(b) {
  await waitFor(b, '[data-testid="node-triage"]', START);
  await byId(b, "tab-run").click();
  await byId(b, "run-start").waitForClickable({ timeout: STEP });
  await byId(b, "run-start").click();
  await waitFor(b, '[data-testid="run-status"][data-status="finished"]');
  await byId(b, "run-debug").click();
}

describe("the desktop app", { timeout: 15 * 60_000 }, () => {
  it("A: opens an example from its command line, renames an agent, saves with Ctrl+S", { timeout: 6 * 60_000 }, async () => {
    const dir = join(work, "a");
    mkdirSync(dir);
    const file = exampleCopy(dir, "ticket-reopen.yaml");
    assert.doesNotMatch(readFileSync(file, "utf8"), /^layout:/m, "the example starts without a layout");
    await withApp(file, "a", async (b) => {
      await waitFor(b, '[data-testid="node-triage"]', START);
      assert.equal(await b.$('[data-testid="app"]').getAttribute("data-platform"), "tauri");
      assert.match(await textOf(b, '[data-testid="doc-title"]'), /ticket-reopen\.yaml/);

      // select the entry agent; its name is in the inspector
      await byId(b, "node-triage").click();
      const name = byId(b, "agent-name");
      await name.waitForExist({ timeout: STEP });
      assert.equal(await name.getValue(), "Triage");
      await name.click();
      await b.keys(["Control", "a"]);
      await b.keys("Front Desk");
      await b.waitUntil(async () => (await textOf(b, '[data-testid="node-triage"]')).includes("Front Desk"), {
        timeout: STEP,
        timeoutMsg: "the canvas did not show the new name",
      });
      await byId(b, "dirty-marker").waitForExist({ timeout: STEP });

      await b.keys(["Control", "s"]);
      await byId(b, "dirty-marker").waitForExist({ timeout: STEP, reverse: true });
    });
    const yaml = readFileSync(file, "utf8");
    assert.match(yaml, /^ {2}name: Front Desk$/m);
    assert.doesNotMatch(yaml, /^ {2}name: Triage$/m);
    // the positions the app laid the agents out at were saved with the topology
    const layout = yaml.slice(yaml.search(/^layout:$/m));
    assert.ok(layout.startsWith("layout:"), "a layout section was saved");
    for (const agent of ["triage", "resolution", "verification"]) {
      assert.match(layout, new RegExp(`^ {2}${agent}:\\n {4}x: -?[0-9.]+\\n {4}y: -?[0-9.]+$`, "m"), `layout of ${agent}`);
    }
  });

  it("B: runs ticket-reopen on the real backend and store; the fact is lost at resolution → verification", { timeout: 6 * 60_000 }, async () => {
    const dir = join(work, "b");
    mkdirSync(dir);
    const file = exampleCopy(dir, "ticket-reopen.yaml");
    await withApp(file, "b", async (b, app) => {
      await waitFor(b, '[data-testid="node-triage"]', START);
      await byId(b, "tab-run").click();
      await byId(b, "run-start").waitForClickable({ timeout: STEP });
      await byId(b, "run-start").click();
      await waitFor(b, '[data-testid="run-status"][data-status="finished"]');
      assert.equal(await b.$('[data-testid="run-status"] [data-testid="outcome"]').getAttribute("data-status"), "completed");

      await byId(b, "run-debug").click();
      await waitFor(b, '[data-testid="app"][data-mode="debug"]');
      await waitFor(b, '[data-testid="timeline-step"]');
      assert.equal(await byId(b, "timeline").getAttribute("data-count"), "12");

      // step to the resolution (its first transfer), then on to the verification transfer
      await byId(b, "next-transfer").click();
      await waitFor(b, '[data-testid="transfer-diff"][data-from="triage"][data-to="resolution"]');
      assert.equal(await b.$('[data-testid="fact-status"][data-fact="resolved-meaning"]').getAttribute("data-status"), "added");
      await byId(b, "next-transfer").click();
      await waitFor(b, '[data-testid="transfer-diff"][data-from="resolution"][data-to="verification"]');
      await waitFor(b, '[data-testid="step-detail"][data-step="5"]:not([data-loading])');

      assert.equal(await b.$('[data-testid="fact-status"][data-fact="resolved-meaning"]').getAttribute("data-status"), "lost");
      assert.ok(await b.$('[data-testid="diff-item"][data-status="dropped"][data-kind="pinned_fact"]').isExisting(), "the pinned fact is dropped");
      assert.equal(await textOf(b, '[data-testid="diff-policy"]'), "fields(ticket,status)");

      await b.pause(400); // let the graph settle
      mkdirSync(dirname(SHOT), { recursive: true });
      screenshot(app.env, SHOT);
    });
  });

  it("B2: under the C locale (LANG=C.UTF-8, as a minimal system reports it) the debugger's context chart draws", { timeout: 6 * 60_000 }, async () => {
    const dir = join(work, "b2");
    mkdirSync(dir);
    const file = exampleCopy(dir, "ticket-reopen.yaml");
    const locale = { LANG: "C.UTF-8", LC_ALL: "C.UTF-8", LANGUAGE: "" };
    await withApp(
      file,
      "b2",
      async (b) => {
        await runAndDebug(b);
        await waitFor(b, '[data-testid="app"][data-mode="debug"]');
        await waitFor(b, '[data-testid="context-chart-plot"]');
        assert.equal(await b.$('[data-testid="context-chart-failed"]').isExisting(), false);
        assert.equal(await b.$('[data-testid="chart-error"]').isExisting(), false);
        const lang = await b.execute(() => navigator.language);
        assert.ok(typeof lang === "string", `navigator.language: ${lang}`);
      },
      { env: locale },
    );
  });

  it("C: started on a trace, imports it and debugs it: Triage hands off to Billing", { timeout: 6 * 60_000 }, async () => {
    const dir = join(work, "c");
    mkdirSync(dir);
    const file = join(dir, "otlp_genai.json");
    copyFileSync(join(REPO, "tests/import/fixtures/otlp_genai.json"), file);
    await withApp(file, "c", async (b) => {
      await waitFor(b, '[data-testid="app"][data-mode="debug"]', START);
      await waitFor(b, '[data-testid="transport"]');
      assert.equal(await byId(b, "run-source").getAttribute("data-format"), "otlp");
      await byId(b, "next-transfer").click();
      await waitFor(b, '[data-testid="transfer-diff"][data-from="triage"][data-to="billing"]');
    });
  });

  it("D: live capture: the Capture switch opens an endpoint; a trace a script sends there is listed and its handoff diff opens", { timeout: 6 * 60_000 }, async () => {
    const dir = join(work, "d");
    mkdirSync(dir);
    const file = exampleCopy(dir, "support-triage.yaml");
    await withApp(file, "d", async (b) => {
      await waitFor(b, '[data-testid="node-triage"]', START);
      await byId(b, "tab-runs").click();
      await waitFor(b, '[data-testid="runs-panel"]');
      // a port the system picks, so that a collector on 4318 cannot get in the way
      const port = await byId(b, "capture-port");
      await port.setValue("0");
      await b.execute(() => document.querySelector('[data-testid="capture-switch"]').click());
      await waitFor(b, '[data-testid="capture-endpoint"]');
      const endpoint = (await textOf(b, '[data-testid="capture-endpoint"]')).trim();
      assert.match(endpoint, /^http:\/\/127\.0\.0\.1:\d+\/v1\/traces$/);
      // the running system: its exporter POSTs an OTLP JSON trace
      const res = await fetch(endpoint, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: readFileSync(join(REPO, "tests/import/fixtures/otlp_genai.json")),
      });
      assert.equal(res.status, 200, await res.text());
      await waitFor(b, '[data-testid="captured-list"] [data-testid="run-row"]');
      await b.$('[data-testid="captured-list"] [data-testid="run-row"] [data-testid="run-open"]').click();
      await waitFor(b, '[data-testid="app"][data-mode="debug"]');
      await waitFor(b, '[data-testid="transport"]');
      assert.equal(await byId(b, "run-source").getAttribute("data-format"), "otlp");
      await byId(b, "next-transfer").click();
      await waitFor(b, '[data-testid="transfer-diff"][data-from="triage"][data-to="billing"]');
    });
  });

  it("E: a dropped trace opens in the debugger; the Runs home lists every run, filters and opens them", { timeout: 6 * 60_000 }, async () => {
    const dir = join(work, "e");
    mkdirSync(dir);
    const file = exampleCopy(dir, "ticket-reopen.yaml");
    const handoff = readFileSync(join(REPO, "tests/import/fixtures/openai_agents_handoff.jsonl"), "utf8");
    await withApp(file, "e", async (b) => {
      await waitFor(b, '[data-testid="node-triage"]', START);
      // One native run of the open topology.
      await byId(b, "tab-run").click();
      await byId(b, "run-start").waitForClickable({ timeout: STEP });
      await byId(b, "run-start").click();
      await waitFor(b, '[data-testid="run-status"][data-status="finished"]');
      // The Agents SDK trace, dropped on the window as a file (the window lets page drops through).
      await b.execute((text) => {
        const dt = new DataTransfer();
        dt.items.add(new File([text], "openai_agents_handoff.jsonl", { type: "application/json" }));
        window.dispatchEvent(new DragEvent("dragenter", { dataTransfer: dt, bubbles: true }));
        document.body.dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
      }, handoff);
      await waitFor(b, '[data-testid="app"][data-mode="debug"]');
      await waitFor(b, '[data-testid="timeline-step"]');
      // openai_agents_handoff.jsonl: Triage hands the conversation to Billing.
      await byId(b, "next-transfer").click();
      await waitFor(b, '[data-testid="transfer-diff"][data-from="triage"][data-to="billing"]');
      // The Runs home: both runs, the imported one found by its origin.
      await b.execute(() => document.querySelector('[data-testid="runs-home-toggle"]').click());
      await waitFor(b, '[data-testid="runs-home"]');
      await b.waitUntil(async () => (await byId(b, "runs-home-total").getAttribute("data-total")) === "2", { timeout: STEP, timeoutMsg: "two runs listed" });
      const rows = await b.execute(() => [...document.querySelectorAll('[data-testid="runs-home-row"]')].map((r) => r.textContent));
      assert.ok(rows.some((r) => /ticket-reopen/.test(r)), rows.join(" | "));
      assert.ok(rows.some((r) => /handoff/i.test(r)), rows.join(" | "));
      const search = await byId(b, "runs-home-search");
      await search.setValue("ticket-reopen");
      await b.waitUntil(async () => (await b.$$('[data-testid="runs-home-row"]')).length === 1, { timeout: STEP, timeoutMsg: "the search narrows to one run" });
      await b.$('[data-testid="runs-home-row"] [data-testid="runs-home-open"]').click();
      await waitFor(b, '[data-testid="app"][data-mode="debug"]');
      await waitFor(b, '[data-testid="timeline-step"]');
      assert.equal(await byId(b, "timeline").getAttribute("data-count"), "12");
    });
  });

  it("F: forks a run at the lossy handoff with the fact restored; the fork shows its parent and compares", { timeout: 6 * 60_000 }, async () => {
    const dir = join(work, "f");
    mkdirSync(dir);
    const file = exampleCopy(dir, "ticket-reopen.yaml");
    await withApp(file, "f", async (b) => {
      await runAndDebug(b);
      await waitFor(b, '[data-testid="timeline-step"]');
      const parent = await byId(b, "debugger").getAttribute("data-run");
      await byId(b, "next-transfer").click();
      await byId(b, "next-transfer").click();
      await waitFor(b, '[data-testid="step-detail"][data-step="5"]:not([data-loading])');
      await b.execute(() => document.querySelector('[data-testid="fork-here"]').click());
      await waitFor(b, '[data-testid="fork-dialog"]');
      await b.execute(() => document.querySelector('[data-testid="fork-restore"][data-fact="resolved-meaning"]').click());
      await b.execute(() => document.querySelector('[data-testid="fork-submit"]').click());
      await waitFor(b, `[data-testid="lineage-parent"][data-run="${parent}"]`);
      // ticket-reopen.yaml: with the fact present, Verification's rule answers "stays resolved".
      await b.waitUntil(async () => (await textOf(b, ".run-answer")).includes("Ticket 4812 stays resolved."), { timeout: STEP, timeoutMsg: "the fork's answer" });
      assert.match(await textOf(b, '[data-testid="lineage-divergence"]'), /left the recording at call 1 of Verification/);
      await b.execute(() => document.querySelector('[data-testid="lineage-compare"]').click());
      await waitFor(b, '[data-testid="compare-view"]');
      assert.equal(await b.$('[data-testid="compare-run"][data-side="A"]').getAttribute("data-run"), parent);
    });
  });

  it("G: Settings → About names the version, the commit and the compositing chosen; a crash writes its report", { timeout: 6 * 60_000 }, async () => {
    const file = exampleCopy(work, "ticket-reopen.yaml");
    await withApp(file, "G-about", async (b) => {
      await waitFor(b, '[data-testid="node-triage"]', START);
      await byId(b, "settings-open").click();
      await waitFor(b, '[data-testid="about-version"]');
      const commit = execFileSync("git", ["rev-parse", "--short=12", "HEAD"], { cwd: REPO, encoding: "utf8" }).trim();
      const pkg = readFileSync(join(REPO, "Cargo.toml"), "utf8").match(/^version = "([^"]+)"/m)[1];
      assert.equal(await textOf(b, '[data-testid="about-version"]'), `${pkg} (commit ${commit})`);
      assert.match(await textOf(b, '[data-testid="about-store"]'), /store\.db$/);
      // this machine has no GPU (no /dev/dri): the app turned WebKit's compositing off, and says why
      const drawing = await textOf(b, '[data-testid="about-compositing"]');
      if (existsSync("/dev/dri")) assert.equal(drawing, "WebKit compositing on");
      else assert.equal(drawing, "WebKit compositing off (no GPU: /dev/dri is missing)");
    });
    // A crash at start: the report lands in the log folder and names the app, never a key.
    const logs = mkdtempSync(join(tmpdir(), "baton-app-logs-"));
    try {
      const key = "sk-canary-app-crash-0123456789";
      const app = process.env.BATON_APP ?? join(REPO, "target/debug/baton-app");
      const r = spawnSync("xvfb-run", ["-a", app, file], {
        env: { ...process.env, BATON_CRASH_TEST: "1", BATON_LOG_DIR: logs, OPENAI_API_KEY: key, XDG_DATA_HOME: join(logs, "data") },
        encoding: "utf8",
        timeout: 120_000,
      });
      const reports = readdirSync(logs).filter((f) => f.startsWith("crash-baton-app-"));
      assert.equal(reports.length, 1, `${r.status} ${r.stderr}`);
      assert.match(r.stderr, new RegExp(`report .* is at ${join(logs, reports[0]).replace(/[.]/g, "\\.")}`));
      const report = readFileSync(join(logs, reports[0]), "utf8");
      assert.match(report, /^baton-app \S+ \(commit /);
      assert.match(report, /deliberate crash/);
      assert.ok(!report.includes(key) && !report.includes("ticket-reopen"), report);
    } finally {
      rmSync(logs, { recursive: true, force: true });
    }
  });
});

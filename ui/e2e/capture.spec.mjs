// Browser test of live capture against `baton serve`: the Runs tab's Capture switch starts an
// OTLP/HTTP endpoint in the backend (on a port the system picks: the user's port field set to 0,
// so a collector on 4318 cannot get in the way), the test process POSTs an OTLP JSON trace to the
// endpoint the page shows, the saved run appears in the list and opens on its handoff; a taken
// port is refused with `capture.listen`; a trace still arriving (its spans in two halves, the root
// last) opens as a running run that the debugger follows, then shows completed; off closes the
// endpoint.
// BATON_E2E_SHOTS=DIR also writes DIR/capture.png (the Runs tab with the captured run) and
// DIR/follow.png, DIR/follow-ended.png (the debugger on a run in progress, then ended).
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { backendPlan, launchBrowser, REPO, startBackend } from "./harness.mjs";

const plan = backendPlan();
if (plan.skip && process.env.BATON_E2E_REQUIRE === "1") throw new Error(plan.skip);

const TRACE = readFileSync(join(REPO, "tests/import/fixtures/otlp_genai.json"));

/**
 * The fixture's spans as another trace (a new trace id, in a conversation of its own: traces of
 * one conversation join one run), split as a running system exports them: its children in two
 * halves, then the root (the workflow span ends last). Each part is an OTLP JSON body; `runId` is
 * the run the backend saves the trace as (its trace id as a UUID).
 */
function splitTrace() {
  const doc = JSON.parse(TRACE);
  const [resource] = doc.resourceSpans;
  const [scope] = resource.scopeSpans;
  const traceId = randomBytes(16).toString("hex");
  const conversation = `conversation-${traceId.slice(0, 8)}`;
  const attr = (a) => (a.key === "gen_ai.conversation.id" ? { ...a, value: { stringValue: conversation } } : a);
  const spans = scope.spans.map((s) => ({ ...s, traceId, attributes: (s.attributes ?? []).map(attr) }));
  const root = spans.filter((s) => !s.parentSpanId);
  const children = spans.filter((s) => s.parentSpanId);
  assert.equal(root.length, 1);
  assert.ok(children.length >= 4, "the fixture has spans to send in two halves");
  const body = (part) => JSON.stringify({ resourceSpans: [{ ...resource, scopeSpans: [{ ...scope, spans: part }] }] });
  const half = Math.floor(children.length / 2);
  const h = traceId;
  return {
    runId: `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`,
    first: body(children.slice(0, half)),
    rest: body(children.slice(half)),
    root: body(root),
  };
}

/** Something else listening on a loopback port, as another collector would. */
async function occupy() {
  const srv = createServer();
  await new Promise((res, rej) => {
    srv.once("error", rej);
    srv.listen(0, "127.0.0.1", res);
  });
  return { port: srv.address().port, close: () => new Promise((res) => srv.close(res)) };
}

describe("live capture (browser, http adapter)", { skip: plan.skip ?? false }, () => {
  let backend;
  let browser;
  let page;
  let endpoint;
  const errors = [];

  before(async () => {
    backend = await startBackend(plan);
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    page.on("pageerror", (e) => errors.push(e.message));
  });

  after(async () => {
    // never leave an endpoint behind, whatever failed
    if (endpoint) await fetch(`${backend.url}/api/capture_stop`, { method: "POST", headers: { Authorization: `Bearer ${backend.token}`, "Content-Type": "application/json" }, body: "{}" }).catch(() => {});
    await browser?.close();
    await backend?.stop();
  });

  const byId = (id) => page.getByTestId(id);
  const sel = (css) => page.locator(css);

  /** Shows the Runs tab (clicking the active tab would fold the panel). */
  async function showRuns() {
    if ((await byId("tab-runs").getAttribute("aria-selected")) !== "true") await byId("tab-runs").click();
    if ((await byId("bottom-panel").getAttribute("class")).includes("is-collapsed")) await byId("tab-runs").click();
    await byId("runs-panel").waitFor();
  }

  it("is off by default; a port something else listens on is refused with capture.listen", async () => {
    await page.goto(backend.page("open=support-triage.yaml"));
    await byId("node-triage").waitFor();
    await showRuns();
    const sw = byId("capture-switch");
    assert.equal(await sw.isChecked(), false);
    assert.equal(await byId("capture-port").inputValue(), "4318");
    assert.equal(await byId("capture-bar").count(), 0);
    const taken = await occupy();
    try {
      await byId("capture-port").fill(String(taken.port));
      await sw.click({ force: true });
      const err = sel('[data-testid="capture-error"][data-code="capture.listen"]');
      await err.waitFor({ timeout: 10000 });
      assert.match(await err.innerText(), new RegExp(`Could not start capture: cannot listen on 127\\.0\\.0\\.1:${taken.port}`));
      assert.equal(await sw.isChecked(), false);
    } finally {
      await taken.close();
    }
  });

  it("on with port 0: the endpoint and its environment line; a trace POSTed there is listed within 10 s and opens on its handoff", async () => {
    await byId("capture-port").fill("0");
    await byId("capture-switch").check({ force: true });
    await byId("capture-bar").waitFor();
    assert.equal(await byId("capture-error").count(), 0);
    endpoint = await byId("capture-endpoint").innerText();
    assert.match(endpoint, /^http:\/\/127\.0\.0\.1:\d+\/v1\/traces$/);
    assert.notEqual(endpoint, "http://127.0.0.1:4318/v1/traces");
    assert.equal(await byId("capture-hint").innerText(), `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=${endpoint}`);
    assert.equal(await byId("capture-badge").innerText(), "0 runs · 0 transfers · 0 spans waiting");
    await byId("captured-empty").waitFor();

    // the running system: its exporter POSTs the trace (OTLP/HTTP JSON)
    const res = await fetch(endpoint, { method: "POST", headers: { "Content-Type": "application/json" }, body: TRACE });
    assert.equal(res.status, 200, await res.text());

    const row = sel('[data-testid="captured-list"] [data-testid="run-row"]');
    await row.first().waitFor({ timeout: 10000 });
    assert.equal(await row.count(), 1);
    assert.equal(await row.getByTestId("run-topology").innerText(), "invoke_workflow support");
    assert.equal(await row.getByTestId("run-imported").innerText(), "otlp");
    await sel('[data-testid="capture-badge"][data-runs="1"][data-waiting="0"]').waitFor({ timeout: 5000 });
    assert.match(await byId("capture-badge").innerText(), /^1 run · 1 transfer · 0 spans waiting$/);
    if (process.env.BATON_E2E_SHOTS) {
      mkdirSync(process.env.BATON_E2E_SHOTS, { recursive: true });
      await page.mouse.move(5, 5);
      await page.screenshot({ path: join(process.env.BATON_E2E_SHOTS, "capture.png") });
    }

    await row.getByTestId("run-open").click();
    await sel('[data-testid="app"][data-mode="debug"]').waitFor();
    await byId("transport").waitFor();
    assert.equal(await byId("run-source").getAttribute("data-format"), "otlp");
    await byId("next-transfer").click();
    const diff = sel('[data-testid="transfer-diff"]');
    await diff.waitFor();
    assert.equal(await diff.getAttribute("data-from"), "triage");
    assert.equal(await diff.getAttribute("data-to"), "billing");
    assert.equal(await diff.getAttribute("data-kind"), "handoff");
  });

  it("a trace still arriving opens as a running run the debugger follows: steps grow without a reload, then it shows completed", async () => {
    const post = async (body) => {
      const res = await fetch(endpoint, { method: "POST", headers: { "Content-Type": "application/json" }, body });
      assert.equal(res.status, 200, await res.text());
    };
    const trace = splitTrace();
    await page.keyboard.press("Escape");
    await sel('[data-testid="app"][data-mode="design"]').waitFor();
    await showRuns();

    // the first half of its spans: shown as a running run (about a second later)
    await post(trace.first);
    const row = sel(`[data-testid="captured-list"] [data-testid="run-row"][data-run="${trace.runId}"]`);
    await row.waitFor({ timeout: 10000 });
    assert.equal(await row.getAttribute("data-status"), "running");
    assert.match(await row.innerText(), /capturing: spans of this trace are still arriving/);

    // opened while running: followed (polled), from the steps so far
    await page.evaluate(() => (window.__sameDocument = true));
    await row.getByTestId("run-open").click();
    await sel(`[data-testid="debugger"][data-run="${trace.runId}"]`).waitFor();
    const progress = sel('[data-testid="run-progress"][data-state="running"][data-source="poll"]');
    await progress.waitFor();
    assert.equal(await byId("outcome").getAttribute("data-status"), "running");
    const count = async () => Number(await byId("timeline").getAttribute("data-count"));
    const before = await count();
    assert.ok(before > 0, "the steps so far are shown");
    // the newest step: following it
    if (await byId("step-last").isEnabled()) await byId("step-last").click();
    assert.equal(await byId("follow-toggle").getAttribute("aria-checked"), "true");

    // the rest of the children: the same run grows in place
    await post(trace.rest);
    await page.waitForFunction((n) => Number(document.querySelector('[data-testid="timeline"]')?.getAttribute("data-count")) > n, before, { timeout: 10000 });
    const after = await count();
    assert.ok(after > before, `${after} steps after the second half, ${before} before`);
    assert.equal(await page.evaluate(() => window.__sameDocument), true, "not reloaded");
    assert.equal(await byId("step-input").inputValue(), String(after - 1), "following the newest step");
    await sel(`[data-testid="step-detail"][data-step="${after - 1}"]`).waitFor();
    assert.equal(await progress.count(), 1);
    if (process.env.BATON_E2E_SHOTS) {
      await page.mouse.move(5, 5);
      await page.screenshot({ path: join(process.env.BATON_E2E_SHOTS, "follow.png") });
    }

    // the root, then the quiet period: saved complete, the same run; no longer asked
    await post(trace.root);
    const ended = sel('[data-testid="run-progress"][data-state="ended"]');
    await ended.waitFor({ timeout: 15000 });
    assert.equal(await byId("progress-outcome").getAttribute("data-status"), "completed");
    assert.equal(await byId("outcome").getAttribute("data-status"), "completed");
    assert.equal(await byId("debugger").getAttribute("data-run"), trace.runId);
    assert.equal(await byId("follow-toggle").count(), 0);
    assert.ok((await count()) >= after);
    assert.equal(await page.evaluate(() => window.__sameDocument), true, "not reloaded");
    if (process.env.BATON_E2E_SHOTS) {
      await page.screenshot({ path: join(process.env.BATON_E2E_SHOTS, "follow-ended.png") });
    }
  });

  it("the Runs home shows a captured run still arriving with a live badge, and its end without a refresh", async () => {
    const post = async (body) => {
      const res = await fetch(endpoint, { method: "POST", headers: { "Content-Type": "application/json" }, body });
      assert.equal(res.status, 200, await res.text());
    };
    const trace = splitTrace();
    if ((await byId("app").getAttribute("data-mode")) !== "design") await page.keyboard.press("Escape");
    await sel('[data-testid="app"][data-mode="design"]').waitFor();
    await post(trace.first);
    await byId("runs-home-toggle").click();
    await byId("runs-home").waitFor();
    const row = sel(`[data-testid="runs-home-row"][data-run="${trace.runId}"]`);
    await row.waitFor({ timeout: 15000 });
    assert.equal(await row.getAttribute("data-status"), "running");
    const live = row.getByTestId("run-live-badge");
    assert.equal((await live.innerText()).trim().toLowerCase(), "live");
    if (process.env.BATON_E2E_SHOTS) await page.screenshot({ path: join(process.env.BATON_E2E_SHOTS, "runs-home-live.png") });
    // the rest and the root: the row ends by itself (the list is asked again while a run runs)
    await post(trace.rest);
    await post(trace.root);
    await sel(`[data-testid="runs-home-row"][data-run="${trace.runId}"][data-status="completed"]`).waitFor({ timeout: 20000 });
    assert.equal(await row.getByTestId("run-live-badge").count(), 0);
    await byId("runs-home-close").click();
    await byId("runs-home").waitFor({ state: "detached" });
  });

  it("is still on back in the editor (the backend's state); off closes the endpoint", async () => {
    await page.keyboard.press("Escape");
    await sel('[data-testid="app"][data-mode="design"]').waitFor();
    await showRuns();
    assert.equal(await byId("capture-switch").isChecked(), true);
    assert.equal(await byId("capture-endpoint").innerText(), endpoint);
    await byId("capture-switch").uncheck({ force: true });
    await byId("capture-bar").waitFor({ state: "detached" });
    await byId("captured-list").waitFor({ state: "detached" });
    assert.equal(await byId("capture-switch").isChecked(), false);
    await assert.rejects(fetch(endpoint, { method: "POST", headers: { "Content-Type": "application/json" }, body: TRACE }));
    endpoint = null;
    assert.deepEqual(errors, []);
  });
});

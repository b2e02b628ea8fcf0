// Browser tests of Settings (model providers) and File → Open trace against `baton serve`, and of
// the app under a frozen Object.prototype (the desktop window's `freezePrototype`).
// The backend gets OPENAI_API_KEY=sk-test with OPENAI_BASE_URL on a closed loopback port, no
// other keys, and BATON_NO_KEYRING=1: nothing reads or writes the real OS keyring (storing keys is
// tested with the mock platform, in Vitest).
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { backendPlan, freePort, launchBrowser, REPO, startBackend } from "./harness.mjs";

const plan = backendPlan();
if (plan.skip && process.env.BATON_E2E_REQUIRE === "1") throw new Error(plan.skip);

const FIXTURES = join(REPO, "tests/import/fixtures");

describe("settings and open trace (browser, http adapter)", { skip: plan.skip ?? false }, () => {
  let backend;
  let browser;
  let page;
  let closedPort;
  const errors = [];

  before(async () => {
    closedPort = await freePort(); // free, so nothing answers there
    backend = await startBackend(plan, {
      setup: (root) => {
        copyFileSync(join(FIXTURES, "otlp_genai.json"), join(root, "otlp_genai.json"));
        mkdirSync(join(root, "traces"));
        copyFileSync(join(FIXTURES, "openai_agents_handoff.jsonl"), join(root, "traces", "agents.jsonl"));
        writeFileSync(join(root, "traces", "empty.json"), "[]\n");
      },
      env: {
        OPENAI_API_KEY: "sk-test",
        OPENAI_BASE_URL: `http://127.0.0.1:${closedPort}/v1`,
        ANTHROPIC_API_KEY: "",
        GEMINI_API_KEY: "",
        GOOGLE_API_KEY: "",
        OPENAI_COMPATIBLE_API_KEY: "",
        OPENAI_COMPATIBLE_BASE_URL: "",
        BATON_NO_KEYRING: "1",
      },
    });
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
  const row = (provider) => sel(`[data-testid="provider-row"][data-provider="${provider}"]`);

  it("Settings lists the providers: OpenAI configured via $OPENAI_API_KEY but not reachable", async () => {
    await page.goto(backend.page());
    await byId("welcome").waitFor();
    await byId("settings-open").click();
    await byId("settings-dialog").waitFor();
    await row("openai").waitFor({ timeout: 20000 });
    assert.equal(await sel('[data-testid="provider-row"]').count(), 5);
    assert.equal(await row("openai").getAttribute("data-configured"), "true");
    assert.match(await row("openai").getByTestId("provider-key-source").innerText(), /Configured[\s\S]*via \$OPENAI_API_KEY/);
    assert.equal(await row("openai").getAttribute("data-reachable"), "false");
    assert.match(await row("openai").getByTestId("provider-reachable").innerText(), /Not reachable/);
    assert.match(await row("openai").getByTestId("provider-detail").innerText(), /unreachable/);
    assert.match(await row("openai").innerText(), new RegExp(`127\\.0\\.0\\.1:${closedPort}`));
    // the Responses API shares the key
    assert.equal(await row("openai-responses").getAttribute("data-configured"), "true");
    for (const p of ["anthropic", "gemini"]) {
      assert.equal(await row(p).getAttribute("data-configured"), "false", p);
      assert.match(await row(p).getByTestId("provider-detail").innerText(), /not configured/);
    }
    assert.equal(await row("openai-compatible").getAttribute("data-configured"), "false");
    // a key field per provider, a password field, and the key itself never on the page
    assert.equal(await sel('[data-testid="provider-key-input"]').count(), 5);
    assert.equal(await row("anthropic").getByTestId("provider-key-input").getAttribute("type"), "password");
    assert.equal(await row("anthropic").getByTestId("provider-key-save").isDisabled(), true);
    assert.ok(!(await page.content()).includes("sk-test"));
    await page.keyboard.press("Escape");
    await byId("settings-dialog").waitFor({ state: "detached" });
  });

  it("the Run panel's real-provider switch names the agents without a key", async () => {
    await page.goto(backend.page("open=support-triage.yaml"));
    await sel('[data-testid^="node-"]').first().waitFor();
    await byId("tab-run").click();
    const live = byId("run-live");
    assert.equal(await live.isChecked(), false);
    await live.check({ force: true });
    assert.equal(await live.isChecked(), true);
    // triage is on OpenAI (a key in the environment); billing on Anthropic and technical on Gemini (none)
    await byId("run-live-missing").waitFor({ timeout: 20000 });
    const note = await byId("run-live-missing").innerText();
    assert.match(note, /Billing \(anthropic\)/);
    assert.match(note, /Technical Support \(gemini\)/);
    assert.doesNotMatch(note, /Triage/);
    assert.equal(await sel('[data-testid="provider-agent"][data-agent="triage"]').getAttribute("data-uses"), "openai");
    assert.equal(await byId("latency-select").isDisabled(), true);
    await live.uncheck({ force: true });
  });

  it("File → Open trace imports OTLP GenAI spans and opens the run: Triage hands off to Billing", async () => {
    await page.goto(backend.page());
    await byId("welcome").waitFor();
    await byId("menu-open-trace").click();
    await byId("trace-dialog").waitFor();
    // JSON files are listed (JSON Lines are not: type their path)
    await sel('[data-testid="trace-file"][data-path="otlp_genai.json"]').click();
    assert.equal(await byId("trace-path-input").inputValue(), "otlp_genai.json");
    await byId("trace-import").click();
    await sel('[data-testid="app"][data-mode="debug"]').waitFor();
    await byId("transport").waitFor();
    await byId("trace-dialog").waitFor({ state: "detached" });
    assert.match(await byId("doc-title").innerText(), /invoke_workflow support/);
    // the importer's notes, next to the run
    assert.equal(await byId("run-source").getAttribute("data-format"), "otlp");
    assert.match(await byId("import-notes").innerText(), /provider: openai/);
    // the transfer
    await byId("next-transfer").click();
    const diff = sel('[data-testid="transfer-diff"]');
    await diff.waitFor();
    assert.equal(await diff.getAttribute("data-from"), "triage");
    assert.equal(await diff.getAttribute("data-to"), "billing");
    assert.equal(await diff.getAttribute("data-kind"), "handoff");
    assert.match(await byId("step-card").innerText(), /Billing/);
    assert.match(await byId("step-card").innerText(), /Triage|Billing/);
  });

  it("the imported run is in the Runs list of its (rebuilt) topology", async () => {
    await byId("run-edit-topology").click();
    await sel('[data-testid="app"][data-mode="design"]').waitFor();
    await byId("node-triage").waitFor();
    await byId("node-billing").waitFor();
    await sel('[data-testid="run-row"]').first().waitFor();
    assert.equal(await sel('[data-testid="run-row"]').count(), 1);
    assert.equal(await sel('[data-testid="run-row"] [data-testid="run-imported"]').innerText(), "otlp");
    // a new, unsaved document
    await byId("dirty-marker").waitFor();
  });

  it("Ctrl+Shift+O, a typed JSON Lines path (OpenAI Agents SDK) imports too", async () => {
    await page.keyboard.press("Control+Shift+O");
    await byId("trace-dialog").waitFor();
    await byId("trace-path-input").fill("traces/agents.jsonl");
    await byId("trace-path-input").press("Enter");
    await sel('[data-testid="app"][data-mode="debug"]').waitFor();
    await byId("transport").waitFor();
    assert.equal(await byId("run-source").getAttribute("data-format"), "openai-agents");
    await page.keyboard.press("Escape");
    await sel('[data-testid="app"][data-mode="design"]').waitFor();
  });

  it("an import that fails keeps the dialog open with the importer's message", async () => {
    await byId("menu-open-trace").click();
    await byId("trace-dialog").waitFor();
    await sel('[data-testid="trace-file"][data-path="traces/empty.json"]').click();
    await byId("trace-import").click();
    const err = byId("trace-error");
    await err.waitFor();
    assert.equal(await err.getAttribute("data-code"), "import.unknown_format");
    assert.match(await err.innerText(), /cannot tell which format/);
    // a YAML topology is not a trace: refused from its first bytes, which the message quotes
    await byId("trace-path-input").fill("ticket-reopen.yaml");
    await byId("trace-import").click();
    await sel('[data-testid="trace-error"][data-code="import.unknown_format"]').waitFor();
    assert.match(await byId("trace-error").innerText(), /does not start with JSON: `# The anti-pattern/);
    assert.equal(await sel('[data-testid="app"]').getAttribute("data-mode"), "design");
    await page.keyboard.press("Escape");
    assert.deepEqual(errors, []);
  });

  it("works with Object.prototype frozen, as in the desktop window (freezePrototype)", async () => {
    const frozen = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const frozenErrors = [];
    frozen.on("pageerror", (e) => frozenErrors.push(e.message));
    await frozen.addInitScript(() => Object.freeze(Object.prototype));
    await frozen.goto(backend.page("open=ticket-reopen.yaml"));
    await frozen.getByTestId("node-triage").waitFor();
    await frozen.getByTestId("tab-run").click();
    await frozen.getByTestId("run-start").click();
    await frozen.locator('[data-testid="run-status"][data-status="finished"]').waitFor({ timeout: 30000 });
    await frozen.getByTestId("run-debug").click();
    await frozen.getByTestId("next-transfer").click();
    await frozen.locator('[data-testid="transfer-diff"][data-from="triage"]').waitFor();
    await frozen.getByTestId("settings-open").click();
    await frozen.locator('[data-testid="provider-row"]').first().waitFor({ timeout: 20000 });
    await frozen.close();
    assert.deepEqual(frozenErrors, []);
  });
});

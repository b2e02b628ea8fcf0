// Browser tests of File → Import from code against `baton serve`: the served folder's agent code
// is read by the real introspection in the test venv's Python (openai-agents, google-adk), and its
// agents land on the canvas with typed edges; bad modules keep the dialog open with their error.
import assert from "node:assert/strict";
import { chmodSync, copyFileSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { REPO, backendPlan, launchBrowser, startBackend } from "./harness.mjs";

const plan = backendPlan();
const python = process.env.BATON_PYTHON ?? join(REPO, "target/pyenv/bin/python");
const skip = plan.skip ?? (existsSync(python) ? null : `no Python with the frameworks at ${python} (run scripts/pyenv.sh)`);
if (skip && process.env.BATON_E2E_REQUIRE === "1") throw new Error(skip);

describe("import from code (browser, http adapter)", { skip: skip ?? false }, () => {
  let backend;
  let browser;
  let page;
  const errors = [];

  before(async () => {
    backend = await startBackend(plan, {
      env: { BATON_PYTHON: python },
      setup(root) {
        mkdirSync(join(root, "broken"));
        writeFileSync(join(root, "broken", "syntax.py"), "from agents import Agent\nroot_agent = Agent(name='a'\n");
        writeFileSync(join(root, "broken", "missing_dep.py"), "import baton_no_such_package\n");
        // a project with its own virtual environment (a launcher for the test venv)
        mkdirSync(join(root, "picked", ".venv", "bin"), { recursive: true });
        copyFileSync(join(root, "code", "ticket_agents.py"), join(root, "picked", "app.py"));
        writeFileSync(join(root, "picked", ".venv", "bin", "python"), `#!/bin/sh\nexec '${python}' "$@"\n`);
        chmodSync(join(root, "picked", ".venv", "bin", "python"), 0o755);
      },
    });
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    page.on("pageerror", (e) => errors.push(e.message));
  });

  after(async () => {
    await browser?.close();
    await backend?.stop();
  });

  const byId = (id) => page.getByTestId(id);
  const label = (id) => byId(`edge-label-${id}`).innerText();

  async function openDialog() {
    await byId("menu-import-code").click();
    await byId("code-dialog").waitFor();
  }

  it("lists the served folder's modules, and not in the Open dialog", async () => {
    await page.goto(backend.page());
    await openDialog();
    await page.locator('[data-testid="code-file"][data-path="code/ticket_agents.py"]').waitFor();
    // an ADK agent folder is listed once, as its folder (not as its __init__.py and agent.py)
    assert.equal(await page.locator('[data-testid="code-file"][data-path="code/ticket_adk"]').count(), 1);
    assert.equal(await page.locator('[data-testid="code-file"][data-path="code/ticket_adk/agent.py"]').count(), 0);
    await page.keyboard.press("Escape");
    await byId("menu-open").click();
    await byId("open-dialog").waitFor();
    await page.locator('[data-testid="open-file"][data-path="ticket-reopen.yaml"]').waitFor();
    assert.equal(await page.locator('[data-testid="open-file"][data-path$=".py"]').count(), 0);
    await page.keyboard.press("Escape");
  });

  it("a module with a syntax error keeps the dialog, the typed path and the error", async () => {
    await openDialog();
    await byId("code-path-input").fill("broken/syntax.py");
    await byId("code-import").click();
    const err = byId("code-error");
    await err.waitFor();
    assert.equal(await err.getAttribute("data-code"), "code.module");
    assert.match(await err.innerText(), /syntax\.py/);
    assert.equal(await byId("code-path-input").inputValue(), "broken/syntax.py");
    // A missing dependency names the module that could not be imported.
    await byId("code-path-input").fill("broken/missing_dep.py");
    await byId("code-import").click();
    await page.waitForFunction(() => document.querySelector('[data-testid="code-error"]')?.textContent?.includes("baton_no_such_package"));
    assert.equal(await page.locator('[data-testid^="node-"]').count(), 0, "nothing was opened");
  });

  it("imports the Agents SDK app: its agents and typed edges on the canvas, unsaved", async () => {
    await page.locator('[data-testid="code-file"][data-path="code/ticket_agents.py"]').click();
    await byId("code-import").click();
    await byId("node-triage").waitFor();
    assert.equal(await byId("code-dialog").count(), 0, "the dialog closed");
    for (const a of ["triage", "resolution", "verification"]) await byId(`node-${a}`).waitFor();
    assert.equal(await byId("node-triage").getAttribute("data-entry"), "true");
    // ticket_agents.py: triage.handoffs=[resolution]; resolution.handoffs=[handoff(verification,
    // input_type=ResolvedTicket)], and with no input_filter the SDK passes the whole history.
    assert.match(await label("triage->resolution"), /handoff · full/);
    assert.match(await label("resolution->verification"), /handoff · full/);
    assert.equal(await byId("edge-label-verification->triage").count(), 0);
    assert.match(await byId("doc-title").innerText(), /Untitled/);
  });

  it("offers the interpreters found for the module: python3 without the SDK says so, the project's venv reads it", async () => {
    await openDialog();
    await byId("code-path-input").fill("picked/app.py");
    const select = byId("code-python");
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="code-python"] option').length >= 3);
    const options = await select.locator("option").evaluateAll((els) => els.map((o) => [o.value, o.textContent]));
    assert.match(options[0][0], /picked\/\.venv\/bin\/python$/);
    assert.match(options[0][1], /a virtual environment beside the module$/);
    assert.ok(options.some(([, t]) => /\$BATON_PYTHON$/.test(t)), JSON.stringify(options));
    assert.deepEqual(options[options.length - 1], ["python3", "python3 — python3 on PATH"]);
    assert.equal(await select.inputValue(), options[0][0], "the project's venv is the default");
    // the system python3 lacks the Agents SDK: the error names the package and the picker
    await select.selectOption("python3");
    await byId("code-import").click();
    const err = byId("code-error");
    await err.waitFor();
    assert.match(await err.innerText(), /pip install openai-agents/);
    assert.match(await err.innerText(), /Python field/);
    assert.equal(await select.inputValue(), "python3", "the choice stays");
    // the venv reads it
    await select.selectOption(options[0][0]);
    await byId("code-import").click();
    await page.waitForFunction(() => !document.querySelector('[data-testid="code-dialog"]'));
    await byId("node-triage").waitFor();
    // remembered for this module
    await openDialog();
    await byId("code-path-input").fill("picked/app.py");
    await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="code-python"] option')].some((o) => o.textContent.endsWith("(used last)")));
    assert.equal(await byId("code-python").inputValue(), options[0][0]);
    await page.keyboard.press("Escape");
  });

  it("imports the ADK agent folder by its path", async () => {
    await openDialog();
    await byId("code-path-input").fill("code/ticket_adk");
    await byId("code-framework").selectOption("adk");
    await byId("code-import").click();
    await page.waitForFunction(() => !document.querySelector('[data-testid="code-dialog"]'));
    // agent.py: triage.sub_agents=[resolution], resolution.sub_agents=[verification], both children
    // with disallow_transfer_to_parent=True: transfers go down the tree only.
    assert.match(await label("triage->resolution"), /handoff/);
    assert.match(await label("resolution->verification"), /handoff/);
    assert.equal(await byId("edge-label-resolution->triage").count(), 0);
    assert.equal(await byId("edge-label-verification->resolution").count(), 0);
    assert.deepEqual(errors, []);
  });
});

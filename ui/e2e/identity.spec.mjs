// Browser test of a topology's identity against `baton serve`: a run of ticket-reopen.yaml stays
// in its Runs tab after the topology is renamed (before and after saving), and saving writes the
// identity into the file. BATON_E2E_SHOTS=DIR writes a screenshot.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { backendPlan, browserSuite } from "./harness.mjs";

const plan = backendPlan();
if (plan.skip && process.env.BATON_E2E_REQUIRE === "1") throw new Error(plan.skip);
const SHOTS = process.env.BATON_E2E_SHOTS;

describe("a topology's runs across a rename (browser, http adapter)", { skip: plan.skip ?? false }, () => {
  const ctx = browserSuite(before, after);
  const byId = (id) => ctx.byId(id);
  const sel = (css) => ctx.sel(css);

  it("keeps the run listed after a rename, and writes the identity when saved", async () => {
    const { page, backend, showTab } = ctx;
    await page.goto(backend.page("open=ticket-reopen.yaml"));
    await byId("node-triage").waitFor();
    await showTab("run");
    await byId("run-start").click();
    await sel('[data-testid="run-status"][data-status="finished"]').waitFor({ timeout: 30_000 });
    const runId = await sel('[data-testid="run-status"]').getAttribute("data-run");
    // rename, unsaved: the run is still this topology's
    await page.locator('[data-testid="topology-name"] input, input[data-testid="topology-name"]').first().fill("ticket-reopen-edited");
    await showTab("runs");
    await sel(`[data-testid="run-row"][data-run="${runId}"]`).waitFor();
    assert.match(await byId("runs-count").innerText(), /1/);
    if (SHOTS) await page.screenshot({ path: join(SHOTS, "identity-renamed.png") });
    // saved: the file holds the identity the run was listed by
    await page.keyboard.press("Control+s");
    await sel('[data-testid="topbar-dirty"], .dirty-dot').first().waitFor({ state: "detached", timeout: 10_000 }).catch(() => {});
    await page.waitForTimeout(500);
    const text = readFileSync(join(backend.root, "ticket-reopen.yaml"), "utf8");
    assert.match(text, /^id: [0-9a-f-]{36}$/m);
    assert.match(text, /^name: ticket-reopen-edited$/m);
    // opened again, still its runs
    await page.goto(backend.page("open=ticket-reopen.yaml"));
    await byId("node-triage").waitFor();
    await showTab("runs");
    await sel(`[data-testid="run-row"][data-run="${runId}"]`).waitFor();
  });
});

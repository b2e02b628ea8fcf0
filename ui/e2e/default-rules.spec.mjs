// Browser test of a new user's first mock run against `baton serve`: a topology with a handoff
// and a delegation but no mock rules. The Run tab says which agents have none and offers default
// rules; after one click the run completes through both transfers (the real engine behind
// `baton serve` runs it), and the Runs tab lists it with its short id.
// BATON_E2E_SHOTS=DIR writes a screenshot of each stage there.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { backendPlan, browserSuite } from "./harness.mjs";

const plan = backendPlan();
if (plan.skip && process.env.BATON_E2E_REQUIRE === "1") throw new Error(plan.skip);
const SHOTS = process.env.BATON_E2E_SHOTS;

const BARE = `version: 1
name: bare
entry: triage
agents:
  - { id: triage, name: Triage }
  - { id: billing, name: Billing }
  - { id: research, name: Research }
edges:
  - { kind: handoff, from: triage, to: billing }
  - { kind: delegation, from: billing, to: research }
scenarios:
  - name: first
    input: Refund order 4412, please.
`;

describe("default mock rules for a topology without scripts (browser, http adapter)", { skip: plan.skip ?? false }, () => {
  const ctx = browserSuite(before, after, { setup: (root) => writeFileSync(join(root, "bare.yaml"), BARE) });
  const byId = (id) => ctx.byId(id);
  const shot = async (name) => {
    if (!SHOTS) return;
    await ctx.page.waitForTimeout(300);
    await ctx.page.screenshot({ path: join(SHOTS, `default-rules-${name}.png`) });
  };

  it("names the agents without rules, adds defaults in one click, and the run completes", async () => {
    const { page, backend, showTab } = ctx;
    await page.goto(backend.page("open=bare.yaml"));
    await byId("node-triage").waitFor();
    await showTab("run");
    const banner = byId("run-unscripted");
    await banner.waitFor();
    assert.match(await banner.textContent(), /3 agents have no mock rules in “first” \(Triage, Billing, Research\)/);
    // An agent without a model answers from the mock rules (it is not a person).
    assert.equal(await page.locator('[data-testid="provider-agent"][data-agent="triage"]').getAttribute("data-uses"), "mock");
    await shot("offer");
    await byId("run-default-rules").click();
    await banner.waitFor({ state: "detached" });
    await byId("run-start").click();
    await page.locator(`[data-testid="run-status"][data-status="finished"]`).waitFor({ timeout: 30_000 });
    assert.equal(await page.locator('[data-testid="run-status"] [data-testid="outcome"]').getAttribute("data-status"), "completed");
    assert.match(await byId("run-status").textContent(), /Billing gave the final answer/);
    await shot("completed");
  });
});

// Browser test of a topology's identity against `baton serve`: a run of ticket-reopen.yaml stays
// in its Runs tab after the topology is renamed (before and after saving), and saving writes the
// identity into the file; each row of the Runs tab says what sets its run apart from the one saved
// before it. BATON_E2E_SHOTS=DIR writes screenshots.
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

  it("tells runs apart: each row says what differs from the run saved before it", async () => {
    const { page, showTab } = ctx;
    const runOnce = async () => {
      await showTab("run");
      await byId("run-start").click();
      await sel('[data-testid="run-status"][data-status="finished"]').waitFor({ timeout: 30_000 });
      return sel('[data-testid="run-status"]').getAttribute("data-run");
    };
    const rowOf = (id) => sel(`[data-testid="run-row"][data-run="${id}"]`);
    // after the rename: the row names the topology's new name against the old
    const renamed = await runOnce();
    await showTab("runs");
    const tag = rowOf(renamed).getByTestId("run-differs");
    await tag.waitFor();
    assert.equal(await tag.innerText(), "topology ticket-reopen-edited (was ticket-reopen)");
    // the same topology and scenario again: nothing a list shows differs
    const again = await runOnce();
    await showTab("runs");
    const same = rowOf(again).getByTestId("run-differs");
    await same.waitFor();
    assert.equal(await same.getAttribute("data-same"), "true");
    assert.match(await same.innerText(), /^same as [0-9a-f]{8}$/);
    // at most one handoff: the run stops at Resolution's, and the row says so
    // the empty canvas: nothing selected, the inspector shows the topology
    const box = await byId("canvas").boundingBox();
    await page.mouse.click(box.x + box.width - 60, box.y + 70);
    await byId("guard-max-handoffs").fill("1");
    await byId("guard-max-handoffs").press("Tab");
    const stopped = await runOnce();
    await showTab("runs");
    const differs = rowOf(stopped).getByTestId("run-differs");
    await differs.waitFor();
    assert.equal(await differs.getAttribute("data-same"), "false");
    const title = await differs.getAttribute("title");
    assert.match(title, new RegExp(`^Differs from run ${again.replace(/-/g, "").slice(-8)}, saved before it:\n`));
    assert.match(title, /\nstopped \(was completed\)/);
    for (const [width, height] of [
      [1280, 720],
      [1440, 900],
    ]) {
      await page.setViewportSize({ width, height });
      await page.waitForTimeout(200);
      // whole in its cell: not clipped by the column (a clipped tag would still have a box)
      const fits = await differs.evaluate((el) => {
        const cell = el.closest("td").getBoundingClientRect();
        const tag = el.getBoundingClientRect();
        return tag.width >= 40 && tag.left >= cell.left - 1 && tag.right <= cell.right + 1 && tag.bottom <= cell.bottom + 1;
      });
      assert.ok(fits, `the tag is whole in its cell at ${width}x${height}`);
      if (SHOTS) await page.screenshot({ path: join(SHOTS, `identity-differs-${width}x${height}.png`) });
    }
  });
});

// Browser test of room on the canvas against `baton serve`, at 1280x720 and 1440x900: on every
// example, no edge label between two agents covers either agent (its text gives way, with the
// whole label in its tooltip, and its chips stay).
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { backendPlan, browserSuite } from "./harness.mjs";

const plan = backendPlan();
if (plan.skip && process.env.BATON_E2E_REQUIRE === "1") throw new Error(plan.skip);

for (const [width, height] of [
  [1280, 720],
  [1440, 900],
]) {
  describe(`edge labels leave their agents uncovered at ${width}x${height} (browser)`, { skip: plan.skip ?? false }, () => {
    const ctx = browserSuite(before, after, { width, height, pageErrors: false });

    for (const [file] of [
      ["ticket-reopen.yaml"],
      ["support-triage.yaml"],
      ["ticket-supervisor.yaml"],
      ["handoff-loop.yaml"],
    ]) {
      it(file, async () => {
        const { page, backend } = ctx;
        await page.goto(backend.page(`open=${file}`));
        await page.locator('[data-testid^="node-"]').first().waitFor();
        await page.waitForTimeout(400);
        const covered = await page.evaluate(() => {
          const out = [];
          const nodes = [...document.querySelectorAll('.react-flow__node [data-testid^="node-"]')].map((n) => ({ id: n.dataset.testid, r: n.getBoundingClientRect() }));
          for (const l of document.querySelectorAll('[data-testid^="edge-label-"]')) {
            const r = l.getBoundingClientRect();
            for (const n of nodes) {
              const overlapX = Math.min(r.right, n.r.right) - Math.max(r.left, n.r.left);
              const overlapY = Math.min(r.bottom, n.r.bottom) - Math.max(r.top, n.r.top);
              if (overlapX > 1 && overlapY > 1) out.push(`${l.dataset.testid} covers ${n.id} by ${Math.round(overlapX)}x${Math.round(overlapY)} px`);
            }
          }
          return out;
        });
        assert.deepEqual(covered, [], `${file}: ${covered.join("; ")}`);
      });
    }
  });
}

// An automated accessibility check of every main screen with axe-core (Deque's engine, the WCAG
// 2.x AA rules) in Chromium against `baton serve`: the designer, the Run tab, the debugger on a
// transfer, the Runs home, Settings and Import from code, at 1280x720. No
// serious or critical violation may remain. BATON_E2E_SHOTS=DIR writes a screenshot of each.
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { backendPlan, browserSuite } from "./harness.mjs";

const plan = backendPlan();
if (plan.skip && process.env.BATON_E2E_REQUIRE === "1") throw new Error(plan.skip);
const SHOTS = process.env.BATON_E2E_SHOTS;
const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

// Only the light theme exists so far (no dark theme yet: issue #31 item 10 left that open).
for (const scheme of ["light"]) {
  describe(`accessibility of every screen, ${scheme} (browser, axe-core)`, { skip: plan.skip ?? false }, () => {
    const ctx = browserSuite(before, after, { colorScheme: scheme, pageErrors: false });
    const { byId, sel, showTab } = ctx;

    /** The serious and critical violations on the page now, one line each. */
    async function check(screen) {
      const { page } = ctx;
      if (SHOTS) await page.screenshot({ path: join(SHOTS, `a11y-${scheme}-${screen}.png`) });
      await page.addScriptTag({ path: AXE });
      const found = await page.evaluate(async () => {
        const r = await window.axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] } });
        return r.violations
          .filter((v) => v.impact === "serious" || v.impact === "critical")
          .map((v) => {
            const at = v.nodes.slice(0, 4).map((n) => {
              const d = n.any[0]?.data;
              const colours = d && d.fgColor ? ` [${d.fgColor} on ${d.bgColor}: ${d.contrastRatio}:1]` : "";
              return `${n.target.join(" ")}${colours}`;
            });
            return `${v.id} (${v.impact}): ${v.nodes.length} × ${at.join(" | ")}`;
          });
      });
      assert.deepEqual(found, [], `${screen}: ${found.join("\n")}`);
    }


    it("the designer, the Run tab, the debugger, the Runs home and the dialogs", async () => {
      const { page, backend } = ctx;
      await page.goto(backend.page("open=ticket-reopen.yaml"));
      await byId("node-triage").waitFor();
      await check("designer");
      await showTab("run");
      await byId("run-start").click();
      await sel('[data-testid="run-status"][data-status="finished"]').waitFor({ timeout: 30_000 });
      await check("run-tab");
      await byId("run-debug").click();
      await sel('[data-testid="app"][data-mode="debug"]').waitFor();
      await byId("next-transfer").click();
      await sel('[data-testid="transfer-diff"]').waitFor();
      await check("debugger");
      await byId("runs-home-toggle").click();
      await byId("runs-home").waitFor();
      await check("runs-home");
      await page.keyboard.press("Escape");
      await byId("settings-open").click();
      await sel('[role="dialog"]').waitFor();
      await check("settings");
      await page.keyboard.press("Escape");
      await page.keyboard.press("Control+Shift+O");
      await sel('[role="dialog"]').waitFor();
      await check("import-code");
    });
  });
}

// An automated accessibility check of every main screen with axe-core (Deque's engine, the WCAG
// 2.x AA rules) in Chromium against `baton serve`: the designer, the Run tab, the debugger on a
// transfer, the Runs home, Settings and Import from code, at 1280x720, once with the system in
// light mode and once in dark (the UI follows prefers-color-scheme: issue #31 item 10). No
// serious or critical violation may remain (colour contrast included). The dark pass also checks
// the Appearance setting: Light while the system is dark, kept over a reload; System follows the
// system again, live. BATON_E2E_SHOTS=DIR writes a screenshot of each screen.
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { backendPlan, browserSuite } from "./harness.mjs";

const plan = backendPlan();
if (plan.skip && process.env.BATON_E2E_REQUIRE === "1") throw new Error(plan.skip);
const SHOTS = process.env.BATON_E2E_SHOTS;
const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

/** The theme the page shows (data-theme on <html>). */
const shownTheme = (page) => page.evaluate(() => document.documentElement.dataset.theme);

for (const scheme of ["light", "dark"]) {
  describe(`accessibility of every screen, ${scheme} (browser, axe-core)`, { skip: plan.skip ?? false }, () => {
    const ctx = browserSuite(before, after, { colorScheme: scheme, pageErrors: false });
    const { byId, sel, showTab } = ctx;

    /** The serious and critical violations on the page now, one line each. */
    async function check(screen) {
      const { page } = ctx;
      // Colours are read once settled: a dialog fading in (or a theme's transition) blends its
      // text with the page behind, which axe would measure as it stood mid-way.
      await page.evaluate(() => Promise.all(document.getAnimations().filter((a) => a.effect?.getComputedTiming().iterations !== Infinity).map((a) => a.finished.catch(() => null))));
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
      // the theme follows the system's preference (the setting's default, System)
      assert.equal(await shownTheme(page), scheme);
      assert.equal(await page.evaluate(() => getComputedStyle(document.documentElement).colorScheme), scheme);
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

    if (scheme === "dark") {
      it("the Appearance setting: Light while the system is dark, kept over a reload; back on System it follows the system, live", async () => {
        const { page, backend } = ctx;
        // the designer again (not the run the last test left in the URL: opening it closes dialogs)
        await page.goto(backend.page("open=ticket-reopen.yaml"));
        await byId("node-triage").waitFor();
        assert.equal(await shownTheme(page), "dark");
        await byId("settings-open").click();
        await byId("appearance-setting").waitFor();
        assert.equal(await byId("appearance-system").getAttribute("aria-checked"), "true");
        await byId("appearance-light").click();
        assert.equal(await shownTheme(page), "light");
        assert.equal(await byId("appearance-light").getAttribute("aria-checked"), "true");
        await check("settings-light-choice");

        // kept over a reload, and set before the app renders (main.tsx reads it first)
        await page.reload();
        assert.equal(await shownTheme(page), "light");
        await byId("node-triage").waitFor(); // (opening the topology closes any dialog)
        await byId("settings-open").click();
        await byId("appearance-setting").waitFor();
        assert.equal(await byId("appearance-light").getAttribute("aria-checked"), "true");

        // Dark holds when the system turns light
        await byId("appearance-dark").click();
        assert.equal(await shownTheme(page), "dark");
        await page.emulateMedia({ colorScheme: "light" });
        assert.equal(await shownTheme(page), "dark");

        // System follows the system's preference, and its changes
        await byId("appearance-system").click();
        assert.equal(await shownTheme(page), "light");
        await page.emulateMedia({ colorScheme: "dark" });
        await page.waitForFunction(() => document.documentElement.dataset.theme === "dark");
        assert.equal(await page.evaluate(() => localStorage.getItem("baton.theme")), "system");
        await page.keyboard.press("Escape");
      });
    }
  });
}

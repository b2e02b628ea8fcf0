// Browser tests of the Runs home, the window's trace drop and the bad-run page against `baton
// serve`, at 1280x720 and 1440x900. The store holds a run of ticket-reopen (which loses its pinned
// fact at the fields handoff), one of ticket-supervisor (which keeps it), both made by the real
// CLI, and an imported OTLP trace (tests/import/fixtures/otlp_genai.json); the dropped file is the
// Agents SDK handoff trace (openai_agents_handoff.jsonl: Triage hands off to Billing, workflow
// "baton fixture handoff"). Every primary action must lie inside the viewport, on top.
// BATON_E2E_SHOTS=DIR writes a screenshot of each stage there.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { backendPlan, launchBrowser, REPO, startBackend } from "./harness.mjs";

const plan = backendPlan();
if (plan.skip && process.env.BATON_E2E_REQUIRE === "1") throw new Error(plan.skip);

const FIXTURES = join(REPO, "tests/import/fixtures");
const HANDOFF = readFileSync(join(FIXTURES, "openai_agents_handoff.jsonl"), "utf8");
const SHOTS = process.env.BATON_E2E_SHOTS;

for (const [width, height] of [
  [1280, 720],
  [1440, 900],
]) {
  describe(`the Runs home at ${width}x${height} (browser, http adapter)`, { skip: plan.skip ?? false }, () => {
    let backend;
    let browser;
    let page;
    const errors = [];

    before(async () => {
      backend = await startBackend(plan, {
        setup: (root) => {
          const db = join(root, ".baton", "runs.db");
          for (const f of ["ticket-reopen.yaml", "ticket-supervisor.yaml"]) execFileSync(plan.bin, ["run", join(root, f), "--save", "--db", db], { stdio: "ignore" });
          execFileSync(plan.bin, ["trace", "import", join(FIXTURES, "otlp_genai.json"), "--db", db], { stdio: "ignore" });
        },
      });
      browser = await launchBrowser();
      page = await browser.newPage({ viewport: { width, height } });
      page.on("pageerror", (e) => errors.push(e.message));
    });

    after(async () => {
      await browser?.close();
      await backend?.stop();
      assert.deepEqual(errors, []);
    });

    const byId = (id) => page.getByTestId(id);
    const shot = async (name) => {
      if (SHOTS) await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`) });
    };
    const sel = (css) => page.locator(css);
    const rows = () => sel('[data-testid="runs-home-row"]');
    /** The list has settled on `n` runs (for the search `search`, once typing's pause has passed). */
    const waitTotal = (n, search = null) =>
      page.waitForFunction(
        ({ n, search }) => {
          const home = document.querySelector('[data-testid="runs-home"]');
          if (!home || home.hasAttribute("data-loading") || (search !== null && home.getAttribute("data-search") !== search)) return false;
          return document.querySelector('[data-testid="runs-home-total"]')?.getAttribute("data-total") === String(n);
        },
        { n, search },
      );
    const attrs = async (name) => (await rows().evaluateAll((els, name) => els.map((e) => e.getAttribute(name)), name)).sort();

    /**
     * The element is inside the viewport and on top at its centre (not under the inspector, not
     * clipped by a scrolling parent, not covered by anything).
     */
    async function assertOnScreen(locator, what) {
      const n = await locator.count();
      assert.ok(n > 0, `${what}: not found`);
      for (let i = 0; i < n; i++) {
        const el = locator.nth(i);
        const box = await el.boundingBox();
        assert.ok(box, `${what} #${i}: not rendered`);
        assert.ok(box.x >= 0 && box.y >= 0 && box.x + box.width <= width && box.y + box.height <= height, `${what} #${i} lies outside ${width}x${height}: ${JSON.stringify(box)}`);
        const onTop = await el.evaluate((node) => {
          const r = node.getBoundingClientRect();
          const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
          return hit !== null && (hit === node || node.contains(hit));
        });
        assert.ok(onTop, `${what} #${i} is covered or clipped at its centre: ${JSON.stringify(box)}`);
      }
    }

    async function drop(name, text) {
      await page.evaluate(
        ({ name, text }) => {
          const dt = new DataTransfer();
          dt.items.add(new File([text], name, { type: "application/json" }));
          window.dispatchEvent(new DragEvent("dragenter", { dataTransfer: dt, bubbles: true }));
          document.body.dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
        },
        { name, text },
      );
    }

    it("lists the runs of both topologies and the imported trace, with no topology open", async () => {
      await page.goto(backend.page());
      await byId("welcome").waitFor();
      await byId("runs-home-toggle").click();
      await byId("runs-home").waitFor();
      await waitTotal(3);
      assert.equal(await rows().count(), 3);
      assert.deepEqual(await attrs("data-origin"), ["imported", "native", "native"]);
      const topologies = await attrs("data-topology");
      assert.ok(topologies.includes("ticket-reopen") && topologies.includes("ticket-supervisor"), topologies.join(", "));
      // the imported run names where it came from
      const imported = sel('[data-testid="runs-home-row"][data-origin="imported"]');
      assert.equal(await imported.getByTestId("run-imported").innerText(), "otlp");
      assert.match(await imported.getByTestId("run-imported").getAttribute("title"), /otlp_genai\.json/);
      // ticket-reopen lost its pinned fact; ticket-supervisor kept it
      assert.equal(await sel('[data-testid="runs-home-row"][data-topology="ticket-reopen"]').getAttribute("data-lost"), "1");
      assert.equal(await sel('[data-testid="runs-home-row"][data-topology="ticket-supervisor"]').getAttribute("data-lost"), "0");
      await shot("runs-home");
    });

    it("keeps every primary action of the Runs home in the viewport", async () => {
      await assertOnScreen(byId("runs-home-compare"), "Compare");
      await assertOnScreen(byId("runs-home-close"), "Close");
      await assertOnScreen(byId("runs-home-search"), "the search box");
      for (const f of ["topology", "origin", "status", "lost", "since", "until"]) await assertOnScreen(byId(`runs-home-${f}`), `the ${f} filter`);
      await assertOnScreen(byId("runs-home-open"), "Open");
      await assertOnScreen(byId("runs-home-lost-cell"), "the Lost facts cell");
      await assertOnScreen(byId("runs-home-pick"), "the compare checkbox");
      await assertOnScreen(sel(".rh-header .c-lost"), "the Lost facts header");
      // the names in the header are whole, not cut off
      const cut = await sel(".rh-header [role=columnheader]").evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent));
      assert.deepEqual(cut, []);
    });

    it("narrows by origin, lost facts and search, and the total follows", async () => {
      await byId("runs-home-origin").selectOption("imported");
      await waitTotal(1);
      assert.deepEqual(await attrs("data-origin"), ["imported"]);
      await byId("runs-home-origin").selectOption("");
      await waitTotal(3);

      await byId("runs-home-lost").selectOption("yes");
      await waitTotal(1);
      assert.deepEqual(await attrs("data-topology"), ["ticket-reopen"]);
      assert.match(await byId("runs-home-total").innerText(), /1 run match/);
      await byId("runs-home-lost").selectOption("no");
      await waitTotal(2);
      assert.ok(!(await attrs("data-topology")).includes("ticket-reopen"));
      await byId("runs-home-clear").click();
      await waitTotal(3);

      await byId("runs-home-search").fill("ticket-supervisor");
      await waitTotal(1, "ticket-supervisor");
      assert.deepEqual(await attrs("data-topology"), ["ticket-supervisor"]);
      await byId("runs-home-search").fill("otlp_genai");
      await waitTotal(1, "otlp_genai");
      assert.deepEqual(await attrs("data-origin"), ["imported"]);
      await byId("runs-home-search").fill("");
      await waitTotal(3, "");
    });

    it("Open opens the run in the debugger", async () => {
      const row = sel('[data-testid="runs-home-row"][data-topology="ticket-reopen"]');
      const id = await row.getAttribute("data-run");
      await row.getByTestId("runs-home-open").click();
      await sel(`[data-testid="debugger"][data-run="${id}"]`).waitFor();
      await sel('[data-testid="timeline-step"]').first().waitFor();
      assert.equal(await byId("runs-home").count(), 0);
      assert.equal(new URL(page.url()).searchParams.get("run"), id);
      // the Runs button is there in the debugger too
      await assertOnScreen(byId("runs-home-toggle"), "Runs (debugger)");
    });

    it("a trace file dropped on the window opens in the debugger; dropped again, it can be imported again", async () => {
      const before = await page.getAttribute('[data-testid="debugger"]', "data-run");
      await drop("openai_agents_handoff.jsonl", HANDOFF);
      await page.waitForFunction((b) => {
        const d = document.querySelector('[data-testid="debugger"]');
        return d && d.getAttribute("data-run") && d.getAttribute("data-run") !== b && document.querySelector('[data-testid="timeline-step"]');
      }, before);
      const id = await page.getAttribute('[data-testid="debugger"]', "data-run");
      assert.match(await byId("doc-title").innerText(), /baton fixture handoff/);
      const timeline = await sel('[data-testid="timeline-step"]').allInnerTexts();
      assert.ok(timeline.some((t) => /Triage/.test(t)) && timeline.some((t) => /Billing/.test(t)), timeline.join(" | "));
      await shot("runs-home-dropped");

      // the same content again: refused as a duplicate, with Import again
      await drop("openai_agents_handoff.jsonl", HANDOFF);
      const err = byId("drop-error");
      await err.waitFor();
      assert.equal(await err.getAttribute("data-code"), "import.duplicate");
      assert.match(await err.innerText(), new RegExp(`already imported as run ${id}`));
      assert.doesNotMatch(await err.innerText(), /--again/);
      await assertOnScreen(byId("drop-import-again"), "Import again");
      await shot("runs-home-duplicate");
      await byId("drop-import-again").click();
      await page.waitForFunction((b) => {
        const d = document.querySelector('[data-testid="debugger"]');
        return d && d.getAttribute("data-run") && d.getAttribute("data-run") !== b;
      }, id);
      await byId("drop-overlay").waitFor({ state: "detached" });

      // both imports are in the Runs home, under the file's name
      await byId("runs-home-toggle").click();
      await waitTotal(5);
      await byId("runs-home-search").fill("openai_agents_handoff");
      await waitTotal(2, "openai_agents_handoff");
      assert.deepEqual(await attrs("data-topology"), ["baton fixture handoff", "baton fixture handoff"]);
      await byId("runs-home-search").fill("");
      await waitTotal(5, "");
    });

    it("a dropped file that is not a trace, or too large to send, is refused with its code and nothing is imported", async () => {
      await drop("notes.md", "# notes\n");
      let err = byId("drop-error");
      await err.waitFor();
      assert.equal(await err.getAttribute("data-code"), "import.unknown_format");
      await byId("drop-close").click();
      // the backend cannot read this content
      await drop("hello.json", '{"hello": "world"}');
      err = byId("drop-error");
      await err.waitFor();
      // no trace format has a lone "hello" key
      assert.equal(await err.getAttribute("data-code"), "import.unknown_format");
      assert.match(await err.innerText(), /hello\.json: cannot tell which format this is/);
      assert.doesNotMatch(await err.innerText(), /--from/);
      await byId("drop-close").click();
      // 17 MB of text: over `baton serve`'s 16 MiB request limit, refused before it is sent
      await page.evaluate(() => {
        const dt = new DataTransfer();
        dt.items.add(new File(["x".repeat(17 * 1024 * 1024)], "huge.jsonl"));
        document.body.dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
      });
      err = byId("drop-error");
      await err.waitFor();
      assert.equal(await err.getAttribute("data-code"), "import.too_large");
      assert.match(await err.innerText(), /Open trace with its path/);
      await byId("drop-close").click();
      await waitTotal(5);
    });

    it("a bad ?run= id shows the error with a way out, never 'Opening run…' forever", async () => {
      await page.goto(backend.page("run=nonsense"));
      const err = byId("run-open-error");
      await err.waitFor();
      assert.equal(await err.getAttribute("data-code"), "store.no_run");
      assert.match(await err.innerText(), /No such run/);
      assert.match(await byId("run-open-error-id").innerText(), /nonsense/);
      await page.waitForTimeout(500);
      assert.equal(await sel("text=Opening run…").count(), 0);
      await assertOnScreen(byId("run-open-error-runs"), "All runs");
      await assertOnScreen(byId("run-open-error-back"), "Back");
      await shot("runs-home-badrun");
      await byId("run-open-error-runs").click();
      await byId("runs-home").waitFor();
      await waitTotal(5);
    });

    it("the editor keeps its primary actions in view: the Runs tab's Open and Lost facts, Open in debugger beside the inspector", async () => {
      await page.goto(backend.page("open=ticket-reopen.yaml"));
      await byId("node-triage").waitFor();
      for (const id of ["runs-home-toggle", "topbar-run", "export-open", "settings-open"]) await assertOnScreen(byId(id), id);
      await byId("tab-runs").click();
      await sel('[data-testid="run-row"]').first().waitFor();
      await assertOnScreen(byId("run-open"), "the Runs tab's Open");
      await assertOnScreen(byId("run-lost"), "the Runs tab's Lost facts");
      await assertOnScreen(byId("runs-all"), "All runs…");
      await shot("runs-tab");

      await byId("tab-run").click();
      await byId("run-start").click();
      await sel('[data-testid="run-status"][data-status="finished"]').waitFor({ timeout: 30000 });
      await assertOnScreen(byId("run-debug"), "Open in debugger");
      await shot("run-tab");

      await byId("tab-runs").click();
      await byId("runs-all").click();
      await byId("runs-home").waitFor();
      await waitTotal(6);
    });
  });
}

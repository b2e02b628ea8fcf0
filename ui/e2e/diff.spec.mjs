// Browser tests of the transfer diff and the compare dialog against `baton serve`, at 1280x720
// and 1440x900: the lost pinned fact reads whole, dropped rows are greyed (muted text, not struck), the
// count chips filter, the split resizes, the unified view marks rows; a delegation's kept items
// read as withheld; two runs of different topologies compare, and a row opens both diffs.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { backendPlan, launchBrowser, startBackend } from "./harness.mjs";

const plan = backendPlan();
if (plan.skip && process.env.BATON_E2E_REQUIRE === "1") throw new Error(plan.skip);

// What a person reads in the examples.
const FACT_TEXT = "Resolved means patched behind a feature flag, pending manual rollout."; // both examples' pinned fact
const REOPEN_ANSWER = "Reopened ticket 4812: the fix is not live (flag FIX_4812 is off)."; // ticket-reopen.yaml, verification's last say
const SUPERVISOR_ANSWER = "Ticket 4812 closed as resolved, pending manual rollout of FIX_4812 (the flag is off, as expected)."; // ticket-supervisor.yaml

const VIEWPORTS = [
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
];

describe("the transfer diff and compare (browser, http adapter)", { skip: plan.skip ?? false }, () => {
  let backend;
  let browser;
  let page;
  const errors = [];
  /** The run ids asked for a transfer view (`POST /api/transfer_view`), in order. */
  let transferViews = [];

  before(async () => {
    backend = await startBackend(plan);
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: VIEWPORTS[0] });
    page.on("pageerror", (e) => errors.push(e.message));
    page.on("request", (r) => {
      if (r.url().endsWith("/api/transfer_view")) transferViews.push(JSON.parse(r.postData() ?? "{}").run_id);
    });
  });

  after(async () => {
    await browser?.close();
    await backend?.stop();
  });

  const byId = (id) => page.getByTestId(id);
  const sel = (css) => page.locator(css);

  async function showTab(id) {
    if ((await byId(`tab-${id}`).getAttribute("aria-selected")) !== "true") await byId(`tab-${id}`).click();
    if ((await byId("bottom-panel").getAttribute("class")).includes("is-collapsed")) await byId(`tab-${id}`).click();
  }

  async function runAndDebug(file, node) {
    await page.goto(backend.page(`open=${file}`));
    await byId(`node-${node}`).waitFor();
    await showTab("run");
    await byId("run-start").click();
    await sel('[data-testid="run-status"][data-status="finished"]').waitFor();
    assert.equal(await sel('[data-testid="run-status"] [data-testid="outcome"]').getAttribute("data-status"), "completed");
    await byId("run-debug").click();
    await sel('[data-testid="timeline-step"]').first().waitFor();
  }

  /** Asserts that each locator's box lies inside the viewport (scrolled into view first when `scroll`). */
  async function inViewport(locators, { scroll = false } = {}) {
    const { width, height } = page.viewportSize();
    for (const [name, loc] of Object.entries(locators)) {
      if (scroll) await loc.scrollIntoViewIfNeeded();
      const b = await loc.boundingBox();
      assert.ok(b, `${name} has no box`);
      assert.ok(b.x >= 0 && b.y >= 0 && b.x + b.width <= width + 0.5 && b.y + b.height <= height + 0.5, `${name} at ${JSON.stringify(b)} is outside ${width}x${height}`);
    }
  }

  /** Whether an element shows all of its content (nothing clipped by a clamp or an ellipsis). */
  const showsAll = (loc) => loc.evaluate((el) => el.scrollWidth <= el.clientWidth + 1 && el.scrollHeight <= el.clientHeight + 1);

  for (const vp of VIEWPORTS) {
    const at = `${vp.width}x${vp.height}`;

    it(`ticket-reopen's lossy handoff reads whole at ${at}`, async () => {
      await page.setViewportSize(vp);
      await runAndDebug("ticket-reopen.yaml", "triage");
      await byId("next-transfer").click();
      await byId("next-transfer").click();
      const diff = sel('[data-testid="transfer-diff"][data-from="resolution"][data-to="verification"]');
      await diff.waitFor();
      await sel('[data-testid="step-detail"][data-step="5"]:not([data-loading])').waitFor();
      if ((await diff.getAttribute("data-mode")) !== "split") await byId("diff-mode-split").click();

      // the primary controls are on screen
      await inViewport({
        "dropped chip": sel('[data-testid="diff-filter"][data-status="dropped"]'),
        "added chip": sel('[data-testid="diff-filter"][data-status="added"]'),
        "expand all": byId("diff-expand-all"),
        "split view": byId("diff-mode-split"),
        "unified view": byId("diff-mode-unified"),
        "split handle": byId("diff-split"),
        "fact check": byId("diff-fact"),
      });

      // the lost pinned fact: its whole text, unclipped, and the agent's name whole
      const fact = sel('[data-testid="diff-item"][data-kind="pinned_fact"][data-side="sender"]');
      assert.equal(await fact.getAttribute("data-status"), "dropped");
      // shown whole as the diff opens, without the user scrolling (the diff scrolls to it)
      await page.waitForFunction(() => {
        const el = document.querySelector('[data-testid="diff-item"][data-kind="pinned_fact"][data-side="sender"]');
        const b = el?.getBoundingClientRect();
        return b && b.top >= 0 && b.bottom <= window.innerHeight;
      });
      await fact.scrollIntoViewIfNeeded();
      const factText = fact.getByTestId("item-text");
      assert.equal((await factText.innerText()).trim(), FACT_TEXT);
      assert.ok(await showsAll(factText), "the fact's text is clipped");
      assert.ok(await factText.isVisible());
      await inViewport({ "the fact's text": factText });
      const agent = fact.locator(".item-agent");
      assert.equal(await agent.innerText(), "Resolution");
      assert.equal(await agent.getAttribute("title"), "Resolution");
      assert.ok(await showsAll(agent), "the agent's name is cut");
      assert.match(await fact.innerText(), /fact lost/i);

      // dropped rows: greyed with a "dropped" tag, never struck through
      const dropped = sel('[data-testid="diff-item"][data-status="dropped"]');
      assert.equal(await dropped.count(), 12);
      const looks = await dropped.evaluateAll((els) =>
        els.map((el) => ({
          kind: el.dataset.kind,
          // greyed by a muted text colour (not by opacity, which took labels under WCAG AA)
          body: el.querySelector(".item-body") ? getComputedStyle(el.querySelector(".item-body")).color : "",
          muted: getComputedStyle(document.documentElement).getPropertyValue("--muted").trim(),
          struck: [el, ...el.querySelectorAll("*")].some((x) => getComputedStyle(x).textDecorationLine.includes("line-through")),
          tag: el.querySelector(".item-tag")?.textContent ?? "",
        })),
      );
      for (const l of looks) {
        assert.equal(l.struck, false, `a dropped ${l.kind} is struck through`);
        assert.match(l.tag, /dropped/i, `a dropped ${l.kind} has no "dropped" tag`);
        const hex = (rgb) => `#${(rgb.match(/\d+/g) ?? []).slice(0, 3).map((n) => Number(n).toString(16).padStart(2, "0")).join("")}`;
        if (l.kind !== "pinned_fact") assert.equal(hex(l.body), l.muted, `a dropped ${l.kind} is not greyed`);
      }

      // the sender's column is the wider one by default
      const heads = await sel(".diff-col-head").evaluateAll((els) => els.map((e) => e.getBoundingClientRect().width));
      assert.ok(heads[0] > heads[1], `sender ${heads[0]} px, receiver ${heads[1]} px`);

      // the dropped chip filters; pressed again it shows everything
      const droppedChip = sel('[data-testid="diff-filter"][data-status="dropped"]');
      assert.equal(await droppedChip.innerText(), "12 dropped");
      assert.equal(await droppedChip.getAttribute("aria-pressed"), "false");
      await droppedChip.click();
      assert.equal(await droppedChip.getAttribute("aria-pressed"), "true");
      assert.equal(await diff.getAttribute("data-filter"), "dropped");
      const shown = await sel('[data-testid="diff-item"]').evaluateAll((els) => els.map((e) => e.dataset.status));
      assert.equal(shown.length, 12);
      assert.ok(shown.every((s) => s === "dropped"), `filtered: ${shown}`);
      await droppedChip.click();
      assert.equal(await droppedChip.getAttribute("aria-pressed"), "false");
      assert.equal(await sel('[data-testid="diff-item"]').count(), 15); // 13 sender items + the receiver's 2
      // another chip: added shows only the verification instructions
      await sel('[data-testid="diff-filter"][data-status="added"]').click();
      assert.deepEqual(await sel('[data-testid="diff-item"]').evaluateAll((els) => els.map((e) => `${e.dataset.status}:${e.dataset.kind}`)), ["added:instructions"]);
      await sel('[data-testid="diff-filter"][data-status="added"]').click();

      // a long item shows "more"; it opens the whole text
      const instructions = sel('[data-testid="diff-item"][data-kind="instructions"][data-side="sender"]');
      const more = instructions.getByTestId("item-expand");
      // at 1280 the resolution's three-sentence instructions overflow the sender's column
      if (vp.width === 1280) assert.equal(await more.count(), 1);
      if ((await more.count()) > 0) {
        assert.equal(await more.getAttribute("aria-expanded"), "false");
        await more.click();
        assert.equal(await more.getAttribute("aria-expanded"), "true");
        assert.ok(await showsAll(instructions.getByTestId("item-text")));
        await more.click();
      }
      // Expand all opens every item, Collapse all closes them
      await byId("diff-expand-all").click();
      assert.equal(await byId("diff-expand-all").getAttribute("aria-pressed"), "true");
      assert.equal(await byId("diff-expand-all").getAttribute("aria-label"), "Collapse all");
      assert.equal(await sel('[data-testid="diff-item"]:not([data-open])').count(), 0);
      for (const t of await sel('[data-testid="diff-item"] [data-testid="item-text"]').all()) assert.ok(await showsAll(t));
      await byId("diff-expand-all").click();
      assert.equal(await byId("diff-expand-all").getAttribute("aria-pressed"), "false");

      // the split handle: keyboard steps of 5 %, Enter back to the default
      const split = byId("diff-split");
      const start = Number(await split.getAttribute("aria-valuenow"));
      await split.focus();
      await page.keyboard.press("ArrowRight");
      assert.equal(Number(await split.getAttribute("aria-valuenow")), start + 5);
      await page.keyboard.press("Enter");
      assert.equal(await split.getAttribute("aria-valuenow"), "58");
      // and by dragging: 100 px to the left gives the receiver more room
      const hb = await split.boundingBox();
      await page.mouse.move(hb.x + hb.width / 2, hb.y + hb.height / 2);
      await page.mouse.down();
      await page.mouse.move(hb.x + hb.width / 2 - 100, hb.y + hb.height / 2, { steps: 4 });
      await page.mouse.up();
      assert.ok(Number(await split.getAttribute("aria-valuenow")) < 58, `after the drag: ${await split.getAttribute("aria-valuenow")}`);
      await split.focus();
      await page.keyboard.press("Enter");

      // the unified view: one column, − for the 12 dropped, + for the new instructions, → for the message
      await byId("diff-mode-unified").click();
      assert.equal(await diff.getAttribute("data-mode"), "unified");
      assert.equal(await byId("diff-mode-unified").getAttribute("aria-pressed"), "true");
      assert.equal(await sel('[data-testid="diff-row"]').count(), 0);
      const marks = await sel('[data-testid="diff-line"]').evaluateAll((els) => els.map((e) => e.dataset.mark));
      assert.equal(marks.filter((m) => m === "−").length, 12);
      assert.deepEqual(
        marks.filter((m) => m !== "−"),
        ["+", "→"],
      );
      const unifiedFact = sel('[data-testid="diff-line"] [data-testid="diff-item"][data-kind="pinned_fact"]');
      await unifiedFact.scrollIntoViewIfNeeded();
      assert.ok(await showsAll(unifiedFact.getByTestId("item-text")));
      await byId("diff-mode-split").click();
      assert.equal(await diff.getAttribute("data-mode"), "split");
      assert.ok((await sel('[data-testid="diff-row"]').count()) > 0);
      await page.keyboard.press("Escape");
      await sel('[data-testid="app"][data-mode="design"]').waitFor();
    });

    it(`ticket-supervisor's delegation: what the supervisor keeps reads as withheld at ${at}`, async () => {
      await page.setViewportSize(vp);
      await runAndDebug("ticket-supervisor.yaml", "supervisor");
      await byId("next-transfer").click();
      const diff = sel('[data-testid="transfer-diff"][data-kind="delegation"][data-from="supervisor"][data-to="triage"]');
      await diff.waitFor();
      if ((await diff.getAttribute("data-mode")) !== "split") await byId("diff-mode-split").click();
      // the counts say withheld, not dropped
      const withheld = sel('[data-testid="diff-filter"][data-status="withheld"]');
      assert.equal(await withheld.innerText(), "3 withheld");
      assert.equal(await sel('[data-testid="diff-filter"][data-status="dropped"]').count(), 0);
      assert.equal(await sel('[data-testid="diff-item"][data-status="dropped"]').count(), 0);
      await inViewport({ "withheld chip": withheld, "unified view": byId("diff-mode-unified"), "expand all": byId("diff-expand-all") });
      // the pinned fact the supervisor keeps: withheld, kept, not struck; the facts panel says carried, and why
      const fact = sel('[data-testid="diff-item"][data-kind="pinned_fact"]');
      assert.equal(await fact.count(), 1);
      assert.equal(await fact.getAttribute("data-status"), "withheld");
      assert.match(await fact.innerText(), /withheld/i);
      assert.match(await fact.innerText(), /kept by Supervisor/i);
      assert.doesNotMatch(await fact.innerText(), /dropped|lost/i);
      assert.equal(await fact.evaluate((el) => [el, ...el.querySelectorAll("*")].some((x) => getComputedStyle(x).textDecorationLine.includes("line-through"))), false);
      assert.equal(await fact.getByTestId("item-text").innerText(), FACT_TEXT);
      assert.equal(await sel('[data-testid="diff-fact"][data-fact="resolved-meaning"]').getAttribute("data-status"), "carried");
      assert.match(await byId("diff-fact").innerText(), /kept by Supervisor/);
      const panel = sel('[data-testid="fact-status"][data-fact="resolved-meaning"]');
      assert.equal(await panel.getAttribute("data-status"), "carried");
      assert.match(await panel.innerText(), /Supervisor stays the owner and keeps it/);
      // filtering to withheld shows the supervisor's three items
      await withheld.click();
      assert.deepEqual(await sel('[data-testid="diff-item"]').evaluateAll((els) => els.map((e) => `${e.dataset.status}:${e.dataset.kind}`)), [
        "withheld:instructions",
        "withheld:pinned_fact",
        "withheld:user_message",
      ]);
      await withheld.click();
      // unified: the kept items are marked · (not −)
      await byId("diff-mode-unified").click();
      const marks = await sel('[data-testid="diff-line"]').evaluateAll((els) => els.map((e) => e.dataset.mark));
      assert.deepEqual(marks, ["·", "·", "·", "+", "→"]);
      await byId("diff-mode-split").click();
      await page.keyboard.press("Escape");
      await sel('[data-testid="app"][data-mode="design"]').waitFor();
    });
  }

  for (const vp of VIEWPORTS) {
    const at = `${vp.width}x${vp.height}`;

    it(`compares two ticket-supervisor runs, then ticket-reopen against ticket-supervisor, at ${at}`, async () => {
      await page.setViewportSize(vp);
      await page.goto(backend.page("open=ticket-supervisor.yaml"));
      await byId("node-supervisor").waitFor();
      await showTab("runs");
      await sel('[data-testid="run-row"]').nth(1).waitFor();
      await sel('[data-testid="run-pick"]').nth(0).check();
      await sel('[data-testid="run-pick"]').nth(1).check();
      await byId("runs-compare").click();
      const view = byId("compare-view");
      await view.waitFor();
      await sel('[data-testid="transfer-table"]').nth(1).waitFor();

      // two runs of one topology: same version, every transfer matched; a row opens both diffs
      assert.equal(await byId("verdict-topology").getAttribute("data-same"), "true");
      assert.equal(await byId("compare-counts").innerText(), "3 same · 0 differ · 0 only in A · 0 only in B");
      const runA = await sel('[data-testid="compare-run"][data-side="A"]').getAttribute("data-run");
      const runB = await sel('[data-testid="compare-run"][data-side="B"]').getAttribute("data-run");
      transferViews = [];
      await sel('[data-testid="transfer-table"][data-side="A"] [data-testid="transfer-row"][data-key="supervisor→resolution#0"]').click();
      await byId("compare-pair").waitFor();
      for (const side of ["A", "B"]) {
        await sel(`[data-testid="compare-side"][data-side="${side}"] [data-testid="compare-diff"][data-from="supervisor"][data-to="resolution"][data-kind="delegation"]`).waitFor();
      }
      await inViewport({
        "diff A": sel('[data-testid="compare-side"][data-side="A"]'),
        "diff B": sel('[data-testid="compare-side"][data-side="B"]'),
        back: byId("compare-back"),
        next: byId("compare-next"),
        "A's withheld chip": sel('[data-testid="compare-side"][data-side="A"] [data-testid="diff-filter"][data-status="withheld"]'),
        "B's withheld chip": sel('[data-testid="compare-side"][data-side="B"] [data-testid="diff-filter"][data-status="withheld"]'),
      });
      assert.equal(await sel('[data-testid="compare-diff"][data-mode="unified"]').count(), 2);
      // each side's diff came from its own run's transfer_view
      assert.deepEqual([...new Set(transferViews)].sort(), [runA, runB].sort());
      await byId("compare-back").click();

      // swap run A for a ticket-reopen run: another topology
      const pickA = byId("compare-pick-a");
      const reopen = await pickA.locator("option", { hasText: "ticket-reopen" }).first().getAttribute("value");
      await pickA.selectOption(reopen);
      await sel('[data-testid="compare-run"][data-side="A"] [data-testid="compare-topology"]').filter({ hasText: "ticket-reopen" }).waitFor();
      await sel('[data-testid="transfer-table"][data-side="A"] [data-testid="transfer-row"]').first().waitFor();
      assert.equal(await sel('[data-testid="compare-run"][data-side="B"] [data-testid="compare-topology"]').innerText(), "ticket-supervisor");
      assert.equal(await sel('[data-testid="compare-version"]').count(), 2);
      // the pickers say which side they hold, and each offers every other run (the other side's swaps them)
      assert.match(await pickA.locator("option").first().innerText(), /^Run A: \w{8} · ticket-reopen · /);
      assert.match(await byId("compare-pick-b").locator("option").first().innerText(), /^Run B: \w{8} · ticket-supervisor · /);
      assert.equal(await byId("compare-pick-b").locator("option", { hasText: "(now A: swaps the two)" }).count(), 1);

      // both answers, whole; the verdicts
      assert.equal(await sel('[data-testid="compare-answer"][data-side="A"] p').innerText(), REOPEN_ANSWER);
      assert.equal(await sel('[data-testid="compare-answer"][data-side="B"] p').innerText(), SUPERVISOR_ANSWER);
      for (const side of ["A", "B"]) assert.ok(await showsAll(sel(`[data-testid="compare-answer"][data-side="${side}"] p`)));
      assert.equal(await byId("verdict-answer").getAttribute("data-same"), "false");
      assert.equal(await byId("verdict-outcome").getAttribute("data-same"), "true");
      assert.equal(await byId("verdict-topology").getAttribute("data-same"), "false");
      assert.match(await byId("verdict-topology").innerText(), /Different topologies: ticket-reopen \(A\) and ticket-supervisor \(B\)/);
      const legend = await byId("compare-legend").innerText();
      for (const word of ["Carried", "Transformed", "Dropped", "withheld", "Added"]) assert.ok(legend.includes(word), `legend: ${legend}`);

      // lined up by route, not by index: nothing in common, A's two then B's three
      const keys = (side) => sel(`[data-testid="transfer-table"][data-side="${side}"] tbody tr`).evaluateAll((els) => els.map((e) => `${e.dataset.testid === "transfer-row" ? "row" : "none"} ${e.dataset.key}`));
      const expected = ["triage→resolution#0", "resolution→verification#0", "supervisor→triage#0", "supervisor→resolution#0", "supervisor→verification#0"];
      assert.deepEqual(await keys("A"), expected.map((k, i) => `${i < 2 ? "row" : "none"} ${k}`));
      assert.deepEqual(await keys("B"), expected.map((k, i) => `${i < 2 ? "none" : "row"} ${k}`));
      assert.equal(await byId("compare-counts").innerText(), "0 same · 0 differ · 2 only in A · 3 only in B");
      // the rows of both tables line up, and no column is clipped
      const tops = async (side) => sel(`[data-testid="transfer-table"][data-side="${side}"] tbody tr`).evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().top)));
      assert.deepEqual(await tops("A"), await tops("B"));
      for (const side of ["A", "B"]) {
        const table = sel(`[data-testid="transfer-table"][data-side="${side}"]`);
        assert.ok(await table.evaluate((t) => t.scrollWidth <= t.parentElement.clientWidth + 1), `table ${side} is wider than its column`);
        const cells = await table.locator("thead th").evaluateAll((ths) => ths.map((th) => th.scrollWidth <= th.clientWidth + 1));
        assert.ok(cells.every(Boolean), `a header of table ${side} is clipped`);
      }
      await inViewport({
        "table A": sel('[data-testid="transfer-table"][data-side="A"]'),
        "table B": sel('[data-testid="transfer-table"][data-side="B"]'),
        "pick A": byId("compare-pick-a"),
        "pick B": byId("compare-pick-b"),
        close: view.getByRole("button", { name: "Close" }),
      });

      // a row opens the pair: A's lossy handoff beside "not in B"; the next rows are B's delegations
      await sel('[data-testid="transfer-row"][data-key="resolution→verification#0"]').click();
      await byId("compare-pair").waitFor();
      const diffA = sel('[data-testid="compare-side"][data-side="A"] [data-testid="compare-diff"]');
      await diffA.waitFor();
      assert.equal(await diffA.getAttribute("data-from"), "resolution");
      assert.equal(await diffA.getAttribute("data-to"), "verification");
      await sel('[data-testid="compare-side"][data-side="B"] [data-testid="compare-diff-missing"]').waitFor();
      const factA = diffA.locator('[data-testid="diff-item"][data-kind="pinned_fact"]');
      await factA.scrollIntoViewIfNeeded();
      assert.equal(await factA.getAttribute("data-status"), "dropped");
      assert.equal(await factA.getByTestId("item-text").innerText(), FACT_TEXT);
      assert.ok(await showsAll(factA.getByTestId("item-text")));
      await byId("compare-next").click();
      const diffB = sel('[data-testid="compare-side"][data-side="B"] [data-testid="compare-diff"][data-to="triage"]');
      await diffB.waitFor();
      assert.equal(await diffB.getAttribute("data-kind"), "delegation");
      await sel('[data-testid="compare-side"][data-side="A"] [data-testid="compare-diff-missing"]').waitFor();
      assert.equal(await diffB.locator('[data-testid="diff-item"][data-status="dropped"]').count(), 0);
      await inViewport({ "diff B": diffB, back: byId("compare-back"), next: byId("compare-next") });

      await page.keyboard.press("Escape");
      await view.waitFor({ state: "detached" });
      assert.deepEqual(errors, []);
    });
  }
});

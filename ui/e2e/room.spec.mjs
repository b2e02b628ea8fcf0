// Browser test of room on the canvas against `baton serve`, at 1280x720 and 1440x900: on every
// example, no edge label between two agents covers either agent (its text gives way, with the
// whole label in its tooltip, and its chips stay). The six-agent ADK sample from
// ../shared/realtraces (read where it lives), in the debugger's short graph: no agent covers
// another, each agent's visits pill stays inside it, each name is whole on the canvas (its text,
// not clipped, at >= 11 px on screen) and in its tooltip, no edge chip touches an agent, and the
// agent acting at a step is brought into view (the chain is wrapped and kept legible; where it
// cannot all fit the short pane, the rest is a pan away).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { REPO, backendPlan, browserSuite } from "./harness.mjs";

const ADK_SIX = join(REPO, "../shared/realtraces/adk-python/flow_complex_spark__sample.session.json");
const SIX_NAMES = ["spark_assistant", "research_assistant", "research_plan_agent", "question_generation_agent", "information_retrieval_agent", "summary_agent"];

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

    it("the canvas's entry tag and warning counts read at WCAG AA (4.5:1), which axe does not check on the canvas", async () => {
      const { page, backend } = ctx;
      await page.goto(backend.page("open=ticket-reopen.yaml"));
      await page.locator(".node-entry").first().waitFor();
      await page.locator(".node-lint.sev-bg-warning").first().waitFor();
      const ratios = await page.evaluate(() => {
        const rgb = (c) => (c.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
        const lum = ([r, g, b]) => {
          const f = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
          return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
        };
        const ratio = (el) => {
          const st = getComputedStyle(el);
          const [a, b] = [lum(rgb(st.color)), lum(rgb(st.backgroundColor))].sort((x, y) => y - x);
          return Math.round(((a + 0.05) / (b + 0.05)) * 100) / 100;
        };
        return { entry: ratio(document.querySelector(".node-entry")), warning: ratio(document.querySelector(".node-lint.sev-bg-warning")) };
      });
      assert.ok(ratios.entry >= 4.5 && ratios.warning >= 4.5, JSON.stringify(ratios));
    });
  });
}

for (const [width, height] of [
  [1280, 720],
  [1440, 900],
]) {
  describe(`six ADK agents in the debugger's graph at ${width}x${height} (browser)`, { skip: plan.skip ?? false }, () => {
    const ctx = browserSuite(before, after, {
      width,
      height,
      setup(root) {
        const r = spawnSync(plan.bin, ["trace", "import", ADK_SIX, "--db", join(root, ".baton", "runs.db")], { encoding: "utf8" });
        assert.equal(r.status, 0, r.stderr);
      },
    });

    it("no agent covers another; pills stay in their agents; each name whole in its tooltip", async () => {
      const { page, backend } = ctx;
      await page.goto(backend.page());
      await ctx.byId("runs-home-toggle").click();
      await page.locator('[data-testid="runs-home-row"]').first().dblclick();
      await page.locator('[data-testid="timeline-step"]').first().waitFor();
      await page.locator('[data-testid="debug-canvas"] .react-flow__node').nth(5).waitFor();
      await page.waitForTimeout(600);
      const problems = await page.evaluate(() => {
        const out = [];
        const nodes = [...document.querySelectorAll('[data-testid="debug-canvas"] .react-flow__node')].map((n) => ({ id: n.dataset.id, el: n, r: n.getBoundingClientRect() }));
        if (nodes.length !== 6) out.push(`${nodes.length} agents drawn`);
        for (let i = 0; i < nodes.length; i++) {
          for (let j = i + 1; j < nodes.length; j++) {
            const [a, b] = [nodes[i].r, nodes[j].r];
            const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
            const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
            if (x > 1 && y > 1) out.push(`${nodes[i].id} covers ${nodes[j].id}`);
          }
          const pill = nodes[i].el.querySelector(".node-visits")?.getBoundingClientRect();
          if (pill && (pill.left < nodes[i].r.left - 1 || pill.right > nodes[i].r.right + 1)) out.push(`${nodes[i].id}'s pill leaves it`);
          // a name cut short far out keeps the whole of it in its tooltip
          const name = nodes[i].el.querySelector(".node-name");
          if (!name || !name.textContent || name.getAttribute("title") !== name.textContent) out.push(`${nodes[i].id}'s name is not whole in its tooltip`);
        }
        return out;
      });
      assert.deepEqual(problems, []);
    });

    it("each name whole on the canvas at >= 11 px on screen, and no edge chip on an agent", async () => {
      const { page } = ctx;
      const problems = await page.evaluate((expected) => {
        const out = [];
        const canvas = document.querySelector('[data-testid="debug-canvas"]');
        const nodes = [...canvas.querySelectorAll(".react-flow__node")].map((n) => ({ id: n.dataset.id, el: n, r: n.getBoundingClientRect() }));
        const names = [];
        for (const n of nodes) {
          const name = n.el.querySelector(".node-name");
          names.push(name.textContent);
          // the rendered text is the whole name, and its box shows all of it (no cut, no clamp)
          if (name.scrollWidth > name.clientWidth) out.push(`${n.id}: name cut (${name.scrollWidth} > ${name.clientWidth})`);
          if (name.scrollHeight > name.clientHeight + 2) out.push(`${n.id}: name clamped (${name.scrollHeight} > ${name.clientHeight})`);
          const px = parseFloat(getComputedStyle(name).fontSize) * (name.getBoundingClientRect().height / name.offsetHeight);
          if (px < 10.95) out.push(`${n.id}: name at ${px.toFixed(2)} px on screen`);
        }
        if (JSON.stringify(names.sort()) !== JSON.stringify([...expected].sort())) out.push(`names drawn: ${names.join(", ")}`);
        // every other text on the graph too (run tag, visits, chips)
        for (const el of canvas.querySelectorAll(".react-flow__viewport *, .react-flow__edgelabel-renderer *")) {
          const own = [...el.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim() !== "");
          const r = el.getBoundingClientRect();
          if (!own || r.width === 0 || el.offsetHeight === 0 || getComputedStyle(el).visibility === "hidden") continue;
          const px = parseFloat(getComputedStyle(el).fontSize) * (r.height / el.offsetHeight);
          if (px < 10.95) out.push(`"${el.textContent.trim().slice(0, 20)}" at ${px.toFixed(2)} px`);
        }
        // an edge's chip keeps 3 px or more from every agent
        for (const l of canvas.querySelectorAll('[data-testid^="edge-label-"]')) {
          const r = l.getBoundingClientRect();
          for (const n of nodes) {
            const gap = Math.max(n.r.left - r.right, r.left - n.r.right, n.r.top - r.bottom, r.top - n.r.bottom);
            if (gap < 3) out.push(`${l.dataset.testid} ${gap < 0 ? "overlaps" : "touches"} ${n.id} (${gap.toFixed(1)} px)`);
          }
        }
        return out;
      }, SIX_NAMES);
      assert.deepEqual(problems, [], `at zoom ${await ctx.byId("debug-canvas").getAttribute("data-zoom")}`);
    });

    it("the agent acting at a step is brought into the graph's view", async () => {
      const { page, sel } = ctx;
      // a step of each agent: 0 spark_assistant … 9 summary_agent (the sample's timeline)
      for (const [index, agent] of [
        [9, "summary_agent"],
        [7, "information_retrieval_agent"],
        [0, "spark_assistant"],
        [5, "question_generation_agent"],
      ]) {
        await sel(`[data-testid="timeline"] [data-testid="timeline-step"][data-index="${index}"]`).click();
        await page.waitForTimeout(450);
        const off = await page.evaluate((id) => {
          const pane = document.querySelector('[data-testid="debug-canvas"]').getBoundingClientRect();
          const r = document.querySelector(`[data-testid="debug-canvas"] .react-flow__node[data-id="${id}"]`).getBoundingClientRect();
          return r.left < pane.left || r.right > pane.right || r.top < pane.top || r.bottom > pane.bottom ? `${id} at ${Math.round(r.left - pane.left)},${Math.round(r.top - pane.top)} outside ${Math.round(pane.width)}x${Math.round(pane.height)}` : null;
        }, agent);
        assert.equal(off, null, `step ${index}`);
      }
    });
  });
}

// `make bench-ui`, the real app's part (issue #21): the binary's size, cold start to first paint
// and to the example drawn, idle memory with the example open (the app and its WebKit processes,
// by RSS and by PSS, which counts shared pages once), and the debugger on a 100,000-step run in
// the real window (key press to the frame showing the step; rAF intervals). Run on the release
// build: BATON_APP=target/app-release/baton-app node bench.mjs
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { writeScaleFixtures } from "../ui/bench/fixtures.mjs";
import { figure } from "../ui/bench/frames.mjs";
import { keyProbe, scrollProbe, stats, untilProbe } from "../ui/bench/probes.mjs";
import { APP, REPO, startApp } from "./harness.mjs";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const TICK = Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim());
const BOOT = Number(/^btime (\d+)$/m.exec(readFileSync("/proc/stat", "utf8"))[1]);

/** Processes by pid: parent and start (epoch ms, to the clock tick). */
function processes() {
  const out = new Map();
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, "utf8");
      const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      out.set(Number(d), { ppid: Number(rest[1]), start: (BOOT + Number(rest[19]) / TICK) * 1000, exe: safe(() => readFileSync(`/proc/${d}/cmdline`, "utf8").split("\0")[0]) });
    } catch {
      /* gone */
    }
  }
  return out;
}
const safe = (f) => {
  try {
    return f();
  } catch {
    return "";
  }
};

/** The newest process running the app binary, and every process under it. */
function appTree() {
  const ps = processes();
  const app = [...ps.entries()].filter(([, p]) => p.exe === APP).sort((a, b) => b[1].start - a[1].start)[0];
  if (!app) throw new Error(`no process runs ${APP}`);
  const tree = [app[0]];
  for (let i = 0; i < tree.length; i++) for (const [pid, p] of ps) if (p.ppid === tree[i]) tree.push(pid);
  return { pid: app[0], start: app[1].start, tree, names: tree.map((pid) => ps.get(pid).exe.split("/").pop()) };
}

function memory(tree) {
  let rss = 0;
  let pss = 0;
  const each = [];
  for (const pid of tree) {
    const r = safe(() => readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"));
    const one = { rss: Number(/^Rss:\s+(\d+) kB/m.exec(r)?.[1] ?? 0) / 1024, pss: Number(/^Pss:\s+(\d+) kB/m.exec(r)?.[1] ?? 0) / 1024 };
    const name = safe(() => readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")[0].split("/").pop());
    each.push(`${name} ${one.rss.toFixed(0)}/${one.pss.toFixed(0)}`);
    rss += one.rss;
    pss += one.pss;
  }
  return { rss, pss, each: each.join(", ") };
}

const size = statSync(APP).size / 1e6;
console.log(`# binary: ${APP}`);
figure("desktop binary size", size, "MB", "20 MB", size <= 20);

// Cold starts: a new process each time, the example on its command line (the files it reads are
// in the OS cache after the first).
const EXAMPLE = join(REPO, "examples", "ticket-reopen.yaml");
const firstPaint = () => {
  const fcp = performance.getEntriesByType("paint").find((e) => e.name === "first-contentful-paint");
  return { origin: performance.timeOrigin, fcp: fcp ? fcp.startTime : null };
};
const paints = [];
const drawn = [];
const origins = [];
let mem = null;
for (let i = 0; i < 5; i++) {
  const app = await startApp(EXAMPLE);
  try {
    const { start } = appTree();
    const shown = await app.browser.execute(untilProbe, { selector: '[data-testid="node-triage"]' });
    const p = await app.browser.execute(firstPaint);
    if (p.fcp !== null) paints.push(p.origin + p.fcp - start);
    origins.push(p.origin - start);
    drawn.push(p.origin + shown - start);
    if (i === 4) {
      await sleep(10_000);
      const now = appTree();
      mem = { ...memory(now.tree), names: now.names };
    }
  } finally {
    await app.stop();
  }
}
const fp = stats(paints);
const dr = stats(drawn);
if (paints.length) figure(`cold start to first contentful paint, median of ${paints.length}`, fp.p50, "ms", "1000 ms", fp.p50 < 1000);
else console.log("# the WebView reports no first-contentful-paint entry: only the time to the example drawn");
figure(`cold start to the page's navigation start (GTK and WebKit up), median of ${origins.length}`, stats(origins).p50, "ms");
figure(`cold start to the example drawn on the canvas, median of ${drawn.length} (max ${dr.max.toFixed(0)})`, dr.p50, "ms", "1000 ms", dr.p50 < 1000);
console.log(`# processes (RSS/PSS MB): ${mem.each}`);
figure("idle memory with the example open, RSS summed", mem.rss, "MB", "150 MB", mem.rss <= 150);
figure("idle memory with the example open, PSS summed (shared pages once)", mem.pss, "MB");

// The floor: the app idle on its welcome screen (no file).
{
  const app = await startApp(undefined);
  try {
    await app.browser.execute(untilProbe, { selector: '[data-testid="app"]' });
    await sleep(10_000);
    const m = memory(appTree().tree);
    figure("idle memory on the welcome screen (no file), RSS summed", m.rss, "MB");
    console.log(`# processes (RSS/PSS MB): ${m.each}`);
  } finally {
    await app.stop();
  }
}

// The debugger on a 100,000-step run in the real window.
const baton = [join(REPO, "target/release/baton"), join(REPO, "target/debug/baton")].find((p) => safe(() => statSync(p)));
let run;
let exampleRun;
const app = await startApp(undefined, {
  setup(dir, env) {
    const { pollingRun } = writeScaleFixtures(dir);
    const out = execFileSync(baton, ["run", pollingRun, "--save", "--db", env.BATON_DB], { maxBuffer: 1 << 30 }).toString();
    run = { id: /^run id: (\S+)$/m.exec(out)?.[1], steps: out.split("\n").filter((l) => /^#\d+ /.test(l)).length };
    const ex = execFileSync(baton, ["run", EXAMPLE, "--save", "--db", env.BATON_DB]).toString();
    exampleRun = { id: /^run id: (\S+)$/m.exec(ex)?.[1], steps: ex.split("\n").filter((l) => /^#\d+ /.test(l)).length };
  },
});
try {
  const b = app.browser;
  const detail = (k) => `[data-testid="step-detail"][data-step="${k}"]:not([data-loading])`;
  /** Opens run `id` at `step` in the window (a new page load); page load to the step shown, ms. */
  const openAt = async (id, step) => {
    await b.execute((q) => {
      window.location.search = q;
    }, `?run=${id}&step=${step}`);
    await sleep(300);
    return b.execute(untilProbe, { selector: detail(step) });
  };
  for (const at of [0, Math.floor(run.steps / 2), run.steps - 1]) {
    const ms = await openAt(run.id, at);
    figure(`[app] open the ${run.steps}-step run at step ${at} (page load to step shown)`, ms, "ms", "1000 ms", ms !== null && ms < 1000);
    const arrow = at === run.steps - 1 ? "ArrowLeft" : "ArrowRight";
    const step = await b.execute(keyProbe, { key: arrow, n: 40 });
    const s = stats(step.lat);
    const f = stats(step.frames);
    figure(`[app] step (${arrow === "ArrowLeft" ? "←" : "→"}) at ${at}: press to step shown, p50 (p95 ${s.p95.toFixed(1)})`, s.p50, "ms");
    figure(`[app] step (${arrow === "ArrowLeft" ? "←" : "→"}) at ${at}: frame time p95 (max ${f.max.toFixed(1)})`, f.p95, "ms", "16.7 ms, one 60 Hz frame", f.p95 <= 17);
    {
      // At the end there are no transfers ahead: jump back (Shift+N) instead.
      const back = at === run.steps - 1;
      const jump = await b.execute(keyProbe, back ? { key: "N", shift: true, n: 15 } : { key: "n", n: 15 });
      const j = stats(jump.lat);
      const jf = stats(jump.frames);
      const what = back ? "jump to the previous transfer (Shift+N)" : "jump to the next transfer (n)";
      figure(`[app] ${what} at ${at}: press to step shown, p50 (p95 ${j.p95.toFixed(1)})`, j.p50, "ms");
      figure(`[app] ${what} at ${at}: frame time p95 (max ${jf.max.toFixed(1)})`, jf.p95, "ms", "16.7 ms, one 60 Hz frame", jf.p95 <= 17);
    }
  }
  // Memory after stepping and jumping the long run (each jump rests on a transfer, whose diff
  // asks for the run's suspects report), then 10 s with nothing pressed.
  await sleep(10_000);
  {
    const m = memory(appTree().tree);
    figure(`[app] memory after stepping the ${run.steps}-step run and 10 s idle, RSS summed`, m.rss, "MB");
    figure(`[app] memory after stepping the ${run.steps}-step run and 10 s idle, PSS summed`, m.pss, "MB");
    console.log(`# processes (RSS/PSS MB): ${m.each}`);
  }
  // What the window waits for: the IPC round trip of a small command, one step view and the overview.
  const ipc = await b.execute(async (id) => {
    const call = (command, args) => window.__TAURI_INTERNALS__.invoke("call", { command, args });
    const time = async (f, n) => {
      const ms = [];
      for (let i = 0; i < n; i++) {
        const t0 = performance.now();
        await f(i);
        ms.push(performance.now() - t0);
      }
      return ms.sort((a, b) => a - b)[Math.floor(n / 2)];
    };
    return {
      small: await time(() => call("initial_file", {}), 20),
      step: await time((i) => call("step_view", { run_id: id, step: 50_000 + i, context: { offset: 0, limit: 500 } }), 20),
      overview: await time(() => call("run_overview", { run_id: id }), 3),
      overviewBytes: JSON.stringify(await call("run_overview", { run_id: id })).length,
      suspects: await time(() => call("suspects", { run_id: id }), 1),
      suspectsBytes: JSON.stringify(await call("suspects", { run_id: id })).length,
    };
  }, run.id);
  figure("[app] IPC round trip of a small command (initial_file), median", ipc.small, "ms");
  figure("[app] IPC round trip of a step view (step_view, 500-item window), median", ipc.step, "ms");
  figure(`[app] the ${run.steps}-step run's suspects report (suspects, ${(ipc.suspectsBytes / 1e6).toFixed(1)} MB of JSON), one call`, ipc.suspects, "ms");
  figure(`[app] IPC round trip of the ${run.steps}-step overview (run_overview, ${(ipc.overviewBytes / 1e6).toFixed(1)} MB of JSON), median of 3`, ipc.overview, "ms");

  // An ordinary example (ticket-reopen, transfers at steps 1 and 5): → to its end and ← back,
  // twice; then n and Shift+N between its two transfers.
  {
    await openAt(exampleRun.id, 0);
    const lat = [];
    const frames = [];
    for (let i = 0; i < 4; i++) {
      const r = await b.execute(keyProbe, { key: i % 2 ? "ArrowLeft" : "ArrowRight", n: exampleRun.steps - 1 });
      lat.push(...r.lat);
      frames.push(...r.frames);
    }
    const s = stats(lat);
    const f = stats(frames);
    figure(`[app] step on the example (ticket-reopen, ${exampleRun.steps} steps, ${lat.length} presses): press to step shown, p50 (p95 ${s.p95.toFixed(1)})`, s.p50, "ms");
    figure(`[app] step on the example: frame time p95 (max ${f.max.toFixed(1)})`, f.p95, "ms", "16.7 ms, one 60 Hz frame", f.p95 <= 17);
    await openAt(exampleRun.id, 1);
    const jl = [];
    const jf = [];
    for (let i = 0; i < 12; i++) {
      const r = await b.execute(keyProbe, i % 2 ? { key: "N", shift: true, n: 1 } : { key: "n", n: 1 });
      jl.push(...r.lat);
      jf.push(...r.frames);
    }
    const j = stats(jl);
    figure(`[app] jump between transfers on the example (n / Shift+N, ${jl.length} presses): press to step shown, p50 (p95 ${j.p95.toFixed(1)})`, j.p50, "ms", "100 ms", j.p95 <= 100);
    figure(`[app] jump between transfers on the example: frame time p95 (max ${stats(jf).max.toFixed(1)})`, stats(jf).p95, "ms", "16.7 ms, one 60 Hz frame", stats(jf).p95 <= 17);
  }

  const scroll = await b.execute(scrollProbe, { selector: '[data-testid="timeline"]', steps: 240 });
  const sc = stats(scroll.frames);
  figure(`[app] scroll the timeline top to bottom (${run.steps} rows): frame time p95 (max ${sc.max.toFixed(1)})`, sc.p95, "ms", "16.7 ms, one 60 Hz frame", sc.p95 <= 17);
} finally {
  await app.stop();
}

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
  for (const pid of tree) {
    const r = safe(() => readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"));
    rss += Number(/^Rss:\s+(\d+) kB/m.exec(r)?.[1] ?? 0);
    pss += Number(/^Pss:\s+(\d+) kB/m.exec(r)?.[1] ?? 0);
  }
  return { rss: rss / 1024, pss: pss / 1024 };
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
let mem = null;
for (let i = 0; i < 5; i++) {
  const app = await startApp(EXAMPLE);
  try {
    const { start } = appTree();
    const shown = await app.browser.execute(untilProbe, { selector: '[data-testid="node-triage"]' });
    const p = await app.browser.execute(firstPaint);
    if (p.fcp !== null) paints.push(p.origin + p.fcp - start);
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
figure(`cold start to the example drawn on the canvas, median of ${drawn.length} (max ${dr.max.toFixed(0)})`, dr.p50, "ms", "1000 ms", dr.p50 < 1000);
console.log(`# processes: ${mem.names.join(", ")}`);
figure("idle memory with the example open, RSS summed", mem.rss, "MB", "150 MB", mem.rss <= 150);
figure("idle memory with the example open, PSS summed (shared pages once)", mem.pss, "MB");

// The debugger on a 100,000-step run in the real window.
const baton = [join(REPO, "target/release/baton"), join(REPO, "target/debug/baton")].find((p) => safe(() => statSync(p)));
let run;
const app = await startApp(undefined, {
  setup(dir, env) {
    const { pollingRun } = writeScaleFixtures(dir);
    const out = execFileSync(baton, ["run", pollingRun, "--save", "--db", env.BATON_DB], { maxBuffer: 1 << 30 }).toString();
    run = { id: /^run id: (\S+)$/m.exec(out)?.[1], steps: out.split("\n").filter((l) => /^#\d+ /.test(l)).length };
  },
});
try {
  const b = app.browser;
  const detail = (k) => `[data-testid="step-detail"][data-step="${k}"]:not([data-loading])`;
  for (const at of [0, Math.floor(run.steps / 2), run.steps - 1]) {
    await b.execute((q) => {
      window.location.search = q;
    }, `?run=${run.id}&step=${at}`);
    await sleep(300);
    const ms = await b.execute(untilProbe, { selector: detail(at) });
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
  const scroll = await b.execute(scrollProbe, { selector: '[data-testid="timeline"]', steps: 240 });
  const sc = stats(scroll.frames);
  figure(`[app] scroll the timeline top to bottom (${run.steps} rows): frame time p95 (max ${sc.max.toFixed(1)})`, sc.p95, "ms", "16.7 ms, one 60 Hz frame", sc.p95 <= 17);
} finally {
  await app.stop();
}

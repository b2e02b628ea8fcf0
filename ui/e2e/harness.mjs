// Starts `baton serve` on a free port over a temp copy of examples/, and a headless Debian
// Chromium (playwright-core; never a downloaded browser).
import { randomBytes } from "node:crypto";
import { execFileSync, spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const here = dirname(fileURLToPath(import.meta.url));
export const UI_DIR = resolve(here, "..");
export const REPO = resolve(UI_DIR, "..");

export const CHROMIUM = process.env.BATON_CHROMIUM ?? "/usr/bin/chromium";
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

export function batonBin() {
  const candidates = [process.env.BATON_BIN, join(REPO, "target/debug/baton"), join(REPO, "target/release/baton")].filter(Boolean);
  return candidates.find((p) => existsSync(p)) ?? null;
}

export function hasServe(bin) {
  try {
    execFileSync(bin, ["serve", "--help"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** The binary that will serve the tests, or why there is none. */
export function backendPlan() {
  const bin = batonBin();
  if (!bin) return { skip: "no baton binary in target/ (build it first, or set BATON_BIN)" };
  if (!hasServe(bin)) return { skip: `${bin} has no 'serve' subcommand (rebuild it)` };
  return { bin };
}

export async function freePort() {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.once("error", rej);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => res(port));
    });
  });
}

async function waitForHttp(url, child, ms = 20000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`backend exited early with ${child.exitCode}`);
    try {
      const r = await fetch(url);
      if (r.ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`backend did not answer ${url} within ${ms} ms`);
}

/**
 * Starts `baton serve` over a temp copy of examples/ with its own store (`ROOT/.baton/runs.db`);
 * `setup(root)` may add files first; `env` is added to its environment. Returns { url, root, stop }.
 */
export async function startBackend(plan, { setup, env } = {}) {
  // BATON_UI_DIST: a build elsewhere (`vite build --outDir DIR`), so parallel work need not share ui/dist.
  const dist = process.env.BATON_UI_DIST ?? join(UI_DIR, "dist");
  if (!existsSync(join(dist, "index.html"))) throw new Error("ui/dist is missing: run `npm run build` first");
  const root = mkdtempSync(join(tmpdir(), "baton-e2e-"));
  cpSync(join(REPO, "examples"), root, { recursive: true });
  mkdirSync(join(root, ".baton"));
  if (setup) setup(root);
  const port = await freePort();
  const db = join(root, ".baton", "runs.db");
  const args = ["serve", "--port", String(port), "--root", root, "--ui", dist, "--db", db];
  // The launch token every /api call needs (the page takes it from its URL, as a user's does
  // from the URL `baton serve` prints).
  const token = randomBytes(16).toString("hex");
  const child = spawn(plan.bin, args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env, BATON_SERVE_TOKEN: token } });
  let log = "";
  child.stdout.on("data", (d) => (log += d));
  child.stderr.on("data", (d) => (log += d));
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${url}/`, child);
  } catch (e) {
    child.kill("SIGTERM");
    throw new Error(`${e.message}\n--- backend output ---\n${log}`);
  }
  return {
    url,
    token,
    /** The page at `query` (e.g. `open=ticket-reopen.yaml`), with the launch token. */
    page: (query = "") => `${url}/?token=${token}${query ? `&${query}` : ""}`,
    root,
    log: () => log,
    async stop() {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await new Promise((r) => {
          const t = setTimeout(() => {
            child.kill("SIGKILL");
            r();
          }, 3000);
          child.once("exit", () => {
            clearTimeout(t);
            r();
          });
        });
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
}

export async function launchBrowser() {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/**
 * One backend and one page for a describe block: started before its tests, stopped after (and,
 * unless `pageErrors` is false, no uncaught page error allowed). Returns the context the tests
 * read (`backend`, `page`, `byId`, `sel`, `showTab`).
 */
export function browserSuite(before, after, { width = 1280, height = 720, setup, colorScheme, pageErrors = true } = {}) {
  const ctx = { errors: [] };
  before(async () => {
    ctx.backend = await startBackend(backendPlan(), { setup });
    ctx.browser = await launchBrowser();
    ctx.page = await ctx.browser.newPage({ viewport: { width, height }, colorScheme });
    ctx.page.on("pageerror", (e) => ctx.errors.push(e.message));
  });
  after(async () => {
    await ctx.browser?.close();
    await ctx.backend?.stop();
    if (pageErrors && ctx.errors.length) throw new Error(`page errors: ${ctx.errors.join("; ")}`);
  });
  ctx.byId = (id) => ctx.page.getByTestId(id);
  ctx.sel = (css) => ctx.page.locator(css);
  /** Shows a bottom-panel tab (clicking the active tab would fold the panel). */
  ctx.showTab = async (id) => {
    if ((await ctx.byId(`tab-${id}`).getAttribute("aria-selected")) !== "true") await ctx.byId(`tab-${id}`).click();
    if ((await ctx.byId("bottom-panel").getAttribute("class")).includes("is-collapsed")) await ctx.byId(`tab-${id}`).click();
  };
  return ctx;
}

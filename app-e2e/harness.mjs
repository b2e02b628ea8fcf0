// Starts what the real app needs under test: an X server (Xvfb) when there is no display,
// tauri-driver (which drives Debian's WebKitWebDriver), and a WebdriverIO session on the
// debug binary, with a private data directory and store so tests never touch the user's.
import { spawn, execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, mkdirSync, cpSync } from "node:fs";
import { tmpdir, homedir } from "node:os";
import { join, resolve, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { remote } from "webdriverio";

const here = dirname(fileURLToPath(import.meta.url));
export const REPO = resolve(here, "..");
export const APP = process.env.BATON_APP ?? join(REPO, "target/debug/baton-app");

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function waitFor(check, ms, what) {
  const until = Date.now() + ms;
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      /* not yet */
    }
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

function driverPath() {
  const candidates = [process.env.TAURI_DRIVER, join(homedir(), ".cargo/bin/tauri-driver")].filter(Boolean);
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new Error("tauri-driver is missing: cargo install tauri-driver --locked");
  return found;
}

/**
 * Starts Xvfb, tauri-driver and the app on `file`; returns {browser, dir, stop}. `setup(dir, env)`
 * may fill the private data directory and store first (`env.BATON_DB`); `env` is added to the
 * environment of the driver and the app (a locale, say); `application` is another binary (an
 * installed one) than the build's.
 */
export async function startApp(file, { setup, env: extra, application = APP } = {}) {
  if (!existsSync(application)) throw new Error(`${application} is missing: run \`make app\` first`);
  const dir = mkdtempSync(join(tmpdir(), "baton-app-e2e-"));
  const procs = [];
  const env = { ...process.env, ...extra, XDG_DATA_HOME: join(dir, "data"), BATON_DB: join(dir, "store.db") };
  mkdirSync(env.XDG_DATA_HOME, { recursive: true });
  if (setup) setup(dir, env);
  if (!env.DISPLAY) {
    const display = `:${90 + Math.floor(Math.random() * 9)}`;
    const x = spawn("Xvfb", [display, "-screen", "0", "1440x900x24", "-nolisten", "tcp"], { stdio: "ignore" });
    procs.push(x);
    env.DISPLAY = display;
    await sleep(700);
  }
  const port = 4444 + Math.floor(Math.random() * 400);
  const driver = spawn(driverPath(), ["--port", String(port), "--native-port", String(port + 1)], { env, stdio: ["ignore", "inherit", "inherit"] });
  procs.push(driver);
  await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/status`)).ok, 15000, "tauri-driver");
  const browser = await remote({
    hostname: "127.0.0.1",
    port,
    logLevel: "error",
    capabilities: {
      "wdio:enforceWebDriverClassic": true,
      "tauri:options": { application, args: file ? [file] : [] },
    },
  });
  const stop = async () => {
    try {
      await browser.deleteSession();
    } catch {
      /* already gone */
    }
    for (const p of procs.reverse()) p.kill("SIGTERM");
    await sleep(300);
  };
  return { browser, dir, env, stop };
}

/** A private copy of an example, so the test may save over it. */
export function exampleCopy(dir, name) {
  const dest = join(dir, name);
  cpSync(join(REPO, "examples", name), dest);
  return dest;
}

/** A screenshot of the whole X display (what a person would see). */
export function screenshot(env, path) {
  execFileSync("import", ["-window", "root", path], { env });
}

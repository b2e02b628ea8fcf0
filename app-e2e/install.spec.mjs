// The Linux package as a user meets it (issue #34): the .deb Tauri's bundler made (`make dist`, or
// `make dist-test`'s debug build) is installed with apt-get on this machine, over an older version
// of itself; the `baton` CLI is on PATH and names its version; the app starts from its desktop
// entry's Exec line under Xvfb and shows an example; the upgrade kept the user's store; removing
// the package takes its files and leaves the store. Needs root (apt-get), as `make test` has.
//   BATON_DEB=path/to/new.deb BATON_DEB_OLD=path/to/older.deb [BATON_DEB_COMMIT=abc123] node --test install.spec.mjs
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { exampleCopy, REPO, screenshot, startApp } from "./harness.mjs";

const BUNDLES = join(REPO, "target/debug/bundle/deb");
const VERSION = readFileSync(join(REPO, "Cargo.toml"), "utf8").match(/^version = "([^"]+)"/m)[1];
/** The package made by `make dist-test` (or given), at `version`. */
function deb(env, version) {
  const given = process.env[env];
  if (given) return given;
  const name = existsSync(BUNDLES) ? readdirSync(BUNDLES).find((f) => f === `Baton_${version}_amd64.deb`) : undefined;
  return name ? join(BUNDLES, name) : null;
}
const NEW = deb("BATON_DEB", VERSION);
const OLD = deb("BATON_DEB_OLD", "0.0.1");
const root = process.getuid?.() === 0;
const skip = !root ? "apt-get needs root" : !NEW || !OLD ? "no .deb in target/debug/bundle/deb: run `make dist-test`" : false;

const work = mkdtempSync(join(tmpdir(), "baton-install-"));
/** The user's own data, which no install, upgrade or removal may touch. */
const home = { XDG_DATA_HOME: join(work, "data"), BATON_DB: join(work, "data", "store.db") };
const sh = (cmd, args, env = {}) => execFileSync(cmd, args, { encoding: "utf8", env: { ...process.env, ...env } });
const installed = () => spawnSync("dpkg-query", ["-W", "-f=${Status} ${Version}", "baton"], { encoding: "utf8" }).stdout;
const apt = (...args) => sh("apt-get", ["-y", "-q", "--no-install-recommends", ...args], { DEBIAN_FRONTEND: "noninteractive" });
const mb = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;

after(() => {
  if (!skip && /installed/.test(installed())) apt("remove", "--purge", "baton");
  rmSync(work, { recursive: true, force: true });
});

describe("the Linux package", { skip, timeout: 20 * 60_000 }, () => {
  it("installs over an older version, keeps the store, starts from its desktop entry, and removes cleanly", { timeout: 15 * 60_000 }, async () => {
    assert.doesNotMatch(installed(), /ok installed/, "a baton package is already installed: remove it first (apt-get remove baton)");

    // an older version, and a store its CLI writes
    apt("install", OLD);
    assert.match(installed(), /^install ok installed 0\.0\.1$/);
    const example = exampleCopy(work, "ticket-reopen.yaml");
    sh("/usr/bin/baton", ["run", "--save", example], home);
    const before = sh("/usr/bin/baton", ["runs", "list"], home);
    assert.match(before, /ticket-reopen/);

    // the upgrade
    apt("install", NEW);
    assert.match(installed(), new RegExp(`^install ok installed ${VERSION.replace(/[.]/g, "\\.")}$`));
    const which = sh("sh", ["-c", "command -v baton"]).trim();
    assert.equal(which, "/usr/bin/baton", "the CLI is on PATH");
    // the commit the package was built from (a package made earlier names its own)
    const commit = process.env.BATON_DEB_COMMIT ?? sh("git", ["-C", REPO, "rev-parse", "--short=12", "HEAD"]).trim();
    assert.equal(sh("baton", ["--version"]).trim(), `baton ${VERSION} (commit ${commit})`);
    assert.equal(sh("baton", ["runs", "list"], home), before, "the upgrade kept the user's runs");
    assert.match(sh("baton", ["store", "check"], home), /^integrity: ok$/m);

    // the desktop entry: its Exec line starts the app on a file, which it shows
    const entry = readFileSync("/usr/share/applications/Baton.desktop", "utf8");
    assert.match(entry, /^MimeType=.*application\/yaml;/m, "topology files open with Baton");
    assert.match(entry, /^MimeType=.*application\/json;/m, "trace files open with Baton");
    assert.ok(existsSync(`/usr/share/icons/hicolor/256x256/apps/${entry.match(/^Icon=(.+)$/m)[1]}.png`), "its icon is installed");
    const [program, ...rest] = entry.match(/^Exec=(.+)$/m)[1].split(/\s+/);
    assert.deepEqual(rest, ["%f"], "the entry passes the file it opens");
    const binary = sh("sh", ["-c", `command -v ${program}`]).trim();
    assert.equal(binary, "/usr/bin/baton-app");
    const app = await startApp(example, { application: binary });
    try {
      await app.browser.$('[data-testid="node-triage"]').waitForExist({ timeout: 180_000 });
      const title = await app.browser.execute(() => document.querySelector('[data-testid="doc-title"]')?.textContent ?? "");
      assert.match(title, /ticket-reopen\.yaml/);
      screenshot(app.env, join(REPO, "target/app-e2e/installed-app.png"));
    } finally {
      await app.stop();
    }

    const size = statSync(NEW).size;
    const kb = Number(sh("dpkg-query", ["-W", "-f=${Installed-Size}", "baton"]));
    console.log(`package ${NEW.split("/").pop()}: ${mb(size)} download, ${mb(kb * 1024)} installed`);

    // removal takes the package's files and leaves the user's store
    apt("remove", "baton");
    for (const f of ["/usr/bin/baton", "/usr/bin/baton-app", "/usr/share/applications/Baton.desktop"]) {
      assert.ok(!existsSync(f), `${f} is gone`);
    }
    assert.doesNotMatch(installed(), /ok installed/);
    assert.ok(existsSync(home.BATON_DB), "the store is the user's: removal leaves it");
  });
});

// A stand-in for `baton serve`, built on the `baton` CLI, used by the e2e tests only while the
// real server does not exist (BATON_E2E_SHIM=1, or automatically when `baton serve` is missing).
// It speaks the same HTTP contract: POST /api/<command> with JSON args → 200 JSON | 4xx {code, message};
// every other GET serves the built UI. Paths are relative to --root.
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync, rmSync, mkdirSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { dirname, extname, join, relative, resolve, sep } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const arg = (name) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const bin = arg("bin");
const root = resolve(arg("root"));
const ui = resolve(arg("ui"));
const port = Number(arg("port"));
const scratch = mkdtempSync(join(tmpdir(), "baton-shim-"));

class ApiError extends Error {
  constructor(code, message, status = 400) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

function inRoot(p) {
  const full = resolve(root, p);
  if (full !== root && !full.startsWith(root + sep)) throw new ApiError("path.outside_root", `${p} is outside the served folder`, 403);
  return full;
}

async function cli(args) {
  try {
    const { stdout } = await run(bin, args, { maxBuffer: 32 << 20 });
    return stdout;
  } catch (e) {
    if (args[0] === "lint" && e.code === 1) return e.stdout; // errors found: still a result
    throw new ApiError("cli", (e.stderr || e.message).trim());
  }
}

let n = 0;
function tmpJson(topology) {
  const p = join(scratch, `t${++n}.json`);
  writeFileSync(p, JSON.stringify(topology));
  return p;
}

function listFiles(dir, out = []) {
  for (const name of readdirSync(dir)) {
    if (name.startsWith(".") || name === "node_modules" || name === "target") continue;
    const full = join(dir, name);
    if (statSync(full).isDirectory()) listFiles(full, out);
    else if (/\.(ya?ml|json)$/i.test(name)) out.push({ path: relative(root, full), name });
  }
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

const lint = async (file) => JSON.parse(await cli(["lint", file, "--format", "json"])).findings;

const commands = {
  list_files: async () => listFiles(root),
  open_topology: async ({ path }) => {
    const file = inRoot(path);
    const topology = JSON.parse(await cli(["export", file, "--to", "json"]));
    return { path, topology, findings: await lint(file) };
  },
  new_topology: async ({ name }) => ({
    version: 1,
    name,
    entry: "agent",
    agents: [{ id: "agent", name: "Agent", model: { provider: "mock", name: "mock" } }],
    edges: [],
    guards: { max_turns: 10, on_revisit: "allow" },
  }),
  save_topology: async ({ topology, path }) => {
    const ext = extname(path).slice(1).toLowerCase();
    if (!["yaml", "yml", "json"].includes(ext)) throw new ApiError("save.extension", "a topology file ends in .yaml, .yml or .json");
    const out = inRoot(path);
    mkdirSync(dirname(out), { recursive: true });
    await cli(["export", tmpJson(topology), "--to", ext === "json" ? "json" : "yaml", "-o", out]);
    return null;
  },
  lint_topology: async ({ topology }) => lint(tmpJson(topology)),
  export_topology: async ({ topology, format }) => cli(["export", tmpJson(topology), "--to", format]),
  refactor_supervisor: async ({ topology, chain }) => {
    const out = join(scratch, `r${++n}.json`);
    await cli(["refactor", "supervisor", tmpJson(topology), ...chain.flatMap((e) => ["--edge", e]), "-o", out]);
    return JSON.parse(readFileSync(out, "utf8"));
  },
  write_text: async ({ path, text }) => {
    const out = inRoot(path);
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, text);
    return null;
  },
};

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".woff2": "font/woff2", ".svg": "image/svg+xml" };

createServer(async (req, res) => {
  const url = new URL(req.url, "http://x");
  if (url.pathname.startsWith("/api/")) {
    const fn = commands[url.pathname.slice(5)];
    let body = "";
    for await (const chunk of req) body += chunk;
    try {
      if (req.method !== "POST" || !fn) throw new ApiError("api.unknown", `unknown command ${url.pathname}`, 404);
      const result = await fn(body ? JSON.parse(body) : {});
      res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(result));
    } catch (e) {
      res.writeHead(e.status ?? 500, { "Content-Type": "application/json" }).end(JSON.stringify({ code: e.code ?? "internal", message: e.message }));
    }
    return;
  }
  let file = join(ui, url.pathname === "/" ? "index.html" : decodeURIComponent(url.pathname));
  if (!file.startsWith(ui)) file = join(ui, "index.html");
  try {
    const data = readFileSync(file);
    res.writeHead(200, { "Content-Type": TYPES[extname(file)] ?? "application/octet-stream" }).end(data);
  } catch {
    res.writeHead(404).end("not found");
  }
}).listen(port, "127.0.0.1", () => console.log(`shim listening on ${port}`));

process.on("SIGTERM", () => {
  rmSync(scratch, { recursive: true, force: true });
  process.exit(0);
});

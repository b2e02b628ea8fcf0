// The import graph of src/ points one way: pure logic at the bottom, the stores above it, the
// commands (platform + stores) above those, the UI above them and the shell on top. This test
// fails when an import points up a layer, when folders of one layer import each other in a
// cycle, or when any files import each other in a cycle (type-only and dynamic imports count:
// they tie the code together as much as the others).
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/** Lowest first. A folder (or top-level file) may import its own layer and the layers below. */
const LAYERS: readonly (readonly string[])[] = [
  ["bindings"], // generated from Rust by ts-rs
  ["model"], // pure topology operations and layout
  ["platform"], // the backend adapters
  ["recent.ts"],
  ["run"], // pure run logic (and its small presentational badges)
  ["store"], // zustand stores
  ["commands"], // what menus, shortcuts and panels do, bound to a platform and the stores
  ["components", "hooks", "canvas", "debugger", "dialogs", "inspector", "panels", "topbar"], // the UI
  ["app"], // the shell
  ["main.tsx"], // the entry point
];

const SRC = path.dirname(new URL(import.meta.url).pathname);
const isSource = (f: string) => /\.(ts|tsx)$/.test(f) && !/\.test\.(ts|tsx)$/.test(f) && !f.endsWith(".d.ts");
const rel = (f: string) => path.relative(SRC, f).split(path.sep).join("/");
/** The top-level entry of src/ a file belongs to (`store`, `recent.ts`). */
const unit = (f: string) => rel(f).split("/")[0] as string;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return isSource(e.name) ? [p] : [];
  });
}

function resolve(from: string, spec: string): string | null {
  const base = path.resolve(path.dirname(from), spec);
  for (const c of [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts"), path.join(base, "index.tsx")]) {
    if (fs.existsSync(c) && fs.statSync(c).isFile()) return c;
  }
  return null;
}

type Graph = Map<string, string[]>;

/** File → the files of src/ it imports (static, `export … from`, `import type`, `import()`). */
function importGraph(): { graph: Graph; unresolved: string[] } {
  const graph: Graph = new Map();
  const unresolved: string[] = [];
  for (const file of sourceFiles(SRC)) {
    const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, "utf8"), true, true);
    const deps: string[] = [];
    for (const { fileName: spec } of importedFiles) {
      if (!spec.startsWith(".")) continue; // a package
      const target = resolve(file, spec);
      if (!target) unresolved.push(`${rel(file)} → ${spec}`);
      else if (isSource(target)) deps.push(target);
    }
    graph.set(file, deps);
  }
  return { graph, unresolved };
}

/** Strongly connected components with more than one node (or a node importing itself). */
function cycles<T>(nodes: Iterable<T>, next: (n: T) => Iterable<T>): T[][] {
  let counter = 0;
  const index = new Map<T, number>();
  const low = new Map<T, number>();
  const stack: T[] = [];
  const onStack = new Set<T>();
  const out: T[][] = [];
  const visit = (v: T) => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of next(v)) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: T[] = [];
      let w: T;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || [...next(v)].includes(v)) out.push(scc.reverse());
    }
  };
  for (const n of nodes) if (!index.has(n)) visit(n);
  return out;
}

const layerOf = new Map(LAYERS.flatMap((names, i) => names.map((n) => [n, i] as const)));
const { graph, unresolved } = importGraph();
const edges = [...graph].flatMap(([from, tos]) => tos.map((to) => ({ from, to })));

describe("the import graph of src/", () => {
  it("is read (every relative import resolves, and the shell's imports are seen)", () => {
    expect(unresolved).toEqual([]);
    expect(graph.size).toBeGreaterThan(50);
    const app = graph.get(path.join(SRC, "app", "App.tsx"))?.map(rel) ?? [];
    expect(app).toContain("commands/designer.ts");
    expect(app).toContain("store/ui.ts");
  });

  it("places every top-level folder and file of src/ in a layer", () => {
    const units = new Set([...graph.keys()].map(unit));
    expect([...units].filter((u) => !layerOf.has(u)).sort()).toEqual([]);
  });

  it("has no import pointing up a layer", () => {
    const up = edges
      .filter(({ from, to }) => layerOf.get(unit(to))! > layerOf.get(unit(from))!)
      .map(({ from, to }) => `${rel(from)} → ${rel(to)} (${unit(from)} is below ${unit(to)})`);
    expect(up).toEqual([]);
  });

  it("has no cycle between the folders of a layer", () => {
    const folders = new Map<string, Set<string>>();
    for (const { from, to } of edges) {
      const [a, b] = [unit(from), unit(to)];
      if (!folders.has(a)) folders.set(a, new Set());
      if (a !== b && layerOf.get(a) === layerOf.get(b)) folders.get(a)!.add(b);
    }
    const found = cycles(folders.keys(), (f) => folders.get(f) ?? []).map((c) => {
      const via = edges.filter(({ from, to }) => unit(from) !== unit(to) && c.includes(unit(from)) && c.includes(unit(to)));
      return `${c.join(" ↔ ")}: ${via.map(({ from, to }) => `${rel(from)} → ${rel(to)}`).join(", ")}`;
    });
    expect(found).toEqual([]);
  });

  it("has no cycle between files", () => {
    const found = cycles(graph.keys(), (f) => graph.get(f) ?? []).map((c) => c.map(rel).join(" → "));
    expect(found).toEqual([]);
  });
});

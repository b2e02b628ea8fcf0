// Opening "a file" whose kind is not known up front (the app's command line): a topology, or
// else a trace to import and debug.
import { PlatformError } from "../platform/types";
import type { FileEntry } from "../bindings/FileEntry";

export type OpenFileDeps = {
  /** Opens a topology in the designer; throws the backend's error. */
  openTopology(path: string): Promise<void>;
  /** Imports a trace and opens its first run in the debugger; throws the backend's error. */
  importTrace(path: string): Promise<void>;
};

export type FileKind = "topology" | "trace" | "either";

/** `.yaml`/`.yml` are topologies, `.jsonl` traces; a `.json` (or anything else) may be either. */
export function fileKind(path: string): FileKind {
  if (/\.ya?ml$/i.test(path)) return "topology";
  if (/\.jsonl$/i.test(path)) return "trace";
  return "either";
}

/** Files that may hold agent code (Import from code lists them): Python modules and ADK Agent Config YAML. */
export const isCodeCandidate = (path: string) => /\.py$/i.test(path) || /(^|\/)root_agent\.ya?ml$/i.test(path);

/**
 * What Import from code lists: Python modules and Agent Config YAML, with an ADK agent folder
 * (`__init__.py` beside `agent.py`, the `adk web` layout) listed once as its folder, not as its two files.
 */
export function codeCandidates(files: FileEntry[]): FileEntry[] {
  const dir = (p: string) => (p.includes("/") ? p.slice(0, p.lastIndexOf("/")) : "");
  const paths = new Set(files.map((f) => f.path));
  const isAdkFolder = (d: string) => paths.has(d ? `${d}/__init__.py` : "__init__.py") && paths.has(d ? `${d}/agent.py` : "agent.py");
  const out: FileEntry[] = [];
  const listed = new Set<string>();
  for (const f of files) {
    if (!isCodeCandidate(f.path)) continue;
    const d = dir(f.path);
    if (d && isAdkFolder(d) && (f.name === "__init__.py" || f.name === "agent.py")) {
      if (!listed.has(d)) out.push({ path: d, name: `${d.slice(d.lastIndexOf("/") + 1)}/ (ADK agent folder)` });
      listed.add(d);
      continue;
    }
    out.push(f);
  }
  return out;
}

/** Files that may hold a trace (the Open trace dialog lists them). */
export const isTraceCandidate = (path: string) => /\.jsonl?$/i.test(path);

/** The file was read but is not a topology (its text or fields are wrong), so it may be a trace. */
export const isConfigError = (e: unknown) =>
  e instanceof PlatformError && (e.code === "config.syntax" || e.code === "config.type" || e.code === "config.version");

/**
 * Opens `path` as a topology; when that fails because the file is not a topology (its syntax or fields),
 * imports it as a trace. When both fail, the error says what each attempt found.
 */
export async function openTopologyOrTrace(path: string, deps: OpenFileDeps): Promise<"topology" | "trace"> {
  const kind = fileKind(path);
  if (kind === "topology") {
    await deps.openTopology(path);
    return "topology";
  }
  if (kind === "trace") {
    await deps.importTrace(path);
    return "trace";
  }
  try {
    await deps.openTopology(path);
    return "topology";
  } catch (e) {
    if (!isConfigError(e)) throw e;
    try {
      await deps.importTrace(path);
      return "trace";
    } catch (e2) {
      const t = e as PlatformError;
      const i = e2 instanceof PlatformError ? e2 : new PlatformError("import.failed", String(e2));
      throw new PlatformError(i.code, `not a topology (${t.message}); not a trace either (${i.message})`);
    }
  }
}

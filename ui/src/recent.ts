// Recently opened or saved files, kept in localStorage (per host).
import type { FileEntry } from "./platform/types";

const KEY = "baton.recent";
const LIMIT = 8;

export function fileName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}

export function loadRecent(storage: Storage | undefined = globalThis.localStorage): FileEntry[] {
  try {
    const raw = storage?.getItem(KEY);
    if (!raw) return [];
    const v: unknown = JSON.parse(raw);
    if (!Array.isArray(v)) return [];
    return v.filter(
      (x): x is FileEntry => typeof x === "object" && x !== null && typeof x.path === "string" && typeof x.name === "string",
    );
  } catch {
    return [];
  }
}

export function pushRecent(path: string, storage: Storage | undefined = globalThis.localStorage): FileEntry[] {
  const next = [{ path, name: fileName(path) }, ...loadRecent(storage).filter((r) => r.path !== path)].slice(0, LIMIT);
  try {
    storage?.setItem(KEY, JSON.stringify(next));
  } catch {
    /* storage full or denied: recent files are a convenience */
  }
  return next;
}

export function clearRecent(storage: Storage | undefined = globalThis.localStorage): void {
  try {
    storage?.removeItem(KEY);
  } catch {
    /* ignore */
  }
}

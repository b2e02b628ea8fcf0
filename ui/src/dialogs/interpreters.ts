// The Python an import from code runs: the interpreters the backend found for the module (a
// virtual environment beside or above it, $BATON_PYTHON, python3), the one last used for that
// module remembered (in this browser or window's storage) and offered first.
import type { Interpreter } from "../bindings/Interpreter";

const KEY = "baton.codePython";
/** Modules remembered at most (the oldest are forgotten). */
const KEEP = 50;

type Remembered = Record<string, string>;

function load(): Remembered {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) ?? "{}") as unknown;
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Remembered) : {};
  } catch {
    return {};
  }
}

/** The interpreter last used for `module`, if any. */
export function lastPython(module: string): string | null {
  const v = load()[module];
  return typeof v === "string" ? v : null;
}

/** Remembers `python` as the interpreter used for `module`. */
export function rememberPython(module: string, python: string): void {
  const all = load();
  delete all[module];
  all[module] = python;
  const keys = Object.keys(all);
  for (const k of keys.slice(0, Math.max(0, keys.length - KEEP))) delete all[k];
  try {
    localStorage.setItem(KEY, JSON.stringify(all));
  } catch {
    // storage full or denied: the choice is simply not remembered
  }
}

/** Which of `found` to preselect: the one last used for the module when it is still found, else the default (the first). */
export function preselect(found: readonly Interpreter[], last: string | null): string {
  if (last && found.some((i) => i.path === last)) return last;
  return found[0]?.path ?? "";
}

/** An option's text: the path, and where it was found. */
export function interpreterLabel(i: Interpreter, last: string | null): string {
  return `${i.path} — ${i.found}${i.path === last ? " (used last)" : ""}`;
}

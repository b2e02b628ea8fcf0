// A topology's identity, kept in its file: its runs stay its own across renames, and a copy
// saved under another name or path (Save As) starts a history of its own.
import type { Topology } from "./types";

/** A fresh identity (a random UUID). */
export function newTopologyId(): string {
  if (typeof crypto !== "undefined" && typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const b = new Uint8Array(16);
  crypto.getRandomValues(b);
  b[6] = ((b[6] as number) & 0x0f) | 0x40;
  b[8] = ((b[8] as number) & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * The topology as it is written to `path`: given an identity when it has none, and a new one
 * when it is saved to another file than the one it came from (Save As makes a copy).
 */
export function withIdentity(t: Topology, path: string, currentPath: string | null): Topology {
  if (!t.id) return { ...t, id: newTopologyId() };
  if (currentPath !== null && currentPath !== path) return { ...t, id: newTopologyId() };
  return t;
}

/**
 * A topology as it is opened: one without an identity in its file gets one derived from the
 * file's path (the same each time that file is opened, so its runs stay together across renames
 * before it is ever saved), written into the file at the next save; one without a file, a fresh one.
 */
export function identityOnOpen(t: Topology, path: string | null): Topology {
  if (t.id) return t;
  return { ...t, id: path ? pathIdentity(path) : newTopologyId() };
}

/** A UUID-shaped identity from a path (FNV-1a, 128 bits from four seeds): stable, not secret. */
function pathIdentity(path: string): string {
  const words = [0x811c9dc5, 0x01000193, 0x9e3779b9, 0x85ebca6b].map((seed) => {
    let h = seed >>> 0;
    for (let i = 0; i < path.length; i++) {
      h ^= path.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    return h.toString(16).padStart(8, "0");
  });
  const h = words.join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

// How the user last left the transfer diff (column split, side-by-side or unified), kept in
// localStorage so the next transfer and the next session open the same way.
export type DiffMode = "split" | "unified";

/** The sender column's share of the width, in percent: the sender usually has far more to show. */
export const SPLIT_DEFAULT = 58;
export const SPLIT_MIN = 25;
export const SPLIT_MAX = 80;

const KEY_SPLIT = "baton.diff.split";
const KEY_MODE = "baton.diff.mode";

function read(key: string): string | null {
  try {
    return globalThis.localStorage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

function write(key: string, value: string) {
  try {
    globalThis.localStorage?.setItem(key, value);
  } catch {
    /* storage refused (private mode): the choice lasts this view only */
  }
}

export function clampSplit(v: number): number {
  return Math.round(Math.min(SPLIT_MAX, Math.max(SPLIT_MIN, v)));
}

export function loadSplit(): number {
  const v = Number(read(KEY_SPLIT));
  return Number.isFinite(v) && v > 0 ? clampSplit(v) : SPLIT_DEFAULT;
}

export function saveSplit(v: number) {
  write(KEY_SPLIT, String(clampSplit(v)));
}

export function loadMode(): DiffMode {
  return read(KEY_MODE) === "unified" ? "unified" : "split";
}

export function saveMode(m: DiffMode) {
  write(KEY_MODE, m);
}

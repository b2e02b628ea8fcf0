// How a long context reaches the window: the step view brings its first window, the rest comes
// page by page (`step_context`) as the list scrolls to it; never the whole context at once.
import type { ItemWindow } from "../bindings/ItemWindow";

/** Items per page (the store sends at most 2,000 at a time). */
export const CONTEXT_PAGE = 500;

/** The window a step view asks for first. */
export const FIRST_WINDOW: ItemWindow = { offset: 0, limit: CONTEXT_PAGE };

/** The pages (by index) that rows `start` to `end` (inclusive) fall in. */
export function pagesOf(start: number, end: number, total: number): number[] {
  if (total <= 0 || end < start) return [];
  const first = Math.max(0, Math.floor(start / CONTEXT_PAGE));
  const last = Math.min(Math.floor((total - 1) / CONTEXT_PAGE), Math.floor(end / CONTEXT_PAGE));
  const out = [];
  for (let p = first; p <= last; p++) out.push(p);
  return out;
}

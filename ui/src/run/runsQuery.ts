// The Runs home's filters as the user sets them, turned into the store's `search_runs` query (a
// page of it), plus the paging rule: pages of PAGE_SIZE, newest first, the next offset from what
// is loaded and the total.
import type { Judgement } from "../bindings/Judgement";
import type { OutcomeStatus } from "../bindings/OutcomeStatus";
import type { RunOrigin } from "../bindings/RunOrigin";
import type { RunQuery } from "../bindings/RunQuery";

/** Runs asked per page (the table asks for the next page as its end comes into view). */
export const PAGE_SIZE = 100;

/** What the filter bar holds. Empty strings mean "any". Dates are `YYYY-MM-DD` in the user's time zone. */
export type RunFilters = {
  search: string;
  topology: string;
  origin: RunOrigin | "";
  status: OutcomeStatus | "";
  /** "yes": lost a pinned fact; "no": kept them all. */
  lost: "yes" | "no" | "";
  /** Runs a person marked good, or bad (all runs: ""). */
  judgement: Judgement | "";
  /** From this day on (inclusive). */
  since: string;
  /** Up to and including this day. */
  until: string;
};

export const NO_FILTERS: RunFilters = { search: "", topology: "", origin: "", status: "", lost: "", judgement: "", since: "", until: "" };

export const JUDGEMENT_LABELS: Record<Judgement, string> = { good: "Good", bad: "Bad" };

export const ORIGIN_LABELS: Record<RunOrigin, string> = { native: "Baton run", imported: "Imported", captured: "Captured" };

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Local midnight of a `YYYY-MM-DD` day (plus `addDays`), as the RFC 3339 UTC time the store compares; null if not a day. */
export function dayStart(day: string, addDays = 0): string | null {
  const m = DAY.exec(day.trim());
  if (!m) return null;
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + addDays);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** How many filters narrow the list (the search box counts as one). */
export function activeFilters(f: RunFilters): number {
  return (Object.keys(NO_FILTERS) as (keyof RunFilters)[]).filter((k) => f[k].trim() !== "").length;
}

/**
 * The query for `filters` (without paging): only the filters that are set; the days become the
 * local day's bounds (`until` is inclusive, so it is the next day's midnight).
 */
export function filterQuery(f: RunFilters): RunQuery {
  const q: RunQuery = {};
  const search = f.search.trim();
  if (search) q.search = search;
  if (f.topology) q.topology = f.topology;
  if (f.origin) q.origin = f.origin;
  if (f.status) q.status = f.status;
  if (f.lost) q.lost = f.lost === "yes";
  if (f.judgement) q.judgement = f.judgement;
  const since = dayStart(f.since);
  if (since) q.since = since;
  const until = dayStart(f.until, 1);
  if (until) q.until = until;
  return q;
}

/** The query of one page: the filters, `limit` PAGE_SIZE, from `offset`. */
export function pageQuery(f: RunFilters, offset: number): RunQuery {
  return { ...filterQuery(f), limit: PAGE_SIZE, offset };
}

/** Where the page after `loaded` runs starts, or null when they are all loaded (`total` of the last answer). */
export function nextOffset(loaded: number, lastPageSize: number, total: number): number | null {
  if (lastPageSize === 0 || loaded >= total) return null;
  return loaded;
}

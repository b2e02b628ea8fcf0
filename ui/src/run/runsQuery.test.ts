// The Runs home's filters → the store's query, and the paging rule (a page at a time, never all).
import { describe, expect, it } from "vitest";
import { activeFilters, dayStart, filterQuery, nextOffset, NO_FILTERS, PAGE_SIZE, pageQuery } from "./runsQuery";

describe("filterQuery", () => {
  it("asks for everything when nothing is set", () => {
    expect(filterQuery(NO_FILTERS)).toEqual({});
    expect(activeFilters(NO_FILTERS)).toBe(0);
  });

  it("sends only the filters that are set, the search trimmed", () => {
    const q = filterQuery({ ...NO_FILTERS, search: "  reopen ", topology: "ticket-reopen", origin: "imported", status: "completed" });
    expect(q).toEqual({ search: "reopen", topology: "ticket-reopen", origin: "imported", status: "completed" });
    expect(filterQuery({ ...NO_FILTERS, search: "   " })).toEqual({});
  });

  it("turns lost facts yes/no into the boolean the store filters on", () => {
    expect(filterQuery({ ...NO_FILTERS, lost: "yes" })).toEqual({ lost: true });
    expect(filterQuery({ ...NO_FILTERS, lost: "no" })).toEqual({ lost: false });
  });

  it("sends the mark filter as the store's judgement (all: none)", () => {
    expect(filterQuery({ ...NO_FILTERS, judgement: "bad" })).toEqual({ judgement: "bad" });
    expect(filterQuery({ ...NO_FILTERS, judgement: "good", lost: "yes" })).toEqual({ judgement: "good", lost: true });
    expect(activeFilters({ ...NO_FILTERS, judgement: "good" })).toBe(1);
  });

  it("takes the days in the user's time zone, the last day included", () => {
    const q = filterQuery({ ...NO_FILTERS, since: "2026-12-01", until: "2026-12-03" });
    expect(q.since).toBe(new Date(2026, 11, 1).toISOString());
    // up to and including Dec 3: before Dec 4's local midnight
    expect(q.until).toBe(new Date(2026, 11, 4).toISOString());
    // the same day as both bounds is that one day
    const one = filterQuery({ ...NO_FILTERS, since: "2026-02-28", until: "2026-02-28" });
    expect(Date.parse(one.until as string) - Date.parse(one.since as string)).toBe(Date.parse(new Date(2026, 2, 1).toISOString()) - Date.parse(new Date(2026, 1, 28).toISOString()));
  });

  it("ignores a day that is not a day", () => {
    expect(dayStart("yesterday")).toBeNull();
    expect(filterQuery({ ...NO_FILTERS, since: "12/01/2026" })).toEqual({});
  });

  it("counts each filter once", () => {
    expect(activeFilters({ ...NO_FILTERS, search: "x", origin: "captured", lost: "no", since: "2026-01-01" })).toBe(4);
  });
});

describe("paging", () => {
  it("asks for one page of PAGE_SIZE from an offset, with the filters", () => {
    expect(pageQuery({ ...NO_FILTERS, lost: "yes" }, 200)).toEqual({ lost: true, limit: PAGE_SIZE, offset: 200 });
    expect(PAGE_SIZE).toBeLessThanOrEqual(100);
  });

  it("goes on while fewer runs are loaded than match, and stops at the total or an empty page", () => {
    expect(nextOffset(100, 100, 250)).toBe(100);
    expect(nextOffset(200, 100, 250)).toBe(200);
    expect(nextOffset(250, 50, 250)).toBeNull();
    expect(nextOffset(0, 0, 0)).toBeNull();
    // runs deleted meanwhile: an empty page ends the list even if the total said more
    expect(nextOffset(100, 0, 180)).toBeNull();
  });
});

import { describe, expect, it } from "vitest";
import { formatWhen } from "./format";

describe("formatWhen", () => {
  const now = Date.parse("2026-12-03T15:00:00Z");
  it("says recent times relatively", () => {
    expect(formatWhen("2026-12-03T14:59:40Z", now)).toBe("just now");
    expect(formatWhen("2026-12-03T14:40:00Z", now)).toBe("20 min ago");
  });
  it("names the year of a time in another year, and not of one in this year", () => {
    const old = formatWhen("2024-03-05T10:00:00Z", now);
    expect(old).toContain("2024");
    expect(formatWhen("2026-03-05T10:00:00Z", now)).not.toContain("2026");
  });
  it("says a time ahead of this clock is ahead, not 'just now'", () => {
    const ahead = formatWhen("2027-01-10T10:00:00Z", now);
    expect(ahead).toContain("2027");
    expect(ahead).toContain("(ahead of this clock)");
  });
});

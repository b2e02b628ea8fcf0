// Why this file exists: checks that a C-locale WebView's "C" language becomes a tag Intl accepts.
import { describe, expect, it } from "vitest";
import { fixNavigatorLocale, safeLocale } from "./locale";

describe("the window's locale", () => {
  it("keeps a valid tag and replaces what Intl refuses", () => {
    expect(safeLocale("de-DE")).toBe("de-DE");
    expect(safeLocale("en-us")).toBe("en-US");
    expect(safeLocale("C")).toBe("en-US");
    expect(safeLocale("C.UTF-8")).toBe("en-US");
    expect(safeLocale(undefined)).toBe("en-US");
    expect(() => new Intl.NumberFormat("C")).toThrow();
  });

  it("makes navigator.language usable by Intl under LANG=C", () => {
    const nav = { language: "C", languages: ["C", "fr-FR"] } as unknown as Navigator;
    fixNavigatorLocale(nav);
    expect(nav.language).toBe("en-US");
    expect(nav.languages).toEqual(["en-US", "fr-FR"]);
    expect(new Intl.NumberFormat(nav.language).format(1234.5)).toBe("1,234.5");
  });
});

// Why this file exists: a WebView started under a C or POSIX locale (LANG=C.UTF-8) reports
// `navigator.language` as "C", which Intl refuses ("invalid language tag: C"); libraries that
// format numbers or dates with it (the context chart's uPlot) then fail. The window reads a
// valid tag instead, before any of them loads.

/** `tag` as Intl accepts it, or en-US when it is not a language tag at all. */
export function safeLocale(tag: string | undefined | null): string {
  if (!tag) return "en-US";
  try {
    return Intl.getCanonicalLocales(tag)[0] ?? "en-US";
  } catch {
    return "en-US";
  }
}

/** Replaces an invalid `navigator.language` (and `languages`) with a valid tag, once. */
export function fixNavigatorLocale(nav: Navigator | undefined = globalThis.navigator): void {
  if (!nav) return;
  const tag = nav.language;
  const safe = safeLocale(tag);
  if (safe === tag) return;
  const languages = Object.freeze((nav.languages ?? []).map(safeLocale));
  Object.defineProperty(nav, "language", { configurable: true, get: () => safe });
  Object.defineProperty(nav, "languages", { configurable: true, get: () => languages });
}

fixNavigatorLocale();

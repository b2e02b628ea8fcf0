import { createHttpPlatform } from "./http";
import { createTauriPlatform } from "./tauri";
import type { Platform } from "./types";

export type PlatformKind = Platform["kind"];

/**
 * Whether `?platform=mock` is honoured: in tests and the Vite dev server only. Vite replaces
 * `import.meta.env` at build time, so in a production build this is `false` and the mock (its
 * fixtures and recorded runs) is not in the bundle at all (`npm run check-bundle` proves it).
 */
export const MOCK_ALLOWED: boolean = import.meta.env.DEV || import.meta.env.MODE === "test";

/**
 * Which adapter a page gets: Tauri when its internals are injected, else HTTP. `?platform=http`
 * forces HTTP (a `baton serve` page opened inside the app's webview); `?platform=mock` forces the
 * mock where it is allowed. Any other value, and `mock` in a production build, is ignored.
 */
export function detectPlatformKind(
  win: { location: { search: string }; __TAURI_INTERNALS__?: unknown },
  allowMock: boolean = MOCK_ALLOWED,
): PlatformKind {
  const forced = new URLSearchParams(win.location.search).get("platform");
  if (forced === "http") return "http";
  if (forced === "mock" && allowMock) return "mock";
  if (win.__TAURI_INTERNALS__ !== undefined) return "tauri";
  return "http";
}

/** The adapter of that kind; the mock is loaded on demand, and only where it is allowed. */
export async function createPlatform(kind: PlatformKind): Promise<Platform> {
  if (kind === "mock" && MOCK_ALLOWED) {
    const { createMockPlatform, demoCaptureFeed } = await import("./mock");
    return createMockPlatform(undefined, { captureFeed: demoCaptureFeed() });
  }
  // `mock` where it is not allowed: the real adapter, as if nothing had been forced.
  const real = kind === "mock" ? (window.__TAURI_INTERNALS__ !== undefined ? "tauri" : "http") : kind;
  return real === "tauri" ? createTauriPlatform() : createHttpPlatform();
}

declare global {
  interface Window {
    __TAURI_INTERNALS__?: unknown;
  }
}

export type { Platform, FileEntry, ExportFormat, NativeDialogs } from "./types";
export { PlatformError, EXPORT_FORMATS, EXPORT_LABELS, EXPORT_EXTENSIONS } from "./types";

import { createHttpPlatform } from "./http";
import { createMockPlatform } from "./mock";
import { createTauriPlatform } from "./tauri";
import type { Platform } from "./types";

export type PlatformKind = Platform["kind"];

/**
 * Which adapter a page gets: Tauri when its internals are injected, else HTTP. `?platform=mock`
 * forces mock; `?platform=http` forces HTTP (a `baton serve` page opened inside the app's webview).
 */
export function detectPlatformKind(win: { location: { search: string }; __TAURI_INTERNALS__?: unknown }): PlatformKind {
  const forced = new URLSearchParams(win.location.search).get("platform");
  if (forced === "mock" || forced === "http") return forced;
  if (win.__TAURI_INTERNALS__ !== undefined) return "tauri";
  return "http";
}

export function createPlatform(kind: PlatformKind): Platform {
  switch (kind) {
    case "tauri":
      return createTauriPlatform();
    case "mock":
      return createMockPlatform();
    case "http":
      return createHttpPlatform();
  }
}

declare global {
  interface Window {
    __TAURI_INTERNALS__?: unknown;
  }
}

export type { Platform, FileEntry, ExportFormat, NativeDialogs } from "./types";
export { PlatformError, EXPORT_FORMATS, EXPORT_LABELS, EXPORT_EXTENSIONS } from "./types";

import type { ApiError } from "../bindings/ApiError";
import type { CommandName, Commands } from "../bindings/commands";
import type { ErrorCode } from "../bindings/ErrorCode";
import type { FileEntry } from "../bindings/FileEntry";
import type { LiveEvent } from "../bindings/LiveEvent";
import type { StartRunArgs } from "../bindings/StartRunArgs";

export type { FileEntry, CommandName, Commands };
export type { ExportFormat, Provider, TraceFormat } from "./catalog";
export { EXPORT_FORMATS, EXPORT_LABELS, EXPORT_EXTENSIONS, REAL_PROVIDERS, TRACE_FORMATS } from "./catalog";

/** One method per declared backend command (generated map: `bindings/commands.ts`). */
export type Backend = {
  // A command whose arguments are all optional may be called without any.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  [K in CommandName]: {} extends Commands[K]["args"]
    ? (args?: Commands[K]["args"]) => Promise<Commands[K]["result"]>
    : (args: Commands[K]["args"]) => Promise<Commands[K]["result"]>;
};

/**
 * Native file dialogs, where the host has them (Tauri). The backend runs them and remembers the
 * chosen path as one the app may read and write (the app can touch only files the user chose,
 * the bundled examples and its data folder).
 */
export interface NativeDialogs {
  /** Asks for a file to open; null when cancelled. */
  choose_open_path(args: { extensions: string[]; label?: string }): Promise<string | null>;
  /** Asks where to save; null when cancelled. */
  choose_save_path(args: { default_name: string; extensions: string[] }): Promise<string | null>;
}

/**
 * What the UI talks to: every declared command (same names and argument objects as the backend:
 * Tauri `invoke("call", {command, args})`, HTTP `POST /api/<command>`), plus `startRun`, which
 * starts a run and streams its events (`start_run` then `run_events` long-polls).
 */
export interface Platform extends Omit<Backend, "start_run" | "run_events"> {
  readonly kind: "tauri" | "http" | "mock";
  /** Present only where the host has native file dialogs. */
  readonly dialogs: NativeDialogs | null;
  /**
   * Starts a run (saved to the store as it goes) and streams its events to `onEvent` until it
   * finishes; resolves with the run id as soon as the run has started.
   */
  startRun(args: StartRunInput, onEvent: (e: RunStreamEvent) => void): Promise<string>;
}

/** `StartRunArgs` as the UI sends it. */
export type StartRunInput = StartRunArgs;

/** A live event, or the adapter's own word that the stream broke (the run may go on). */
export type RunStreamEvent = LiveEvent | { type: "stream_error"; message: string };

/** Codes the UI itself gives a failure that never reached the backend. */
export type UiErrorCode = "ui.network" | "ui.http" | "ui.bad_json" | "ui.internal";

/** Every failure from any host, as the backend's `{code, message}`. */
export class PlatformError extends Error {
  readonly code: ErrorCode | UiErrorCode;
  constructor(code: ErrorCode | UiErrorCode, message: string) {
    super(message);
    this.name = "PlatformError";
    this.code = code;
  }
}

function isApiError(v: unknown): v is ApiError {
  return (
    typeof v === "object" &&
    v !== null &&
    typeof (v as { code?: unknown }).code === "string" &&
    typeof (v as { message?: unknown }).message === "string"
  );
}

/** Normalises whatever a host threw into a PlatformError. */
export function toPlatformError(e: unknown, fallbackCode: UiErrorCode = "ui.internal"): PlatformError {
  if (e instanceof PlatformError) return e;
  if (isApiError(e)) return new PlatformError(e.code, e.message);
  if (typeof e === "string") {
    try {
      const parsed: unknown = JSON.parse(e);
      if (isApiError(parsed)) return new PlatformError(parsed.code, parsed.message);
    } catch {
      /* not JSON */
    }
    return new PlatformError(fallbackCode, e);
  }
  if (e instanceof Error) return new PlatformError(fallbackCode, e.message);
  return new PlatformError(fallbackCode, String(e));
}

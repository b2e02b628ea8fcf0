// What a dropped or picked trace file must be before its text is sent to `import_trace_upload`:
// one file, a trace's extension, not empty, and small enough for `baton serve`'s 16 MiB request
// limit (checked on the size first, then on the request body itself). Refusals are `{code,
// message}` like the backend's, and say what to do instead.
import { PlatformError } from "../platform/types";

/** `baton serve` refuses a request body over this (`MAX_BODY` in src/serve/mod.rs). */
export const MAX_REQUEST_BYTES = 16 * 1024 * 1024;

/** Room in the request for the JSON around the text (`{"name":…,"text":…}`). */
const ENVELOPE = 64 * 1024;

/** The largest file read at all; a bigger one is refused before it is read. */
export const MAX_UPLOAD_BYTES = MAX_REQUEST_BYTES - ENVELOPE;

/** Extensions a trace file may have (JSON, JSON Lines, an ADK SSE stream saved as text). */
export const TRACE_EXTENSIONS = [".json", ".jsonl", ".ndjson", ".txt"] as const;

/** The `accept` of a file input for traces. */
export const TRACE_ACCEPT = TRACE_EXTENSIONS.join(",");

export type FileLike = { name: string; size: number };

const mib = (n: number) => `${(n / (1024 * 1024)).toFixed(n < 10 * 1024 * 1024 ? 1 : 0)} MB`;

export const isTraceFileName = (name: string) => TRACE_EXTENSIONS.some((x) => name.toLowerCase().endsWith(x));

function tooLarge(name: string, what: string): PlatformError {
  return new PlatformError(
    "import.too_large",
    `${name} ${what}; a file sent from the window can be at most ${mib(MAX_UPLOAD_BYTES)}. ` +
      "Put it in the folder Baton serves and use Open trace with its path (or `baton trace import` it); nothing was imported",
  );
}

/** Why these dropped or picked files cannot be imported as they are (null: the one file may be read). */
export function checkTraceFiles(files: readonly FileLike[]): PlatformError | null {
  if (files.length === 0) return new PlatformError("import.read", "nothing was dropped but files can be: drop a trace file (.json, .jsonl or .txt)");
  if (files.length > 1) {
    return new PlatformError("import.read", `${files.length} files were dropped; drop one trace file at a time; nothing was imported`);
  }
  const f = files[0] as FileLike;
  if (!isTraceFileName(f.name)) {
    return new PlatformError(
      "import.unknown_format",
      `${f.name} is not a trace file: Baton imports traces from .json, .jsonl or .txt files (to open a topology, use Open…); nothing was imported`,
    );
  }
  if (f.size === 0) return new PlatformError("import.read", `${f.name}: the file is empty; nothing was imported`);
  if (f.size > MAX_UPLOAD_BYTES) return tooLarge(f.name, `is ${mib(f.size)}`);
  return null;
}

/** The request body's size in bytes (UTF-8) for this upload: a file under the limit can still grow past it when escaped. */
export function requestBytes(args: object): number {
  return new TextEncoder().encode(JSON.stringify(args)).length;
}

/** Refuses the text read from `name` when the request carrying it would be over `baton serve`'s limit. */
export function checkRequestSize(name: string, args: object): PlatformError | null {
  const bytes = requestBytes(args);
  return bytes > MAX_REQUEST_BYTES ? tooLarge(name, `takes ${mib(bytes)} to send`) : null;
}

/** The run an `import.duplicate` error names ("already imported as run ID"), if it names one. */
export function duplicateOf(message: string): string | null {
  return /already imported as run ([0-9A-Za-z-]+)/.exec(message)?.[1] ?? null;
}

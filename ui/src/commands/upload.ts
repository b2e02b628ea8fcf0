// Importing a trace file the window holds (dropped on it, or picked with "Choose a file…"), in
// either host: checked (one file, a trace's extension, its size), read as text, sent with
// `import_trace_upload` under its own name, and its first run opened in the debugger, as Open
// trace does with a path. Failures throw `{code, message}` and import nothing.
import { useMemo } from "react";
import { PlatformError, toPlatformError, type TraceFormat } from "../platform/types";
import type { UploadArgs } from "../bindings/UploadArgs";
import { runSource } from "../run/source";
import { checkRequestSize, checkTraceFiles, duplicateOf, type FileLike } from "../run/upload";
import { useDebugger } from "../store/debugger";
import { useRun } from "../store/run";
import { useRunsHome } from "../store/runsHome";
import { useUi } from "../store/ui";
import type { RunCommands } from "./run";

/** A file the window was given: its name, size and (read on demand) text. `File` is one. */
export type TraceFile = FileLike & { text(): Promise<string> };

export type UploadOptions = { from?: TraceFormat; again?: boolean };

export function makeUploadCommands(run: RunCommands) {
  const { platform } = run;
  const ui = () => useUi.getState();

  /**
   * Imports `files` (exactly one trace file) and opens its first run; the run ids. Throws a
   * `PlatformError` (the UI's own refusal, or the backend's) with the message as the window says it.
   */
  async function importFiles(files: readonly TraceFile[], opts: UploadOptions = {}): Promise<string[]> {
    const refused = checkTraceFiles(files);
    if (refused) throw refused;
    const file = files[0] as TraceFile;
    let text: string;
    try {
      text = await file.text();
    } catch (e) {
      throw toPlatformError({ code: "import.read", message: `${file.name}: the window could not read the file (${toPlatformError(e).message}); nothing was imported` });
    }
    if (text.trim() === "") throw toPlatformError({ code: "import.read", message: `${file.name}: the file is empty; nothing was imported` });
    const args: UploadArgs = { name: file.name, text };
    if (opts.from && opts.from !== "auto") args.from = opts.from;
    if (opts.again) args.again = true;
    const tooBig = checkRequestSize(file.name, args);
    if (tooBig) throw tooBig;
    let ids: string[];
    ui().setBusy(`Importing ${file.name}…`);
    try {
      ids = await platform.import_trace_upload(args);
    } catch (e) {
      throw windowError(toPlatformError(e), file.name);
    } finally {
      ui().setBusy(null);
    }
    useRun.getState().bumpRuns();
    const first = ids[0];
    if (!first) {
      ui().notify("info", `${file.name} holds no runs`);
      return ids;
    }
    ui().openDialog(null);
    useRunsHome.getState().hide();
    if (await run.openRun(first)) {
      const source = runSource(useDebugger.getState().overview?.summary ?? { source: null });
      const more = ids.length > 1 ? `${ids.length} runs imported; showing the first. The others are in Runs (top bar).` : undefined;
      const notes = source?.notes.length ? `Importer notes: ${source.notes.join("; ")}` : undefined;
      ui().notify("success", `Imported ${file.name}`, [more, notes].filter(Boolean).join(" ") || undefined);
    }
    return ids;
  }

  return { platform, importFiles };
}

/** The backend's error as the window says it: its advice names the window's ways, not the CLI's flags. */
function windowError(e: PlatformError, name: string): PlatformError {
  if (e.code !== "import.duplicate") {
    const text = e.message.replace(/pass --from [\w|-]+ if it is one of them/, "choose its format in Open trace's Format list (then Choose a file…) if it is one of them");
    return text === e.message ? e : new PlatformError(e.code, text);
  }
  const id = duplicateOf(e.message);
  if (!id) return e;
  return new PlatformError(e.code, `${name}: already imported as run ${id} (the same content); open that run, or import it again as a new run; nothing was imported`);
}

export type UploadCommands = ReturnType<typeof makeUploadCommands>;

/** Upload commands over the window's run commands (one set per window: their step caches are shared). */
export function useUploadCommands(run: RunCommands): UploadCommands {
  return useMemo(() => makeUploadCommands(run), [run]);
}

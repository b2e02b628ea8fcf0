import type { ApiError } from "../bindings/ApiError";
import type { Finding } from "../bindings/Finding";
import type { LiveEvent } from "../bindings/LiveEvent";
import type { OpenedTopology } from "../bindings/OpenedTopology";
import type { ProviderStatus } from "../bindings/ProviderStatus";
import type { RunOverview } from "../bindings/RunOverview";
import type { RunSummary } from "../bindings/RunSummary";
import type { StartRunArgs } from "../bindings/StartRunArgs";
import type { StepView } from "../bindings/StepView";
import type { Topology } from "../bindings/Topology";
import type { TransferView } from "../bindings/TransferView";

/** A topology file the backend offers to open. */
export type FileEntry = { path: string; name: string };

export const EXPORT_FORMATS = ["yaml", "json", "openai-agents-py", "mermaid", "dot"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_EXTENSIONS: Record<ExportFormat, string> = {
  yaml: "yaml",
  json: "json",
  "openai-agents-py": "py",
  mermaid: "mmd",
  dot: "dot",
};

export const EXPORT_LABELS: Record<ExportFormat, string> = {
  yaml: "YAML",
  json: "JSON",
  "openai-agents-py": "OpenAI Agents SDK (Python)",
  mermaid: "Mermaid",
  dot: "Graphviz DOT",
};

/** Providers the backend can call with a real model (the order of the Settings table). */
export const REAL_PROVIDERS = ["openai", "openai-responses", "anthropic", "gemini", "openai-compatible"] as const;

/** Formats `import_trace` reads (`auto` sniffs the file). */
export const TRACE_FORMATS = ["auto", "openai-agents", "otlp", "adk"] as const;
export type TraceFormat = (typeof TRACE_FORMATS)[number];

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
 * The backend contract. Method names and argument objects match the backend commands exactly
 * (Tauri `invoke(name, args)`, HTTP `POST /api/<name>` with `args` as the body).
 */
export interface Platform {
  readonly kind: "tauri" | "http" | "mock";
  /** Present only where the host has native file dialogs. */
  readonly dialogs: NativeDialogs | null;

  list_files(args?: Record<string, never>): Promise<FileEntry[]>;
  open_topology(args: { path: string }): Promise<OpenedTopology>;
  new_topology(args: { name: string }): Promise<Topology>;
  save_topology(args: { topology: Topology; path: string }): Promise<null>;
  lint_topology(args: { topology: Topology }): Promise<Finding[]>;
  export_topology(args: { topology: Topology; format: ExportFormat }): Promise<string>;
  refactor_supervisor(args: { topology: Topology; chain: string[] }): Promise<Topology>;
  /** Writes an export that is not a topology (code, diagrams). */
  write_text(args: { path: string; text: string }): Promise<null>;

  /**
   * Starts a run (saved to the store as it goes) and streams its events to `onEvent` until it
   * finishes; resolves with the run id as soon as the run has started.
   */
  startRun(args: StartRunInput, onEvent: (e: RunStreamEvent) => void): Promise<string>;
  cancel_run(args: { run_id: string }): Promise<null>;
  resume_run(args: { run_id: string }): Promise<null>;
  /** Saved runs, newest first; `topology` filters by topology name. */
  list_runs(args: { topology?: string }): Promise<RunSummary[]>;
  run_overview(args: { run_id: string }): Promise<RunOverview>;
  step_view(args: { run_id: string; step: number }): Promise<StepView>;
  transfer_view(args: { run_id: string; index: number }): Promise<TransferView>;
  /** Steps of the transfers where the fact was lost. */
  fact_lost_steps(args: { run_id: string; fact: string }): Promise<number[]>;
  delete_run(args: { run_id: string }): Promise<null>;

  /** Each real provider: where its key comes from (never the key), its endpoint, whether it answers. */
  provider_status(args?: Record<string, never>): Promise<ProviderStatus[]>;
  /** Stores a key in the OS keyring. */
  set_provider_key(args: { provider: string; key: string }): Promise<null>;
  delete_provider_key(args: { provider: string }): Promise<null>;
  /** Imports a trace file into the store, all or nothing; the ids of the runs it saved. */
  import_trace(args: { path: string; from?: TraceFormat }): Promise<string[]>;
  /** The file the app was started on (its command line); null where there is none. */
  initial_file(args?: Record<string, never>): Promise<string | null>;
}

/** `StartRunArgs` as the UI sends it (the delay as a plain number, possibly null). */
export type StartRunInput = Omit<StartRunArgs, "mock_delay_ms"> & { mock_delay_ms: number | null };

/** A live event, or the adapter's own word that the stream broke (the run may go on). */
export type RunStreamEvent = LiveEvent | { type: "stream_error"; message: string };

export type CommandName =
  | Exclude<keyof Platform, "kind" | "dialogs" | "startRun">
  | keyof NativeDialogs
  | "start_run"
  | "run_events";

/** Every failure from any host, as the backend's `{code, message}`. */
export class PlatformError extends Error implements ApiError {
  readonly code: string;
  constructor(code: string, message: string) {
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
export function toPlatformError(e: unknown, fallbackCode = "internal"): PlatformError {
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

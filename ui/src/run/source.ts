// Where an imported run came from: `RunSummary.source` is free-form JSON from the importer.
import type { RunSummary } from "../bindings/RunSummary";
import { CATALOG } from "../bindings/commands";

export type RunSource = {
  format: string;
  file: string | null;
  notes: string[];
  /** For a captured run: when its first span reached the collector (RFC 3339). */
  capturedAt: string | null;
};

/** The generated catalog's label of each trace format (the Rust core's one list). */
const FORMAT_LABELS: Record<string, string> = Object.fromEntries(CATALOG.trace_formats.map((c) => [c.value, c.label]));

export const formatLabel = (f: string) => FORMAT_LABELS[f] ?? f;

/** The run's source when it was imported; null for runs Baton made. */
export function runSource(s: Pick<RunSummary, "source">): RunSource | null {
  const v = s.source;
  if (v === null || typeof v !== "object" || Array.isArray(v)) return null;
  const o = v as { [k: string]: unknown };
  const format = typeof o.format === "string" ? o.format : "trace";
  const file = typeof o.file === "string" ? o.file : null;
  const notes = Array.isArray(o.notes) ? o.notes.filter((n): n is string => typeof n === "string") : [];
  const capturedAt = typeof o.captured_at === "string" ? o.captured_at : null;
  return { format, file, notes, capturedAt };
}

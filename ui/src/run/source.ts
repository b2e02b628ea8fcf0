// Where an imported run came from: `RunSummary.source` is free-form JSON from the importer.
import type { RunSummary } from "../bindings/RunSummary";

export type RunSource = { format: string; file: string | null; notes: string[] };

const FORMAT_LABELS: Record<string, string> = {
  otlp: "OTLP (OpenTelemetry)",
  "openai-agents": "OpenAI Agents SDK",
  adk: "Google ADK session",
  "group-chat": "Group chat (AG2, Magentic-One)",
  autogen: "AutoGen AgentChat",
};

export const formatLabel = (f: string) => FORMAT_LABELS[f] ?? f;

/** The run's source when it was imported; null for runs Baton made. */
export function runSource(s: Pick<RunSummary, "source">): RunSource | null {
  const v = s.source;
  if (v === null || typeof v !== "object" || Array.isArray(v)) return null;
  const o = v as { [k: string]: unknown };
  const format = typeof o.format === "string" ? o.format : "trace";
  const file = typeof o.file === "string" ? o.file : null;
  const notes = Array.isArray(o.notes) ? o.notes.filter((n): n is string => typeof n === "string") : [];
  return { format, file, notes };
}

// Small formatters shared by the run views.
import type { ItemKind, OutcomeStatus, StepKind } from "./types";

export function formatDuration(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms) || ms < 0) return "—";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s < 10 ? s.toFixed(1) : Math.round(s)} s`;
  const m = Math.floor(s / 60);
  return `${m} min ${Math.round(s - m * 60)} s`;
}

export function durationMs(start: string | null, end: string | null): number | null {
  if (!start || !end) return null;
  const a = Date.parse(start);
  const b = Date.parse(end);
  return Number.isFinite(a) && Number.isFinite(b) ? b - a : null;
}

export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

export function formatWhen(iso: string, now: number = Date.now()): string {
  const t = Date.parse(iso);
  if (!Number.isFinite(t)) return iso;
  const d = (now - t) / 1000;
  const ahead = d < -60; // a sender's clock ahead of this one: said, not shown as "just now"
  if (!ahead && d < 45) return "just now";
  if (!ahead && d < 3600) return `${Math.round(d / 60)} min ago`;
  const date = new Date(t);
  const hm = date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  const sameDay = new Date(now).toDateString() === date.toDateString();
  // Another year (a trace recorded long ago, a clock set wrong) says its year.
  const sameYear = new Date(now).getFullYear() === date.getFullYear();
  const day = date.toLocaleDateString([], sameYear ? { month: "short", day: "numeric" } : { year: "numeric", month: "short", day: "numeric" });
  const when = sameDay ? hm : `${day} ${hm}`;
  return ahead ? `${when} (ahead of this clock)` : when;
}

export const STEP_LABELS: Record<StepKind, string> = {
  model_call: "model call",
  tool_call: "tool call",
  handoff: "handoff",
  delegation: "delegation",
  delegation_return: "returns",
  guard: "guard",
  guardrail: "guardrail",
  final: "final answer",
};

export const ITEM_LABELS: Record<ItemKind, string> = {
  instructions: "instructions",
  pinned_fact: "pinned fact",
  user_message: "user",
  assistant_message: "assistant",
  reasoning: "reasoning",
  tool_call: "tool call",
  tool_result: "tool result",
  transfer_call: "transfer call",
  transfer_output: "transfer output",
};

export const OUTCOME_LABELS: Record<OutcomeStatus, string> = {
  completed: "Completed",
  stopped: "Stopped",
  escalated: "Escalated",
  failed: "Failed",
  cancelled: "Cancelled",
  interrupted: "Interrupted",
  running: "Running",
};

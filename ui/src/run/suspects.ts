// The suspects report as the debugger shows it: transfers ordered with the cursor's first, the
// items to mark in a transfer's diff, and a suspect turned into a pinned fact (id, holders, the edit).
import type { Confidence } from "../bindings/Confidence";
import type { ErrorClass } from "../bindings/ErrorClass";
import type { Loss } from "../bindings/Loss";
import type { PinnedFact } from "../bindings/PinnedFact";
import type { Suspect } from "../bindings/Suspect";
import type { SuspectReport } from "../bindings/SuspectReport";
import type { TransferSuspects } from "../bindings/TransferSuspects";
import type { RunOrigin } from "../bindings/RunOrigin";
import type { Topology } from "../model/types";
import { lastTransferAtOrBefore } from "./facts";
import type { RunSummary, TransferBrief } from "./types";

export type { Confidence, ErrorClass, Loss, Suspect, SuspectReport, TransferSuspects };

export const CONFIDENCE_LABEL: Record<Confidence, string> = { high: "high", medium: "medium", low: "low" };

export const LOSS_LABEL: Record<Loss, string> = {
  dropped: "dropped",
  transformed: "transformed without its point",
  withheld: "withheld at a delegation",
  left_behind: "left behind by the worker",
};

/** AgentAsk's handoff error classes, in words. */
export const ERROR_CLASS_LABEL: Record<ErrorClass, string> = {
  data_gap: "data gap",
  signal_corruption: "signal corruption",
  referential_drift: "referential drift",
  capability_gap: "capability gap",
};

/** What each class means, for a tooltip. */
export const ERROR_CLASS_TITLE: Record<ErrorClass, string> = {
  data_gap: "Data gap: information the receiver needed did not reach it",
  signal_corruption: "Signal corruption: what crossed says something other than what the sender meant (a condition or qualification dropped)",
  referential_drift: "Referential drift: what crossed refers to something the receiver cannot resolve",
  capability_gap: "Capability gap: the receiver cannot redo what produced it (it lacks the tool or access)",
};

/**
 * Where the run came from: Baton's own run (its topology can take a fact), or an imported or
 * captured trace (no topology file). A summary without `origin` is read by its source.
 */
export function runOrigin(s: Pick<RunSummary, "origin" | "source">): RunOrigin {
  if (s.origin) return s.origin;
  const src = s.source;
  if (src === null || typeof src !== "object" || Array.isArray(src)) return "native";
  return (src as { captured?: unknown }).captured === true ? "captured" : "imported";
}

/** The index of the transfer at or before `step` (the one the cursor is on or after); null before the first. */
export function currentTransfer(transfers: readonly TransferBrief[], step: number): number | null {
  const i = lastTransferAtOrBefore(transfers, step);
  return i < 0 ? null : (transfers[i] as TransferBrief).index;
}

/** The report's transfers, the current one first, then the others in the order they happened. */
export function orderTransfers(report: SuspectReport, current: number | null): TransferSuspects[] {
  const rest = [...report.transfers].sort((a, b) => a.step - b.step || a.transfer - b.transfer);
  const i = current === null ? -1 : rest.findIndex((t) => t.transfer === current);
  if (i <= 0) return rest;
  const [cur] = rest.splice(i, 1);
  return [cur as TransferSuspects, ...rest];
}

/** One transfer's suspects by item id with their confidence (the diff marks them); empty when none. */
export function suspectMarks(report: SuspectReport | undefined, transfer: number): ReadonlyMap<string, Suspect> {
  const t = report?.transfers.find((x) => x.transfer === transfer);
  return new Map((t?.suspects ?? []).map((s) => [s.item, s]));
}

/** Text compared loosely: the same words, whatever the case and spacing. */
export function normalizeText(text: string): string {
  return text.trim().replace(/\s+/g, " ").toLowerCase();
}

/** The fact among `facts` that says the suspect's text, if any. */
export function pinnedAs(facts: readonly PinnedFact[] | undefined, text: string): PinnedFact | undefined {
  const n = normalizeText(text);
  return (facts ?? []).find((f) => normalizeText(f.text) === n);
}

/**
 * A fact id from its text: its first six words, lower case, joined by hyphens (at most 48
 * characters), made unique among `taken` with -2, -3…; "fact" when the text has no word.
 */
export function factId(text: string, taken: ReadonlySet<string>): string {
  const words = text.toLowerCase().match(/[a-z0-9_]+/g) ?? [];
  let base = words
    .slice(0, 6)
    .join("-")
    .replace(/_+/g, "-")
    .replace(/-+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 48)
    .replace(/-$/, "");
  if (!base) base = "fact";
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

/**
 * The pinned fact that says what the suspect said, held by the agent that had it. A suspect of
 * the user's (or of an agent `agents` does not name) is held by the transfer's sender, whose
 * context had it. Null when no agent of `agents` can hold it.
 */
export function factFromSuspect(s: Suspect, t: Pick<TransferSuspects, "from">, agents: readonly string[], taken: ReadonlySet<string>): PinnedFact | null {
  const holder = agents.includes(s.agent) ? s.agent : agents.includes(t.from) ? t.from : null;
  if (!holder) return null;
  return { id: factId(s.text, taken), text: s.text.trim(), holders: [holder] };
}

/** The topology with the fact pinned; the same object when a fact with that text is already there. */
export function withPinnedFact(t: Topology, fact: PinnedFact): Topology {
  if (pinnedAs(t.facts, fact.text)) return t;
  return { ...t, facts: [...(t.facts ?? []), fact] };
}

/**
 * The shell command that imports the trace again with the overlay's facts checked at every
 * transfer; a run with no file to read again (a captured one) is exported from the store first.
 */
export function reimportCommand(traceFile: string | null, runId: string, factsFile = "facts.yaml"): string {
  const q = (s: string) => (/^[\w./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
  const facts = `--facts ${q(factsFile)} --again`;
  if (traceFile) return `baton trace import ${q(traceFile)} ${facts}`;
  return `baton trace export --to otlp ${q(runId)} -o run.otlp.json && baton trace import run.otlp.json ${facts}`;
}

// A scenario's expectations (`Scenario.expect`) in words and a test result's verdict and summary, for the Tests panel.
import type { CaseResult } from "../bindings/CaseResult";
import type { Expect } from "./types";

const arrow = (edge: string) => edge.replace("->", " → ");

/** Each expectation as a phrase: "status completed", "resolved-meaning lost at resolution → verification". */
export function expectPhrases(e: Expect | undefined): string[] {
  if (!e) return [];
  const out: string[] = [];
  if (e.status !== undefined) out.push(`status ${e.status}`);
  if (e.reason_contains !== undefined) out.push(`reason contains '${e.reason_contains}'`);
  if (e.output_contains !== undefined) out.push(`output contains '${e.output_contains}'`);
  if (e.output_matches !== undefined) out.push(`output matches /${e.output_matches}/`);
  for (const f of e.facts_kept ?? []) out.push(`${f} kept`);
  for (const [fact, edge] of Object.entries(e.fact_lost_at ?? {})) out.push(`${fact} lost at ${arrow(edge)}`);
  if (e.max_transfers !== undefined) out.push(`at most ${e.max_transfers} ${e.max_transfers === 1 ? "transfer" : "transfers"}`);
  if (e.visits?.length) out.push(`visits ${e.visits.join(", ")}`);
  if (e.not_visits?.length) out.push(`never visits ${e.not_visits.join(", ")}`);
  if (e.owner !== undefined) out.push(`ends with ${e.owner}`);
  if (e.max_tokens !== undefined) out.push(`at most ${String(e.max_tokens)} tokens`);
  return out;
}

/** The phrases on one line, joined by " · ". */
export function describeExpect(e: Expect | undefined): string {
  return expectPhrases(e).join(" · ");
}

export type CaseVerdict = "passed" | "failed" | "error";

export function caseVerdict(r: CaseResult): CaseVerdict {
  if (r.error !== null) return "error";
  return r.failures.length ? "failed" : "passed";
}

/** "4 passed, 1 failed" (and ", 1 error" when a run did not happen). */
export function testSummary(results: readonly CaseResult[]): string {
  const n = { passed: 0, failed: 0, error: 0 };
  for (const r of results) n[caseVerdict(r)]++;
  const parts = [`${n.passed} passed`, `${n.failed} failed`];
  if (n.error) parts.push(`${n.error} ${n.error === 1 ? "error" : "errors"}`);
  return parts.join(", ");
}

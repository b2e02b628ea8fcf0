// What sets a saved run apart from the one saved before it, in a few words: runs of one topology
// otherwise read alike in a list (the same outcome, the same reason), so each row says what
// changed — the scenario, a provider, the final answer, who ended it, how it was judged, the lost
// facts, its size — or that nothing visible did.
import type { RunSummary } from "./types";

const clip = (s: string, n = 28) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** Providers that differ, agent by agent: `verification openai:gpt-4o (was mock)`. */
function providerChanges(a: RunSummary, b: RunSummary): string[] {
  const agents = [...new Set([...Object.keys(a.providers), ...Object.keys(b.providers)])].sort();
  return agents
    .filter((id) => (a.providers[id] ?? "") !== (b.providers[id] ?? ""))
    .map((id) => `${id} ${a.providers[id] || "none"} (was ${b.providers[id] || "none"})`);
}

/**
 * How `run` differs from `before` (the run of the same list saved just before it), most telling
 * first; empty when nothing a list shows differs. A fork says what it changed itself.
 */
export function whatDiffers(run: RunSummary, before: RunSummary | undefined): string[] {
  if (!before) return [];
  const out: string[] = [];
  if (run.topology !== before.topology) out.push(`topology ${clip(run.topology)} (was ${clip(before.topology)})`);
  if (run.scenario !== before.scenario) out.push(`scenario ${clip(run.scenario)} (was ${clip(before.scenario)})`);
  out.push(...providerChanges(run, before));
  const judged = run.mark?.judgement ?? run.ending?.judgement ?? null;
  const judgedBefore = before.mark?.judgement ?? before.ending?.judgement ?? null;
  if (judged !== judgedBefore) out.push(`judged ${judged ?? "unknown"} (was ${judgedBefore ?? "unknown"})`);
  if (run.outcome.status !== before.outcome.status) out.push(`${run.outcome.status} (was ${before.outcome.status})`);
  if ((run.final_output ?? "") !== (before.final_output ?? "")) {
    out.push(run.final_output ? "another final answer" : "no final answer");
  }
  if (run.owner !== before.owner && run.owner && before.owner) out.push(`ended with ${run.owner} (was ${before.owner})`);
  if (run.lost_facts !== before.lost_facts) out.push(`${run.lost_facts} lost fact${run.lost_facts === 1 ? "" : "s"} (was ${before.lost_facts})`);
  if (run.transfers !== before.transfers) out.push(`${run.transfers} transfers (was ${before.transfers})`);
  else if (run.steps !== before.steps) out.push(`${run.steps} steps (was ${before.steps})`);
  return out;
}

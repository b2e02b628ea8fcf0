// Proofs as the Suspects tab shows them: a proof's badge ("changes the ending (1/1)", "no effect
// (0/3)", "not tested: why"), the verdict's basis and its ending in words, the prove options (who
// answers after the restored point) turned into `prove_start`'s arguments, and the proofs kept
// when the report is read again (another transfer proved, the run marked).
import type { Basis } from "../bindings/Basis";
import type { Ending } from "../bindings/Ending";
import type { ProofStatus } from "../bindings/ProofStatus";
import type { ProveArgs } from "../bindings/ProveArgs";
import type { RunMark } from "../bindings/RunMark";
import type { SuspectReport, TransferSuspects } from "./suspects";

export type ProofTone = ProofStatus["status"];

/** A proof's badge: its tone (colour), the words, and a tooltip that says what was counted. */
export function proofBadge(p: ProofStatus): { tone: ProofTone; label: string; title: string } {
  switch (p.status) {
    case "changes":
      return {
        tone: "changes",
        label: `changes the ending (${p.flips}/${p.samples})`,
        title:
          `${p.flips} of ${p.samples} ${p.samples === 1 ? "fork" : "forks"} with it put back ended differently` +
          (p.baseline > 0 ? `; ${p.baseline} of ${p.samples} with nothing put back did too` : ""),
      };
    case "no_effect":
      return {
        tone: "no_effect",
        label: `no effect (0/${p.samples})`,
        title: `None of ${p.samples} ${p.samples === 1 ? "fork" : "forks"} with it put back ended differently`,
      };
    case "not_tested":
      return { tone: "not_tested", label: `not tested: ${p.why}`, title: `Not tested: ${p.why}` };
  }
}

export const BASIS_LABEL: Record<Basis, string> = { proven: "Proven", suspected: "Suspected", none: "No cause" };

export const BASIS_TITLE: Record<Basis, string> = {
  proven: "Restoring what was lost in a fork changed the ending",
  suspected: "Ranked by the evidence in the recording; not proven by a fork (press Prove)",
  none: "No transfer-related cause found",
};

const strip = (text: string, prefix: RegExp) => text.replace(prefix, "").trim();

/**
 * Who judged the ending, in words: "judged bad by the scenario's expect: …", "judged bad by your
 * mark: why", "judged bad by the run's structure: …", "nothing judges this ending".
 */
export function endingLine(e: Ending): string {
  if (e.by === "nobody") return "nothing judges this ending";
  const judged = e.judgement ? `judged ${e.judgement}` : "judged";
  const with_ = (words: string, reason: string) => (reason ? `${judged} by ${words}: ${reason}` : `${judged} by ${words}`);
  switch (e.by) {
    case "expect":
      return with_("the scenario's expect", strip(e.reason, /^the scenario's expect failed:?/i));
    case "mark":
      return with_("your mark", strip(e.reason, /^marked (good|bad) by a person:?/i));
    case "judge":
      return with_("a judge model", e.reason.trim());
    case "signal":
      return with_("the run's structure", e.reason.trim());
  }
}

/** A mark as a key: it changes whenever the mark does (the verdict is read again then). */
export function markKey(mark: RunMark | null | undefined): string {
  return mark ? `${mark.judgement}|${mark.at}|${mark.why ?? ""}` : "";
}

// ---------- the prove options ----------

/** Who answers in the forks after the restored point: the scenario's mock scripts, the run's own providers, or models given here. */
export type Answerer = "mock" | "live" | "models";

export type ProveOptions = {
  answerer: Answerer;
  /** `AGENT=PROVIDER:MODEL[@URL]` entries (`*` for every agent), separated by commas, spaces or lines. */
  models: string;
  /** Forks per test with a sampled provider. */
  samples: string;
  /** At most this many model calls in all (empty: no limit). */
  budget: string;
};

/** The mock for Baton's own runs; a model to name for an imported or captured one (it has no mock scripts). */
export function defaultProveOptions(hasMockScripts: boolean): ProveOptions {
  return { answerer: hasMockScripts ? "mock" : "models", models: "", samples: "3", budget: "" };
}

/** The models typed, by agent, and what is wrong with the text (nothing: it can be sent). */
export function parseModels(text: string): { models: Record<string, string>; problems: string[] } {
  const models: Record<string, string> = {};
  const problems: string[] = [];
  for (const entry of text.split(/[\s,]+/).filter(Boolean)) {
    const eq = entry.indexOf("=");
    const agent = eq < 0 ? "" : entry.slice(0, eq).trim();
    const model = eq < 0 ? "" : entry.slice(eq + 1).trim();
    const colon = model.indexOf(":");
    const name = colon < 0 ? "" : model.slice(colon + 1).split("@")[0]!.trim();
    if (!agent || colon <= 0 || !name) {
      problems.push(`"${entry}": write AGENT=PROVIDER:MODEL[@URL], or *=PROVIDER:MODEL for every agent`);
      continue;
    }
    if (agent in models) {
      problems.push(`${agent} is given twice`);
      continue;
    }
    models[agent] = model;
  }
  return { models, problems };
}

const wholeNumber = (s: string) => /^\d+$/.test(s.trim());

/** Why the options cannot be sent as they are (empty: they can). */
export function proveProblems(o: ProveOptions): string[] {
  if (o.answerer === "mock") return [];
  const out: string[] = [];
  if (o.answerer === "models") {
    const { models, problems } = parseModels(o.models);
    out.push(...problems);
    if (problems.length === 0 && Object.keys(models).length === 0) out.push("Name a model: AGENT=PROVIDER:MODEL[@URL], or *=PROVIDER:MODEL for every agent");
  }
  if (!wholeNumber(o.samples) || Number(o.samples) < 1) out.push("Samples: a whole number of at least 1");
  if (o.budget.trim() && !wholeNumber(o.budget)) out.push("Budget: a whole number of model calls, or empty for no limit");
  return out;
}

/** `prove_start`'s arguments: the forks that change the ending are saved (the app opens them beside the run). */
export function proveArgs(runId: string, o: ProveOptions, transfer: number | null = null): ProveArgs {
  const args: ProveArgs = { run_id: runId, models: {}, live: false, save: true };
  if (transfer !== null) args.transfer = transfer;
  if (o.answerer === "mock") return args;
  if (o.answerer === "models") args.models = parseModels(o.models).models;
  else args.live = true;
  args.samples = Number(o.samples);
  if (o.budget.trim()) args.budget_calls = Number(o.budget);
  return args;
}

// ---------- proofs kept across reports ----------

/** Whether a proof ran at this transfer. */
export function proved(t: TransferSuspects): boolean {
  return t.proof !== null || t.suspects.some((s) => s.proof !== null);
}

/**
 * The report after another proof: `next`'s, where a transfer it did not prove keeps `prev`'s
 * proofs, and a proven verdict of `prev` stays unless `next` proved that transfer again.
 */
export function mergeProofReports(prev: SuspectReport | null, next: SuspectReport): SuspectReport {
  if (!prev) return next;
  const transfers = next.transfers.map((t) => {
    if (proved(t)) return t;
    const old = prev.transfers.find((x) => x.transfer === t.transfer);
    return old && proved(old) ? old : t;
  });
  const pv = prev.verdict;
  const reproved = next.transfers.some((t) => t.transfer === pv.transfer && proved(t));
  const verdict = next.verdict.basis !== "proven" && pv.basis === "proven" && !reproved ? pv : next.verdict;
  return { ...next, transfers, verdict };
}

/**
 * A report read again (the run was marked since the proof): its own verdict and order, each
 * suspect and transfer with the proof it had, and the proof's cost.
 */
export function withProofs(base: SuspectReport, proof: SuspectReport): SuspectReport {
  const transfers = base.transfers.map((t) => {
    const p = proof.transfers.find((x) => x.transfer === t.transfer);
    if (!p) return t;
    const byItem = new Map(p.suspects.map((s) => [s.item, s.proof]));
    return { ...t, proof: t.proof ?? p.proof, suspects: t.suspects.map((s) => ({ ...s, proof: s.proof ?? byItem.get(s.item) ?? null })) };
  });
  return { ...base, transfers, cost: base.cost ?? proof.cost };
}

/** The texts of the items a proof restored with the suspect (those the transfer lists as suspects), and how many others. */
export function restoredWith(ids: readonly string[], t: Pick<TransferSuspects, "suspects">): { texts: string[]; others: number } {
  const texts: string[] = [];
  let others = 0;
  for (const id of ids) {
    const s = t.suspects.find((x) => x.item === id);
    if (s) texts.push(s.text.trim());
    else others += 1;
  }
  return { texts, others };
}

/** A proof's cost in one line: forks, model calls, tokens, time, who answered. */
export function costLine(c: NonNullable<SuspectReport["cost"]>): string {
  const n = (v: number) => v.toLocaleString("en-US");
  const plural = (v: number, one: string, many: string) => `${n(v)} ${v === 1 ? one : many}`;
  const time = c.ms < 1000 ? `${n(c.ms)} ms` : `${(c.ms / 1000).toFixed(1)} s`;
  return `${plural(c.forks, "fork", "forks")} · ${plural(c.model_calls, "model call", "model calls")} · ${plural(c.tokens, "token", "tokens")} · ${time} · answered by ${c.answered_by}`;
}

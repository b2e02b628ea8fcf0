// Proofs in words (badges, the ending, the cost), the prove options → `prove_start`'s arguments,
// and proofs kept across reports. Values are ticket-reopen's, as `baton suspects --prove` reports.
import { describe, expect, it } from "vitest";
import type { Suspect } from "../bindings/Suspect";
import type { SuspectReport } from "../bindings/SuspectReport";
import { costLine, defaultProveOptions, endingLine, markKey, mergeProofReports, parseModels, proofBadge, proveArgs, proveProblems, restoredWith, withProofs } from "./prove";

const suspect = (item: string, text: string, proof: Suspect["proof"] = null): Suspect => ({
  item,
  agent: "resolution",
  kind: "tool_result",
  text,
  loss: "dropped",
  score: 4,
  confidence: "medium",
  evidence: [],
  class: null,
  position: 0,
  proof,
});

const CHANGED = "the scenario's expect: now fails (it passed); verification no longer calls reopen_ticket";
const changes = (item: string, fork: string | null = null): Suspect["proof"] => ({ status: "changes", flips: 1, samples: 1, baseline: 0, changed: CHANGED, with: [], at: 5, put_back: [item], fork_run: fork });
const noEffect = (item: string): Suspect["proof"] => ({ status: "no_effect", samples: 1, changed: "", with: [], at: 5, put_back: [item], fork_run: null });

function report(t0: Suspect[], t1: Suspect[], basis: "proven" | "suspected" = "suspected", suspect = "fact"): SuspectReport {
  return {
    transfers: [
      { transfer: 0, step: 1, kind: "handoff", from: "triage", to: "resolution", suspects: t0, more: 0, proof: null },
      { transfer: 1, step: 5, kind: "handoff", from: "resolution", to: "verification", suspects: t1, more: 0, proof: null },
    ],
    verdict: { bad: "reopened", ending: { judgement: "bad", by: "signal", reason: "reopened", at: 8 }, basis, transfer: 1, suspect, chain: [], text: `${basis} cause` },
    cost: null,
  };
}

describe("proofBadge", () => {
  it("says whether restoring the item changed the ending, out of how many forks", () => {
    expect(proofBadge({ status: "changes", flips: 1, samples: 1, baseline: 0 })).toMatchObject({ tone: "changes", label: "changes the ending (1/1)" });
    const sampled = proofBadge({ status: "changes", flips: 2, samples: 3, baseline: 1 });
    expect(sampled.label).toBe("changes the ending (2/3)");
    // the noise: forks with nothing put back that changed too
    expect(sampled.title).toBe("2 of 3 forks with it put back ended differently; 1 of 3 with nothing put back did too");
    expect(proofBadge({ status: "no_effect", samples: 3 })).toMatchObject({ tone: "no_effect", label: "no effect (0/3)" });
    expect(proofBadge({ status: "not_tested", why: "budget spent" })).toMatchObject({ tone: "not_tested", label: "not tested: budget spent" });
  });
});

describe("endingLine", () => {
  it("names who judged the ending", () => {
    expect(endingLine({ judgement: "bad", by: "expect", reason: "the scenario's expect failed: final_contains FIX_4812: the answer does not name it", at: 9 })).toBe(
      "judged bad by the scenario's expect: final_contains FIX_4812: the answer does not name it",
    );
    expect(endingLine({ judgement: "bad", by: "mark", reason: "marked bad by a person: reopened for nothing", at: 11 })).toBe("judged bad by your mark: reopened for nothing");
    expect(endingLine({ judgement: "good", by: "mark", reason: "marked good by a person", at: 11 })).toBe("judged good by your mark");
    expect(endingLine({ judgement: "bad", by: "signal", reason: "verification undoes what resolution acted on at step 8", at: 8 })).toBe(
      "judged bad by the run's structure: verification undoes what resolution acted on at step 8",
    );
    expect(endingLine({ judgement: "bad", by: "judge", reason: "the answer is wrong", at: 11 })).toBe("judged bad by a judge model: the answer is wrong");
    expect(endingLine({ judgement: null, by: "nobody", reason: "nothing judges this ending: no failed expect:, no mark", at: null })).toBe("nothing judges this ending");
  });

  it("keys a mark by what it says and when", () => {
    expect(markKey(null)).toBe("");
    expect(markKey({ judgement: "bad", why: "x", at: "2026-12-03T08:00:00Z" })).not.toBe(markKey({ judgement: "bad", why: "y", at: "2026-12-03T08:00:00Z" }));
    expect(markKey({ judgement: "bad", at: "t" })).not.toBe(markKey({ judgement: "good", at: "t" }));
  });
});

describe("the prove options", () => {
  it("answers with the mock for Baton's own runs: nothing to name", () => {
    const o = defaultProveOptions(true);
    expect(proveProblems(o)).toEqual([]);
    expect(proveArgs("run-1", o)).toEqual({ run_id: "run-1", models: {}, live: false, save: true });
    expect(proveArgs("run-1", o, 1)).toEqual({ run_id: "run-1", transfer: 1, models: {}, live: false, save: true });
  });

  it("needs a model for a run without mock scripts, with samples (3 by default) and an optional budget", () => {
    const o = defaultProveOptions(false);
    expect(o).toEqual({ answerer: "models", models: "", samples: "3", budget: "" });
    expect(proveProblems(o)).toEqual(["Name a model: AGENT=PROVIDER:MODEL[@URL], or *=PROVIDER:MODEL for every agent"]);
    const typed = { ...o, models: "*=openai:gpt-4o-mini\ntechnical=openai-compatible:llama3@http://127.0.0.1:11434/v1", budget: "50" };
    expect(proveProblems(typed)).toEqual([]);
    expect(proveArgs("run-2", typed)).toEqual({
      run_id: "run-2",
      models: { "*": "openai:gpt-4o-mini", technical: "openai-compatible:llama3@http://127.0.0.1:11434/v1" },
      live: false,
      samples: 3,
      budget_calls: 50,
      save: true,
    });
    expect(proveArgs("run-2", { ...o, answerer: "live", samples: "2" })).toEqual({ run_id: "run-2", models: {}, live: true, samples: 2, save: true });
  });

  it("says what is wrong with the models, samples and budget typed", () => {
    expect(parseModels("billing openai:gpt-4o, =openai:x, a=openai:, a=b:c, a=b:d").problems).toEqual([
      '"billing": write AGENT=PROVIDER:MODEL[@URL], or *=PROVIDER:MODEL for every agent',
      '"openai:gpt-4o": write AGENT=PROVIDER:MODEL[@URL], or *=PROVIDER:MODEL for every agent',
      '"=openai:x": write AGENT=PROVIDER:MODEL[@URL], or *=PROVIDER:MODEL for every agent',
      '"a=openai:": write AGENT=PROVIDER:MODEL[@URL], or *=PROVIDER:MODEL for every agent',
      "a is given twice",
    ]);
    const o = { answerer: "live" as const, models: "", samples: "0", budget: "ten" };
    expect(proveProblems(o)).toEqual(["Samples: a whole number of at least 1", "Budget: a whole number of model calls, or empty for no limit"]);
  });
});

describe("proofs kept across reports", () => {
  it("a later proof of one transfer keeps the other transfers' proofs and a proven verdict it did not test again", () => {
    const all = report([suspect("triage", "Do not resolve it yourself", noEffect("triage"))], [suspect("fact", "Resolved means patched", changes("fact", "fork-1"))], "proven");
    const onlyT0 = report([suspect("triage", "Do not resolve it yourself", noEffect("triage"))], [suspect("fact", "Resolved means patched")], "suspected");
    const merged = mergeProofReports(all, onlyT0);
    expect(merged.transfers[1]!.suspects[0]!.proof?.fork_run).toBe("fork-1");
    expect(merged.verdict.basis).toBe("proven");
    // proving T1 again decides T1's verdict anew
    const againT1 = report([suspect("triage", "x")], [suspect("fact", "Resolved means patched", noEffect("fact"))], "suspected");
    expect(mergeProofReports(all, againT1).verdict.basis).toBe("suspected");
    expect(mergeProofReports(null, onlyT0)).toBe(onlyT0);
  });

  it("a report read again (the run was marked since) keeps its own verdict and order, with each suspect's proof", () => {
    const proved = report([], [suspect("fact", "Resolved means patched", changes("fact", "fork-1")), suspect("why", "Behind a flag", noEffect("why"))], "proven");
    proved.cost = { forks: 3, model_calls: 8, tokens: 900, ms: 12, answered_by: "mock", compared: "by outcome" };
    const fresh = report([], [suspect("why", "Behind a flag"), suspect("fact", "Resolved means patched")], "suspected", "why");
    const shown = withProofs(fresh, proved);
    expect(shown.verdict.basis).toBe("suspected");
    expect(shown.transfers[1]!.suspects.map((s) => [s.item, s.proof?.status])).toEqual([
      ["why", "no_effect"],
      ["fact", "changes"],
    ]);
    expect(shown.cost).toBe(proved.cost);
  });

  it("names what was restored together, and what it cost", () => {
    const t = { suspects: [suspect("call", "patch_checkout {ticket: 4812}"), suspect("result", "Patch merged behind feature flag FIX_4812")] };
    expect(restoredWith(["call", "elsewhere"], t)).toEqual({ texts: ["patch_checkout {ticket: 4812}"], others: 1 });
    expect(costLine({ forks: 10, model_calls: 26, tokens: 3379, ms: 27, answered_by: "mock", compared: "" })).toBe("10 forks · 26 model calls · 3,379 tokens · 27 ms · answered by mock");
    expect(costLine({ forks: 1, model_calls: 1, tokens: 1, ms: 2500, answered_by: "*=openai:gpt-4o-mini", compared: "" })).toBe("1 fork · 1 model call · 1 token · 2.5 s · answered by *=openai:gpt-4o-mini");
  });
});

// What a model-call step says about its call (pure): the model, finish reason, tokens, cost and
// latency, read from the recorded provider exchange where it has them (OpenAI Chat Completions
// and Responses, Anthropic Messages, Gemini), from the step otherwise. Nothing is estimated: a
// figure the step does not hold stays null.
import type { JsonValue } from "../bindings/serde_json/JsonValue";
import type { Step, StepBrief } from "./types";

export type CallSummary = {
  model: string | null;
  /** Where the model name came from: the recorded response/request, or the agent's configuration. */
  modelFrom: "exchange" | "topology" | null;
  finishReason: string | null;
  inputTokens: number | null;
  outputTokens: number | null;
  /** As the provider reported it (e.g. `usage.cost`); Baton keeps no price list. */
  cost: number | null;
  latencyMs: number | null;
  request: JsonValue | null;
  response: JsonValue | null;
};

type Obj = { [k: string]: JsonValue | undefined };
const obj = (v: JsonValue | undefined | null): Obj | null => (v && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : null);
const str = (v: JsonValue | undefined | null): string | null => (typeof v === "string" && v !== "" ? v : null);
const numOf = (v: JsonValue | undefined | null): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
const first = (v: JsonValue | undefined | null): Obj | null => (Array.isArray(v) ? obj(v[0]) : null);

export function finishReason(response: JsonValue | null | undefined): string | null {
  const r = obj(response);
  if (!r) return null;
  // Chat Completions: choices[0].finish_reason
  const choice = first(r.choices);
  if (choice && str(choice.finish_reason)) return str(choice.finish_reason);
  // Anthropic Messages: stop_reason
  if (str(r.stop_reason)) return str(r.stop_reason);
  // Gemini: candidates[0].finishReason
  const cand = first(r.candidates);
  if (cand && str(cand.finishReason)) return str(cand.finishReason);
  // Responses: status, with the reason when incomplete
  if (str(r.object) === "response" || r.output !== undefined) {
    const why = str(obj(r.incomplete_details)?.reason);
    const status = str(r.status);
    if (status) return why ? `${status}: ${why}` : status;
  }
  return null;
}

export function reportedCost(response: JsonValue | null | undefined): number | null {
  const r = obj(response);
  if (!r) return null;
  const u = obj(r.usage);
  return numOf(u?.cost) ?? numOf(u?.total_cost) ?? numOf(r.cost) ?? null;
}

export function callSummary(step: Step, brief?: StepBrief | null, agentModel?: string | null): CallSummary {
  const x = obj(step.exchange ?? null);
  const request = x?.request ?? null;
  const response = x?.response ?? null;
  const fromExchange = str(obj(response)?.model) ?? str(obj(response)?.modelVersion) ?? str(obj(request)?.model);
  const model = fromExchange ?? (agentModel || null);
  const d = brief?.duration_ms;
  return {
    model,
    modelFrom: fromExchange ? "exchange" : model ? "topology" : null,
    finishReason: finishReason(response),
    inputTokens: step.usage ? Number(step.usage.input_tokens) : null,
    outputTokens: step.usage ? Number(step.usage.output_tokens) : null,
    cost: reportedCost(response),
    latencyMs: typeof d === "number" && Number.isFinite(d) ? d : null,
    request: request ?? null,
    response: response ?? null,
  };
}

// The Matrix tab's logic: the form's first state and the run_matrix arguments built from it, from examples/support-triage.yaml (agents triage on openai:gpt-4o-mini, billing on anthropic:claude-sonnet-4-5, technical on gemini:gemini-2.5-flash; scenarios double-charge and app-error), and the price table read from YAML or JSON with what is wrong in it.
import { describe, expect, it } from "vitest";
import type { Topology } from "./types";
import { buildArgs, costText, initialForm, modelText, parsePrices } from "./matrix";

const supportTriage: Topology = {
  version: 1,
  name: "support-triage",
  entry: "triage",
  agents: [
    { id: "triage", name: "Triage", model: { provider: "openai", name: "gpt-4o-mini", temperature: 0 } },
    { id: "billing", name: "Billing", model: { provider: "anthropic", name: "claude-sonnet-4-5", max_tokens: 1024 } },
    { id: "technical", name: "Technical Support", model: { provider: "gemini", name: "gemini-2.5-flash" } },
  ],
  edges: [
    { kind: "handoff", from: "triage", to: "billing" },
    { kind: "handoff", from: "triage", to: "technical" },
  ],
  guards: { max_turns: 10, max_handoffs: 3, on_revisit: "stop" },
  scenarios: [
    { name: "double-charge", input: "I was charged twice for my subscription this month.", expect: { status: "completed", visits: ["billing"] } },
    { name: "app-error", input: "The app shows error E42 when I open my dashboard.", expect: { status: "completed", visits: ["technical"] } },
  ],
};

describe("the matrix form", () => {
  it("starts with nothing varied, each agent's current model prefilled, every scenario chosen, repeat 1, mock_rest on, no prices", () => {
    const f = initialForm(supportTriage);
    expect(f.vary).toEqual({ triage: false, billing: false, technical: false });
    expect(f.models).toEqual({ triage: "openai:gpt-4o-mini", billing: "anthropic:claude-sonnet-4-5", technical: "gemini:gemini-2.5-flash" });
    expect(f.scenarios).toEqual({ "double-charge": true, "app-error": true });
    expect([f.repeat, f.mockRest, f.prices]).toEqual([1, true, ""]);
    expect(modelText({ provider: "openai", name: "llama", base_url: "http://127.0.0.1:8080/v1" })).toBe("openai:llama@http://127.0.0.1:8080/v1");
  });

  it("builds run_matrix's arguments: the varied agents with their model lines, the chosen scenarios, repeat, mock_rest and prices", () => {
    const f = initialForm(supportTriage);
    const built = buildArgs(supportTriage, {
      ...f,
      vary: { ...f.vary, triage: true },
      models: { ...f.models, triage: "mock:a\n\n  mock:b  \n" },
      scenarios: { "double-charge": true, "app-error": false },
      repeat: 3,
      mockRest: false,
      prices: "mock:a: {input_per_mtok: 1, output_per_mtok: 2}",
    });
    expect(built.problems).toEqual([]);
    expect(built.args?.vary).toEqual([{ agent: "triage", models: ["mock:a", "mock:b"] }]);
    expect(built.args?.scenarios).toEqual(["double-charge"]);
    expect(built.args?.repeat).toBe(3);
    expect(built.args?.mock_rest).toBe(false);
    expect(built.args?.prices).toEqual({ "mock:a": { input_per_mtok: 1, output_per_mtok: 2 } });
    expect(built.args?.topology.name).toBe("support-triage");
  });

  it("with the prefilled models and no prices, the arguments carry the agent's current model and no price table", () => {
    const f = initialForm(supportTriage);
    const built = buildArgs(supportTriage, { ...f, vary: { ...f.vary, billing: true } });
    expect(built.args?.vary).toEqual([{ agent: "billing", models: ["anthropic:claude-sonnet-4-5"] }]);
    expect(built.args?.scenarios).toEqual(["double-charge", "app-error"]);
    expect(built.args?.mock_rest).toBe(true);
    expect(built.args && "prices" in built.args).toBe(false);
  });

  it("says every reason it cannot run: no agent varied, no scenario, a bad repeat, a model line that is not provider:model, a bad price table", () => {
    const f = initialForm(supportTriage);
    expect(buildArgs(supportTriage, { ...f, scenarios: { "double-charge": false, "app-error": false }, repeat: 11 }).problems).toEqual([
      "Pick at least one agent to vary",
      "Pick at least one scenario",
      "Repeat must be a whole number from 1 to 10",
    ]);
    expect(buildArgs(supportTriage, { ...f, vary: { ...f.vary, triage: true }, models: { ...f.models, triage: "gpt-4o\nmock:" }, repeat: 0 }).problems).toEqual([
      "Triage: 'gpt-4o' is not provider:model (e.g. openai:gpt-4o-mini)",
      "Triage: 'mock:' is not provider:model (e.g. openai:gpt-4o-mini)",
      "Repeat must be a whole number from 1 to 10",
    ]);
    expect(buildArgs(supportTriage, { ...f, vary: { ...f.vary, technical: true }, models: { ...f.models, technical: "  " }, prices: "{" }).problems).toEqual([
      "Technical Support: give at least one model",
      expect.stringMatching(/^Prices: not valid JSON/),
    ]);
  });
});

describe("the price table", () => {
  const both = { "openai:gpt-4o-mini": { input_per_mtok: 0.15, output_per_mtok: 0.6 }, "mock:a": { input_per_mtok: 1, output_per_mtok: 2 } };

  it("reads YAML flow maps, indented blocks, quoted keys and comments, and JSON; empty text is no table", () => {
    expect(parsePrices("openai:gpt-4o-mini: {input_per_mtok: 0.15, output_per_mtok: 0.6}\nmock:a: { input_per_mtok: 1, output_per_mtok: 2 }")).toEqual({ prices: both, error: null });
    expect(parsePrices("# my prices\nopenai:gpt-4o-mini:\n  input_per_mtok: 0.15\n  output_per_mtok: 0.6 # per Mtok\n'mock:a':\n  input_per_mtok: 1\n  output_per_mtok: 2\n")).toEqual({ prices: both, error: null });
    expect(parsePrices(JSON.stringify(both))).toEqual({ prices: both, error: null });
    expect(parsePrices("  \n")).toEqual({ prices: {}, error: null });
  });

  it("says what is wrong: a missing or unknown field, a value that is not a number ≥ 0, a key that is not provider:model, bad JSON, a bare value", () => {
    expect(parsePrices("mock:a: {input_per_mtok: 1}").error).toBe("mock:a: missing output_per_mtok");
    expect(parsePrices("mock:a: {input_per_mtok: 1, output_per_mtok: 2, cached: 3}").error).toBe("mock:a: unknown field 'cached' (expected input_per_mtok, output_per_mtok)");
    expect(parsePrices("mock:a: {input_per_mtok: cheap, output_per_mtok: 2}").error).toBe('mock:a: input_per_mtok must be a number ≥ 0, not "cheap"');
    expect(parsePrices('{"mock:a": {"input_per_mtok": -1, "output_per_mtok": 2}}').error).toBe("mock:a: input_per_mtok must be a number ≥ 0, not -1");
    expect(parsePrices("gpt-4o: {input_per_mtok: 1, output_per_mtok: 2}").error).toBe("'gpt-4o' is not provider:model (e.g. openai:gpt-4o-mini)");
    expect(parsePrices('{"mock:a@http://x": {"input_per_mtok": 1, "output_per_mtok": 2}}').error).toBe("'mock:a@http://x': a price is per provider:model, without @url");
    expect(parsePrices('{"mock:a": 1,}').error).toMatch(/^not valid JSON/);
    expect(parsePrices("mock:a: 3").error).toBe("line 1: mock:a needs {input_per_mtok, output_per_mtok}, not '3'");
    expect(parsePrices("  input_per_mtok: 1").error).toBe("line 1: an indented field outside any provider:model");
    expect(parsePrices("mock:a: {input_per_mtok: 1, output_per_mtok: 2}\nmock:a: {input_per_mtok: 1, output_per_mtok: 2}").error).toBe("line 2: mock:a appears twice");
  });

  it("a cost is dollars, or 'no price' when a model of the cell has none", () => {
    expect(costText(null)).toBe("no price");
    expect(costText(0)).toBe("$0");
    expect(costText(0.0042)).toBe("$0.0042");
    expect(costText(0.5)).toBe("$0.5000");
    expect(costText(12.345)).toBe("$12.35");
  });
});

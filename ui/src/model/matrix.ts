// The Matrix tab's pure logic: its form (which agents vary, their models, scenarios, repeat, mock_rest, prices), the `run_matrix` arguments built from it with what is wrong, and the price table read from YAML or JSON text.
import type { MatrixArgs } from "../bindings/MatrixArgs";
import type { Price } from "../bindings/Price";
import type { ModelRef } from "../bindings/ModelRef";
import type { Topology } from "./types";
import { normalizeTopology } from "./topology";

export type MatrixForm = {
  /** Agent id → varied or not. */
  vary: Record<string, boolean>;
  /** Agent id → the models to try, one `provider:model[@url]` a line. */
  models: Record<string, string>;
  /** Scenario name → chosen. */
  scenarios: Record<string, boolean>;
  repeat: number;
  mockRest: boolean;
  /** The price table as typed (YAML or JSON); empty for none. */
  prices: string;
};

export const MAX_REPEAT = 10;

/** `provider:model[@url]`, the way `run_matrix` reads a model. */
export function modelText(m: ModelRef | null | undefined): string {
  if (!m) return "";
  return `${m.provider}:${m.name}${m.base_url ? `@${m.base_url}` : ""}`;
}

/** A fresh form: nothing varied, each agent's current model prefilled, every scenario chosen, repeat 1, mock_rest on. */
export function initialForm(t: Topology): MatrixForm {
  return {
    vary: Object.fromEntries(t.agents.map((a) => [a.id, false])),
    models: Object.fromEntries(t.agents.map((a) => [a.id, modelText(a.model)])),
    scenarios: Object.fromEntries((t.scenarios ?? []).map((s) => [s.name, true])),
    repeat: 1,
    mockRest: true,
    prices: "",
  };
}

/** One `provider:model[@url]` a line, blank lines dropped. */
export function modelLines(text: string): string[] {
  return text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "");
}

/** Why a model line is not `provider:model[@url]`, or null. */
export function modelLineProblem(line: string): string | null {
  const [head] = line.split("@", 1) as [string];
  const colon = head.indexOf(":");
  if (colon <= 0 || colon === head.length - 1) return `'${line}' is not provider:model (e.g. openai:gpt-4o-mini)`;
  return null;
}

export type PriceResult = { prices: Record<string, Price>; error: null } | { prices: null; error: string };

function priceOf(key: string, v: unknown): Price | string {
  if (!v || typeof v !== "object" || Array.isArray(v)) return `${key}: expected {input_per_mtok, output_per_mtok}`;
  const o = v as Record<string, unknown>;
  const extra = Object.keys(o).filter((k) => k !== "input_per_mtok" && k !== "output_per_mtok");
  if (extra.length) return `${key}: unknown field ${extra.map((k) => `'${k}'`).join(", ")} (expected input_per_mtok, output_per_mtok)`;
  for (const f of ["input_per_mtok", "output_per_mtok"] as const) {
    if (!(f in o)) return `${key}: missing ${f}`;
    const n = o[f];
    if (typeof n !== "number" || !Number.isFinite(n) || n < 0) return `${key}: ${f} must be a number ≥ 0, not ${JSON.stringify(n)}`;
  }
  return { input_per_mtok: o.input_per_mtok as number, output_per_mtok: o.output_per_mtok as number };
}

function checkKey(key: string): string | null {
  const colon = key.indexOf(":");
  if (colon <= 0 || colon === key.length - 1) return `'${key}' is not provider:model (e.g. openai:gpt-4o-mini)`;
  if (key.includes("@")) return `'${key}': a price is per provider:model, without @url`;
  return null;
}

function fromObject(o: unknown): PriceResult {
  if (!o || typeof o !== "object" || Array.isArray(o)) return { prices: null, error: "expected a map of provider:model to {input_per_mtok, output_per_mtok}" };
  const prices: Record<string, Price> = {};
  for (const [k, v] of Object.entries(o as Record<string, unknown>)) {
    const bad = checkKey(k);
    if (bad) return { prices: null, error: bad };
    const p = priceOf(k, v);
    if (typeof p === "string") return { prices: null, error: p };
    prices[k] = p;
  }
  return { prices, error: null };
}

function scalar(raw: string, line: number): number | string {
  const s = raw.trim();
  if (s === "") return `line ${line}: a value is missing`;
  const n = Number(s);
  return Number.isFinite(n) ? n : (s.replace(/^["']|["']$/g, "") as string);
}

function unquote(k: string): string {
  const m = /^"(.*)"$|^'(.*)'$/.exec(k);
  return m ? (m[1] ?? m[2] ?? "") : k;
}

/** `{a: 1, b: 2}` (YAML flow map of numbers). */
function flowMap(text: string, line: number): Record<string, unknown> | string {
  const inner = text.trim().replace(/^\{/, "").replace(/\}$/, "");
  const out: Record<string, unknown> = {};
  for (const part of inner.split(",")) {
    if (part.trim() === "") continue;
    const m = /^\s*([^:]+?)\s*:\s*(.*)$/.exec(part);
    if (!m) return `line ${line}: '${part.trim()}' is not field: value`;
    const v = scalar(m[2] ?? "", line);
    out[unquote(m[1] ?? "")] = v;
  }
  return out;
}

/**
 * The YAML subset a price table needs: a map of `provider:model` to either a flow map
 * (`openai:gpt-4o-mini: {input_per_mtok: 0.15, output_per_mtok: 0.6}`) or an indented block.
 */
function parseYaml(text: string): Record<string, unknown> | string {
  const out: Record<string, unknown> = {};
  let current: Record<string, unknown> | null = null;
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const n = i + 1;
    const raw = (lines[i] ?? "").replace(/\s+#.*$/, "").replace(/^#.*$/, "");
    if (raw.trim() === "") continue;
    const indented = /^\s/.test(raw);
    if (indented) {
      if (!current) return `line ${n}: an indented field outside any provider:model`;
      const m = /^\s+([A-Za-z_]\w*)\s*:\s*(.*)$/.exec(raw);
      if (!m) return `line ${n}: '${raw.trim()}' is not field: value`;
      current[m[1] ?? ""] = scalar(m[2] ?? "", n);
      continue;
    }
    // The key holds colons itself (provider:model): it ends at the last ':' followed by a space or the line's end.
    const m = /^("[^"]*"|'[^']*'|\S+?):(?:\s+(.*))?$/.exec(raw.trimEnd());
    if (!m) return `line ${n}: '${raw.trim()}' is not provider:model: {input_per_mtok, output_per_mtok}`;
    const key = unquote(m[1] ?? "");
    if (key in out) return `line ${n}: ${key} appears twice`;
    const rest = (m[2] ?? "").trim();
    if (rest === "") {
      current = {};
      out[key] = current;
    } else if (rest.startsWith("{")) {
      if (!rest.endsWith("}")) return `line ${n}: the {…} of ${key} is not closed on its line`;
      const v = flowMap(rest, n);
      if (typeof v === "string") return v;
      out[key] = v;
      current = null;
    } else {
      return `line ${n}: ${key} needs {input_per_mtok, output_per_mtok}, not '${rest}'`;
    }
  }
  return out;
}

/** The price table from YAML or JSON text; empty text is no table. */
export function parsePrices(text: string): PriceResult {
  const s = text.trim();
  if (s === "") return { prices: {}, error: null };
  if (s.startsWith("{")) {
    let o: unknown;
    try {
      o = JSON.parse(s);
    } catch (e) {
      return { prices: null, error: `not valid JSON: ${(e as Error).message}` };
    }
    return fromObject(o);
  }
  // Not trimmed: a first line's indentation means something in YAML.
  const y = parseYaml(text);
  if (typeof y === "string") return { prices: null, error: y };
  return fromObject(y);
}

export type BuiltArgs = { args: MatrixArgs; problems: [] } | { args: null; problems: string[] };

/** The `run_matrix` arguments the form says, or every reason it cannot run yet. */
export function buildArgs(t: Topology, form: MatrixForm): BuiltArgs {
  const problems: string[] = [];
  const vary = t.agents
    .filter((a) => form.vary[a.id])
    .map((a) => {
      const models = modelLines(form.models[a.id] ?? modelText(a.model));
      if (models.length === 0) problems.push(`${a.name ?? a.id}: give at least one model`);
      for (const m of models) {
        const bad = modelLineProblem(m);
        if (bad) problems.push(`${a.name ?? a.id}: ${bad}`);
      }
      return { agent: a.id, models };
    });
  if (vary.length === 0) problems.push("Pick at least one agent to vary");
  const all = (t.scenarios ?? []).map((s) => s.name);
  // A scenario the form has not seen yet (added since) is chosen, as every scenario is at first.
  const scenarios = all.filter((s) => form.scenarios[s] !== false);
  if (all.length === 0) problems.push("The topology has no scenarios");
  else if (scenarios.length === 0) problems.push("Pick at least one scenario");
  const repeat = form.repeat;
  if (!Number.isInteger(repeat) || repeat < 1 || repeat > MAX_REPEAT) problems.push(`Repeat must be a whole number from 1 to ${MAX_REPEAT}`);
  const priced = parsePrices(form.prices);
  if (priced.error !== null) problems.push(`Prices: ${priced.error}`);
  if (problems.length) return { args: null, problems };
  const args: MatrixArgs = { topology: normalizeTopology(t), vary, scenarios, repeat, mock_rest: form.mockRest };
  if (priced.prices && Object.keys(priced.prices).length) args.prices = priced.prices;
  return { args, problems: [] };
}

/** `triage=mock:a, billing=…`: a cell's models in the topology's agent order. */
export function cellModels(t: Topology | null, models: Record<string, string>): [string, string][] {
  const order = t ? t.agents.map((a) => a.id) : [];
  return Object.entries(models).sort(([a], [b]) => {
    const ia = order.indexOf(a);
    const ib = order.indexOf(b);
    return (ia < 0 ? 1e9 : ia) - (ib < 0 ? 1e9 : ib) || a.localeCompare(b);
  });
}

/** A cost in dollars, or "no price" when some model of the cell has none. */
export function costText(cost: number | null): string {
  if (cost === null) return "no price";
  if (cost === 0) return "$0";
  return cost < 0.01 ? `$${cost.toPrecision(2)}` : `$${cost.toFixed(cost < 1 ? 4 : 2)}`;
}

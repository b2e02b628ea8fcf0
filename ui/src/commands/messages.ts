// Backend messages are written for the CLI as well; in the window they name the window's controls
// instead of CLI flags and `baton …` commands, and a message that lists one problem per agent
// (the missing-key check) says its sentence once per provider.
import { PROVIDER_LABELS } from "../model/topology";
import type { Provider } from "../model/types";

function list(xs: readonly string[]): string {
  if (xs.length <= 1) return xs.join("");
  return `${xs.slice(0, -1).join(", ")} and ${xs[xs.length - 1]}`;
}

const NO_KEY = /^(.+?) uses (\S+) but no key is set: export (.+?) or store one with `baton providers set-key [^`]*`$/;

/**
 * `model.config` of a run with real providers: one line per agent (`live.rs`). Lines about a
 * missing key are grouped by provider into one sentence; other lines stay as they are.
 */
function groupMissingKeys(message: string): string {
  const byProvider = new Map<string, { agents: string[]; vars: string }>();
  const rest: string[] = [];
  for (const line of message.split("\n")) {
    const m = NO_KEY.exec(line.trim());
    if (!m) {
      if (line.trim()) rest.push(line.trim());
      continue;
    }
    const [, agent, provider, vars] = m as unknown as [string, string, string, string];
    const entry = byProvider.get(provider) ?? { agents: [], vars };
    entry.agents.push(agent);
    byProvider.set(provider, entry);
  }
  if (byProvider.size === 0) return message;
  const sentences = [...byProvider].map(([p, { agents, vars }]) => {
    const label = PROVIDER_LABELS[p as Provider] ?? p;
    const who = agents.length === 1 ? `${agents[0]} uses it` : `${list(agents)} use it`;
    return `No key for ${label} (${who}): add one in Settings, or set ${vars} where Baton runs.`;
  });
  return [...sentences, ...rest].join(" ");
}

/** Rewrites of CLI advice the window has a control for. */
const REWRITES: [RegExp, string | ((...m: string[]) => string)][] = [
  // provider status (`check.rs`) in Settings: the key can be added right there.
  [/not configured: export (.+?) or `baton providers set-key [^`]*`/, (_m, vars) => `not configured: add a key here, or set ${vars} where Baton runs`],
  [/,? ?or store one with `baton providers set-key [^`]*`/, " or add one in Settings"],
  // trace import (`import/mod.rs`, `api/importing.rs`): the dialog's Format list; the Runs tab.
  [/pass --from [\w|-]+ if it is one of them/, "choose its format in the Format list if it is one of them"],
  [/; `baton trace show [^`]*` shows it, or import again with --again/, "; open it from the Runs tab"],
  // import from code (`import_code`): the dialog's Framework and Entry fields.
  [/--entry (.+?): no agent of that name/, (_m, e) => `the entry '${e}' names no agent`],
  [/say which one starts a run with --entry NAME/, "type the one that starts a run in the Entry field"],
  [/or check --framework/, "or choose the framework in the Framework list"],
  [/or pick the other framework with --framework/, "or choose the other framework in the Framework list"],
  [/ \(`baton import-code <folder>\/agent\.py`\), which reads both/, " (import the folder's agent.py), which reads both"],
  // lint (`verify_handoff.rs`): the window has the refactor as a button.
  [/the supervisor refactor \(`baton refactor supervisor`\)/, "the supervisor refactor (Refactor to supervisor, in the top bar, or Fix here)"],
  // opening a file (`config`): the schema command is the CLI's.
  [/ \(see the JSON Schema: `baton schema`\)/, ""],
];

/** A backend message as the window says it (see the rewrites above); unknown messages pass through. */
export function windowText(code: string | undefined, message: string): string {
  let out = code === "model.config" || NO_KEY.test(message.split("\n")[0]?.trim() ?? "") ? groupMissingKeys(message) : message;
  for (const [re, to] of REWRITES) out = typeof to === "string" ? out.replace(re, to) : out.replace(re, (...m: unknown[]) => to(...(m as string[])));
  return out;
}

/** `{code, message}` of anything thrown, with the message as the window says it. */
export function describeError(e: unknown): { code: string | undefined; message: string } {
  const code = e && typeof e === "object" && "code" in e ? String((e as { code: unknown }).code) : undefined;
  const raw = e && typeof e === "object" && "message" in e ? String((e as { message: unknown }).message) : String(e);
  return { code, message: windowText(code, raw) };
}

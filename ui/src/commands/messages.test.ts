// Backend messages in the window: the texts below are the ones the Rust core writes (quoted from
// src/providers/live.rs, check.rs, src/import/mod.rs, src/api/importing.rs, src/import_code/).
import { describe, expect, it } from "vitest";
import { PROVIDER_LABELS } from "../model/topology";
import { windowText } from "./messages";

describe("window text of backend messages", () => {
  it("says the missing-key sentence once per provider, naming every agent", () => {
    // live.rs: one line per agent, joined by newlines (ticket-reopen's three agents use openai).
    const msg = ["Triage", "Resolution", "Verification"]
      .map((a) => `${a} uses openai but no key is set: export OPENAI_API_KEY or store one with \`baton providers set-key openai\``)
      .join("\n");
    const out = windowText("model.config", msg);
    expect(out).toBe(`No key for ${PROVIDER_LABELS.openai} (Triage, Resolution and Verification use it): add one in Settings, or set OPENAI_API_KEY where Baton runs.`);
    expect(out.match(/No key/g)).toHaveLength(1);
    expect(out).not.toContain("baton ");
  });

  it("groups by provider and keeps the other problems", () => {
    const msg = [
      "Triage uses anthropic but no key is set: export ANTHROPIC_API_KEY or store one with `baton providers set-key anthropic`",
      "Local uses an OpenAI-compatible server but has no base_url: set `base_url` (e.g. http://127.0.0.1:8080/v1) or OPENAI_COMPATIBLE_BASE_URL",
    ].join("\n");
    const out = windowText("model.config", msg);
    expect(out).toContain("(Triage uses it): add one in Settings");
    expect(out).toContain("Local uses an OpenAI-compatible server but has no base_url");
  });

  it("names the window's controls instead of CLI flags", () => {
    const unknown =
      "t.json: cannot tell which format this is (x); Baton reads … task results or team states — pass --from openai-agents|otlp|langfuse|adk|group-chat|autogen if it is one of them";
    expect(windowText("import.unknown", unknown)).toMatch(/choose its format in the Format list if it is one of them$/);
    const dup = "t.json: already imported as run 0193 (the same content); `baton trace show 0193` shows it, or import again with --again";
    expect(windowText("import.duplicate", dup)).toBe("t.json: already imported as run 0193 (the same content); open it from the Runs tab");
    expect(windowText("code.entry", "--entry Billing Agent: no agent of that name; the agents are Triage")).toBe(
      "the entry 'Billing Agent' names no agent; the agents are Triage",
    );
    expect(windowText("code.entry", "m has 2 top-level agents no other agent points to: a, b; say which one starts a run with --entry NAME (or name it root_agent)")).toContain(
      "type the one that starts a run in the Entry field (or name it root_agent)",
    );
    expect(windowText("provider", "not configured: export OPENAI_API_KEY or `baton providers set-key openai`")).toBe(
      "not configured: add a key here, or set OPENAI_API_KEY where Baton runs",
    );
    expect(windowText("config.parse", "in `agents[0]`: missing field `id` (see the JSON Schema: `baton schema`)")).toBe("in `agents[0]`: missing field `id`");
  });

  it("points the verify-handoff finding at the window's refactor", () => {
    // verify_handoff.rs
    const msg = "Verification's \"done\" must be verified, but Resolution hands off and steps out: nobody is left to verify it. Apply the supervisor refactor (`baton refactor supervisor`), so a supervisor delegates";
    expect(windowText("verify-handoff", msg)).toContain("Apply the supervisor refactor (Refactor to supervisor, in the top bar, or Fix here), so a supervisor delegates");
  });

  it("leaves other messages alone", () => {
    expect(windowText("store.locked", "the store is locked by another process")).toBe("the store is locked by another process");
  });
});

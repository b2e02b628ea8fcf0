import { describe, expect, it } from "vitest";
import { FIXTURES } from "../platform/fixtures";
import type { ProviderStatus } from "./providers";
import { isConfigured, keySource, unconfiguredAgents, usesKeyring } from "./providers";
import { runSource } from "./source";

const st = (provider: string, key: string | null, base_url: string | null = "https://x"): ProviderStatus => ({
  provider,
  key,
  base_url,
  reachable: false,
  detail: "",
});

describe("provider status", () => {
  it("a provider is configured when it has a key; an OpenAI-compatible server needs only a base URL", () => {
    expect(isConfigured(st("openai", "$OPENAI_API_KEY"))).toBe(true);
    expect(isConfigured(st("anthropic", null))).toBe(false);
    expect(isConfigured(undefined)).toBe(false);
    expect(isConfigured(st("openai-compatible", null, null))).toBe(false);
    expect(isConfigured(st("openai-compatible", null, "http://127.0.0.1:8080/v1"))).toBe(true);
    expect(isConfigured(st("openai-compatible", null, null), "http://127.0.0.1:8080/v1")).toBe(true);
  });

  it("says where the key comes from", () => {
    expect(keySource(st("openai", "$OPENAI_API_KEY"))).toBe("environment ($OPENAI_API_KEY)");
    expect(keySource(st("gemini", "OS keyring"))).toBe("OS keyring");
    expect(keySource(st("gemini", null))).toBe("not configured");
    expect(keySource(st("openai-compatible", null, "http://h"))).toBe("no key needed");
    expect(usesKeyring(st("gemini", "OS keyring"))).toBe(true);
    expect(usesKeyring(st("openai", "$OPENAI_API_KEY"))).toBe(false);
  });

  it("lists the agents a live run could not call (mock and human agents need no key)", () => {
    const t = structuredClone(FIXTURES["ticket-reopen.yaml"]!);
    t.agents[0]!.model = { provider: "mock", name: "mock" };
    t.agents[1]!.model = { provider: "anthropic", name: "claude" };
    t.agents.push({ id: "human", name: "Human", kind: "human" });
    const missing = unconfiguredAgents(t, [st("openai", "$OPENAI_API_KEY"), st("anthropic", null)]);
    expect(missing).toEqual([{ agent: "resolution", name: "Resolution", provider: "anthropic" }]);
    expect(unconfiguredAgents(t, [st("openai", null), st("anthropic", "OS keyring")]).map((m) => m.agent)).toEqual(
      t.agents.filter((a) => a.model?.provider === "openai").map((a) => a.id),
    );
    expect(unconfiguredAgents(null, [])).toEqual([]);
  });
});

describe("run source", () => {
  it("reads the importer's format, file, notes and capture time; null for runs Baton made", () => {
    expect(runSource({ source: null })).toBeNull();
    expect(runSource({ source: { format: "otlp", file: "/t/a.json", notes: ["provider: openai", 3] } })).toEqual({
      format: "otlp",
      file: "/t/a.json",
      notes: ["provider: openai"],
      capturedAt: null,
    });
    expect(runSource({ source: { format: "otlp", file: "http://127.0.0.1:4318/v1/traces", captured: true, captured_at: "2026-12-03T10:00:00.123Z" } })?.capturedAt).toBe("2026-12-03T10:00:00.123Z");
    expect(runSource({ source: { format: "adk" } })).toEqual({ format: "adk", file: null, notes: [], capturedAt: null });
    expect(runSource({ source: ["x"] })).toBeNull();
  });
});

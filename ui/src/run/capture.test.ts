import { describe, expect, it } from "vitest";
import type { RunSummary } from "../bindings/RunSummary";
import { captureBadge, captureDetail, capturedRuns, endpointHint, parsePort, type CaptureStatus } from "./capture";

const status = (over: Partial<CaptureStatus> = {}): CaptureStatus => ({
  on: true,
  endpoint: "http://127.0.0.1:4318/v1/traces",
  spans: 0,
  runs: 0,
  transfers: 0,
  lost_facts: 0,
  waiting: 0,
  last_run: null,
  refused: [],
  ...over,
});

const summary = (id: string, source: RunSummary["source"]): RunSummary => ({
  id,
  topology: "t",
  scenario: "imported",
  started_at: "2026-01-01T00:00:00Z",
  ended_at: null,
  outcome: { status: "completed", reason: "" },
  owner: "",
  final_output: null,
  guard: null,
  input_tokens: 0,
  output_tokens: 0,
  steps: 1,
  transfers: 0,
  lost_facts: 0,
  providers: {},
  source,
  origin: source === null ? "native" : "captured",
});

describe("live capture", () => {
  it("the badge counts runs, transfers and the spans still waiting for their trace to end", () => {
    expect(captureBadge(status())).toBe("0 runs · 0 transfers · 0 spans waiting");
    expect(captureBadge(status({ runs: 1, transfers: 1, waiting: 1 }))).toBe("1 run · 1 transfer · 1 span waiting");
    expect(captureBadge(status({ runs: 12, transfers: 3, waiting: 1500 }))).toBe(`12 runs · 3 transfers · ${(1500).toLocaleString()} spans waiting`);
    const detail = captureDetail(status({ spans: 9, runs: 1, lost_facts: 2 }));
    expect(detail).toContain("9 spans received");
    expect(detail).toContain("2 lost facts");
  });

  it("the environment line an OpenTelemetry SDK reads", () => {
    expect(endpointHint("http://127.0.0.1:4318/v1/traces")).toBe("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=http://127.0.0.1:4318/v1/traces");
  });

  it("the port field takes 0 to 65535 (0: a free port)", () => {
    expect(parsePort("4318")).toEqual({ value: 4318 });
    expect(parsePort(" 0 ")).toEqual({ value: 0 });
    expect(parsePort("65535")).toEqual({ value: 65535 });
    expect(parsePort("")).toEqual({ error: "Required" });
    expect(parsePort("43.1")).toEqual({ error: "A whole number" });
    expect(parsePort("-1")).toEqual({ error: "A whole number" });
    expect(parsePort("abc")).toEqual({ error: "A whole number" });
    expect(parsePort("65536")).toEqual({ error: "At most 65535" });
  });

  it("the captured runs are the OTLP runs whose file is the endpoint, in the order given", () => {
    const endpoint = "http://127.0.0.1:4318/v1/traces";
    const runs = [
      summary("a", { format: "otlp", file: endpoint, notes: [] }),
      summary("b", null), // a run Baton made
      summary("c", { format: "otlp", file: "traces/support.json", notes: [] }), // an imported file
      summary("d", { format: "openai-agents", file: endpoint }),
      summary("e", { format: "otlp", file: "http://127.0.0.1:43180/v1/traces" }), // another endpoint
      summary("f", { format: "otlp", file: endpoint }),
    ];
    expect(capturedRuns(runs, endpoint).map((r) => r.id)).toEqual(["a", "f"]);
    expect(capturedRuns([], endpoint)).toEqual([]);
  });

  it("the captured runs are listed by when they reached the collector, not by their trace's clock", () => {
    const endpoint = "http://127.0.0.1:4318/v1/traces";
    const at = (id: string, started: string, captured: string | undefined) => ({
      ...summary(id, { format: "otlp", file: endpoint, notes: [], ...(captured ? { captured_at: captured } : {}) }),
      started_at: started,
    });
    const runs = [
      at("today", "2026-12-03T10:00:00Z", "2026-12-03T10:00:01Z"),
      // a replay of last year's trace, captured after the others
      at("replayed", "2025-06-01T08:00:00Z", "2026-12-03T10:05:00Z"),
      at("clock-ahead", "2027-01-01T00:00:00Z", "2026-12-03T10:02:00Z"),
      // saved before captures kept their time: its own start
      at("older", "2026-12-03T09:00:00Z", undefined),
    ];
    expect(capturedRuns(runs, endpoint).map((r) => r.id)).toEqual(["replayed", "clock-ahead", "today", "older"]);
  });
});

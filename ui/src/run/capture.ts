// Live capture (the Runs tab's Capture switch): the badge's counts, the exporter's environment
// line, the port field, and which saved runs came in through the endpoint.
import type { CaptureStatus } from "../bindings/CaptureStatus";
import type { RunSummary } from "../bindings/RunSummary";
import { runSource } from "./source";

export type { CaptureStatus };

/** The OTLP/HTTP port (the backend's default when none is given). */
export const DEFAULT_CAPTURE_PORT = 4318;

/** How often the status is asked while capture is on (ms). */
export const CAPTURE_POLL_MS = 1000;

/** The newest saved runs looked through for captured ones (captured runs are the newest). */
export const CAPTURED_SCAN = 200;

/** The variable an OpenTelemetry SDK reads its traces endpoint from. */
export const ENDPOINT_VAR = "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT";

const count = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

/** The one line to set in the traced app's environment. */
export function endpointHint(endpoint: string): string {
  return `${ENDPOINT_VAR}=${endpoint}`;
}

/** The badge: `2 runs · 1 transfer · 3 spans waiting`. */
export function captureBadge(s: Pick<CaptureStatus, "runs" | "transfers" | "waiting">): string {
  return [count(s.runs, "run"), count(s.transfers, "transfer"), `${count(s.waiting, "span")} waiting`].join(" · ");
}

/** The badge's tooltip: every count, and what "waiting" means. */
export function captureDetail(s: CaptureStatus): string {
  return [
    `${count(s.spans, "span")} received`,
    `${count(s.runs, "run")} saved`,
    `${count(s.transfers, "transfer")}`,
    `${count(s.lost_facts, "lost fact")}`,
    `${count(s.waiting, "span")} held until their trace ends (a trace is saved about 2 s after its root span)`,
  ].join("\n");
}

/** The port field's text: a port on 127.0.0.1 (0 lets the system pick a free one), or why not. */
export function parsePort(text: string): { value: number } | { error: string } {
  const t = text.trim();
  if (t === "") return { error: "Required" };
  if (!/^\d+$/.test(t)) return { error: "A whole number" };
  const n = Number(t);
  if (n > 65535) return { error: "At most 65535" };
  return { value: n };
}

/** When a captured run reached the collector (its first span), else when its trace says it started. */
export function capturedAt(r: RunSummary): string {
  return runSource(r)?.capturedAt ?? r.started_at;
}

/**
 * The runs that came in through `endpoint` (imported as OTLP with the endpoint as their file),
 * newest capture first: by when they reached the collector, not by the trace's own clock (another
 * machine's, or a replay of yesterday's traces).
 */
export function capturedRuns(runs: readonly RunSummary[], endpoint: string): RunSummary[] {
  const at = (r: RunSummary) => Date.parse(capturedAt(r)) || 0;
  return runs
    .filter((r) => {
      const src = runSource(r);
      return src?.format === "otlp" && src.file === endpoint;
    })
    .map((r, i) => ({ r, i, t: at(r) }))
    .sort((a, b) => b.t - a.t || a.i - b.i)
    .map((x) => x.r);
}

// The Runs tab's live capture: the Capture switch (and the port it listens on, while it is off),
// and the bar under the toolbar: the endpoint to point a running system at, with a copy button
// and the environment line, and what arrived; or why capture could not start.
import { AlertTriangle, Check, Copy, Loader2 } from "lucide-react";
import { useId, useState } from "react";
import { useDraft } from "../components/draft";
import type { Capture } from "../hooks/useCapture";
import { captureBadge, captureDetail, endpointHint, parsePort } from "../run/capture";
import { useRun } from "../store/run";

export function CaptureSwitch({ capture }: { capture: Capture }) {
  const port = useRun((s) => s.capturePort);
  const setPort = useRun((s) => s.setCapturePort);
  const draft = useDraft(port, String);
  const portId = useId();
  const busy = capture.pending !== null;
  return (
    <div className="capture-switch">
      <label className="switch" title="Listen on 127.0.0.1 for OpenTelemetry traces (OTLP/HTTP) from a running system; each trace becomes a saved run">
        <input
          type="checkbox"
          role="switch"
          data-testid="capture-switch"
          checked={capture.on}
          disabled={busy || (!capture.on && draft.error !== null)}
          onChange={(e) => void capture.setOn(e.target.checked, port)}
        />
        <span className="switch-track" aria-hidden="true" />
        <span className="switch-label">Capture</span>
      </label>
      {!capture.on && (
        <>
          <label className="inline-field" htmlFor={portId}>
            Port
          </label>
          <input
            id={portId}
            className={`input input-sm mono capture-port${draft.error ? " has-error" : ""}`}
            inputMode="numeric"
            spellCheck={false}
            value={draft.text}
            disabled={busy}
            aria-invalid={draft.error !== null}
            title={draft.error ?? "The port on 127.0.0.1: 4318 is OTLP/HTTP's, 0 picks a free one"}
            data-testid="capture-port"
            onChange={(e) => {
              const r = parsePort(e.target.value);
              draft.typed(e.target.value, r);
              if ("value" in r) setPort(r.value);
            }}
          />
        </>
      )}
      {busy && <Loader2 size={13} className="spin" aria-label={capture.pending === "start" ? "starting capture" : "stopping capture"} />}
    </div>
  );
}

export function CaptureBar({ capture }: { capture: Capture }) {
  const [copied, setCopied] = useState(false);
  const { status, error, statusError } = capture;
  if (error) {
    return (
      <div className="capture-bar is-error" role="alert" data-testid="capture-error" data-code={error.error.code}>
        <AlertTriangle size={13} />
        <span>
          Could not {error.action} capture: {error.error.message}
        </span>
      </div>
    );
  }
  if (statusError && !status) {
    return (
      <div className="capture-bar is-error" role="alert" data-testid="capture-status-error" data-code={statusError.code}>
        <AlertTriangle size={13} />
        <span>Could not read the capture status: {statusError.message}</span>
      </div>
    );
  }
  if (!status?.on || !status.endpoint) return null;
  const endpoint = status.endpoint;
  return (
    <div className="capture-bar" data-testid="capture-bar">
      <span className="capture-live" aria-hidden="true" />
      <span className="capture-label">Listening on</span>
      <code className="capture-endpoint" data-testid="capture-endpoint">
        {endpoint}
      </code>
      <button
        className="icon-btn sm"
        data-testid="capture-copy"
        aria-label="Copy the endpoint"
        title={copied ? "Copied" : "Copy the endpoint"}
        onClick={() => {
          void navigator.clipboard?.writeText(endpoint).then(() => {
            setCopied(true);
            setTimeout(() => setCopied(false), 1500);
          });
        }}
      >
        {copied ? <Check size={13} /> : <Copy size={13} />}
      </button>
      <span className="capture-hint muted" title="Set it in the environment of the system to debug (any OpenTelemetry SDK reads it)">
        <code data-testid="capture-hint">{endpointHint(endpoint)}</code>
      </span>
      <div className="spacer" />
      <span
        className={`capture-badge${status.waiting > 0 ? " is-waiting" : ""}`}
        data-testid="capture-badge"
        data-runs={status.runs}
        data-waiting={status.waiting}
        title={captureDetail(status)}
      >
        {captureBadge(status)}
      </span>
      {status.refused.length > 0 && (
        <span
          className="capture-refused"
          role="status"
          data-testid="capture-refused"
          data-count={status.refused.length}
          title={status.refused.join("\n")}
        >
          <AlertTriangle size={12} /> {status.refused.length === 1 ? "1 trace" : `${status.refused.length} traces`} not
          saved: {status.refused[status.refused.length - 1]}
        </span>
      )}
    </div>
  );
}

// The promise-backed dialogs: unsaved-changes confirmation and the path prompt.
import { useEffect, useRef, useState } from "react";
import { usePrompt, type PathPrompt as PathPromptRequest } from "../store/prompt";
import { useUi } from "../store/ui";
import { Modal } from "./Modal";

export function ConfirmDialog() {
  const req = useUi((s) => s.confirm);
  if (!req) return null;
  return (
    <Modal
      title={req.title}
      onClose={() => req.resolve("cancel")}
      width={440}
      testId="confirm-dialog"
      footer={
        <>
          {req.alternateLabel && (
            <button className="btn btn-ghost" data-testid="confirm-alternate" onClick={() => req.resolve("alternate")}>
              {req.alternateLabel}
            </button>
          )}
          <div className="spacer" />
          <button className="btn btn-ghost" data-testid="confirm-cancel" onClick={() => req.resolve("cancel")}>
            Cancel
          </button>
          <button className="btn btn-primary" data-testid="confirm-ok" autoFocus onClick={() => req.resolve("confirm")}>
            {req.confirmLabel}
          </button>
        </>
      }
    >
      <p className="modal-text">{req.message}</p>
    </Modal>
  );
}

export function PathPromptDialog() {
  const req = usePrompt((s) => s.prompt);
  return req ? <PathPrompt key={req.defaultPath + req.title} req={req} /> : null;
}

function PathPrompt({ req }: { req: PathPromptRequest }) {
  const [value, setValue] = useState(req.defaultPath);
  const [error, setError] = useState<{ reason: string; fixed?: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const ok = value.trim() !== "" && !busy;
  const input = useRef<HTMLInputElement>(null);
  // A refusal hands focus back to the path, with the text as typed (the whole of it selected):
  // the next keystrokes fix it.
  useEffect(() => {
    if (error && input.current && document.activeElement !== input.current) {
      input.current.focus({ preventScroll: true });
      input.current.select();
    }
  }, [error]);

  // The typed path stays whatever happens: a refusal or a failed write shows under it.
  async function confirm(path: string) {
    const p = path.trim();
    if (p === "" || busy) return;
    const check = req.check?.(p);
    if (check && !check.ok) {
      setError({ reason: check.reason, fixed: check.fixed });
      return;
    }
    if (!req.submit) return req.resolve(p);
    setBusy(true);
    setError(null);
    try {
      const failed = await req.submit(p);
      if (failed === null) req.resolve(p);
      else setError({ reason: failed });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      title={req.title}
      onClose={() => req.resolve(null)}
      width={480}
      testId="path-dialog"
      footer={
        <>
          <div className="spacer" />
          <button className="btn btn-ghost" onClick={() => req.resolve(null)}>
            Cancel
          </button>
          <button className="btn btn-primary" data-testid="path-ok" disabled={!ok} onClick={() => void confirm(value)}>
            {busy ? "Saving…" : req.confirmLabel}
          </button>
        </>
      }
    >
      <label className="field-label" htmlFor="path-input">
        File path
      </label>
      <input
        id="path-input"
        ref={input}
        className="input mono"
        autoFocus
        value={value}
        data-testid="path-input"
        spellCheck={false}
        aria-invalid={error !== null}
        aria-describedby={error ? "path-error" : undefined}
        onFocus={(e) => {
          const dot = e.target.value.lastIndexOf(".");
          const slash = e.target.value.lastIndexOf("/");
          e.target.setSelectionRange(slash + 1, dot > slash ? dot : e.target.value.length);
        }}
        onChange={(e) => {
          setValue(e.target.value);
          setError(null);
        }}
        onKeyDown={(e) => e.key === "Enter" && ok && void confirm(value)}
      />
      {error ? (
        <div className="field-error path-error" id="path-error" role="alert" data-testid="path-error">
          {error.reason}
          {error.fixed && (
            <>
              {" "}
              <button
                className="link-btn"
                data-testid="path-fix"
                onClick={() => {
                  setValue(error.fixed as string);
                  setError(null);
                }}
              >
                Use {error.fixed}
              </button>
            </>
          )}
        </div>
      ) : (
        <div className="field-hint">{req.message}</div>
      )}
    </Modal>
  );
}

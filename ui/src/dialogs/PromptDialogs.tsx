// The promise-backed dialogs: unsaved-changes confirmation and the path prompt.
import { useState } from "react";
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
  const ok = value.trim() !== "";
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
          <button className="btn btn-primary" data-testid="path-ok" disabled={!ok} onClick={() => req.resolve(value.trim())}>
            {req.confirmLabel}
          </button>
        </>
      }
    >
      <label className="field-label" htmlFor="path-input">
        File path
      </label>
      <input
        id="path-input"
        className="input mono"
        autoFocus
        value={value}
        data-testid="path-input"
        spellCheck={false}
        onFocus={(e) => {
          const dot = e.target.value.lastIndexOf(".");
          const slash = e.target.value.lastIndexOf("/");
          e.target.setSelectionRange(slash + 1, dot > slash ? dot : e.target.value.length);
        }}
        onChange={(e) => setValue(e.target.value)}
        onKeyDown={(e) => e.key === "Enter" && ok && req.resolve(value.trim())}
      />
      <div className="field-hint">{req.message}</div>
    </Modal>
  );
}

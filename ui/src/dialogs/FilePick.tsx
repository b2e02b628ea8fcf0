// What the import dialogs (Open trace, Import from code) share: the list of files the backend
// offers, picked with a click and imported with a double click, and the import's error box with
// its message in the window's words and its code.
import { AlertOctagon } from "lucide-react";
import type { ReactNode } from "react";
import type { FileEntry } from "../bindings/FileEntry";
import { windowText } from "../commands/messages";

export function FileRows({
  files,
  active,
  icon,
  testId,
  onPick,
  onOpen,
}: {
  files: readonly FileEntry[];
  active: string;
  icon: ReactNode;
  testId: string;
  onPick: (path: string) => void;
  onOpen: (path: string) => void;
}) {
  return (
    <>
      {files.map((f) => (
        <button
          key={f.path}
          className={`file-row${f.path === active ? " is-active" : ""}`}
          data-testid={testId}
          data-path={f.path}
          onClick={() => onPick(f.path)}
          onDoubleClick={() => onOpen(f.path)}
        >
          {icon}
          <span className="file-name">{f.name}</span>
          {f.path !== f.name && <span className="file-path">{f.path}</span>}
        </button>
      ))}
    </>
  );
}

export function ImportError({ error, title, testId, children }: { error: { code: string; message: string }; title: string; testId: string; children?: ReactNode }) {
  return (
    <div className="trace-error" role="alert" data-testid={testId} data-code={error.code}>
      <AlertOctagon size={15} />
      <div>
        <div className="trace-error-title">{title}</div>
        <div className="trace-error-msg">{windowText(error.code, error.message)}</div>
        <div className="trace-error-code mono">{error.code}</div>
        {children}
      </div>
    </div>
  );
}

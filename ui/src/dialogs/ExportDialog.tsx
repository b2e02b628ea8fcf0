import { Check, Copy, Download, Save } from "lucide-react";
import { useCallback, useEffect, useState } from "react";
import type { Commands } from "../app/commands";
import { EXPORT_EXTENSIONS, EXPORT_FORMATS, EXPORT_LABELS, type ExportFormat } from "../platform/types";
import { useDesigner } from "../store/designer";
import { useUi } from "../store/ui";
import { Modal } from "./Modal";

const FORMAT_KEY = "baton.exportFormat";

export function ExportDialog({ commands }: { commands: Commands }) {
  const close = useCallback(() => useUi.getState().openDialog(null), []);
  const topology = useDesigner((s) => s.topology);
  const [format, setFormat] = useState<ExportFormat>(() => {
    const saved = localStorage.getItem(FORMAT_KEY);
    return (EXPORT_FORMATS as readonly string[]).includes(saved ?? "") ? (saved as ExportFormat) : "yaml";
  });
  const [result, setResult] = useState<{ format: ExportFormat; topology: unknown; text?: string; error?: string } | null>(null);
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    let live = true;
    commands
      .exportText(format)
      .then((text) => live && setResult({ format, topology, text }))
      .catch((e: unknown) => live && setResult({ format, topology, error: e instanceof Error ? e.message : String(e) }));
    return () => {
      live = false;
    };
  }, [commands, format, topology]);
  const current = result && result.format === format && result.topology === topology ? result : null;
  const text = current?.text ?? null;
  const error = current?.error ?? null;

  const download = () => {
    if (text === null) return;
    const blob = new Blob([text], { type: "text/plain" });
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = `${topology?.name || "topology"}.${EXPORT_EXTENSIONS[format]}`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  };

  return (
    <Modal
      title="Export"
      subtitle="Config, SDK code or a diagram of the current topology"
      onClose={close}
      width={760}
      testId="export-dialog"
      footer={
        <>
          <button
            className="btn btn-ghost"
            data-testid="export-copy"
            disabled={text === null}
            onClick={() => {
              if (text === null) return;
              void navigator.clipboard?.writeText(text).then(() => {
                setCopied(true);
                setTimeout(() => setCopied(false), 1500);
              });
            }}
          >
            {copied ? <Check size={15} /> : <Copy size={15} />} {copied ? "Copied" : "Copy"}
          </button>
          {commands.platform.kind !== "tauri" && (
            <button className="btn btn-ghost" data-testid="export-download" disabled={text === null} onClick={download}>
              <Download size={15} /> Download
            </button>
          )}
          <div className="spacer" />
          <button className="btn btn-ghost" onClick={close}>
            Close
          </button>
          <button
            className="btn btn-primary"
            data-testid="export-save"
            disabled={text === null}
            onClick={() => text !== null && void commands.saveExport(format, text)}
          >
            <Save size={15} /> Save to file…
          </button>
        </>
      }
    >
      <div className="export-formats" role="radiogroup" aria-label="Format">
        <select
          className="select sr-select"
          data-testid="export-format"
          value={format}
          aria-label="Export format"
          onChange={(e) => {
            setFormat(e.target.value as ExportFormat);
            localStorage.setItem(FORMAT_KEY, e.target.value);
          }}
        >
          {EXPORT_FORMATS.map((f) => (
            <option key={f} value={f}>
              {EXPORT_LABELS[f]}
            </option>
          ))}
        </select>
        {EXPORT_FORMATS.map((f) => (
          <button
            key={f}
            role="radio"
            aria-checked={f === format}
            className={`format-chip${f === format ? " is-active" : ""}`}
            data-testid={`export-format-${f}`}
            onClick={() => {
              setFormat(f);
              localStorage.setItem(FORMAT_KEY, f);
            }}
          >
            {EXPORT_LABELS[f]}
            <span className="format-ext">.{EXPORT_EXTENSIONS[f]}</span>
          </button>
        ))}
      </div>
      <div className="export-preview-wrap">
        {error ? (
          <div className="export-error" data-testid="export-error">
            {error}
          </div>
        ) : (
          <pre className="export-preview" data-testid="export-preview" data-format={format} data-loading={text === null ? "true" : undefined}>
            {text ?? "Rendering…"}
          </pre>
        )}
      </div>
    </Modal>
  );
}

import { Check, Copy, Download, Save } from "lucide-react";
import { useCallback, useState } from "react";
import type { Commands } from "../commands/designer";
import { useQuery } from "../hooks/useQuery";
import { EXPORT_EXTENSIONS, EXPORT_FORMATS, EXPORT_LABELS, type ExportFormat } from "../platform/types";
import { useDesigner } from "../store/designer";
import { useUi } from "../store/ui";
import { Modal } from "./Modal";

const FORMAT_KEY = "baton.exportFormat";

const EXPORT_HELP: Record<ExportFormat, string> = {
  yaml: "The topology file, as Baton saves it.",
  json: "The topology file as JSON.",
  "openai-agents-py": "A Python module for the OpenAI Agents SDK.",
  "adk-py": "A Python module for Google ADK (root_agent); what ADK cannot express is said in comments.",
  "adk-yaml": "ADK Agent Config: one YAML file per agent and a tools.py (the CLI writes them into a folder).",
  "langgraph-py": "A Python module for LangGraph: handoffs as a swarm, a supervisor's delegations as create_supervisor; what LangGraph cannot express is said in comments.",
  mermaid: "A flowchart for Markdown, GitHub and docs.",
  dot: "A Graphviz graph.",
};

export function ExportDialog({ commands }: { commands: Commands }) {
  const close = useCallback(() => useUi.getState().openDialog(null), []);
  const topology = useDesigner((s) => s.topology);
  const [format, setFormat] = useState<ExportFormat>(() => {
    const saved = localStorage.getItem(FORMAT_KEY);
    return (EXPORT_FORMATS as readonly string[]).includes(saved ?? "") ? (saved as ExportFormat) : "yaml";
  });
  const [copied, setCopied] = useState(false);
  // The key holds the topology itself: an edit (or undo) renders it again, and an answer for an
  // older topology or another format is never shown.
  const rendered = useQuery(["export_topology", format, topology], () => commands.exportText(format, topology), { enabled: topology !== null });
  const text = rendered.data ?? null;
  const error = rendered.error;

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
      <div className="export-toolbar">
        <label className="field-label" htmlFor="export-format">
          Format
        </label>
        <select
          id="export-format"
          className="select export-select"
          data-testid="export-format"
          value={format}
          onChange={(e) => {
            setFormat(e.target.value as ExportFormat);
            localStorage.setItem(FORMAT_KEY, e.target.value);
          }}
        >
          {EXPORT_FORMATS.map((f) => (
            <option key={f} value={f}>
              {EXPORT_LABELS[f]} (.{EXPORT_EXTENSIONS[f]})
            </option>
          ))}
        </select>
        <span className="export-help">{EXPORT_HELP[format]}</span>
      </div>
      <div className="export-preview-wrap">
        {error ? (
          <div className="export-error" role="alert" data-testid="export-error" data-code={error.code}>
            {error.message}
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

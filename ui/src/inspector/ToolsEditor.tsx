import { ChevronDown, ChevronRight, Plus, Trash2, Wrench } from "lucide-react";
import { useState } from "react";
import { useDraft } from "../components/draft";
import { Section, TextAreaField, TextField } from "../components/form";
import { updateAgent } from "../model/topology";
import type { Agent, JsonValue, Tool } from "../model/types";
import { useDesigner } from "../store/designer";

const DEFAULT_PARAMS: JsonValue = { type: "object", properties: {} };

export function ToolsEditor({ agent }: { agent: Agent }) {
  const commit = useDesigner((s) => s.commit);
  const tools = agent.tools ?? [];
  const [open, setOpen] = useState<number | null>(null);
  const setTools = (fn: (tools: Tool[]) => Tool[], coalesce?: string) =>
    commit((t) => updateAgent(t, agent.id, (a) => ({ ...a, tools: fn(a.tools ?? []) })), coalesce ? { coalesce } : {});

  const add = () => {
    const taken = new Set(tools.map((t) => t.name));
    let name = "new_tool";
    for (let n = 2; taken.has(name); n++) name = `new_tool_${n}`;
    setTools((ts) => [...ts, { name, description: "", parameters: DEFAULT_PARAMS, mock_result: "" }]);
    setOpen(tools.length);
  };

  return (
    <Section
      title={`Tools · ${tools.length}`}
      testId="tools"
      actions={
        <button className="btn btn-ghost btn-xs" data-testid="tool-add" onClick={add}>
          <Plus size={13} /> Add tool
        </button>
      }
    >
      {tools.length === 0 && <div className="empty-hint">No tools. Transfer tools are derived from edges.</div>}
      {tools.map((tool, i) => {
        const dup = tools.some((o, j) => j !== i && o.name === tool.name);
        return (
          <div className={`tool-card${open === i ? " is-open" : ""}`} key={i} data-testid={`tool-${i}`}>
            <div className="tool-card-header" onClick={() => setOpen(open === i ? null : i)}>
              {open === i ? <ChevronDown size={14} /> : <ChevronRight size={14} />}
              <Wrench size={13} className="muted" />
              <span className={`tool-name mono${dup ? " text-error" : ""}`}>{tool.name || "unnamed"}</span>
              <span className="tool-desc">{tool.description}</span>
              <button
                className="icon-btn sm danger"
                aria-label={`Remove tool ${tool.name}`}
                data-testid={`tool-remove-${i}`}
                onClick={(e) => {
                  e.stopPropagation();
                  setTools((ts) => ts.filter((_, j) => j !== i));
                  setOpen(null);
                }}
              >
                <Trash2 size={13} />
              </button>
            </div>
            {open === i && (
              <div className="tool-card-body">
                <TextField
                  label="Name"
                  mono
                  value={tool.name}
                  testId={`tool-name-${i}`}
                  hint={dup ? "Another tool of this agent has this name." : undefined}
                  onChange={(v) => setTools((ts) => ts.map((t, j) => (j === i ? { ...t, name: v } : t)), `tool:${agent.id}:${i}:name`)}
                />
                <TextField
                  label="Description"
                  value={tool.description ?? ""}
                  onChange={(v) => setTools((ts) => ts.map((t, j) => (j === i ? { ...t, description: v } : t)), `tool:${agent.id}:${i}:desc`)}
                />
                <TextAreaField
                  label="Mock result"
                  rows={2}
                  value={tool.mock_result ?? ""}
                  hint="What the tool returns in offline runs."
                  onChange={(v) => setTools((ts) => ts.map((t, j) => (j === i ? { ...t, mock_result: v } : t)), `tool:${agent.id}:${i}:mock`)}
                />
                <ParametersField
                  value={tool.parameters}
                  testId={`tool-params-${i}`}
                  onChange={(v) => setTools((ts) => ts.map((t, j) => (j === i ? { ...t, parameters: v } : t)), `tool:${agent.id}:${i}:params`)}
                />
              </div>
            )}
          </div>
        );
      })}
    </Section>
  );
}

const pretty = (v: JsonValue) => JSON.stringify(v ?? DEFAULT_PARAMS, null, 2);
const sameJson = (a: JsonValue, b: JsonValue) => JSON.stringify(a ?? DEFAULT_PARAMS) === JSON.stringify(b ?? DEFAULT_PARAMS);

/** JSON Schema of the arguments: edited as text, applied only when it parses to an object. */
function ParametersField({ value, onChange, testId }: { value: JsonValue; onChange: (v: JsonValue) => void; testId: string }) {
  // An external change (undo, another tool) shows, unless the draft produced it.
  const draft = useDraft(value, pretty, sameJson);
  return (
    <TextAreaField
      label="Parameters (JSON Schema)"
      rows={6}
      value={draft.text}
      testId={testId}
      error={draft.error}
      hint="An object schema: type, properties, required."
      onChange={(text) => {
        try {
          const v = JSON.parse(text) as JsonValue;
          if (v === null || typeof v !== "object" || Array.isArray(v)) return draft.typed(text, { error: "Must be a JSON object" });
          draft.typed(text, { value: v });
          onChange(v);
        } catch (e) {
          draft.typed(text, { error: e instanceof Error ? e.message.replace(/^JSON\.parse: /, "") : "Invalid JSON" });
        }
      }}
    />
  );
}

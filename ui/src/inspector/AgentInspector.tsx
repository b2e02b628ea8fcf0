import { Bot, Network, Trash2, UserRound } from "lucide-react";
import { useId, useState } from "react";
import { Field, NumberField, Section, Segmented, SelectField, TextAreaField, TextField } from "../components/form";
import {
  AGENT_KINDS,
  PROVIDERS,
  PROVIDER_LABELS,
  agentKind,
  checkAgentId,
  renameAgent,
  setAgentKind,
  updateAgent,
} from "../model/topology";
import type { Agent, AgentKind, ModelRef, Provider, Topology } from "../model/types";
import { useDesigner } from "../store/designer";
import { GuardrailsEditor } from "./GuardrailsEditor";
import { AgentScript } from "./ScenarioEditor";
import { ToolsEditor } from "./ToolsEditor";

const KIND_ICON: Record<AgentKind, typeof Bot> = { agent: Bot, supervisor: Network, human: UserRound };

export function AgentInspector({ topology, agent }: { topology: Topology; agent: Agent }) {
  const commit = useDesigner((s) => s.commit);
  const id = agent.id;
  const kind = agentKind(agent);
  const Icon = KIND_ICON[kind];
  const set = (key: string, fn: (a: Agent) => Agent) => commit((t) => updateAgent(t, id, fn), { coalesce: `agent:${id}:${key}` });
  const setModel = (key: string, fn: (m: ModelRef) => ModelRef) =>
    set(`model.${key}`, (a) => ({ ...a, model: fn(a.model ?? { provider: "mock", name: "mock" }) }));
  const incoming = topology.edges.filter((e) => e.to === id).length;
  const outgoing = topology.edges.filter((e) => e.from === id).length;

  return (
    <div className="insp-body" data-testid="inspector-agent">
      <div className="insp-title">
        <div className={`insp-title-icon kind-${kind}`}>
          <Icon size={16} />
        </div>
        <div className="insp-title-text">
          <div className="insp-title-name" title={agent.name || agent.id}>
            {agent.name || agent.id}
          </div>
          <div className="insp-title-sub">
            {kind}
            {topology.entry === id && <span className="pill pill-accent">entry</span>}
            <span className="muted">
              · {incoming} in · {outgoing} out
            </span>
          </div>
        </div>
        <button
          className="icon-btn danger"
          title="Delete agent (Delete)"
          aria-label="Delete agent"
          data-testid="delete-agent"
          onClick={() => useDesigner.getState().deleteSelection()}
        >
          <Trash2 size={15} />
        </button>
      </div>

      <Section title="Identity">
        <AgentIdField topology={topology} agentId={id} />
        <TextField label="Name" value={agent.name} testId="agent-name" onChange={(v) => set("name", (a) => ({ ...a, name: v }))} />
        <Field label="Kind">
          <Segmented<AgentKind>
            label="Agent kind"
            value={kind}
            testId="agent-kind"
            options={AGENT_KINDS.map((k) => ({ value: k, label: k }))}
            onChange={(k) => commit((t) => updateAgent(t, id, (a) => setAgentKind(a, k)))}
          />
        </Field>
        {topology.entry !== id && (
          <button className="btn btn-secondary btn-sm" data-testid="make-entry" onClick={() => commit((t) => ({ ...t, entry: id }))}>
            Make entry agent
          </button>
        )}
      </Section>

      <Section title="Instructions">
        <TextAreaField
          label="System instructions"
          value={agent.instructions ?? ""}
          rows={8}
          testId="agent-instructions"
          placeholder="What this agent does. Instructions never cross a handoff."
          hint="Never crosses a handoff: the receiver runs on its own instructions."
          onChange={(v) => set("instructions", (a) => ({ ...a, instructions: v }))}
        />
      </Section>

      {kind !== "human" && (
        <Section title="Model">
          <SelectField<Provider>
            label="Provider"
            value={agent.model?.provider ?? "mock"}
            testId="agent-provider"
            options={PROVIDERS.map((p) => ({ value: p, label: PROVIDER_LABELS[p] }))}
            onChange={(p) => commit((t) => updateAgent(t, id, (a) => ({ ...a, model: { ...(a.model ?? { name: "mock" }), provider: p } })))}
          />
          <TextField
            label="Model name"
            value={agent.model?.name ?? ""}
            mono
            testId="agent-model"
            placeholder="gpt-4o-mini"
            onChange={(v) => setModel("name", (m) => ({ ...m, name: v }))}
          />
          {agent.model?.provider === "openai-compatible" && (
            <TextField
              label="Base URL"
              value={agent.model.base_url ?? ""}
              mono
              placeholder="http://localhost:11434/v1"
              onChange={(v) => setModel("base_url", (m) => ({ ...m, base_url: v === "" ? null : v }))}
            />
          )}
          <div className="field-row">
            <NumberField
              label="Temperature"
              value={agent.model?.temperature}
              min={0}
              max={2}
              step={0.1}
              placeholder="default"
              testId="agent-temperature"
              onChange={(v) => setModel("temperature", (m) => ({ ...m, temperature: v }))}
            />
            <NumberField
              label="Max tokens"
              value={agent.model?.max_tokens}
              min={1}
              integer
              placeholder="default"
              testId="agent-max-tokens"
              onChange={(v) => setModel("max_tokens", (m) => ({ ...m, max_tokens: v }))}
            />
          </div>
        </Section>
      )}

      <ToolsEditor agent={agent} />

      <GuardrailsEditor topology={topology} scope={id} />

      <AgentScript topology={topology} agent={id} />
    </div>
  );
}

/**
 * The id: edited as a draft, applied on Enter or blur; renaming updates every reference. A taken
 * or malformed id is not applied and stays typed with why (Esc puts the current id back).
 */
function AgentIdField({ topology, agentId }: { topology: Topology; agentId: string }) {
  const fieldId = useId();
  const [draft, setDraft] = useState(agentId);
  const check = checkAgentId(topology, agentId, draft);
  const apply = () => {
    if (draft === agentId || !check.ok) return;
    useDesigner.getState().commit((t) => renameAgent(t, agentId, draft), { select: { agents: [draft], edges: [] } });
  };
  return (
    <Field
      label="Id"
      htmlFor={fieldId}
      error={check.ok ? null : `${check.reason} Not renamed: Esc puts back '${agentId}'.`}
      hint={draft !== agentId ? "Enter renames it everywhere: edges, facts, scripts, layout." : "Referenced by edges, facts and scripts."}
    >
      <input
        id={fieldId}
        className="input mono"
        value={draft}
        spellCheck={false}
        data-testid="agent-id"
        aria-invalid={!check.ok}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={apply}
        onKeyDown={(e) => {
          if (e.key === "Enter") apply();
          if (e.key === "Escape") setDraft(agentId);
        }}
      />
    </Field>
  );
}

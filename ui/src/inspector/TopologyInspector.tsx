import { Pin, Plus, Trash2, Workflow } from "lucide-react";
import { Field, NumberField, Section, SelectField, TextAreaField, TextField } from "../components/form";
import type { Guards, OnRevisit, PinnedFact, Topology } from "../model/types";
import { useDesigner } from "../store/designer";
import { GuardrailsEditor } from "./GuardrailsEditor";
import { ScenarioEditor } from "./ScenarioEditor";

const REVISIT: { value: OnRevisit; label: string }[] = [
  { value: "allow", label: "allow — let it happen" },
  { value: "stop", label: "stop — end the run" },
  { value: "escalate", label: "escalate — hand to a human" },
];

export function TopologyInspector({ topology }: { topology: Topology }) {
  const commit = useDesigner((s) => s.commit);
  const set = (key: string, fn: (t: Topology) => Topology) => commit(fn, { coalesce: `topology:${key}` });
  const setGuards = (key: string, fn: (g: Guards) => Guards) => set(`guards.${key}`, (t) => ({ ...t, guards: fn(t.guards) }));
  const humans = topology.agents.filter((a) => a.kind === "human");
  const entryKnown = topology.agents.some((a) => a.id === topology.entry);

  return (
    <div className="insp-body" data-testid="inspector-topology">
      <div className="insp-title">
        <div className="insp-title-icon kind-topology">
          <Workflow size={16} />
        </div>
        <div className="insp-title-text">
          <div className="insp-title-name" title={topology.name || undefined}>
            {topology.name || "Untitled topology"}
          </div>
          <div className="insp-title-sub">
            {topology.agents.length} agents · {topology.edges.length} edges
          </div>
        </div>
      </div>

      <Section title="Topology">
        <TextField label="Name" value={topology.name} testId="topology-name" onChange={(v) => set("name", (t) => ({ ...t, name: v }))} />
        <TextAreaField
          label="Description"
          rows={2}
          mono={false}
          value={topology.description ?? ""}
          testId="topology-description"
          onChange={(v) => set("description", (t) => ({ ...t, description: v }))}
        />
        <SelectField<string>
          label="Entry agent"
          value={entryKnown ? topology.entry : ""}
          testId="topology-entry"
          hint="Receives the user's first message."
          options={[
            ...(entryKnown ? [] : [{ value: "", label: topology.entry ? `${topology.entry} (missing)` : "— choose —" }]),
            ...topology.agents.map((a) => ({ value: a.id, label: `${a.name} (${a.id})` })),
          ]}
          onChange={(v) => v && commit((t) => ({ ...t, entry: v }))}
        />
      </Section>

      <Section title="Run-time guards" testId="guards">
        <div className="field-row">
          <NumberField
            label="Max turns"
            value={topology.guards.max_turns}
            integer
            min={1}
            allowEmpty={false}
            testId="guard-max-turns"
            onChange={(v) => v !== null && setGuards("max_turns", (g) => ({ ...g, max_turns: v }))}
          />
          <NumberField
            label="Max handoffs"
            value={topology.guards.max_handoffs}
            integer
            min={0}
            placeholder="unlimited"
            testId="guard-max-handoffs"
            onChange={(v) => setGuards("max_handoffs", (g) => ({ ...g, max_handoffs: v }))}
          />
        </div>
        <SelectField<OnRevisit>
          label="On revisit"
          value={topology.guards.on_revisit}
          options={REVISIT}
          testId="guard-on-revisit"
          hint="A transfer back to an agent that already owned the conversation."
          onChange={(v) => commit((t) => ({ ...t, guards: { ...t.guards, on_revisit: v } }))}
        />
        {topology.guards.on_revisit === "escalate" && (
          <SelectField<string>
            label="Escalate to"
            value={topology.guards.escalate_to ?? ""}
            testId="guard-escalate-to"
            options={[
              { value: "", label: humans.length ? "first human agent" : "— no human agent —" },
              ...humans.map((a) => ({ value: a.id, label: `${a.name} (${a.id})` })),
            ]}
            onChange={(v) => commit((t) => ({ ...t, guards: { ...t.guards, escalate_to: v === "" ? null : v } }))}
          />
        )}
      </Section>

      <GuardrailsEditor topology={topology} scope={null} />

      <FactsEditor topology={topology} />

      <ScenarioEditor topology={topology} />
    </div>
  );
}

function FactsEditor({ topology }: { topology: Topology }) {
  const commit = useDesigner((s) => s.commit);
  const facts = topology.facts ?? [];
  const setFacts = (fn: (f: PinnedFact[]) => PinnedFact[], coalesce?: string) =>
    commit((t) => ({ ...t, facts: fn(t.facts ?? []) }), coalesce ? { coalesce } : {});

  return (
    <Section
      title={`Pinned facts · ${facts.length}`}
      testId="facts"
      actions={
        <button
          className="btn btn-ghost btn-xs"
          data-testid="fact-add"
          onClick={() => {
            const taken = new Set(facts.map((f) => f.id));
            let id = "fact";
            for (let n = 2; taken.has(id); n++) id = `fact-${n}`;
            setFacts((fs) => [...fs, { id, text: "", holders: [] }]);
          }}
        >
          <Plus size={13} /> Add fact
        </button>
      }
    >
      {facts.length === 0 && <div className="empty-hint">Invariants the architect states; checked at every transfer.</div>}
      {facts.map((f, i) => (
        <div className="fact-card" key={i} data-testid={`fact-${i}`}>
          <div className="fact-card-header">
            <Pin size={13} className="fact-pin" />
            <input
              className="input input-bare mono"
              value={f.id}
              aria-label="Fact id"
              onChange={(e) => setFacts((fs) => fs.map((x, j) => (j === i ? { ...x, id: e.target.value } : x)), `fact:${i}:id`)}
            />
            <button className="icon-btn sm danger" aria-label={`Remove fact ${f.id}`} onClick={() => setFacts((fs) => fs.filter((_, j) => j !== i))}>
              <Trash2 size={13} />
            </button>
          </div>
          <textarea
            className="textarea"
            rows={2}
            value={f.text}
            placeholder="'Resolved' means patched behind a flag, pending rollout."
            aria-label="Fact text"
            onChange={(e) => setFacts((fs) => fs.map((x, j) => (j === i ? { ...x, text: e.target.value } : x)), `fact:${i}:text`)}
          />
          <Field label="Held by">
            <div className="chip-select" role="group" aria-label="Holders">
              {topology.agents.map((a) => {
                const on = (f.holders ?? []).includes(a.id);
                return (
                  <button
                    key={a.id}
                    type="button"
                    className={`chip-toggle${on ? " is-on" : ""}`}
                    aria-pressed={on}
                    onClick={() =>
                      setFacts((fs) =>
                        fs.map((x, j) =>
                          j === i
                            ? { ...x, holders: on ? (x.holders ?? []).filter((h) => h !== a.id) : [...(x.holders ?? []), a.id] }
                            : x,
                        ),
                      )
                    }
                  >
                    {a.name}
                  </button>
                );
              })}
            </div>
          </Field>
        </div>
      ))}
    </Section>
  );
}

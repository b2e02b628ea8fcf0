// The inspector's Guardrails section (an agent's, or the topology's run-wide ones): add, edit and remove guardrails through the designer's commit, so each edit is undoable and makes the document dirty.
import { Plus, ShieldAlert, ShieldCheck, Trash2 } from "lucide-react";
import { useId } from "react";
import "../styles/guardrails.css";
import { useDraft } from "../components/draft";
import { Field, Section, Segmented } from "../components/form";
import {
  CHECK_KINDS,
  addGuardrail,
  checkKind,
  neverRuns,
  guardrailsOf,
  parseSchema,
  removeGuardrail,
  setGuardrailOn,
  updateGuardrail,
  withCheckKind,
  type CheckKind,
  type GuardrailScope,
} from "../model/guardrails";
import type { Guardrail, GuardrailOn, Topology } from "../model/types";
import { useDesigner } from "../store/designer";

const CHECK_LABEL: Record<CheckKind, string> = { contains: "contains", regex: "regex", schema: "JSON Schema", agent: "agent" };

export function GuardrailsEditor({ topology, scope }: { topology: Topology; scope: GuardrailScope }) {
  const commit = useDesigner((s) => s.commit);
  const list = guardrailsOf(topology, scope);
  return (
    <Section
      title={`${scope === null ? "Run-wide guardrails" : "Guardrails"} · ${list.length}`}
      testId={scope === null ? "guardrails-run-wide" : "guardrails"}
      actions={
        <button className="btn btn-ghost btn-xs" data-testid="guardrail-add" onClick={() => commit((t) => addGuardrail(t, scope, scope === null || scope === t.entry ? "input" : "output"))}>
          <Plus size={13} /> Add guardrail
        </button>
      }
    >
      {list.length === 0 && (
        <div className="empty-hint">
          {scope === null
            ? "Checks on every run (the SDK's RunConfig): input ones on the first agent's input, output ones on the final output."
            : "Checks the run's input (entry agent only) or this agent's final output; a tripwire stops the run."}
        </div>
      )}
      {list.map(({ g, index }, i) => (
        <GuardrailCard key={index} topology={topology} g={g} index={index} position={i} />
      ))}
    </Section>
  );
}

function GuardrailCard({ topology, g, index, position }: { topology: Topology; g: Guardrail; index: number; position: number }) {
  const commit = useDesigner((s) => s.commit);
  const ids = useId();
  const edit = (key: string, fn: (g: Guardrail) => Guardrail, coalesce = true) =>
    commit((t) => updateGuardrail(t, index, fn), coalesce ? { coalesce: `guardrail:${index}:${key}` } : {});
  const kind = checkKind(g.check);
  const never = neverRuns(topology, g);
  const Icon = never ? ShieldAlert : ShieldCheck;
  return (
    <div className={`guardrail-card${never ? " is-never" : ""}`} data-testid={`guardrail-${position}`} data-name={g.name} data-on={g.on}>
      <div className="guardrail-card-header">
        <Icon size={14} className="guardrail-icon" />
        <input
          className="input input-bare mono"
          value={g.name}
          aria-label="Guardrail name"
          data-testid="guardrail-name"
          spellCheck={false}
          onChange={(e) => edit("name", (x) => ({ ...x, name: e.target.value }))}
        />
        <button className="icon-btn sm danger" aria-label={`Remove guardrail ${g.name}`} data-testid="guardrail-remove" onClick={() => commit((t) => removeGuardrail(t, index))}>
          <Trash2 size={13} />
        </button>
      </div>
      <div className="guardrail-row">
        <Segmented<GuardrailOn>
          label="Runs on"
          value={g.on}
          testId="guardrail-on"
          options={[
            { value: "input", label: "input", title: "Checks the run's input (the entry agent's first turn)" },
            { value: "output", label: "output", title: "Checks the final output of the agent that gives it" },
          ]}
          onChange={(on) => edit("on", (x) => setGuardrailOn(x, on), false)}
        />
        <Segmented<CheckKind>
          label="Check"
          value={kind === "custom" ? ("" as CheckKind) : kind}
          testId="guardrail-kind"
          options={CHECK_KINDS.map((k) => ({ value: k, label: CHECK_LABEL[k] }))}
          onChange={(k) => edit("kind", (x) => ({ ...x, check: withCheckKind(x.check, k) }), false)}
        />
      </div>
      {never && (
        <div className="guardrail-never" data-testid="guardrail-never" role="note">
          {never}
        </div>
      )}
      {"custom" in g.check ? (
        <div className="guardrail-never" data-testid="guardrail-custom" role="note">
          Your function {g.check.custom} (read from code): Baton cannot run it, so runs treat it as passing. Pick a check
          kind above to replace it with one Baton runs.
        </div>
      ) : "agent" in g.check ? (
        <Field label="Guardrail agent (its id): it answers {&quot;tripwire_triggered&quot;, &quot;reason&quot;}" htmlFor={`${ids}-value`}>
          <input
            id={`${ids}-value`}
            className="input mono"
            value={g.check.agent}
            placeholder="moderator"
            spellCheck={false}
            data-testid="guardrail-value"
            onChange={(e) => {
              const v = e.target.value;
              edit("value", (x) => ({ ...x, check: { agent: v } }));
            }}
          />
        </Field>
      ) : "schema" in g.check ? (
        <SchemaField g={g} onSchema={(schema) => edit("schema", (x) => ({ ...x, check: { schema } }))} />
      ) : (
        <Field
          label={kind === "contains" ? "Trips when the text contains" : "Trips when the text matches"}
          htmlFor={`${ids}-value`}
          hint={kind === "regex" ? "Rust regex syntax; the Problems tab says when Baton cannot read it (guardrail-unknown)." : undefined}
        >
          <input
            id={`${ids}-value`}
            className="input mono"
            value={"contains" in g.check ? g.check.contains : "regex" in g.check ? g.check.regex : ""}
            placeholder={kind === "contains" ? "refund" : "(?i)\\brefund\\b"}
            spellCheck={false}
            data-testid="guardrail-value"
            onChange={(e) => {
              const v = e.target.value;
              edit("value", (x) => ({ ...x, check: kind === "contains" ? { contains: v } : { regex: v } }));
            }}
          />
        </Field>
      )}
      {g.on === "input" && (
        <Field label="When">
          <Segmented<"parallel" | "blocking">
            label="When it runs"
            value={g.run_in_parallel === false ? "blocking" : "parallel"}
            testId="guardrail-parallel"
            options={[
              { value: "parallel", label: "parallel", title: "Beside the model call: run_in_parallel true (the SDK's default)" },
              { value: "blocking", label: "blocking", title: "Before the model call: run_in_parallel false, the model is not called when it trips" },
            ]}
            onChange={(v) => edit("parallel", (x) => ({ ...x, run_in_parallel: v === "parallel" }), false)}
          />
        </Field>
      )}
      <Field label="Message when it trips" htmlFor={`${ids}-message`}>
        <input
          id={`${ids}-message`}
          className="input"
          value={g.message ?? ""}
          placeholder="Refund requests go to billing."
          data-testid="guardrail-message"
          onChange={(e) => {
            const v = e.target.value;
            edit("message", (x) => {
              const { message: _old, ...rest } = x;
              return v === "" ? rest : { ...rest, message: v };
            });
          }}
        />
      </Field>
    </div>
  );
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The schema as JSON text: applied while it is JSON, otherwise kept as typed with why. */
function SchemaField({ g, onSchema }: { g: Guardrail; onSchema: (schema: unknown) => void }) {
  const id = useId();
  const schema = "schema" in g.check ? g.check.schema : {};
  const draft = useDraft<unknown>(schema, (v) => JSON.stringify(v, null, 2), sameJson);
  return (
    <Field label="Trips when the text is not JSON valid under" htmlFor={id} error={draft.error} hint="A JSON Schema, as JSON.">
      <textarea
        id={id}
        className="textarea mono"
        rows={4}
        value={draft.text}
        spellCheck={false}
        data-testid="guardrail-schema"
        aria-invalid={draft.error !== null}
        onChange={(e) => {
          const text = e.target.value;
          const r = parseSchema(text);
          if (r.ok) {
            draft.typed(text, { value: r.value });
            onSchema(r.value);
          } else draft.typed(text, { error: r.reason });
        }}
      />
    </Field>
  );
}

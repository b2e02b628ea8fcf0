import { ArrowRight, ArrowRightLeft, CornerDownRight, Plus, ShieldCheck, Trash2, X } from "lucide-react";
import { useId } from "react";
import { Field, NumberField, Section, Segmented, TextField } from "../components/form";
import {
  POLICY_CHOICES,
  POLICY_HELP,
  defaultToolName,
  edgeId,
  policyChoice,
  policyLabel,
  policyFor,
  setEdgeKind,
  updateEdge,
  type PolicyChoice,
} from "../model/topology";
import type { Acceptance, ContextPolicy, Edge, EdgeKind, FieldSpec, Topology } from "../model/types";
import { useDesigner } from "../store/designer";
import { selectBreakpoints, useRun } from "../store/run";

/** Toggles a breakpoint on this edge: runs pause before the transfer (F9 does the same). */
function BreakpointButton({ topology, edge }: { topology: string; edge: string }) {
  const on = useRun(selectBreakpoints(topology)).includes(edge);
  const toggle = useRun((s) => s.toggleBreakpoint);
  return (
    <button
      className={`icon-btn bp-btn${on ? " is-on" : ""}`}
      title={on ? "Remove the breakpoint (F9)" : "Add a breakpoint: runs pause before this transfer (F9)"}
      aria-label={on ? "Remove breakpoint" : "Add breakpoint"}
      aria-pressed={on}
      data-testid="edge-breakpoint"
      onClick={() => toggle(topology, edge)}
    >
      <span className="bp-btn-dot" />
    </button>
  );
}

const FIELD_TYPES = ["string", "number", "integer", "boolean", "object", "array"];

export function EdgeInspector({ topology, edge }: { topology: Topology; edge: Edge }) {
  const commit = useDesigner((s) => s.commit);
  const id = edgeId(edge);
  const set = (key: string, fn: (e: Edge) => Edge) => commit((t) => updateEdge(t, id, fn), { coalesce: `edge:${id}:${key}` });
  const name = (a: string) => topology.agents.find((x) => x.id === a)?.name ?? a;
  const isHandoff = edge.kind === "handoff";

  return (
    <div className="insp-body" data-testid="inspector-edge">
      <div className="insp-title">
        <div className={`insp-title-icon edge-${edge.kind}`}>{isHandoff ? <ArrowRightLeft size={16} /> : <CornerDownRight size={16} />}</div>
        <div className="insp-title-text">
          <div className="insp-title-name" title={`${name(edge.from)} → ${name(edge.to)}`}>
            {name(edge.from)} <ArrowRight size={13} className="muted inline-icon" /> {name(edge.to)}
          </div>
          <div className="insp-title-sub mono" title={id}>
            {id}
          </div>
        </div>
        <BreakpointButton topology={topology.name} edge={id} />
        <button
          className="icon-btn danger"
          title="Delete edge (Delete)"
          aria-label="Delete edge"
          data-testid="delete-edge"
          onClick={() => useDesigner.getState().deleteSelection()}
        >
          <Trash2 size={15} />
        </button>
      </div>

      <Section title="Transfer">
        <Field label="Kind" hint={isHandoff ? "Ownership moves to the target; the source steps out." : "The source calls the target as a tool and keeps ownership."}>
          <Segmented<EdgeKind>
            label="Edge kind"
            value={edge.kind}
            testId="edge-kind-toggle"
            options={[
              { value: "handoff", label: "Handoff" },
              { value: "delegation", label: "Delegation" },
            ]}
            onChange={(k) => commit((t) => updateEdge(t, id, (e) => setEdgeKind(e, k)))}
          />
        </Field>
        <TextField
          label="Tool name"
          mono
          value={edge.tool ?? ""}
          placeholder={defaultToolName(topology, edge)}
          testId="edge-tool"
          hint="What the source's model sees; empty uses the default."
          onChange={(v) => set("tool", (e) => ({ ...e, tool: v === "" ? null : v }))}
        />
        <TextField
          label="Description"
          value={edge.description ?? ""}
          testId="edge-description"
          placeholder="When to use this transfer"
          onChange={(v) => set("description", (e) => ({ ...e, description: v }))}
        />
      </Section>

      {isHandoff ? (
        <PolicyEditor edgeId={id} policy={edge.policy} />
      ) : (
        <Section title="Context">
          <div className="empty-hint">A delegation passes only the tool input, plus the target's own instructions.</div>
        </Section>
      )}

      <Section title="Acceptance">
        <Field
          label="The receiver's “done”"
          hint={
            edge.acceptance === "verify"
              ? isHandoff
                ? "Must be verified — but after a handoff nobody is left to verify it. Consider the supervisor refactor."
                : "The caller verifies the result before treating the task as closed."
              : "The source trusts the receiver's claim."
          }
        >
          <Segmented<Acceptance>
            label="Acceptance"
            value={edge.acceptance ?? "trust"}
            testId="edge-acceptance"
            options={[
              { value: "trust", label: "Trust" },
              { value: "verify", label: <><ShieldCheck size={13} /> Verify</> },
            ]}
            onChange={(v) => commit((t) => updateEdge(t, id, (e) => ({ ...e, acceptance: v })))}
          />
        </Field>
      </Section>
    </div>
  );
}

function PolicyEditor({ edgeId: id, policy }: { edgeId: string; policy: ContextPolicy | undefined }) {
  const commit = useDesigner((s) => s.commit);
  const selectId = useId();
  const choice = policyChoice(policy);
  const setPolicy = (p: ContextPolicy, coalesce?: string) =>
    commit((t) => updateEdge(t, id, (e) => ({ ...e, policy: p })), coalesce ? { coalesce: `edge:${id}:${coalesce}` } : {});

  const fields = policy && typeof policy === "object" && "fields" in policy ? policy.fields : [];
  const setFields = (fn: (f: FieldSpec[]) => FieldSpec[], key?: string) => setPolicy({ fields: fn(fields) }, key);

  return (
    <Section title="Context policy" testId="policy">
      <Field label="What crosses the handoff" htmlFor={selectId} hint={POLICY_HELP[choice]}>
        <select
          id={selectId}
          className="select"
          data-testid="policy-select"
          value={choice}
          onChange={(e) => setPolicy(policyFor(e.target.value as PolicyChoice, policy))}
        >
          {POLICY_CHOICES.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
          {choice === "custom" && <option value="custom">{policyLabel(policy)}</option>}
        </select>
      </Field>
      {choice === "last_n" && policy && typeof policy === "object" && "last_n" in policy && (
        <NumberField
          label="Last N items"
          value={policy.last_n}
          integer
          min={0}
          allowEmpty={false}
          testId="policy-last-n"
          onChange={(n) => n !== null && setPolicy({ last_n: n }, "last_n")}
        />
      )}
      {choice === "fields" && (
        <div className="fields-editor" data-testid="policy-fields">
          <div className="fields-head">
            <span>Field</span>
            <span>Type</span>
            <span />
          </div>
          {fields.map((f, i) => (
            <div className="fields-row" key={i}>
              <input
                className="input mono"
                value={f.name}
                aria-label="Field name"
                data-testid={`policy-field-name-${i}`}
                onChange={(e) => setFields((fs) => fs.map((x, j) => (j === i ? { ...x, name: e.target.value } : x)), `field:${i}:name`)}
              />
              <select
                className="select"
                value={f.type}
                aria-label="Field type"
                onChange={(e) => setFields((fs) => fs.map((x, j) => (j === i ? { ...x, type: e.target.value } : x)))}
              >
                {FIELD_TYPES.map((t) => (
                  <option key={t}>{t}</option>
                ))}
              </select>
              <button className="icon-btn sm" aria-label={`Remove field ${f.name}`} onClick={() => setFields((fs) => fs.filter((_, j) => j !== i))}>
                <X size={13} />
              </button>
            </div>
          ))}
          <button
            className="btn btn-ghost btn-xs"
            data-testid="policy-field-add"
            onClick={() => {
              const taken = new Set(fields.map((f) => f.name));
              let name = "field";
              for (let n = 2; taken.has(name); n++) name = `field_${n}`;
              setFields((fs) => [...fs, { name, type: "string" }]);
            }}
          >
            <Plus size={13} /> Add field
          </button>
        </div>
      )}
    </Section>
  );
}

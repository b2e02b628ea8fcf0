// The scenarios of the topology, edited in the inspector: create, rename, delete; the user's
// message, the prior conversation and each agent's mock rules (when → reply, reasoning, tool
// calls and transfers). Every edit is a designer commit (undo works, the document turns dirty);
// what is wrong is said under the field it is about.
import { ArrowDown, ArrowUp, ChevronDown, ChevronRight, MessageSquare, Plus, Trash2, X } from "lucide-react";
import { useId, useMemo, useState, type ReactNode } from "react";
import "../styles/editor.css";
import { createScenario } from "../commands/scenarios";
import { useDraft } from "../components/draft";
import { Section } from "../components/form";
import {
  WHEN_FIELDS,
  WHEN_LABELS,
  agentTools,
  checkScenarioName,
  fieldOf,
  move,
  pickScenario,
  removeScenario,
  renameScenario,
  setCalls,
  setHistory,
  setRules,
  setThen,
  setWhen,
  updateScenario,
  validateScenario,
  type MockCall,
  type MockRule,
  type ScenarioIssue,
  type WhenField,
} from "../model/scenario";
import { agentKind } from "../model/topology";
import type { JsonValue, Scenario, Topology } from "../model/types";
import { useDesigner } from "../store/designer";
import { useRun } from "../store/run";

type Edit = (key: string, fn: (s: Scenario) => Scenario) => void;

export function ScenarioEditor({ topology }: { topology: Topology }) {
  const chosen = useRun((s) => s.scenario[topology.name]);
  const setChosen = useRun((s) => s.setScenario);
  const commit = useDesigner((s) => s.commit);
  const scenarios = topology.scenarios ?? [];
  const scenario = pickScenario(topology, chosen);
  const issues = useMemo(() => (scenario ? validateScenario(topology, scenario) : []), [topology, scenario]);
  const selectId = useId();

  const edit: Edit = (key, fn) => {
    if (!scenario) return;
    const name = scenario.name;
    commit((t) => updateScenario(t, name, fn), { coalesce: `scenario:${name}:${key}` });
  };

  return (
    <Section
      title={`Scenarios · ${scenarios.length}`}
      testId="scenarios"
      actions={
        <button className="btn btn-ghost btn-xs" data-testid="scenario-new" onClick={() => createScenario()}>
          <Plus size={13} /> New scenario
        </button>
      }
    >
      {!scenario ? (
        <div className="empty-hint" data-testid="scenarios-empty">
          A scenario is a user message and the mock rules that answer it, so the topology runs without real providers.{" "}
          <button className="link-btn" onClick={() => createScenario()}>
            Create one
          </button>
          , or type a message in the Run tab.
        </div>
      ) : (
        <div className="scn" data-testid="scenario-editor" data-scenario={scenario.name}>
          <div className="scn-pick">
            <label className="field-label" htmlFor={selectId}>
              Editing
            </label>
            <select
              id={selectId}
              className="select"
              data-testid="scenario-select"
              value={scenario.name}
              onChange={(e) => setChosen(topology.name, e.target.value)}
              title="The scenario the Run tab runs"
            >
              {scenarios.map((s) => (
                <option key={s.name} value={s.name}>
                  {s.name}
                </option>
              ))}
            </select>
            <button
              className="icon-btn sm danger"
              data-testid="scenario-delete"
              aria-label={`Delete scenario ${scenario.name}`}
              title="Delete this scenario (undo brings it back)"
              onClick={() => commit((t) => removeScenario(t, scenario.name))}
            >
              <Trash2 size={13} />
            </button>
          </div>
          <IssueSummary issues={issues} />
          <NameField key={scenario.name} topology={topology} scenario={scenario} />
          <MessageField scenario={scenario} edit={edit} issues={issues} />
          <HistoryEditor scenario={scenario} edit={edit} issues={issues} />
          <div className="scn-scripts-title">
            Mock rules <span className="muted">first match answers, per agent</span>
          </div>
          {topology.agents
            .filter((a) => agentKind(a) !== "human" || (scenario.scripts?.[a.id]?.length ?? 0) > 0)
            .map((a) => (
              <ScriptCard key={a.id} topology={topology} scenario={scenario} agent={a.id} edit={edit} issues={issues} />
            ))}
          {Object.keys(scenario.scripts ?? {})
            .filter((id) => !topology.agents.some((a) => a.id === id))
            .map((id) => (
              <div key={id} className="scn-orphan" data-testid={`script-${id}`}>
                <span className="mono">{id}</span>
                <FieldIssues issues={issues} field={fieldOf.script(id)} />
                <button className="btn btn-ghost btn-xs" onClick={() => edit(`orphan:${id}`, (s) => setRules(s, id, []))}>
                  <Trash2 size={12} /> Delete this script
                </button>
              </div>
            ))}
        </div>
      )}
    </Section>
  );
}

function IssueSummary({ issues }: { issues: ScenarioIssue[] }) {
  if (issues.length === 0) return null;
  const errors = issues.filter((i) => i.severity === "error").length;
  const warnings = issues.length - errors;
  return (
    <div className={`scn-summary${errors ? " has-error" : ""}`} role="status" data-testid="scenario-issues" data-errors={errors} data-warnings={warnings}>
      {errors > 0 && `${errors} ${errors === 1 ? "problem" : "problems"} a run would fail on`}
      {errors > 0 && warnings > 0 && " · "}
      {warnings > 0 && `${warnings} ${warnings === 1 ? "warning" : "warnings"}`}
      <span className="muted"> (said under each field)</span>
    </div>
  );
}

/** The issues about one field (exactly that path), under it. */
function FieldIssues({ issues, field }: { issues: ScenarioIssue[]; field: string }) {
  const here = issues.filter((i) => i.field === field);
  if (here.length === 0) return null;
  return (
    <>
      {here.map((i, n) => (
        <div key={n} className={`scn-issue sev-${i.severity}`} data-testid="field-issue" data-field={i.field} data-severity={i.severity} role={i.severity === "error" ? "alert" : undefined}>
          {i.message}
        </div>
      ))}
    </>
  );
}

/** The name: a draft applied on Enter or blur; a taken or empty name stays typed, with why. */
function NameField({ topology, scenario }: { topology: Topology; scenario: Scenario }) {
  const id = useId();
  const [draft, setDraft] = useState(scenario.name);
  const check = checkScenarioName(topology, scenario.name, draft);
  const apply = () => {
    if (draft === scenario.name || !check.ok) return;
    const old = scenario.name;
    useDesigner.getState().commit((t) => renameScenario(t, old, draft));
    useRun.getState().setScenario(topology.name, draft);
  };
  return (
    <div className={`field${check.ok ? "" : " has-error"}`}>
      <label className="field-label" htmlFor={id}>
        Name
      </label>
      <input
        id={id}
        className="input mono"
        value={draft}
        spellCheck={false}
        data-testid="scenario-name"
        aria-invalid={!check.ok}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={apply}
        onKeyDown={(e) => {
          if (e.key === "Enter") apply();
          if (e.key === "Escape") setDraft(scenario.name);
        }}
      />
      {!check.ok ? (
        <div className="field-error" data-testid="scenario-name-error">
          {check.reason} Esc puts back '{scenario.name}'.
        </div>
      ) : draft !== scenario.name ? (
        <div className="field-hint">Enter renames it.</div>
      ) : null}
    </div>
  );
}

function MessageField({ scenario, edit, issues }: { scenario: Scenario; edit: Edit; issues: ScenarioIssue[] }) {
  const id = useId();
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        User message
      </label>
      <textarea
        id={id}
        className="textarea"
        rows={2}
        value={scenario.input}
        placeholder="Ticket #4812: the checkout button does nothing on Safari."
        data-testid="scenario-input"
        onChange={(e) => edit("input", (s) => ({ ...s, input: e.target.value }))}
      />
      <FieldIssues issues={issues} field="input" />
    </div>
  );
}

function HistoryEditor({ scenario, edit, issues }: { scenario: Scenario; edit: Edit; issues: ScenarioIssue[] }) {
  const history = scenario.history ?? [];
  const [open, setOpen] = useState(history.length > 0);
  const setAll = (key: string, fn: (h: typeof history) => typeof history) => edit(`history:${key}`, (s) => setHistory(s, fn(s.history ?? [])));
  return (
    <div className="scn-history" data-testid="scenario-history">
      <button className="scn-disclosure" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? <ChevronDown size={13} /> : <ChevronRight size={13} />} Prior conversation <span className="muted">· {history.length}</span>
      </button>
      {open && (
        <div className="scn-history-body">
          {history.length === 0 && <div className="empty-hint">None: the run starts with the user message.</div>}
          {history.map((m, i) => (
            <div key={i} className="scn-history-row" data-testid={`history-${i}`}>
              <div className="scn-row-head">
                <select
                  className="select select-sm"
                  aria-label={`Prior message ${i + 1}: from`}
                  data-testid={`history-role-${i}`}
                  value={m.role}
                  onChange={(e) => setAll(`${i}:role`, (h) => h.map((x, j) => (j === i ? { ...x, role: e.target.value } : x)))}
                >
                  {["user", "assistant"].includes(m.role) ? null : <option value={m.role}>{m.role}</option>}
                  <option value="user">user</option>
                  <option value="assistant">assistant</option>
                </select>
                <div className="spacer" />
                <button className="icon-btn sm danger" aria-label={`Remove prior message ${i + 1}`} onClick={() => setAll("remove", (h) => h.filter((_, j) => j !== i))}>
                  <X size={12} />
                </button>
              </div>
              <textarea
                className="textarea"
                rows={2}
                value={m.content}
                aria-label={`Prior message ${i + 1}`}
                data-testid={`history-content-${i}`}
                onChange={(e) => setAll(`${i}:content`, (h) => h.map((x, j) => (j === i ? { ...x, content: e.target.value } : x)))}
              />
              <FieldIssues issues={issues} field={fieldOf.history(i, "role")} />
              <FieldIssues issues={issues} field={fieldOf.history(i, "content")} />
            </div>
          ))}
          <button
            className="btn btn-ghost btn-xs"
            data-testid="history-add"
            onClick={() => setAll("add", (h) => [...h, { role: h.length % 2 === 0 ? "user" : "assistant", content: "" }])}
          >
            <Plus size={12} /> Add a prior message
          </button>
        </div>
      )}
    </div>
  );
}

function ScriptCard({
  topology,
  scenario,
  agent,
  edit,
  issues,
  defaultOpen,
}: {
  topology: Topology;
  scenario: Scenario;
  agent: string;
  edit: Edit;
  issues: ScenarioIssue[];
  defaultOpen?: boolean;
}) {
  const rules = scenario.scripts?.[agent] ?? [];
  const a = topology.agents.find((x) => x.id === agent);
  const label = a?.name || agent;
  // Open while it has rules (or is the entry's), until the user folds or unfolds it.
  const [toggled, setOpen] = useState<boolean | null>(null);
  const open = toggled ?? (defaultOpen || rules.length > 0 || agent === topology.entry);
  const mine = issues.filter((i) => i.field === fieldOf.script(agent) || i.field.startsWith(`${fieldOf.script(agent)}[`));
  const errors = mine.filter((i) => i.severity === "error").length;
  const setAll = (key: string, fn: (r: MockRule[]) => MockRule[]) => edit(`rules:${agent}:${key}`, (s) => setRules(s, agent, fn(s.scripts?.[agent] ?? [])));
  return (
    <div className={`scn-script${open ? " is-open" : ""}`} data-testid={`script-${agent}`} data-rules={rules.length}>
      <button className="scn-script-head" aria-expanded={open} onClick={() => setOpen(!open)} data-testid={`script-toggle-${agent}`}>
        {open ? <ChevronDown size={13} /> : <ChevronRight size={13} />}
        <MessageSquare size={12} className="muted" />
        <span className="scn-agent" title={label === agent ? label : `${label} (${agent})`}>
          {label}
        </span>
        <span className="muted small">
          {rules.length} {rules.length === 1 ? "rule" : "rules"}
        </span>
        {mine.length > 0 && <span className={`scn-badge ${errors ? "sev-error" : "sev-warning"}`}>{mine.length}</span>}
      </button>
      {open && (
        <div className="scn-script-body">
          <FieldIssues issues={issues} field={fieldOf.script(agent)} />
          {rules.map((r, i) => (
            <RuleEditor
              key={i}
              topology={topology}
              agent={agent}
              index={i}
              count={rules.length}
              rule={r}
              issues={issues}
              onChange={(key, fn) => setAll(`${i}:${key}`, (rs) => rs.map((x, j) => (j === i ? fn(x) : x)))}
              onMove={(by) => setAll("move", (rs) => move(rs, i, by))}
              onRemove={() => setAll("remove", (rs) => rs.filter((_, j) => j !== i))}
            />
          ))}
          <button
            className="btn btn-ghost btn-xs"
            data-testid={`rule-add-${agent}`}
            aria-label={`Add a rule for ${label}`}
            onClick={() => setAll("add", (rs) => [...rs, rs.length === 0 ? { say: "" } : { when: { call: rs.length + 1 }, say: "" }].map(clean))}
          >
            <Plus size={12} /> Add a rule
          </button>
        </div>
      )}
    </div>
  );
}

/** A new rule starts empty; empty texts are not stored (the validation then says it answers nothing). */
const clean = (r: MockRule): MockRule => setThen(setThen(r, "say", r.say ?? ""), "reasoning", r.reasoning ?? "");

/** One rule of an agent's script: its conditions, reasoning, reply and calls. */
function RuleEditor({
  topology,
  agent,
  index,
  count,
  rule,
  issues,
  onChange,
  onMove,
  onRemove,
}: {
  topology: Topology;
  agent: string;
  index: number;
  count: number;
  rule: MockRule;
  issues: ScenarioIssue[];
  onChange: (key: string, fn: (r: MockRule) => MockRule) => void;
  onMove: (by: number) => void;
  onRemove: () => void;
}) {
  const when = rule.when ?? {};
  const [added, setAdded] = useState<WhenField[]>([]);
  const [showReasoning, setShowReasoning] = useState(false);
  const shown = WHEN_FIELDS.filter((f) => (when[f] !== undefined && when[f] !== null) || added.includes(f));
  const free = WHEN_FIELDS.filter((f) => !shown.includes(f));
  const tools = agentTools(topology, agent);
  const facts = (topology.facts ?? []).map((f) => f.id);
  const calls = rule.calls ?? [];
  const tid = `${agent}-${index}`;

  const addWhen = (f: WhenField) => {
    if (f === "call") onChange("when.call", (r) => setWhen(r, "call", index + 1));
    else if ((f === "fact_present" || f === "fact_absent") && facts[0]) onChange(`when.${f}`, (r) => setWhen(r, f, facts[0]));
    setAdded((xs) => [...xs, f]);
  };
  const removeWhen = (f: WhenField) => {
    setAdded((xs) => xs.filter((x) => x !== f));
    onChange(`when.${f}`, (r) => setWhen(r, f, undefined));
  };
  const reasoning = (rule.reasoning !== undefined && rule.reasoning !== null) || showReasoning;

  return (
    <div className="scn-rule" data-testid={`rule-${tid}`}>
      <RuleHead index={index} count={count} tid={tid} always={shown.length === 0} onMove={onMove} onRemove={onRemove} />
      <FieldIssues issues={issues} field={fieldOf.rule(agent, index)} />
      {shown.map((f) => (
        <WhenCondition key={f} field={f} when={when} facts={facts} tid={tid} onChange={onChange} onRemove={() => removeWhen(f)}>
          <FieldIssues issues={issues} field={fieldOf.when(agent, index, f)} />
        </WhenCondition>
      ))}
      {free.length > 0 && (
        <select
          className="select select-sm scn-add-select"
          data-testid={`rule-when-add-${tid}`}
          aria-label="Add a condition"
          value=""
          onChange={(e) => e.target.value && addWhen(e.target.value as WhenField)}
        >
          <option value="">+ condition…</option>
          {free.map((f) => (
            <option key={f} value={f}>
              {WHEN_LABELS[f]}
            </option>
          ))}
        </select>
      )}
      {reasoning && (
        <RuleText
          label="Reasoning"
          value={rule.reasoning ?? ""}
          testId={`rule-reasoning-${tid}`}
          placeholder="Why it answers this way (shown in the debugger)"
          onChange={(v) => onChange("reasoning", (r) => setThen(r, "reasoning", v))}
        />
      )}
      <RuleText
        label="Reply"
        value={rule.say ?? ""}
        testId={`rule-say-${tid}`}
        placeholder={calls.length ? "Text said along with the calls (optional)" : "The agent's answer: without calls, the final answer"}
        onChange={(v) => onChange("say", (r) => setThen(r, "say", v))}
      />
      {calls.map((c, j) => (
        <CallRow
          key={j}
          call={c}
          tools={tools}
          testId={`${tid}-${j}`}
          issues={issues}
          toolField={fieldOf.call(agent, index, j, "tool")}
          argsField={fieldOf.call(agent, index, j, "args")}
          onChange={(key, fn) => onChange(`calls.${j}.${key}`, (r) => setCalls(r, (r.calls ?? []).map((x, k) => (k === j ? fn(x) : x))))}
          onRemove={() => onChange("calls.remove", (r) => setCalls(r, (r.calls ?? []).filter((_, k) => k !== j)))}
        />
      ))}
      <div className="scn-rule-actions">
        <select
          className="select select-sm scn-add-select"
          data-testid={`call-add-${tid}`}
          aria-label="Add a call"
          value=""
          onChange={(e) => e.target.value && onChange("calls.add", (r) => setCalls(r, [...(r.calls ?? []), { tool: e.target.value }]))}
        >
          <option value="">{tools.length ? "+ call a tool or transfer…" : "+ call… (no tools or edges yet)"}</option>
          {tools.map((x) => (
            <option key={`${x.kind}:${x.name}`} value={x.name}>
              {toolLabel(topology, x)}
            </option>
          ))}
        </select>
        {rule.reasoning === undefined && !showReasoning && (
          <button className="btn btn-ghost btn-xs" onClick={() => setShowReasoning(true)}>
            <Plus size={12} /> Reasoning
          </button>
        )}
      </div>
    </div>
  );
}

/** A rule's title, what it does without conditions, and its move and remove buttons. */
function RuleHead({ index, count, tid, always, onMove, onRemove }: { index: number; count: number; tid: string; always: boolean; onMove: (by: number) => void; onRemove: () => void }) {
  return (
    <div className="scn-row-head">
      <span className="scn-rule-title">Rule {index + 1}</span>
      <span className="muted small">{always ? "always answers" : "answers when"}</span>
      <div className="spacer" />
      <button className="icon-btn sm" aria-label={`Move rule ${index + 1} up`} disabled={index === 0} onClick={() => onMove(-1)}>
        <ArrowUp size={12} />
      </button>
      <button className="icon-btn sm" aria-label={`Move rule ${index + 1} down`} disabled={index === count - 1} onClick={() => onMove(1)}>
        <ArrowDown size={12} />
      </button>
      <button className="icon-btn sm danger" aria-label={`Remove rule ${index + 1}`} data-testid={`rule-remove-${tid}`} onClick={onRemove}>
        <Trash2 size={12} />
      </button>
    </div>
  );
}

/** One condition of a rule: a call number, a pinned fact, or a text to find; `children` are its issues. */
function WhenCondition({
  field: f,
  when,
  facts,
  tid,
  onChange,
  onRemove,
  children,
}: {
  field: WhenField;
  when: NonNullable<MockRule["when"]>;
  facts: string[];
  tid: string;
  onChange: (key: string, fn: (r: MockRule) => MockRule) => void;
  onRemove: () => void;
  children: ReactNode;
}) {
  return (
    <div className="scn-when">
      <span className="scn-when-label">{WHEN_LABELS[f]}</span>
      {f === "call" ? (
        <CallNumber value={when.call ?? null} testId={`rule-when-call-${tid}`} onChange={(v) => onChange("when.call", (r) => setWhen(r, "call", v ?? undefined))} />
      ) : f === "fact_present" || f === "fact_absent" ? (
        <select
          className="select select-sm"
          data-testid={`rule-when-${f}-${tid}`}
          aria-label={WHEN_LABELS[f]}
          value={when[f] ?? ""}
          onChange={(e) => onChange(`when.${f}`, (r) => setWhen(r, f, e.target.value))}
        >
          {facts.length === 0 && <option value="">no pinned facts</option>}
          {when[f] && !facts.includes(when[f] as string) && <option value={when[f] as string}>{when[f]} (unknown)</option>}
          {facts.map((id) => (
            <option key={id} value={id}>
              {id}
            </option>
          ))}
        </select>
      ) : (
        <input
          className="input input-sm"
          data-testid={`rule-when-${f}-${tid}`}
          aria-label={WHEN_LABELS[f]}
          value={(when[f] as string | undefined) ?? ""}
          placeholder="text"
          onChange={(e) => onChange(`when.${f}`, (r) => setWhen(r, f, e.target.value))}
        />
      )}
      <button className="icon-btn sm" aria-label={`Remove the condition: ${WHEN_LABELS[f]}`} onClick={onRemove}>
        <X size={12} />
      </button>
      {children}
    </div>
  );
}

/** A labelled text of a rule (its reasoning or its reply). */
function RuleText({ label, value, testId, placeholder, onChange }: { label: string; value: string; testId: string; placeholder: string; onChange: (v: string) => void }) {
  return (
    <label className="scn-then">
      <span className="scn-then-label">{label}</span>
      <textarea className="textarea scn-small" rows={2} value={value} data-testid={testId} placeholder={placeholder} onChange={(e) => onChange(e.target.value)} />
    </label>
  );
}

function toolLabel(t: Topology, x: { name: string; kind: string; target?: string }): string {
  const target = x.target ? t.agents.find((a) => a.id === x.target)?.name || x.target : "";
  if (x.kind === "handoff") return `${x.name} (hand off to ${target})`;
  if (x.kind === "delegation") return `${x.name} (delegate to ${target})`;
  return x.name;
}

function CallNumber({ value, onChange, testId }: { value: number | null; onChange: (v: number | null) => void; testId: string }) {
  const draft = useDraft<number | null>(value, (v) => (v === null ? "" : String(v)));
  return (
    <input
      className="input input-sm scn-num"
      inputMode="numeric"
      data-testid={testId}
      aria-label="Call number"
      aria-invalid={draft.error !== null}
      title={draft.error ?? "The agent's nth model call in the run, from 1"}
      value={draft.text}
      onChange={(e) => {
        const s = e.target.value;
        if (s.trim() === "") {
          draft.typed(s, { error: "A number from 1" });
          return;
        }
        const n = Number(s);
        if (!Number.isInteger(n)) return draft.typed(s, { error: "A whole number" });
        draft.typed(s, { value: n });
        onChange(n);
      }}
    />
  );
}

const prettyArgs = (v: JsonValue | undefined) => (v === undefined || v === null || (typeof v === "object" && !Array.isArray(v) && Object.keys(v).length === 0) ? "" : JSON.stringify(v));
const sameArgs = (a: JsonValue | undefined, b: JsonValue | undefined) => prettyArgs(a) === prettyArgs(b);

function CallRow({
  call,
  tools,
  testId,
  issues,
  toolField,
  argsField,
  onChange,
  onRemove,
}: {
  call: MockCall;
  tools: { name: string; kind: string; target?: string }[];
  testId: string;
  issues: ScenarioIssue[];
  toolField: string;
  argsField: string;
  onChange: (key: string, fn: (c: MockCall) => MockCall) => void;
  onRemove: () => void;
}) {
  const draft = useDraft<JsonValue | undefined>(call.args, prettyArgs, sameArgs);
  const known = tools.some((x) => x.name === call.tool);
  const isTransfer = tools.find((x) => x.name === call.tool)?.kind === "handoff";
  return (
    <div className={`scn-call${isTransfer ? " is-transfer" : ""}`} data-testid={`call-${testId}`}>
      <div className="scn-row-head">
        <span className="scn-then-label">{isTransfer ? "Transfer" : "Call"}</span>
        <select
          className="select select-sm scn-call-tool"
          data-testid={`call-tool-${testId}`}
          aria-label="Tool"
          value={call.tool}
          aria-invalid={!known}
          onChange={(e) => onChange("tool", (c) => ({ ...c, tool: e.target.value }))}
        >
          {!known && <option value={call.tool}>{call.tool || "choose…"} (not a tool of this agent)</option>}
          {tools.map((x) => (
            <option key={`${x.kind}:${x.name}`} value={x.name}>
              {x.name}
            </option>
          ))}
        </select>
        <button className="icon-btn sm danger" aria-label={`Remove the call to ${call.tool}`} data-testid={`call-remove-${testId}`} onClick={onRemove}>
          <X size={12} />
        </button>
      </div>
      <FieldIssues issues={issues} field={toolField} />
      <input
        className="input input-sm mono scn-args"
        data-testid={`call-args-${testId}`}
        aria-label={`Arguments of ${call.tool} (JSON)`}
        placeholder='arguments, e.g. {"ticket": "4812"}'
        spellCheck={false}
        value={draft.text}
        aria-invalid={draft.error !== null}
        onChange={(e) => {
          const text = e.target.value;
          if (text.trim() === "") {
            draft.typed(text, { value: undefined });
            onChange("args", (c) => {
              const { args: _args, ...rest } = c;
              return rest;
            });
            return;
          }
          try {
            const v = JSON.parse(text) as JsonValue;
            if (v === null || typeof v !== "object" || Array.isArray(v)) return draft.typed(text, { error: 'Arguments are a JSON object, e.g. {"ticket": "4812"}.' });
            draft.typed(text, { value: v });
            onChange("args", (c) => ({ ...c, args: v }));
          } catch {
            draft.typed(text, { error: 'Not JSON yet: arguments are an object, e.g. {"ticket": "4812"}.' });
          }
        }}
      />
      {draft.error && (
        <div className="scn-issue sev-error" data-testid="field-issue" data-field={argsField} data-severity="error">
          {draft.error}
        </div>
      )}
      <FieldIssues issues={issues} field={argsField} />
    </div>
  );
}

/** The selected agent's mock rules in the scenario the Run tab runs (the agent inspector shows it). */
export function AgentScript({ topology, agent }: { topology: Topology; agent: string }) {
  const chosen = useRun((s) => s.scenario[topology.name]);
  const commit = useDesigner((s) => s.commit);
  const scenario = pickScenario(topology, chosen);
  const issues = useMemo(() => (scenario ? validateScenario(topology, scenario) : []), [topology, scenario]);
  const kind = topology.agents.find((a) => a.id === agent);
  if (kind && agentKind(kind) === "human") return null;
  const edit: Edit = (key, fn) => {
    if (!scenario) return;
    const name = scenario.name;
    commit((t) => updateScenario(t, name, fn), { coalesce: `scenario:${name}:${key}` });
  };
  return (
    <Section title={scenario ? `Mock rules · ${scenario.name}` : "Mock rules"} testId="agent-script">
      {scenario ? (
        <ScriptCard topology={topology} scenario={scenario} agent={agent} edit={edit} issues={issues} defaultOpen />
      ) : (
        <div className="empty-hint">
          Without real providers this agent answers from a scenario's mock rules.{" "}
          <button className="link-btn" data-testid="agent-script-create" onClick={() => createScenario()}>
            Create a scenario
          </button>
        </div>
      )}
    </Section>
  );
}

// "Fork from here…": the dialog that re-runs the open run from the current step with changes (an
// edge's policy, an agent's model or instructions, context items dropped, pinned facts restored,
// max turns) and says who answers once the run leaves the recording. It lives in the debugger (a
// modal of its own, in the dialogs' style), since the dialogs folder already imports the debugger.
import { GitBranch, Loader2, Pin, X } from "lucide-react";
import { useEffect, useMemo, useRef, useState } from "react";
import type { Then } from "../bindings/Then";
import type { ForkCommands } from "../commands/fork";
import type { RunCommands } from "../commands/run";
import { useQuery } from "../hooks/useQuery";
import { edgeId, policyLabel } from "../model/topology";
import { toPlatformError, type PlatformError } from "../platform/types";
import { ItemKindBadge } from "../run/badges";
import { changesNothing, forkProblems, forkSpec, policyOptions, THEN_CHOICES, type ForkBase } from "../run/fork";
import { itemText } from "../run/types";
import { useDebugger } from "../store/debugger";
import { useFork, type ForkRequest } from "../store/fork";
import { useRunLookups } from "./lookups";
import "../styles/fork.css";

export function ForkDialog({ commands, fork }: { commands: RunCommands; fork: ForkCommands }) {
  const req = useFork((s) => s.dialog);
  const runId = useDebugger((s) => s.runId);
  // A dialog for another run (the debugger moved on) is not shown.
  if (!req || req.runId !== runId) return null;
  return <ForkForm key={`${req.runId}:${req.step}`} req={req} commands={commands} fork={fork} />;
}

function ForkForm({ req, commands, fork }: { req: ForkRequest; commands: RunCommands; fork: ForkCommands }) {
  const topology = useDebugger((s) => s.topology);
  const overview = useDebugger((s) => s.overview);
  const lookups = useRunLookups();
  const { agentName, palette } = lookups;
  const close = useFork((s) => s.closeDialog);
  const step = overview?.steps.at(req.step);
  const view = useQuery(["fork_step", req.runId, req.step], () => commands.loadStep(req.runId, req.step), { staleTime: Infinity });

  const handoffs = useMemo(() => (topology?.edges ?? []).filter((e) => e.kind === "handoff"), [topology]);
  const agents = useMemo(() => (topology?.agents ?? []).filter((a) => a.kind !== "human"), [topology]);
  const base: ForkBase = useMemo(
    () => ({
      policies: Object.fromEntries(handoffs.map((e) => [edgeId(e), policyLabel(e.policy)])),
      models: Object.fromEntries(agents.filter((a) => a.model).map((a) => [a.id, `${a.model?.provider}:${a.model?.name}`])),
      instructions: Object.fromEntries(agents.map((a) => [a.id, a.instructions ?? ""])),
      maxTurns: topology?.guards.max_turns ?? null,
    }),
    [handoffs, agents, topology],
  );

  const [policies, setPolicies] = useState<Record<string, string>>(() => ({ ...base.policies }));
  const [models, setModels] = useState<Record<string, string>>({});
  const [instructions, setInstructions] = useState<Record<string, string>>(() => ({ ...base.instructions }));
  const [editing, setEditing] = useState<string | null>(null);
  const [drop, setDrop] = useState<ReadonlySet<string>>(new Set());
  const [restore, setRestore] = useState<ReadonlySet<string>>(new Set());
  const [maxTurns, setMaxTurns] = useState("");
  const [then, setThen] = useState<Then>("mock");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<PlatformError | null>(null);

  const choices = { at: req.step, policies, models, instructions, drop, restore, maxTurns, then };
  const spec = forkSpec(choices, base);
  const problems = forkProblems(choices, agentName);
  const nothing = changesNothing(spec);
  const changeCount =
    Object.keys(spec.policies).length +
    Object.keys(spec.models).length +
    Object.keys(spec.instructions).length +
    spec.drop.length +
    spec.restore.length +
    (spec.max_turns !== undefined ? 1 : 0);

  const context = view.data?.context ?? [];
  const inContext = new Set(context.filter((i) => i.kind === "pinned_fact" && i.fact).map((i) => i.fact as string));
  const facts = topology?.facts ?? [];
  const toggle = (set: ReadonlySet<string>, id: string) => {
    const next = new Set(set);
    if (!next.delete(id)) next.add(id);
    return next;
  };

  const submit = async () => {
    if (problems.length > 0 || busy) return;
    setBusy(true);
    setError(null);
    try {
      await fork.fork(req.runId, spec);
      close();
    } catch (e) {
      setError(toPlatformError(e));
      setBusy(false);
    }
  };

  // Escape closes (before the debugger's Escape leaves it); focus starts inside and goes back after.
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") {
        e.stopPropagation();
        e.preventDefault();
        close();
      }
    };
    window.addEventListener("keydown", onKey, true);
    const prev = document.activeElement as HTMLElement | null;
    ref.current?.querySelector<HTMLElement>("select, input, button.btn-primary")?.focus();
    return () => {
      window.removeEventListener("keydown", onKey, true);
      prev?.focus?.();
    };
  }, [close]);

  const acting = step ? agentName(step.agent) : "the agent";
  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && close()}>
      <div
        className="modal fork-dialog"
        style={{ width: 660 }}
        role="dialog"
        aria-modal="true"
        aria-label={`Fork from step ${req.step}`}
        data-testid="fork-dialog"
        data-step={req.step}
        ref={ref}
        // The debugger's keys (arrows, N, Home/End) must not act behind the dialog.
        onKeyDown={(e) => e.stopPropagation()}
      >
        <header className="modal-header">
          <div>
            <h2>Fork from step {req.step}</h2>
            <div className="modal-subtitle">
              Re-runs this run with the changes below: every call answers from the recording until the first call whose input changed. The fork is saved as a new run.
            </div>
          </div>
          <button className="icon-btn" aria-label="Close" onClick={close}>
            <X size={16} />
          </button>
        </header>
        <div className="modal-body fork-body">
          {!topology && <p className="text-error">This run carries no topology to re-run.</p>}

          {handoffs.length > 0 && (
            <fieldset className="fork-section">
              <legend>Context policies</legend>
              <div className="fork-grid">
                {handoffs.map((e) => {
                  const id = edgeId(e);
                  const changed = policies[id] !== base.policies[id];
                  const crossed = (overview?.transfers ?? []).filter((t) => t.edge === id).map((t) => t.step);
                  return (
                    <label key={id} className={`fork-line${changed ? " is-changed" : ""}`}>
                      <span className="fork-line-name">
                        <span style={{ color: palette(e.from) }}>{agentName(e.from)}</span> → <span style={{ color: palette(e.to) }}>{agentName(e.to)}</span>
                        <span className="fork-line-where" title="Where the run crossed this edge; a fork changes only what happens from its step on">
                          {crossed.length === 0 ? "not crossed" : `step ${crossed.join(", ")}`}
                        </span>
                      </span>
                      <select
                        className="select mono"
                        data-testid="fork-policy"
                        data-edge={id}
                        value={policies[id] ?? ""}
                        onChange={(ev) => setPolicies({ ...policies, [id]: ev.target.value })}
                      >
                        {policyOptions(base.policies[id] ?? "full").map((p) => (
                          <option key={p} value={p}>
                            {p}
                            {p === base.policies[id] ? " (as recorded)" : ""}
                          </option>
                        ))}
                      </select>
                    </label>
                  );
                })}
              </div>
            </fieldset>
          )}

          {agents.length > 0 && (
            <fieldset className="fork-section">
              <legend>Agents</legend>
              <div className="fork-grid">
                {agents.map((a) => {
                  const changedText = (instructions[a.id] ?? "").trimEnd() !== (base.instructions[a.id] ?? "").trimEnd();
                  return (
                    <div key={a.id} className="fork-agent">
                      <div className={`fork-line${(models[a.id] ?? "").trim() || changedText ? " is-changed" : ""}`}>
                        <span className="fork-line-name" style={{ color: palette(a.id) }}>
                          {a.name || a.id}
                        </span>
                        <input
                          className="input mono"
                          data-testid="fork-model"
                          data-agent={a.id}
                          aria-label={`Model of ${a.name || a.id} (provider:model)`}
                          placeholder={base.models[a.id] ?? "provider:model"}
                          value={models[a.id] ?? ""}
                          onChange={(ev) => setModels({ ...models, [a.id]: ev.target.value })}
                        />
                        <button
                          type="button"
                          className={`btn btn-ghost btn-sm${changedText ? " is-changed" : ""}`}
                          data-testid="fork-edit-instructions"
                          data-agent={a.id}
                          aria-expanded={editing === a.id}
                          onClick={() => setEditing(editing === a.id ? null : a.id)}
                        >
                          Instructions{changedText ? " · changed" : ""}
                        </button>
                      </div>
                      {editing === a.id && (
                        <textarea
                          className="textarea fork-instructions"
                          data-testid="fork-instructions"
                          data-agent={a.id}
                          aria-label={`Instructions of ${a.name || a.id}`}
                          rows={4}
                          value={instructions[a.id] ?? ""}
                          onChange={(ev) => setInstructions({ ...instructions, [a.id]: ev.target.value })}
                        />
                      )}
                    </div>
                  );
                })}
              </div>
              <div className="field-hint">A blank model keeps the recorded one. With Mock, a changed model's calls are answered by the scripts; choose Real providers to call it.</div>
            </fieldset>
          )}

          {facts.length > 0 && (
            <fieldset className="fork-section">
              <legend>Restore pinned facts at step {req.step}</legend>
              {facts.map((f) => (
                <label key={f.id} className="fork-check">
                  <input type="checkbox" data-testid="fork-restore" data-fact={f.id} checked={restore.has(f.id)} onChange={() => setRestore(toggle(restore, f.id))} />
                  <Pin size={12} className="muted" />
                  <span className="mono">{f.id}</span>
                  <span className="fork-check-text">{f.text}</span>
                  <span className={`fork-check-where${inContext.has(f.id) ? "" : " is-missing"}`}>{inContext.has(f.id) ? `${acting} has it` : `not in ${acting}'s context`}</span>
                </label>
              ))}
            </fieldset>
          )}

          <fieldset className="fork-section">
            <legend>
              Drop from {acting}'s context at step {req.step}
            </legend>
            {view.error ? (
              <div className="text-error" role="alert" data-testid="fork-context-error" data-code={view.error.code}>
                Could not read step {req.step}: {view.error.message}{" "}
                <button className="btn btn-secondary btn-xs" onClick={() => void view.refresh()}>
                  Retry
                </button>
              </div>
            ) : !view.data ? (
              <div className="muted">
                <Loader2 size={12} className="spin" /> Reading the context…
              </div>
            ) : context.length === 0 ? (
              <div className="muted">The context is empty at this step.</div>
            ) : (
              <div className="fork-items">
                {context.map((i) => (
                  <label key={i.id} className="fork-check" title={itemText(i)}>
                    <input type="checkbox" data-testid="fork-drop" data-item={i.id} data-kind={i.kind} checked={drop.has(i.id)} onChange={() => setDrop(toggle(drop, i.id))} />
                    <ItemKindBadge kind={i.kind} />
                    <span className="fork-item-agent" style={{ color: palette(i.agent) }}>
                      {agentName(i.agent)}
                    </span>
                    <span className="fork-check-text">{itemText(i) || i.name || i.kind}</span>
                  </label>
                ))}
              </div>
            )}
          </fieldset>

          <fieldset className="fork-section fork-row">
            <label className="fork-turns">
              <span className="field-label">Max turns</span>
              <input
                className="input mono"
                data-testid="fork-max-turns"
                inputMode="numeric"
                placeholder={base.maxTurns !== null ? String(base.maxTurns) : ""}
                value={maxTurns}
                onChange={(ev) => setMaxTurns(ev.target.value)}
              />
            </label>
            <div className="fork-then" role="radiogroup" aria-label="After the run leaves the recording">
              <span className="field-label">After the run leaves the recording</span>
              <div className="segmented">
                {THEN_CHOICES.map((c) => (
                  <button
                    key={c.then}
                    type="button"
                    role="radio"
                    aria-checked={then === c.then}
                    className={then === c.then ? "is-active" : undefined}
                    data-testid="fork-then"
                    data-then={c.then}
                    title={c.help}
                    onClick={() => setThen(c.then)}
                  >
                    {c.label}
                  </button>
                ))}
              </div>
              <div className="field-hint">{THEN_CHOICES.find((c) => c.then === then)?.help}</div>
            </div>
          </fieldset>

          {problems.length > 0 && (
            <ul className="fork-problems" data-testid="fork-problems">
              {problems.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          )}
          {error && (
            <div className="fork-error text-error" role="alert" data-testid="fork-error" data-code={error.code}>
              Could not fork: {error.message} ({error.code})
            </div>
          )}
        </div>
        <footer className="modal-footer">
          <span className="muted fork-summary" data-testid="fork-summary">
            {nothing ? "No change: the fork replays the recording to its end." : `${changeCount} ${changeCount === 1 ? "change" : "changes"} from step ${req.step}`}
          </span>
          <div className="spacer" />
          <button className="btn btn-secondary" onClick={close}>
            Cancel
          </button>
          <button className="btn btn-primary" data-testid="fork-submit" disabled={!topology || problems.length > 0 || busy} onClick={() => void submit()}>
            {busy ? <Loader2 size={14} className="spin" /> : <GitBranch size={14} />} Fork
          </button>
        </footer>
      </div>
    </div>
  );
}

/** The transport's "Fork from here…": opens the dialog on the current step. */
export function ForkHereButton() {
  const runId = useDebugger((s) => s.runId);
  const cursor = useDebugger((s) => s.cursor);
  const running = useDebugger((s) => s.overview?.summary.outcome.status === "running");
  const hasTopology = useDebugger((s) => s.topology !== null);
  const open = useFork((s) => s.openDialog);
  const why = running ? "The run is still in progress: fork it once it has ended" : !hasTopology ? "This run carries no topology to re-run" : null;
  return (
    <button
      type="button"
      className="btn btn-secondary btn-sm fork-here"
      data-testid="fork-here"
      disabled={!runId || why !== null}
      title={why ?? `Re-run from step ${cursor} with a policy, model, instructions or context changed`}
      onClick={() => runId && open({ runId, step: cursor })}
    >
      <GitBranch size={13} /> Fork from here…
    </button>
  );
}

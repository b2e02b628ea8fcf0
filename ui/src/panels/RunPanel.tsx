// The Run tab: scenario, simulated latency, breakpoints and providers; Start / Cancel / Resume;
// the live run's steps as they arrive, and its outcome. A message box runs the topology on a typed
// message; Start and the top bar's Run share one rule (`runBlocker`) and say why when they cannot.
import { AlertTriangle, Bug, CircleDot, GitFork, Loader2, MessageSquare, Pause, Play, Plus, Send, Settings, Square, X } from "lucide-react";
import { shortRunId } from "../run/ids";
import "../styles/editor.css";
import { addDefaultRules, createScenario } from "../commands/scenarios";
import { agentsWithoutRules, pickScenario } from "../model/scenario";
import { runBlocker } from "../run/blocker";
import { useEditor } from "../store/editor";
import { useId, useMemo } from "react";
import { Timeline } from "../debugger/Timeline";
import { agentLookups } from "../debugger/lookups";
import { useProviderStatus } from "../hooks/queries";
import { edgeId } from "../model/topology";
import { OutcomeBadge } from "../run/badges";
import type { RunCommands } from "../commands/run";
import { durationMs, formatDuration, formatTokens } from "../run/format";
import { isActive, type LiveRun } from "../run/live";
import { isConfigured, unconfiguredAgents } from "../run/providers";
import { num } from "../run/types";
import { useDesigner } from "../store/designer";
import { LATENCIES, selectBreakpoints, useRun } from "../store/run";
import { useUi } from "../store/ui";

export function RunPanel({ commands }: { commands: RunCommands }) {
  const topology = useDesigner((s) => s.topology);
  const selectedEdges = useDesigner((s) => s.selection.edges);
  const live = useRun((s) => s.live);
  const scenarioChoice = useRun((s) => (topology ? s.scenario[topology.name] : undefined));
  const breakpoints = useRun(selectBreakpoints(topology?.name));
  const latency = useRun((s) => s.latencyMs);
  const setScenario = useRun((s) => s.setScenario);
  const setLatency = useRun((s) => s.setLatency);
  const useLive = useRun((s) => s.useLive);
  const setUseLive = useRun((s) => s.setUseLive);
  // Checked once when real providers are switched on (Settings checks again, and shares its answer).
  const providers = useProviderStatus({ enabled: useLive, staleTime: Infinity });
  const statuses = providers.data ?? null;
  const checking = providers.loading;
  const lookups = useMemo(() => agentLookups(topology), [topology]);
  const missing = useMemo(() => (useLive && statuses ? unconfiguredAgents(topology, statuses) : []), [useLive, statuses, topology]);
  const scenarioId = useId();
  const latencyId = useId();
  const messageId = useId();
  const runMessage = useEditor((s) => s.runMessage);
  const setRunMessage = useEditor((s) => s.setRunMessage);
  if (!topology) return null;
  const blocked = runBlocker(topology, live);
  const messageBlocked = runBlocker(topology, live, { kind: "message", message: runMessage });
  const base = pickScenario(topology, scenarioChoice);
  const unscripted = base || runMessage.trim() ? agentsWithoutRules(topology, base) : [];
  const sendMessage = () => {
    if (messageBlocked === null) void commands.startRun({ message: runMessage });
  };
  const statusOf = (provider: string) => statuses?.find((s) => s.provider === provider);

  const scenarios = topology.scenarios ?? [];
  const scenario = scenarios.some((s) => s.name === scenarioChoice) ? scenarioChoice : scenarios[0]?.name;
  const active = isActive(live);
  const mine = live && live.topology === topology.name ? live : null;
  const selectedEdge = selectedEdges.length === 1 ? selectedEdges[0] : undefined;
  const edgeIds = new Set(topology.edges.map(edgeId));
  const edgeLabel = (id: string) => {
    const e = topology.edges.find((x) => edgeId(x) === id);
    return e ? `${lookups.agentName(e.from)} → ${lookups.agentName(e.to)}` : id;
  };

  return (
    <div className="run-panel" data-testid="run-panel">
      <div className="run-toolbar">
        <span className="run-control" title={blocked ?? undefined}>
          <button
            className="btn btn-primary btn-sm"
            data-testid="run-start"
            onClick={() => void commands.startRun()}
            disabled={blocked !== null}
            data-blocked={blocked ?? undefined}
            title={blocked ?? "Run the chosen scenario (F5)"}
          >
            <Play size={14} /> Start
          </button>
        </span>
        <button className="btn btn-secondary btn-sm" data-testid="run-cancel" onClick={() => void commands.cancelRun()} disabled={!active || !live?.runId}>
          <Square size={13} /> Cancel
        </button>
        <button className="btn btn-secondary btn-sm" data-testid="run-resume" onClick={() => void commands.resumeRun()} disabled={live?.status !== "paused"}>
          <Play size={13} /> Resume
        </button>
        <div className="toolbar-divider" />
        <label className="inline-field" htmlFor={scenarioId}>
          Scenario
        </label>
        <select
          id={scenarioId}
          className="select select-sm"
          data-testid="scenario-select"
          value={scenario ?? ""}
          disabled={scenarios.length === 0}
          onChange={(e) => setScenario(topology.name, e.target.value)}
        >
          {scenarios.length === 0 && <option value="">no scenarios</option>}
          {scenarios.map((s) => (
            <option key={s.name} value={s.name}>
              {s.name}
            </option>
          ))}
        </select>
        <label className="inline-field" htmlFor={latencyId}>
          Latency
        </label>
        <select
          id={latencyId}
          className="select select-sm"
          data-testid="latency-select"
          value={latency}
          disabled={useLive}
          onChange={(e) => setLatency(Number(e.target.value))}
          title={useLive ? "Real providers take the time they take" : "Simulated latency of each mock model call"}
        >
          {LATENCIES.map((ms) => (
            <option key={ms} value={ms}>
              {ms === 0 ? "none" : `${ms} ms / call`}
            </option>
          ))}
        </select>
        <div className="toolbar-divider" />
        <label className="switch" title="Call each agent's configured provider instead of replaying the scenario's mock scripts">
          <input
            type="checkbox"
            role="switch"
            data-testid="run-live"
            checked={useLive}
            disabled={active}
            onChange={(e) => setUseLive(e.target.checked)}
          />
          <span className="switch-track" aria-hidden="true" />
          <span className="switch-label">Use real providers</span>
        </label>
        <div className="spacer" />
        <LiveStatus commands={commands} live={mine} agentName={lookups.agentName} />
      </div>

      <form
        className="run-compose"
        data-testid="run-compose"
        onSubmit={(e) => {
          e.preventDefault();
          sendMessage();
        }}
      >
        <label htmlFor={messageId} className="run-compose-label">
          <MessageSquare size={13} /> Message
        </label>
        <input
          id={messageId}
          className="input input-sm run-compose-input"
          data-testid="run-message"
          placeholder="Type what a user says, and run the topology with it"
          value={runMessage}
          disabled={active}
          onChange={(e) => setRunMessage(e.target.value)}
        />
        <span className="run-control" title={runMessage.trim() === "" ? undefined : (messageBlocked ?? undefined)}>
          <button type="submit" className="btn btn-secondary btn-sm" data-testid="run-message-send" disabled={messageBlocked !== null} title={messageBlocked ?? undefined}>
            <Send size={13} /> Run with this message
          </button>
        </span>
        <span className="run-compose-hint muted small" data-testid="run-compose-hint">
          {useLive
            ? "Each agent calls its configured provider; mock agents use the chosen scenario's rules."
            : base
              ? `Agents answer with the mock rules of “${base.name}”.`
              : "Without real providers, agents answer from a scenario's mock rules: add a scenario with rules, or turn on real providers."}
        </span>
      </form>
      {!useLive && !active && unscripted.length > 0 && (
        <div className="run-blocked" data-testid="run-unscripted" role="status">
          <AlertTriangle size={13} />
          <span>
            {unscripted.length === 1 ? "1 agent has" : `${unscripted.length} agents have`} no mock rules{base ? ` in “${base.name}”` : ""} ({unscripted.map(lookups.agentName).join(", ")}): a mock run fails when it reaches {unscripted.length === 1 ? "it" : "one"}.
          </span>
          <button className="btn btn-ghost btn-xs" data-testid="run-default-rules" onClick={() => addDefaultRules(base?.name, runMessage.trim())}>
            <Plus size={12} /> Add default rules
          </button>
        </div>
      )}
      {blocked && !active && (
        <div className="run-blocked" data-testid="run-blocked" role="status">
          <AlertTriangle size={13} />
          <span>{blocked}</span>
          {scenarios.length === 0 && topology.agents.length > 0 && (
            <button className="btn btn-ghost btn-xs" data-testid="run-create-scenario" onClick={() => createScenario(runMessage.trim() ? { input: runMessage.trim() } : {})}>
              <Plus size={12} /> Create a scenario{runMessage.trim() ? " from this message" : ""}
            </button>
          )}
        </div>
      )}

      <div className="run-columns">
        <section className="run-col" aria-label="Breakpoints">
          <h4>
            Breakpoints <span className="muted">pause before a transfer</span>
          </h4>
          <button
            className="btn btn-secondary btn-sm"
            data-testid="breakpoint-toggle"
            disabled={!selectedEdge}
            onClick={() => commands.toggleBreakpoint(selectedEdge)}
            title="Toggle a breakpoint on the selected edge (F9)"
          >
            <CircleDot size={13} className="bp-icon" />
            {selectedEdge ? (breakpoints.includes(selectedEdge) ? "Remove from selected edge" : "Add on selected edge") : "Select an edge to add one"}
          </button>
          <ul className="bp-list" data-testid="breakpoint-list">
            {breakpoints.length === 0 && <li className="muted small">None. Select an edge on the canvas, then press F9.</li>}
            {breakpoints.map((id) => (
              <li key={id} className={`bp-item${edgeIds.has(id) ? "" : " is-stale"}`} data-testid="breakpoint-item" data-edge={id}>
                <span className="breakpoint-dot" />
                <span className="bp-name" title={edgeLabel(id)}>
                  {edgeLabel(id)}
                </span>
                <span className="bp-id mono">{id}</span>
                <button className="icon-btn sm" aria-label={`Remove breakpoint ${id}`} onClick={() => commands.toggleBreakpoint(id)}>
                  <X size={12} />
                </button>
              </li>
            ))}
          </ul>
        </section>

        <section className="run-col" aria-label="Providers" tabIndex={0}>
          <h4>
            Providers <span className="muted">per agent</span>
          </h4>
          <ul className="provider-list" data-testid="provider-list">
            {topology.agents.map((a) => {
              const real = useLive && a.model && a.model.provider !== "mock" && a.kind !== "human";
              const st = real && a.model ? statusOf(a.model.provider) : undefined;
              const ok = real && a.model ? isConfigured(st, a.model.base_url) : true;
              // An agent without a model answers from the mock rules, as the engine runs it.
              const used = a.kind === "human" ? "human" : real && a.model ? a.model.provider : "mock";
              return (
                <li key={a.id} className="provider-row" data-testid="provider-agent" data-agent={a.id} data-uses={used}>
                  <span className="tl-dot" style={{ background: lookups.palette(a.id) }} />
                  <span className="provider-agent" title={a.name ? `${a.name} (${a.id})` : a.id}>
                    {a.name || a.id}
                  </span>
                  <span className="provider-configured mono" title="Configured model">
                    {a.model ? `${a.model.provider}/${a.model.name}` : a.kind === "human" ? "human" : "no model"}
                  </span>
                  <span
                    className={`provider-uses${real ? (statuses && !ok ? " is-missing" : " is-real") : ""}`}
                    title={real ? (statuses ? (ok ? `${a.model?.provider}: ${st?.detail ?? "configured"}` : `${a.model?.provider} has no key: add one in Settings`) : "checking…") : used === "mock" ? "replays the scenario's script" : ""}
                  >
                    {used}
                  </span>
                </li>
              );
            })}
          </ul>
          {useLive ? (
            providers.error && !statuses ? (
              <div className="run-live-note is-warning" data-testid="run-live-error" data-code={providers.error.code} role="alert">
                <AlertTriangle size={13} />
                <span>
                  Could not check the providers: {providers.error.message}{" "}
                  <button className="link-btn" onClick={() => void providers.refresh()} disabled={checking}>
                    Check again
                  </button>
                </span>
              </div>
            ) : missing.length > 0 ? (
              <div className="run-live-note is-warning" data-testid="run-live-missing" role="status">
                <AlertTriangle size={13} />
                <span>
                  Not configured: {missing.map((m) => `${m.name} (${m.provider})`).join(", ")}. Their calls will fail.{" "}
                  <button className="link-btn" onClick={() => useUi.getState().openDialog("settings")}>
                    <Settings size={12} /> Add a key in Settings
                  </button>
                </span>
              </div>
            ) : (
              <div className="muted small">{checking && !statuses ? "Checking the providers…" : "Live run: each agent calls its configured provider (tokens are billed)."}</div>
            )
          ) : (
            <div className="muted small">Runs replay the scenario's mock scripts. Turn on “Use real providers” to call each agent's model.</div>
          )}
        </section>

        <section className="run-col run-live" aria-label="Live steps">
          <h4>
            Steps <span className="muted">{mine ? liveMeta(mine) : "as they arrive"}</span>
          </h4>
          {mine && mine.steps.length > 0 ? (
            <Timeline
              steps={mine.steps}
              palette={lookups.palette}
              agentName={lookups.agentName}
              follow
              testId="live-timeline"
              label="Steps of the live run"
            />
          ) : (
            <div className="pane-empty small">{mine ? "Waiting for the first step…" : "Start a run to see its steps here."}</div>
          )}
        </section>
      </div>
    </div>
  );
}

function liveMeta(live: LiveRun): string {
  if (live.status !== "finished") return `${live.steps.length} so far · ${live.transfers.length} transfers`;
  const tokens = live.usage ? num(live.usage.input_tokens) + num(live.usage.output_tokens) : null;
  return [
    `${live.steps.length} steps`,
    `${live.transfers.length} transfers`,
    tokens !== null ? `${formatTokens(tokens)} tokens` : null,
    formatDuration(durationMs(live.startedAt, live.endedAt)),
    live.lostFacts > 0 ? `${live.lostFacts} fact${live.lostFacts === 1 ? "" : "s"} lost` : null,
  ]
    .filter(Boolean)
    .join(" · ");
}

function LiveStatus({ commands, live, agentName }: { commands: RunCommands; live: LiveRun | null; agentName: (id: string) => string }) {
  if (!live) return <span className="run-status muted">No run yet</span>;
  return (
    <div className="run-status" data-testid="run-status" data-status={live.status} data-run={live.runId}>
      {live.status === "starting" || live.status === "running" ? (
        <span className="status-running">
          <Loader2 size={13} className="spin" /> Running · {live.steps.length} {live.steps.length === 1 ? "step" : "steps"}
          {live.agent ? ` · ${agentName(live.agent)} acting` : ""}
        </span>
      ) : live.status === "paused" ? (
        <span className="status-paused" data-testid="run-paused" data-edge={live.paused?.edge}>
          <Pause size={13} /> Paused before <span className="mono">{live.paused?.edge}</span> (step {live.paused?.step})
        </span>
      ) : live.status === "disconnected" ? (
        <span className="text-error">Lost the run's events: {live.errors[live.errors.length - 1]}</span>
      ) : live.outcome ? (
        <>
          <OutcomeBadge status={live.outcome.status} testId="outcome" />
          <span className="run-reason" title={live.outcome.reason}>
            {live.outcome.reason}
          </span>
        </>
      ) : null}
      {live.errors.length > 0 && live.status !== "disconnected" && (
        <span className="text-error small" title={live.errors.join("\n")}>
          store: {live.errors[live.errors.length - 1]}
        </span>
      )}
      {live.runId && live.status === "finished" && (
        <button className="btn btn-secondary btn-sm" data-testid="run-debug" onClick={() => void commands.openRun(live.runId)}>
          <Bug size={13} /> Open in debugger
        </button>
      )}
      <NewerFork live={live} commands={commands} />
    </div>
  );
}

/** After a fork of this run, the result above is the parent's: said, with the fork one click away. */
function NewerFork({ live, commands }: { live: LiveRun; commands: RunCommands }) {
  const fork = useRun((s) => s.lastFork);
  if (!fork || live.status !== "finished" || fork.parent !== live.runId) return null;
  return (
    <span className="muted small run-newer-fork" data-testid="run-newer-fork">
      this run was forked since:{" "}
      <button className="btn btn-ghost btn-xs" data-testid="run-open-fork" onClick={() => void commands.openRun(fork.runId)}>
        <GitFork size={12} /> open the fork {shortRunId(fork.runId)}
      </button>
    </span>
  );
}

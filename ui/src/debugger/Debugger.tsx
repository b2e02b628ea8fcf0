// Debug mode: a saved run on its topology. Timeline on the left; the graph and the step's detail
// (transfer diff or context) in the middle; the step, the pinned facts and the run on the right.
// A run still in progress is followed (`useFollowRun`), with its state and a Follow switch in the
// transport bar.
import {
  AlertTriangle,
  ChevronLeft,
  ChevronRight,
  ChevronsLeft,
  ChevronsRight,
  FileInput,
  Info,
  ListTree,
  Loader2,
  PencilRuler,
  SkipBack,
  SkipForward,
} from "lucide-react";
import { useCallback, useMemo, useRef, useState } from "react";
import { DebugCanvas } from "../canvas/DebugCanvas";
import { OutcomeBadge, StepKindIcon } from "../run/badges";
import { EndingBadge } from "../run/EndingBadge";
import type { RunCommands } from "../commands/run";
import { durationMs, formatDuration, formatTokens, STEP_LABELS } from "../run/format";
import { fileName } from "../recent";
import { formatLabel, runSource } from "../run/source";
import { num, type StepList } from "../run/types";
import { filterSteps, isFiltering, neighbourVisible, NO_FILTER, type StepFilter } from "../run/stepfilter";
import { useQuery } from "../hooks/useQuery";
import { cacheKey, neighbourTransfer, stepCache, useDebugger } from "../store/debugger";
import { ContextPanel } from "./ContextPanel";
import { ContextStrip } from "./ContextStrip";
import { FactMap } from "./FactMap";
import { ModelCallView } from "./ModelCallView";
import { Waterfall } from "./Waterfall";
import { DiffView } from "./DiffView";
import { FactsPanel } from "./FactsPanel";
import { useRunLookups, type AgentLookups } from "./lookups";
import { useFollowRun, type FollowSource } from "./useFollowRun";
import { Timeline } from "./Timeline";
import { RunOpenError } from "./RunOpenError";
import { TimelineFilter } from "./TimelineFilter";
import { useForkCommands, type ForkCommands } from "../commands/fork";
import { ForkDialog, ForkHereButton } from "./ForkDialog";
import { Lineage } from "./Lineage";
import { WhatIfView } from "./WhatIfView";
import { useSuspectCommands, type SuspectCommands } from "../commands/suspects";
import { MarkControl } from "./MarkControl";
import { SuspectsPanel } from "./SuspectsPanel";
import { useSuspectMarks } from "./useSuspects";
import { shortRunId } from "../run/ids";

/** The view for the cursor, or the last one shown while it loads (no flicker when stepping fast). */
function useStepView(commands: RunCommands) {
  const runId = useDebugger((s) => s.runId);
  const cursor = useDebugger((s) => s.cursor);
  // Bumped when a newer overview dropped cached views: a new key, so a dropped view is asked again
  // (one still cached is shown at once, from `initialData`).
  const revision = useDebugger((s) => s.viewsRevision);
  // The step cache (an LRU bounded by items) is the real cache: the query keeps nothing unused.
  const q = useQuery(["step_view", runId, cursor, revision], () => commands.loadStep(runId as string, cursor), {
    enabled: runId !== null,
    staleTime: Infinity,
    gcTime: 0,
    initialData: () => (runId ? stepCache.peek(cacheKey(runId, cursor)) : undefined),
    // While the cursor's view loads, the last one of the same run stays (the query remembers it).
    keepPrevious: (prev) => prev[1] === runId,
  });
  return { view: q.data ?? null, loading: q.loading, error: q.error, retry: q.refresh };
}

export function Debugger({ commands, onEditTopology }: { commands: RunCommands; onEditTopology?: () => void }) {
  const overview = useDebugger((s) => s.overview);
  const loading = useDebugger((s) => s.loading);
  const error = useDebugger((s) => s.error);
  const runId = useDebugger((s) => s.runId);

  if (error) return <RunOpenError commands={commands} runId={runId} error={error} />;
  if (loading || !overview) {
    return (
      <div className="debugger debugger-message" data-testid="debugger" data-loading="true">
        <Loader2 size={18} className="spin" /> Opening run…
      </div>
    );
  }
  return <DebuggerBody commands={commands} onEditTopology={onEditTopology} />;
}

/**
 * The panes. Nothing here reads the cursor: each pane that shows the step reads it itself, so a
 * step renders those panes and not the others (issue #32 item 2).
 */
function DebuggerBody({ commands, onEditTopology }: { commands: RunCommands; onEditTopology?: () => void }) {
  const overview = useDebugger((s) => s.overview)!;
  const factIndex = useDebugger((s) => s.factIndex);
  const lookups = useRunLookups();
  const following = useFollowRun(commands);
  const fork = useForkCommands(commands);
  const suspects = useSuspectCommands();
  // A short window (720 px) keeps the graph small: the step's detail (a transfer's diff) needs the room.
  const [canvasHeight, setCanvasHeight] = useState(() => Math.round(window.innerHeight < 800 ? Math.max(120, window.innerHeight * 0.17) : Math.max(180, window.innerHeight * 0.26)));
  const steps = overview.steps;
  const [filter, setFilter] = useState<StepFilter>(NO_FILTER);
  const filtering = isFiltering(filter);
  const visible = useMemo(() => filterSteps(steps, filter, lookups.agentName), [steps, filter, lookups.agentName]);
  const lostSteps = useMemo(() => {
    const s = new Set<number>();
    for (const e of factIndex.values()) for (const t of e.lost) s.add(t.step);
    return s;
  }, [factIndex]);

  // Read at the key press: the handler stays the same from step to step.
  const onTimelineKey = useCallback(
    (e: React.KeyboardEvent) => {
      const moves: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: 20, PageUp: -20 };
      const d = moves[e.key];
      if (d !== undefined) {
        e.preventDefault();
        e.stopPropagation();
        if (filtering) {
          // over the steps the filter keeps
          const next = neighbourVisible(visible, useDebugger.getState().cursor, d > 0 ? 1 : -1);
          if (next !== null) commands.goTo(next);
        } else commands.stepBy(d);
      }
    },
    [filtering, visible, commands],
  );

  return (
    <div className="debugger" data-testid="debugger" data-run={overview.summary.id}>
      <aside className="dbg-timeline" aria-label="Timeline">
        <header className="side-head">
          <ListTree size={13} className="muted" />
          <h3>Timeline</h3>
          <span className="side-meta" data-testid="dbg-timeline-meta">
            {steps.length.toLocaleString()} steps · {overview.transfers.length} {overview.transfers.length === 1 ? "transfer" : "transfers"}
          </span>
        </header>
        <TimelineFilter steps={steps} shown={visible.length} filter={filter} onChange={setFilter} />
        {filtering && visible.length === 0 && (
          <div className="tl-filter-empty" data-testid="timeline-filter-empty">
            No step matches the filter.
          </div>
        )}
        <CurrentTimeline steps={visible} lookups={lookups} onPick={commands.goTo} lostSteps={lostSteps} onKey={onTimelineKey} />
      </aside>

      <main className="dbg-main">
        <Transport commands={commands} count={steps.length} following={following} />
        <ContextStrip lookups={lookups} onPick={commands.goTo} />
        <div className="dbg-canvas-wrap" style={{ flexBasis: canvasHeight }}>
          <DebugCanvas />
        </div>
        <Splitter height={canvasHeight} onChange={setCanvasHeight} />
        <StepDetail commands={commands} lookups={lookups} fork={fork} suspects={suspects} />
      </main>

      <aside className="dbg-side" aria-label="Step and facts">
        <StepCard lookups={lookups} />
        <FactsPanel lookups={lookups} onJump={commands.goTo} />
        <RunCard onEditTopology={onEditTopology} suspects={suspects} />
        <Lineage commands={commands} fork={fork} lookups={lookups} />
      </aside>
      <ForkDialog commands={commands} fork={fork} />
    </div>
  );
}

/** The timeline with the current step selected: a step renders the list, and only the rows whose selection moved. */
function CurrentTimeline({
  steps,
  lookups,
  onPick,
  lostSteps,
  onKey,
}: {
  steps: StepList;
  lookups: AgentLookups;
  onPick: (step: number) => void;
  lostSteps: ReadonlySet<number>;
  onKey: (e: React.KeyboardEvent) => void;
}) {
  const cursor = useDebugger((s) => s.cursor);
  return <Timeline steps={steps} palette={lookups.palette} agentName={lookups.agentName} current={cursor} onPick={onPick} lostSteps={lostSteps} label="Steps of the run" onKey={onKey} />;
}

/** The step's detail: a transfer's diff or what-if, the context, a model call, or a picture of the whole run. */
function StepDetail({ commands, lookups, fork, suspects }: { commands: RunCommands; lookups: AgentLookups; fork: ForkCommands; suspects: SuspectCommands }) {
  const overview = useDebugger((s) => s.overview)!;
  const cursor = useDebugger((s) => s.cursor);
  const detailTab = useDebugger((s) => s.detailTab);
  const setDetailTab = useDebugger((s) => s.setDetailTab);
  const { view, loading, error: stepError, retry } = useStepView(commands);
  const step = overview.steps.at(cursor);
  const isTransfer = step?.transfer != null;
  const isCall = step?.kind === "model_call";
  const showDiff = isTransfer && detailTab === "diff" && view?.transfer && view.step.index === cursor;
  const isHandoff = step?.kind === "handoff" && isTransfer;
  const showWhatIf = isHandoff && detailTab === "whatif" && view?.transfer && view.step.index === cursor;
  // The tab shown: a step-bound tab falls back to the context on a step it does not fit.
  const suspectMarks = useSuspectMarks(suspects, showDiff && view?.transfer ? view.transfer.index : null);
  const shown = showDiff ? "diff" : showWhatIf ? "whatif" : detailTab === "facts" || detailTab === "waterfall" || detailTab === "suspects" ? detailTab : detailTab === "call" && isCall ? "call" : "context";
  const onOpenFact = useCallback(
    (at: number) => {
      commands.goTo(at);
      setDetailTab("diff");
    },
    [commands, setDetailTab],
  );
  const tab = (id: typeof shown, label: string, opts: { disabled?: boolean; title?: string } = {}) => (
    <button
      role="tab"
      aria-selected={shown === id}
      className={`detail-tab${shown === id ? " is-active" : ""}`}
      disabled={opts.disabled}
      onClick={() => setDetailTab(id)}
      data-testid={`tab-${id}`}
      title={opts.title}
    >
      {label}
    </button>
  );

  return (
    <section className="dbg-detail" data-testid="step-detail" data-step={view?.step.index ?? -1} data-loading={loading ? "true" : undefined}>
      <div className="detail-tabs" role="tablist">
        {tab("diff", "Transfer diff", { disabled: !isTransfer, title: isTransfer ? "The transfer's diff" : "Only transfer steps have a diff" })}
        {tab("whatif", "What-if", { disabled: !isHandoff, title: isHandoff ? "Every context policy at this handoff: what the receiver would get (no model call)" : "Only handoffs have a what-if" })}
        {tab("context", "Context")}
        {tab("call", "Model call", { disabled: !isCall, title: isCall ? "The call's model, timing, tokens and recorded request and response" : "Only model-call steps have a call" })}
        {tab("facts", "Fact map", { title: "Each pinned fact at each transfer" })}
        {tab("waterfall", "Waterfall", { title: "When each step ran" })}
        {tab("suspects", "Suspects", { title: "What each transfer's receiver did not get, ranked by evidence that it mattered; the run's verdict" })}
        <div className="spacer" />
        {loading && (
          <span className="detail-loading">
            <Loader2 size={13} className="spin" /> loading step {cursor}…
          </span>
        )}
      </div>
      <div className={`detail-body${loading ? " is-stale" : ""}`}>
        {shown === "facts" ? (
          <FactMap lookups={lookups} onOpen={onOpenFact} />
        ) : shown === "suspects" ? (
          <SuspectsPanel commands={commands} suspects={suspects} lookups={lookups} fork={fork} />
        ) : shown === "waterfall" ? (
          <Waterfall lookups={lookups} onPick={commands.goTo} />
        ) : stepError ? (
          <div className="pane-empty text-error" role="alert" data-testid="step-error" data-code={stepError.code}>
            Could not load step {cursor}: {stepError.message} ({stepError.code}){" "}
            <button className="btn btn-secondary btn-sm" onClick={() => void retry()} disabled={loading}>
              Retry
            </button>
          </div>
        ) : !view ? (
          <div className="pane-empty">
            <Loader2 size={14} className="spin" /> Loading step…
          </div>
        ) : shown === "call" && view.step.index === cursor ? (
          <ModelCallView view={view} brief={step} />
        ) : showWhatIf && view.transfer ? (
          <WhatIfView key={view.transfer.index} runId={overview.summary.id} view={view.transfer} lookups={lookups} fork={fork} />
        ) : showDiff && view.transfer ? (
          <DiffView key={view.transfer.index} view={view.transfer} lookups={lookups} suspects={suspectMarks} />
        ) : (
          <ContextPanel runId={overview.summary.id} view={view} lookups={lookups} />
        )}
      </div>
    </section>
  );
}

/** Drag (or arrow keys) to share the height between the graph and the step's detail. */
function Splitter({ height, onChange }: { height: number; onChange: (h: number) => void }) {
  const drag = useRef<{ y: number; h: number } | null>(null);
  const clamp = (h: number) => Math.round(Math.max(120, Math.min(h, window.innerHeight - 320)));
  return (
    <div
      className="dbg-splitter"
      role="separator"
      aria-orientation="horizontal"
      aria-label="Resize the graph"
      aria-valuenow={height}
      tabIndex={0}
      data-testid="graph-splitter"
      onPointerDown={(e) => {
        drag.current = { y: e.clientY, h: height };
        (e.target as HTMLElement).setPointerCapture(e.pointerId);
      }}
      onPointerMove={(e) => drag.current && onChange(clamp(drag.current.h + e.clientY - drag.current.y))}
      onPointerUp={() => (drag.current = null)}
      onKeyDown={(e) => {
        if (e.key === "ArrowUp" || e.key === "ArrowDown") {
          e.preventDefault();
          e.stopPropagation();
          onChange(clamp(height + (e.key === "ArrowDown" ? 24 : -24)));
        }
      }}
    />
  );
}

function Transport({ commands, count, following }: { commands: RunCommands; count: number; following: FollowSource }) {
  const cursor = useDebugger((s) => s.cursor);
  const transferSteps = useDebugger((s) => s.transferSteps);
  const prevT = neighbourTransfer(transferSteps, cursor, -1);
  const nextT = neighbourTransfer(transferSteps, cursor, 1);
  const [draft, setDraft] = useState<string | null>(null);
  return (
    <div className="transport" role="toolbar" aria-label="Step through the run" data-testid="transport">
      <button className="icon-btn" data-testid="step-first" aria-label="First step (Home)" title="First step (Home)" onClick={commands.home} disabled={cursor === 0}>
        <SkipBack size={15} />
      </button>
      <button className="icon-btn" data-testid="prev-transfer" aria-label="Previous transfer (Shift+N)" title="Previous transfer (Shift+N)" onClick={commands.prevTransfer} disabled={prevT === null}>
        <ChevronsLeft size={16} />
      </button>
      <button className="icon-btn" data-testid="step-prev" aria-label="Previous step (←)" title="Previous step (←)" onClick={() => commands.stepBy(-1)} disabled={cursor === 0}>
        <ChevronLeft size={16} />
      </button>
      <label className="step-counter">
        <span className="muted">Step</span>
        <input
          className="input mono step-input"
          data-testid="step-input"
          aria-label="Go to step"
          value={draft ?? String(cursor)}
          onChange={(e) => setDraft(e.target.value.replace(/[^0-9]/g, ""))}
          onFocus={(e) => e.target.select()}
          onBlur={() => setDraft(null)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && draft !== null && draft !== "") {
              commands.goTo(Number(draft));
              setDraft(null);
              (e.target as HTMLInputElement).blur();
            } else if (e.key === "Escape") {
              e.stopPropagation();
              setDraft(null);
              (e.target as HTMLInputElement).blur();
            }
          }}
        />
        <span className="muted">of {count.toLocaleString()}</span>
      </label>
      <button className="icon-btn" data-testid="step-next" aria-label="Next step (→)" title="Next step (→)" onClick={() => commands.stepBy(1)} disabled={cursor >= count - 1}>
        <ChevronRight size={16} />
      </button>
      <button className="icon-btn" data-testid="next-transfer" aria-label="Next transfer (N)" title="Next transfer (N)" onClick={commands.nextTransfer} disabled={nextT === null}>
        <ChevronsRight size={16} />
      </button>
      <button className="icon-btn" data-testid="step-last" aria-label="Last step (End)" title="Last step (End)" onClick={commands.end} disabled={cursor >= count - 1}>
        <SkipForward size={15} />
      </button>
      <ForkHereButton />
      <Progress commands={commands} following={following} />
      <div className="transport-keys" aria-hidden="true">
        <kbd>←</kbd>
        <kbd>→</kbd> step <kbd>N</kbd>
        <kbd>⇧N</kbd> transfer <kbd>Home</kbd>
        <kbd>End</kbd> <kbd>Esc</kbd> editor
      </div>
    </div>
  );
}

/**
 * A run opened while in progress: a pill that says so and switches following the newest step, a
 * quiet note when a refresh failed; once it has ended, the status it ended with.
 */
function Progress({ commands, following }: { commands: RunCommands; following: FollowSource }) {
  const progress = useDebugger((s) => s.progress);
  if (!progress) return null;
  if (progress.gone) {
    return (
      <div
        className="run-progress is-ended is-gone"
        data-testid="run-progress"
        data-state="gone"
        title="The store no longer holds this run: it was deleted, or its trace joined an earlier run of the same conversation when it was saved (see the Runs tab). The last view stays."
      >
        <AlertTriangle size={12} />
        <span className="muted">No longer in the store</span>
      </div>
    );
  }
  if (progress.ended) {
    return (
      <div className="run-progress is-ended" data-testid="run-progress" data-state="ended" title="The run ended while it was open; it is no longer read again">
        <span className="muted">Ended</span>
        <OutcomeBadge status={progress.ended} testId="progress-outcome" />
      </div>
    );
  }
  const how =
    following === "events"
      ? "The run is in progress in this window: read again as its events arrive."
      : "The run is in progress (its trace is still arriving): read again every second.";
  const what = progress.follow ? "Following the newest step: click to stay where you are." : "Click to follow the newest step as steps arrive.";
  return (
    <div className="run-progress" data-testid="run-progress" data-state="running" data-source={following ?? undefined}>
      <button
        type="button"
        role="switch"
        aria-checked={progress.follow}
        aria-label="Follow the newest step"
        className={`follow-pill${progress.follow ? " is-on" : ""}`}
        data-testid="follow-toggle"
        title={`${how}\n${what}`}
        onClick={() => commands.follow(!progress.follow)}
      >
        <span className="pulse-dot" aria-hidden="true" />
        {progress.follow ? "Following" : "Follow"}
      </button>
      {progress.error && (
        <span className="run-progress-error" data-testid="progress-error" title={`Could not read the run again: ${progress.error}. The last view stays; retrying every second.`}>
          <AlertTriangle size={12} /> retrying
        </span>
      )}
    </div>
  );
}

function StepCard({ lookups }: { lookups: AgentLookups }) {
  const overview = useDebugger((s) => s.overview)!;
  const cursor = useDebugger((s) => s.cursor);
  const step = overview.steps.at(cursor);
  if (!step) return null;
  const transfer = step.transfer != null ? overview.transfers.find((t) => t.index === step.transfer) : undefined;
  const { agentName, palette } = lookups;
  return (
    <section className="side-section" data-testid="step-card" data-index={step.index} data-kind={step.kind}>
      <header className="side-head">
        <StepKindIcon kind={step.kind} />
        <h3>
          Step {step.index} · {STEP_LABELS[step.kind]}
        </h3>
      </header>
      <dl className="kv">
        <dt>Acting</dt>
        <dd>
          <span className="tl-dot" style={{ background: palette(step.agent) }} /> {agentName(step.agent)}
        </dd>
        <dt>Owner</dt>
        <dd>
          <span className="tl-dot" style={{ background: palette(step.owner) }} /> {agentName(step.owner)}
        </dd>
        {step.depth > 0 && (
          <>
            <dt>Depth</dt>
            <dd>{step.depth} (inside a delegation)</dd>
          </>
        )}
        {step.tokens !== null && (
          <>
            <dt>Tokens</dt>
            <dd>{num(step.tokens).toLocaleString()}</dd>
          </>
        )}
        {transfer && (
          <>
            <dt>Transfer</dt>
            <dd>
              T{transfer.index} · {transfer.kind} · <span className="mono">{transfer.policy}</span>
            </dd>
          </>
        )}
      </dl>
      {step.detail && <p className="step-detail-text">{step.detail}</p>}
    </section>
  );
}

function RunCard({ onEditTopology, suspects }: { onEditTopology?: () => void; suspects: SuspectCommands }) {
  const overview = useDebugger((s) => s.overview)!;
  const hasTopology = useDebugger((s) => s.topology !== null);
  const s = overview.summary;
  const tokens = num(s.input_tokens) + num(s.output_tokens);
  const source = runSource(s);
  return (
    <section className="side-section" data-testid="run-card">
      <header className="side-head">
        <h3>Run</h3>
        <span className="side-meta mono" title={s.id}>
          {shortRunId(s.id)}
        </span>
      </header>
      <div className="run-card-outcome">
        <OutcomeBadge status={s.outcome.status} testId="outcome" />
        <EndingBadge run={s} />
        <span className="run-reason">{s.outcome.reason}</span>
      </div>
      <MarkControl key={s.id} suspects={suspects} />
      <dl className="kv">
        <dt>Scenario</dt>
        <dd>{s.scenario}</dd>
        <dt>Duration</dt>
        <dd>{formatDuration(durationMs(s.started_at, s.ended_at))}</dd>
        <dt>Tokens</dt>
        <dd>
          {formatTokens(tokens)} <span className="muted">({formatTokens(num(s.input_tokens))} in · {formatTokens(num(s.output_tokens))} out)</span>
        </dd>
        {s.final_output && (
          <>
            <dt>Answer</dt>
            <dd className="run-answer">{s.final_output}</dd>
          </>
        )}
      </dl>
      {source && (
        <div className="run-source" data-testid="run-source" data-format={source.format}>
          <div className="run-source-head">
            <FileInput size={13} /> Imported from {formatLabel(source.format)}
          </div>
          {source.file && (
            <div className="run-source-file mono" title={source.file}>
              {fileName(source.file)}
            </div>
          )}
          {source.notes.length > 0 && (
            <ul className="import-notes" data-testid="import-notes" aria-label="Importer notes">
              {source.notes.map((n, i) => (
                <li key={i} data-testid="import-note">
                  <Info size={12} /> {n}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      {onEditTopology && hasTopology && source && (
        <button
          className="btn btn-secondary btn-sm run-edit-topology"
          data-testid="run-edit-topology"
          onClick={onEditTopology}
          title="Open the topology rebuilt from this trace in the editor (a new, unsaved document), with its runs"
        >
          <PencilRuler size={13} /> Edit this topology
        </button>
      )}
    </section>
  );
}

// The Suspects tab: the run's verdict on top (proven or suspected, and who judged the ending),
// Prove (forks with what was lost put back: progress, Cancel, what it cost), then at each transfer
// (the cursor's first) what did not reach the receiver, ranked by the evidence the backend read
// from the recording, each with its proof once one ran; a suspect opens its transfer's diff with
// the item flashed, a proof's saved fork opens beside the run, and one click pins it as a fact.
import { ArrowRight, ArrowRightLeft, Check, ChevronDown, ChevronRight, Columns2, Copy, CornerDownRight, FlaskConical, Gavel, Info, Loader2, Pin, Settings2, Square, Trash2 } from "lucide-react";
import { useId, useMemo, useState } from "react";
import type { PinnedFact } from "../bindings/PinnedFact";
import type { Proof } from "../bindings/Proof";
import type { TransferProof } from "../bindings/TransferProof";
import type { ForkCommands } from "../commands/fork";
import type { RunCommands } from "../commands/run";
import { pinTarget, type SuspectCommands } from "../commands/suspects";
import { ItemKindBadge } from "../run/badges";
import { BASIS_LABEL, BASIS_TITLE, costLine, endingLine, parseModels, proofBadge, proveProblems, restoredWith, type Answerer, type ProveOptions } from "../run/prove";
import { runSource } from "../run/source";
import {
  CONFIDENCE_LABEL,
  currentTransfer,
  ERROR_CLASS_LABEL,
  ERROR_CLASS_TITLE,
  LOSS_LABEL,
  orderTransfers,
  pinnedAs,
  reimportCommand,
  runOrigin,
  type ErrorClass,
  type Suspect,
  type SuspectReport,
  type TransferSuspects,
} from "../run/suspects";
import type { EvidenceKind } from "../bindings/EvidenceKind";
import { useDebugger } from "../store/debugger";
import { useDesigner } from "../store/designer";
import { overlayOf, useFactOverlay } from "../store/factOverlay";
import { optionsOf, useProofs, type ProofRun } from "../store/prove";
import type { AgentLookups } from "./lookups";
import { useShownReport } from "./useSuspects";
import "../styles/suspects.css";

const EVIDENCE_LABEL: Record<EvidenceKind, string> = {
  constraint: "constraint",
  reappears: "met again",
  touches: "touches",
  claim: "claim",
  subject: "subject",
  user_stated: "user said",
  unrepeatable: "can't redo",
  pinned: "pinned",
  transformed: "transformed",
  proven: "proven",
  covered: "covered",
};

/** Transfers drawn at first, and added by each "Show more". */
const GROUP_PAGE = 25;

/** What the tab does with a proof's saved fork: open it beside the run (the compare view). */
type OpenFork = (fork: string) => void;

export function SuspectsPanel({ commands, suspects, lookups, fork }: { commands: RunCommands; suspects: SuspectCommands; lookups: AgentLookups; fork: ForkCommands }) {
  const overview = useDebugger((s) => s.overview)!;
  const cursor = useDebugger((s) => s.cursor);
  const runId = overview.summary.id;
  const { q, report: shown, proof, stale } = useShownReport(suspects);
  const current = useMemo(() => currentTransfer(overview.transfers, cursor), [overview.transfers, cursor]);
  const groups = useMemo(() => (shown ? orderTransfers(shown, current) : []), [shown, current]);
  // A run with hundreds of transfers shows them a page at a time (the cursor's first).
  const [shownGroups, setShownGroups] = useState(GROUP_PAGE);
  const origin = runOrigin(overview.summary);
  const native = origin === "native";
  const running = overview.summary.outcome.status === "running";
  const options = useProofs((s) => optionsOf(s, runId, native));
  const prove = (transfer: number | null) => void suspects.prove(runId, options, transfer);
  const openFork: OpenFork = (f) => fork.compareWithParent(runId, f);

  if (q.error) {
    return (
      <div className="pane-empty text-error" role="alert" data-testid="suspects-error" data-code={q.error.code}>
        Could not read the suspects of this run: {q.error.message} ({q.error.code}){" "}
        <button className="btn btn-secondary btn-sm" onClick={() => void q.refresh()} disabled={q.loading}>
          Retry
        </button>
      </div>
    );
  }
  if (!shown) {
    return (
      <div className="pane-empty" data-testid="suspects-loading">
        <Loader2 size={14} className="spin" /> Reading what each transfer left behind…
      </div>
    );
  }
  const report = shown;
  const total = report.transfers.reduce((n, t) => n + t.suspects.length + t.more, 0);
  const blocked = running ? "The run is still in progress: prove it once it has ended." : proveProblems(options)[0] ?? null;
  const open = (s: Suspect, t: TransferSuspects) => {
    commands.goTo(t.step);
    const d = useDebugger.getState();
    d.setDetailTab("diff");
    // after the move: moving the cursor clears a flash
    d.flashItem(s.item);
  };

  return (
    <div className="suspects-pane" data-testid="suspects" data-run={runId} data-origin={origin}>
      <VerdictBox report={report} groups={report.transfers} lookups={lookups} onOpen={open} stale={stale} />
      <ProveBar runId={runId} native={native} origin={origin} proof={proof} report={report} options={options} blocked={blocked} onProve={() => prove(null)} onCancel={() => void suspects.cancelProof(runId)} />
      {!native && <OverlayFacts suspects={suspects} lookups={lookups} />}
      <div className="suspects-head">
        <h4>Suspects</h4>
        <span>
          {total} at {report.transfers.length} {report.transfers.length === 1 ? "transfer" : "transfers"} · best first · click one to see it in the diff
        </span>
      </div>
      {groups.length === 0 && <div className="pane-empty">This run made no transfer, so nothing could be lost at one.</div>}
      {groups.slice(0, shownGroups).map((t) => (
        <TransferGroup
          key={t.transfer}
          runId={runId}
          t={t}
          current={t.transfer === current}
          lookups={lookups}
          native={native}
          suspects={suspects}
          onOpen={open}
          proving={proof.running && (proof.transfer === null || proof.transfer === t.transfer) ? proof : null}
          proveBlocked={proof.running ? "A proof is under way" : blocked}
          onProve={() => prove(t.transfer)}
          openFork={openFork}
        />
      ))}
      {groups.length > shownGroups && (
        <button type="button" className="btn btn-ghost btn-sm suspects-more-groups" data-testid="suspects-more-groups" onClick={() => setShownGroups(shownGroups + GROUP_PAGE)}>
          Show {Math.min(GROUP_PAGE, groups.length - shownGroups)} more of {groups.length - shownGroups} transfers left
        </button>
      )}
    </div>
  );
}

function VerdictBox({
  report,
  groups,
  lookups,
  onOpen,
  stale,
}: {
  report: SuspectReport;
  groups: readonly TransferSuspects[];
  lookups: AgentLookups;
  onOpen: (s: Suspect, t: TransferSuspects) => void;
  stale: boolean;
}) {
  const v = report.verdict;
  // The chain is open where the pane has room for it (a tall window), a click away elsewhere.
  const [chainOpen, setChainOpen] = useState(() => window.innerHeight >= 860);
  const ending = endingLine(v.ending);
  if (v.bad === null) {
    // Not a bad ending: who judged it, in one line (nothing to explain).
    return (
      <div className="verdict-none" data-testid="verdict-none" data-by={v.ending.by} data-judgement={v.ending.judgement ?? ""}>
        <Gavel size={13} />
        <span className="verdict-ending" data-testid="verdict-ending" data-by={v.ending.by}>
          {cap(ending)}
        </span>
        {v.ending.by === "nobody" && <span className="muted">· mark the run Good or Bad (Run card) to judge it</span>}
      </div>
    );
  }
  const t = v.transfer === null ? undefined : groups.find((g) => g.transfer === v.transfer);
  const s = t?.suspects.find((x) => x.item === v.suspect);
  const basis = t ? v.basis : "none";
  return (
    <section
      className={`verdict${t ? " has-cause" : " no-cause"} basis-${basis}`}
      data-testid="verdict"
      data-transfer={v.transfer ?? undefined}
      data-suspect={v.suspect ?? undefined}
      data-basis={basis}
    >
      <div className="verdict-head">
        <Gavel size={14} />
        <h4>Verdict</h4>
        {t && basis !== "none" && (
          <span className={`basis-badge basis-${basis}`} data-testid="verdict-basis" title={BASIS_TITLE[basis]}>
            {BASIS_LABEL[basis]}
          </span>
        )}
        {s?.class && <ClassChip c={s.class} testId="verdict-class" />}
        <span className="spacer" />
        {t && s && (
          <button type="button" className="btn btn-secondary btn-sm verdict-open" data-testid="verdict-open" onClick={() => onOpen(s, t)} title="Open the transfer's diff at this item">
            <CornerDownRight size={12} /> Open T{t.transfer} · {lookups.agentName(t.from)} → {lookups.agentName(t.to)}
          </button>
        )}
      </div>
      <p className="verdict-ending" data-testid="verdict-ending" data-by={v.ending.by} title={v.ending.at !== null ? `Went wrong at step ${v.ending.at}` : undefined}>
        {cap(ending)}
      </p>
      <p className="verdict-text" data-testid="verdict-text">
        {t ? v.text : "No transfer-related cause found."}
      </p>
      {stale && (
        <p className="verdict-stale" data-testid="verdict-stale">
          The proofs below ran before the run was marked: prove again to rest the verdict on them.
        </p>
      )}
      {t && v.chain.length > 0 && (
        <>
          <button type="button" className="verdict-chain-toggle" data-testid="verdict-chain-toggle" aria-expanded={chainOpen} onClick={() => setChainOpen(!chainOpen)}>
            {chainOpen ? <ChevronDown size={12} /> : <ChevronRight size={12} />} Chain of evidence ({v.chain.length})
          </button>
          {chainOpen && (
            <ol className="verdict-chain" data-testid="verdict-chain">
              {v.chain.map((c, i) => (
                <li key={i}>{c}</li>
              ))}
            </ol>
          )}
        </>
      )}
    </section>
  );
}

const cap = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function ClassChip({ c, testId }: { c: ErrorClass; testId: string }) {
  return (
    <span className={`class-chip class-${c}`} data-testid={testId} data-class={c} title={ERROR_CLASS_TITLE[c]}>
      {ERROR_CLASS_LABEL[c]}
    </span>
  );
}

/**
 * Prove: forks with what was lost put back, answered by the mock scripts (Baton's own runs) or by
 * models named here; while it runs, the latest progress line and Cancel; after, what it cost.
 */
function ProveBar({
  runId,
  native,
  origin,
  proof,
  report,
  options,
  blocked,
  onProve,
  onCancel,
}: {
  runId: string;
  native: boolean;
  origin: string;
  proof: ProofRun;
  report: SuspectReport;
  options: ProveOptions;
  blocked: string | null;
  onProve: () => void;
  onCancel: () => void;
}) {
  // A run without mock scripts must name who answers: its options are open from the start.
  const [open, setOpen] = useState(!native);
  const state = proof.running ? "running" : proof.error ? "error" : report.cost ? "done" : "idle";
  const p = proof.progress;
  return (
    <section className="prove-bar" data-testid="prove-bar" data-state={state} aria-busy={proof.running}>
      <div className="prove-row">
        <FlaskConical size={14} className="prove-icon" />
        <div className="prove-what">
          <strong>Prove by replay</strong>
          <span className="muted" title="Fork at each transfer with what was lost put back: a suspect is proven when the ending changes">forks with what was lost put back; proven when the ending changes</span>
        </div>
        {native && (
          <button type="button" className={`btn btn-ghost btn-sm${open ? " is-on" : ""}`} data-testid="prove-options-toggle" aria-expanded={open} onClick={() => setOpen(!open)} title="Who answers in the forks">
            <Settings2 size={13} /> {options.answerer === "mock" ? "Mock" : options.answerer === "live" ? "Run's providers" : "Models"}
          </button>
        )}
        {proof.running ? (
          <button type="button" className="btn btn-secondary btn-sm" data-testid="prove-cancel" onClick={onCancel} disabled={proof.cancelling}>
            <Square size={11} /> {proof.cancelling ? "Cancelling…" : "Cancel"}
          </button>
        ) : (
          <button type="button" className="btn btn-primary btn-sm" data-testid="prove-all" onClick={onProve} disabled={blocked !== null} title={blocked ?? "Prove every transfer's suspects (the forks that change the ending are saved)"}>
            <FlaskConical size={13} /> {report.cost ? "Prove again" : "Prove"}
          </button>
        )}
      </div>
      {open && <ProveOptionsForm runId={runId} native={native} origin={origin} options={options} disabled={proof.running} />}
      {proof.running && (
        <div className="prove-progress" data-testid="prove-progress" role="status" data-transfer={p?.transfer}>
          <Loader2 size={13} className="spin" />
          <span className="prove-message" data-testid="prove-message">
            {p ? p.message : proof.transfer === null ? "Starting: every transfer…" : `Starting: transfer ${proof.transfer}…`}
          </span>
          {p && (
            <span className="muted prove-counts" data-testid="prove-counts">
              {p.forks} {p.forks === 1 ? "fork" : "forks"} · {p.model_calls} model {p.model_calls === 1 ? "call" : "calls"}
            </span>
          )}
        </div>
      )}
      {!proof.running && proof.cancelled && (
        <div className="prove-note" data-testid="prove-cancelled">
          Cancelled: what the proof did not reach is marked not tested.
        </div>
      )}
      {!proof.running && proof.error && (
        <div className="text-error prove-note" role="alert" data-testid="prove-error" data-code={proof.error.code}>
          Could not prove: {proof.error.message} ({proof.error.code})
        </div>
      )}
      {!proof.running && report.cost && (
        <div className="prove-cost" data-testid="prove-cost" title={`Endings compared ${report.cost.compared}`}>
          <span className="prove-cost-label">Cost</span> {costLine(report.cost)} <span className="muted">· endings compared {report.cost.compared}</span>
        </div>
      )}
    </section>
  );
}

function ProveOptionsForm({ runId, native, origin, options, disabled }: { runId: string; native: boolean; origin: string; options: ProveOptions; disabled: boolean }) {
  const id = useId();
  const set = (patch: Partial<ProveOptions>) => useProofs.getState().setOptions(runId, { ...options, ...patch });
  const problems = options.answerer === "mock" ? [] : proveProblems(options);
  // Only what was typed is judged (an empty model field says so on the button).
  const typed = options.answerer === "models" && options.models.trim() !== "" ? parseModels(options.models).problems : [];
  const shownProblems = problems.filter((p) => !p.startsWith("Name a model") || typed.length > 0);
  return (
    <div className="prove-options" data-testid="prove-options" data-answerer={options.answerer}>
      {!native && (
        <p className="prove-hint" data-testid="prove-hint">
          <Info size={12} /> This run was {origin}: it has no mock scripts, so a model answers in the forks after the restored point (real calls).
        </p>
      )}
      <div className="prove-fields">
        <label className="prove-field">
          <span>Answered by</span>
          <select className="select select-sm" data-testid="prove-answerer" value={options.answerer} disabled={disabled} onChange={(e) => set({ answerer: e.target.value as Answerer })}>
            {native && <option value="mock">the scenario's mock scripts</option>}
            <option value="models">these models</option>
            <option value="live">the run's own providers</option>
          </select>
        </label>
        {options.answerer === "models" && (
          <label className="prove-field prove-models" htmlFor={`${id}-models`}>
            <span>Models</span>
            <input
              id={`${id}-models`}
              className="input input-sm mono"
              data-testid="prove-models"
              placeholder="*=openai:gpt-4o-mini  or  AGENT=PROVIDER:MODEL[@URL]"
              value={options.models}
              disabled={disabled}
              spellCheck={false}
              onChange={(e) => set({ models: e.target.value })}
            />
          </label>
        )}
        {options.answerer !== "mock" && (
          <>
            <label className="prove-field prove-num">
              <span>Samples</span>
              <input className="input input-sm" data-testid="prove-samples" inputMode="numeric" value={options.samples} disabled={disabled} onChange={(e) => set({ samples: e.target.value })} title="Forks per test (a sampled model answers differently each time)" />
            </label>
            <label className="prove-field prove-num">
              <span>Budget</span>
              <input className="input input-sm" data-testid="prove-budget" inputMode="numeric" placeholder="no limit" value={options.budget} disabled={disabled} onChange={(e) => set({ budget: e.target.value })} title="At most this many model calls in all" />
            </label>
          </>
        )}
      </div>
      {shownProblems.length > 0 && (
        <ul className="prove-problems text-error" data-testid="prove-problems">
          {shownProblems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** A proof's badge, and what changed (the line under a suspect, or beside a transfer). */
function ProofBadge({ p, testId, prefix = "", short = false }: { p: Proof | TransferProof; testId: string; prefix?: string; short?: boolean }) {
  const b = proofBadge(p);
  // In a header, "not tested" alone: why is in the tooltip.
  const label = short && p.status === "not_tested" ? "not tested" : b.label;
  return (
    <span className={`proof-badge proof-${b.tone}${short ? " is-short" : ""}`} data-testid={testId} data-status={p.status} title={p.changed ? `${b.title}: ${p.changed}` : b.title}>
      {prefix}
      {label}
    </span>
  );
}

function ProofLine({ p, t, openFork }: { p: Proof; t: TransferSuspects; openFork: OpenFork }) {
  const together = restoredWith(p.with, t);
  return (
    <div className={`proof-line proof-${p.status}`} data-testid="suspect-proof" data-status={p.status} data-fork={p.fork_run ?? undefined} onClick={(e) => e.stopPropagation()}>
      <ProofBadge p={p} testId="proof-badge" />
      {p.changed && (
        <span className="proof-changed" data-testid="proof-changed">
          {p.changed}
        </span>
      )}
      {(together.texts.length > 0 || together.others > 0) && (
        <span className="proof-with muted" data-testid="proof-with">
          restored together with {[...together.texts.map((x) => `“${x.length > 60 ? `${x.slice(0, 59)}…` : x}”`), ...(together.others ? [`${together.others} other ${together.others === 1 ? "item" : "items"}`] : [])].join(", ")}
        </span>
      )}
      {p.fork_run && (
        <button type="button" className="btn btn-secondary btn-sm proof-fork" data-testid="proof-open-fork" onClick={() => openFork(p.fork_run as string)} title={`Compare the saved fork (${p.fork_run}) with this run: transfers lined up, outcomes and answers`}>
          <Columns2 size={12} /> Open fork beside the run
        </button>
      )}
    </div>
  );
}

function TransferGroup({
  t,
  current,
  lookups,
  native,
  suspects,
  onOpen,
  proving,
  proveBlocked,
  onProve,
  openFork,
  runId,
}: {
  runId: string;
  t: TransferSuspects;
  current: boolean;
  lookups: AgentLookups;
  native: boolean;
  suspects: SuspectCommands;
  onOpen: (s: Suspect, t: TransferSuspects) => void;
  /** The proof under way, when it covers this transfer. */
  proving: ProofRun | null;
  proveBlocked: string | null;
  onProve: () => void;
  openFork: OpenFork;
}) {
  const { agentName, palette } = lookups;
  const tp = t.proof;
  // The transfer's own fork, where no suspect below offers the same one.
  const ownFork = tp?.fork_run && !t.suspects.some((s) => s.proof?.fork_run === tp.fork_run) ? tp.fork_run : null;
  const here = proving !== null && (proving.progress === null || proving.progress.transfer === t.transfer);
  return (
    <section className={`suspect-group${current ? " is-current" : ""}`} data-testid="suspect-group" data-transfer={t.transfer} data-current={current || undefined} data-proving={here || undefined}>
      <header className="suspect-group-head">
        {t.kind === "delegation" ? <CornerDownRight size={12} /> : <ArrowRightLeft size={12} />}
        <span className="mono">T{t.transfer}</span>
        <strong style={{ color: palette(t.from) }}>{agentName(t.from)}</strong>
        <ArrowRight size={12} className="muted" />
        <strong style={{ color: palette(t.to) }}>{agentName(t.to)}</strong>
        <span className="muted">
          {t.kind} · step {t.step}
        </span>
        {current && <span className="suspect-here">at the cursor</span>}
        <span className="spacer" />
        {tp && <ProofBadge p={tp} testId="transfer-proof" prefix="all put back: " short />}
        {ownFork && (
          <button type="button" className="icon-btn sm" data-testid="transfer-open-fork" aria-label={`Open the fork of T${t.transfer} beside the run`} title="Open the fork with everything lost here put back, beside the run" onClick={() => openFork(ownFork)}>
            <Columns2 size={12} />
          </button>
        )}
        <span className="muted">
          {t.suspects.length + t.more} {t.suspects.length + t.more === 1 ? "suspect" : "suspects"}
        </span>
        {here ? (
          <span className="suspect-proving" data-testid="transfer-proving">
            <Loader2 size={12} className="spin" /> proving…
          </span>
        ) : (
          <button
            type="button"
            className="btn btn-ghost btn-sm suspect-prove"
            data-testid="transfer-prove"
            disabled={proveBlocked !== null}
            onClick={onProve}
            title={proveBlocked ?? `Prove T${t.transfer} only: fork at step ${t.step} with what ${agentName(t.to)} did not get put back`}
          >
            <FlaskConical size={12} /> Prove
          </button>
        )}
      </header>
      {t.suspects.length === 0 ? (
        <div className="suspect-none">Nothing {agentName(t.to)} missed here looks like it mattered.</div>
      ) : (
        <ol className="suspect-list">
          {t.suspects.map((s) => (
            <SuspectRow key={s.item} s={s} t={t} lookups={lookups} native={native} suspects={suspects} onOpen={onOpen} openFork={openFork} />
          ))}
        </ol>
      )}
      {t.more > 0 && (
        <div className="suspect-more muted" data-testid="suspect-more" data-more={t.more}>
          {t.more} more ranked lower, not shown here; <code>baton suspects {runId} --transfer {t.transfer}</code> lists them all
        </div>
      )}
    </section>
  );
}

function SuspectRow({
  s,
  t,
  lookups,
  native,
  suspects,
  onOpen,
  openFork,
}: {
  s: Suspect;
  t: TransferSuspects;
  lookups: AgentLookups;
  native: boolean;
  suspects: SuspectCommands;
  onOpen: (s: Suspect, t: TransferSuspects) => void;
  openFork: OpenFork;
}) {
  const { agentName, palette } = lookups;
  const pinned = usePinned(s.text, native);
  const [busy, setBusy] = useState(false);
  const pin = async (e: React.MouseEvent) => {
    e.stopPropagation();
    setBusy(true);
    try {
      await suspects.pin(s, t);
    } finally {
      setBusy(false);
    }
  };
  return (
    <li
      className={`suspect conf-${s.confidence}`}
      data-testid="suspect"
      data-item={s.item}
      data-agent={s.agent}
      data-confidence={s.confidence}
      data-loss={s.loss}
      data-kind={s.kind}
      data-class={s.class ?? undefined}
      data-proof={s.proof?.status}
      data-transfer={t.transfer}
      tabIndex={0}
      role="button"
      aria-label={`${CONFIDENCE_LABEL[s.confidence]} confidence suspect: ${s.text}. Open it in the diff of T${t.transfer}`}
      onClick={() => onOpen(s, t)}
      onKeyDown={(e) => {
        if (e.target !== e.currentTarget) return;
        if (e.key === "Enter" || e.key === " ") {
          e.preventDefault();
          e.stopPropagation();
          onOpen(s, t);
        }
      }}
    >
      <div className="suspect-head">
        <span className={`conf-chip conf-${s.confidence}`} data-testid="suspect-confidence" title={`score ${s.score}`}>
          {CONFIDENCE_LABEL[s.confidence]}
        </span>
        <span className={`loss-chip loss-${s.loss}`} data-testid="suspect-loss">
          {LOSS_LABEL[s.loss]}
        </span>
        <ItemKindBadge kind={s.kind} />
        {s.class && <ClassChip c={s.class} testId="suspect-class" />}
        <span className="suspect-agent" style={{ color: palette(s.agent) }} data-testid="suspect-agent">
          {agentName(s.agent)}
        </span>
        <span className="spacer" />
        {pinned ? (
          <span className="suspect-pinned" data-testid="suspect-pinned" data-where={pinned.where} data-fact={pinned.fact.id} title={pinned.title}>
            <Check size={11} /> {pinned.where === "overlay" ? "pinned (overlay)" : `pinned · ${pinned.fact.id}`}
          </span>
        ) : (
          <button
            type="button"
            className="btn btn-secondary btn-sm suspect-pin"
            data-testid="suspect-pin"
            disabled={busy}
            onClick={(e) => void pin(e)}
            title={
              native
                ? "Pin this text as a fact of the run's topology in the designer, held by the agent that had it (Undo takes it back)"
                : "Pin this text as a fact in this run's overlay (kept by this window; checked when the trace is imported again with --facts)"
            }
          >
            <Pin size={12} /> Pin as fact
          </button>
        )}
      </div>
      <div className="suspect-text" data-testid="suspect-text">
        {s.text}
      </div>
      {s.proof && <ProofLine p={s.proof} t={t} openFork={openFork} />}
      {s.evidence.length > 0 && (
        <ul className="suspect-evidence" data-testid="suspect-evidence" aria-label="Evidence">
          {s.evidence.map((ev, i) => (
            <li key={i} data-kind={ev.kind}>
              <span className="ev-kind">{EVIDENCE_LABEL[ev.kind] ?? ev.kind}</span> {ev.text}
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

/** Whether a suspect's text is pinned already: in the designer's copy of the run's topology (native), or in the run's overlay. */
function usePinned(text: string, native: boolean): { where: "designer" | "overlay"; fact: PinnedFact; title: string } | null {
  const runId = useDebugger((s) => s.runId);
  const runTopology = useDebugger((s) => s.topology);
  const doc = useDesigner((s) => s.topology);
  const overlay = useFactOverlay((s) => overlayOf(s, runId));
  if (!native) {
    const f = pinnedAs(overlay, text);
    return f ? { where: "overlay", fact: f, title: `In this run's facts overlay as ${f.id}: checked when the trace is imported again with --facts` } : null;
  }
  if (pinTarget(doc, runTopology) !== "document") return null;
  const f = pinnedAs(doc?.facts, text);
  return f ? { where: "designer", fact: f, title: `A pinned fact of ${doc?.name} in the designer (${f.id}): run again to see it checked` } : null;
}

/**
 * An imported or captured run's facts overlay: what was pinned, and plainly how it gets checked
 * (the backend checks facts when it imports a trace, so this window never does).
 */
function OverlayFacts({ suspects, lookups }: { suspects: SuspectCommands; lookups: AgentLookups }) {
  const runId = useDebugger((s) => s.runId);
  const overview = useDebugger((s) => s.overview)!;
  const runTopology = useDebugger((s) => s.topology);
  const facts = useFactOverlay((s) => overlayOf(s, runId));
  const [yaml, setYaml] = useState<{ text: string } | { error: string } | null>(null);
  const [copied, setCopied] = useState(false);
  const file = runSource(overview.summary)?.file ?? null;
  const command = reimportCommand(file, overview.summary.id);
  if (facts.length === 0) {
    return (
      <div className="overlay-note" data-testid="overlay-facts" data-count={0}>
        <Info size={13} />
        <span>
          This run was {runOrigin(overview.summary)} and has no topology file: a suspect pinned here goes into a facts overlay kept by this window. Baton checks facts when it imports a trace, so an overlay fact is checked once the trace is imported again with it (<code>baton trace import … --facts</code>).
        </span>
      </div>
    );
  }
  const showYaml = async () => {
    if (!runTopology) return;
    try {
      const text = await suspects.factsFile(runTopology, facts);
      setYaml({ text });
    } catch (e) {
      setYaml({ error: e && typeof e === "object" && "message" in e ? String((e as { message: unknown }).message) : String(e) });
    }
  };
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(command);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <section className="overlay-facts" data-testid="overlay-facts" data-count={facts.length}>
      <div className="overlay-head">
        <Pin size={13} className="fact-pin" />
        <h4>Facts overlay for this run</h4>
        <span className="muted">pinned (overlay) · not checked yet</span>
      </div>
      <ul className="overlay-list">
        {facts.map((f) => (
          <li key={f.id} data-testid="overlay-fact" data-fact={f.id}>
            <span className="mono fact-id">{f.id}</span>
            <span className="overlay-fact-text">{f.text}</span>
            <span className="muted">held by {(f.holders ?? []).map(lookups.agentName).join(", ") || "nobody"}</span>
            <button type="button" className="icon-btn sm danger" aria-label={`Remove ${f.id} from the overlay`} data-testid="overlay-unpin" onClick={() => suspects.unpinOverlay(f.id)}>
              <Trash2 size={12} />
            </button>
          </li>
        ))}
      </ul>
      <p className="overlay-how" data-testid="overlay-how">
        Baton checks pinned facts when it imports a trace, not in this window: these facts apply when the trace is imported again with them. Save the run's topology with these facts as <code>facts.yaml</code>, then run:
      </p>
      <div className="overlay-cmd">
        <code className="mono" data-testid="overlay-command">
          {command}
        </code>
        <button type="button" className="btn btn-ghost btn-sm" onClick={() => void copy()} title="Copy the command">
          {copied ? <Check size={12} /> : <Copy size={12} />} {copied ? "Copied" : "Copy"}
        </button>
        {runTopology && (
          <button type="button" className="btn btn-secondary btn-sm" data-testid="overlay-yaml" onClick={() => void showYaml()}>
            Show facts.yaml
          </button>
        )}
      </div>
      {yaml && "text" in yaml && <textarea className="overlay-yaml mono" readOnly value={yaml.text} rows={8} data-testid="overlay-yaml-text" aria-label="facts.yaml" />}
      {yaml && "error" in yaml && <div className="text-error">Could not write facts.yaml: {yaml.error}</div>}
    </section>
  );
}

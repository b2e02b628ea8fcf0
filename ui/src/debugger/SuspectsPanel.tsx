// The Suspects tab: the run's verdict on top, then at each transfer (the cursor's first) what did
// not reach the receiver, ranked by the evidence the backend read from the recording; a suspect
// opens its transfer's diff with the item flashed, and one click pins it as a fact.
import { ArrowRight, ArrowRightLeft, Check, ChevronDown, ChevronRight, Copy, CornerDownRight, Gavel, Info, Loader2, Pin, Trash2 } from "lucide-react";
import { useMemo, useState } from "react";
import type { PinnedFact } from "../bindings/PinnedFact";
import type { RunCommands } from "../commands/run";
import { pinTarget, type SuspectCommands } from "../commands/suspects";
import { ItemKindBadge } from "../run/badges";
import { runSource } from "../run/source";
import { CONFIDENCE_LABEL, currentTransfer, LOSS_LABEL, orderTransfers, pinnedAs, reimportCommand, runOrigin, type Suspect, type SuspectReport, type TransferSuspects } from "../run/suspects";
import type { EvidenceKind } from "../bindings/EvidenceKind";
import { useDebugger } from "../store/debugger";
import { useDesigner } from "../store/designer";
import { overlayOf, useFactOverlay } from "../store/factOverlay";
import type { AgentLookups } from "./lookups";
import { useSuspectReport } from "./useSuspects";
import "../styles/suspects.css";

const EVIDENCE_LABEL: Record<EvidenceKind, string> = {
  constraint: "constraint",
  reappears: "met again",
  claim: "claim",
  user_stated: "user said",
  transformed: "transformed",
};

export function SuspectsPanel({ commands, suspects, lookups }: { commands: RunCommands; suspects: SuspectCommands; lookups: AgentLookups }) {
  const overview = useDebugger((s) => s.overview)!;
  const cursor = useDebugger((s) => s.cursor);
  const runId = overview.summary.id;
  const q = useSuspectReport(suspects);
  const current = useMemo(() => currentTransfer(overview.transfers, cursor), [overview.transfers, cursor]);
  const groups = useMemo(() => (q.data ? orderTransfers(q.data, current) : []), [q.data, current]);
  const origin = runOrigin(overview.summary);
  const native = origin === "native";

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
  if (!q.data) {
    return (
      <div className="pane-empty" data-testid="suspects-loading">
        <Loader2 size={14} className="spin" /> Reading what each transfer left behind…
      </div>
    );
  }
  const report = q.data;
  const total = report.transfers.reduce((n, t) => n + t.suspects.length, 0);
  const open = (s: Suspect, t: TransferSuspects) => {
    commands.goTo(t.step);
    const d = useDebugger.getState();
    d.setDetailTab("diff");
    // after the move: moving the cursor clears a flash
    d.flashItem(s.item);
  };

  return (
    <div className="suspects-pane" data-testid="suspects" data-run={runId} data-origin={origin}>
      <VerdictBox report={report} groups={report.transfers} lookups={lookups} onOpen={open} />
      {!native && <OverlayFacts suspects={suspects} lookups={lookups} />}
      <div className="suspects-head">
        <h4>Suspects</h4>
        <span>
          {total} at {report.transfers.length} {report.transfers.length === 1 ? "transfer" : "transfers"} · best first · click one to see it in the diff
        </span>
      </div>
      {groups.length === 0 && <div className="pane-empty">This run made no transfer, so nothing could be lost at one.</div>}
      {groups.map((t) => (
        <TransferGroup key={t.transfer} t={t} current={t.transfer === current} lookups={lookups} native={native} suspects={suspects} onOpen={open} />
      ))}
    </div>
  );
}

function VerdictBox({
  report,
  groups,
  lookups,
  onOpen,
}: {
  report: SuspectReport;
  groups: readonly TransferSuspects[];
  lookups: AgentLookups;
  onOpen: (s: Suspect, t: TransferSuspects) => void;
}) {
  const v = report.verdict;
  // The chain is open where the pane has room for it (a tall window), a click away elsewhere.
  const [chainOpen, setChainOpen] = useState(() => window.innerHeight >= 860);
  if (v.bad === null) return null;
  const t = v.transfer === null ? undefined : groups.find((g) => g.transfer === v.transfer);
  const s = t?.suspects.find((x) => x.item === v.suspect);
  return (
    <section className={`verdict${t ? " has-cause" : " no-cause"}`} data-testid="verdict" data-transfer={v.transfer ?? undefined} data-suspect={v.suspect ?? undefined}>
      <div className="verdict-head">
        <Gavel size={14} />
        <h4>Verdict</h4>
        <span className="verdict-bad" title={`Why the run counts as ending badly: ${v.bad}`}>
          {v.bad}
        </span>
        <span className="spacer" />
        {t && s && (
          <button type="button" className="btn btn-secondary btn-sm verdict-open" data-testid="verdict-open" onClick={() => onOpen(s, t)} title="Open the transfer's diff at this item">
            <CornerDownRight size={12} /> Open T{t.transfer} · {lookups.agentName(t.from)} → {lookups.agentName(t.to)}
          </button>
        )}
      </div>
      <p className="verdict-text" data-testid="verdict-text">
        {t ? v.text : "No transfer-related cause found."}
      </p>
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

function TransferGroup({
  t,
  current,
  lookups,
  native,
  suspects,
  onOpen,
}: {
  t: TransferSuspects;
  current: boolean;
  lookups: AgentLookups;
  native: boolean;
  suspects: SuspectCommands;
  onOpen: (s: Suspect, t: TransferSuspects) => void;
}) {
  const { agentName, palette } = lookups;
  return (
    <section className={`suspect-group${current ? " is-current" : ""}`} data-testid="suspect-group" data-transfer={t.transfer} data-current={current || undefined}>
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
        <span className="muted">
          {t.suspects.length} {t.suspects.length === 1 ? "suspect" : "suspects"}
        </span>
      </header>
      {t.suspects.length === 0 ? (
        <div className="suspect-none">Nothing {agentName(t.to)} missed here looks like it mattered.</div>
      ) : (
        <ol className="suspect-list">
          {t.suspects.map((s) => (
            <SuspectRow key={s.item} s={s} t={t} lookups={lookups} native={native} suspects={suspects} onOpen={onOpen} />
          ))}
        </ol>
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
}: {
  s: Suspect;
  t: TransferSuspects;
  lookups: AgentLookups;
  native: boolean;
  suspects: SuspectCommands;
  onOpen: (s: Suspect, t: TransferSuspects) => void;
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

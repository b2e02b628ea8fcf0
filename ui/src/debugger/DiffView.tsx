// A transfer's diff: the sender's visible context beside the receiver's input, items lined up.
import { ArrowRight, ArrowRightLeft, CornerDownRight, Equal, Minus, Plus, Pin } from "lucide-react";
import { useCallback, useMemo, useState } from "react";
import { FactStatusPill } from "../run/badges";
import { layoutDiff, type DiffCell, type DiffRow } from "../run/diff";
import { formatTokens } from "../run/format";
import { contextTokens, type Item, type TransferView } from "../run/types";
import { useDebugger } from "../store/debugger";
import { ItemCard } from "./ItemCard";
import { provenance } from "./provenance";
import type { AgentLookups } from "./lookups";
import { MeasuredList } from "./MeasuredList";

const GLYPH = {
  carried: <Equal size={13} />,
  transformed: <ArrowRight size={13} />,
  dropped: <Minus size={13} />,
  added: <Plus size={13} />,
};

let scrollSeq = 0;

export function DiffView({ view, lookups }: { view: TransferView; lookups: AgentLookups }) {
  const { palette, agentName } = lookups;
  const t = view.transfer;
  const layout = useMemo(() => layoutDiff(view), [view]);
  const [hideCarried, setHideCarried] = useState(false);
  const flash = useDebugger((s) => s.flash);
  const flashItem = useDebugger((s) => s.flashItem);
  const byId = useMemo(() => new Map(view.items.map((i) => [i.id, i])), [view.items]);
  const lookup = useCallback((id: string) => byId.get(id), [byId]);
  const rows = useMemo(() => (hideCarried ? layout.rows.filter((r) => r.kind !== "carried") : layout.rows), [layout, hideCarried]);
  const rowIndex = useMemo(() => new Map(rows.map((r, i) => [r, i])), [rows]);
  const senderTokens = useMemo(() => contextTokens(t.sender.map((id) => byId.get(id)).filter((i): i is Item => !!i)), [t.sender, byId]);
  const receiverTokens = useMemo(() => contextTokens(t.receiver.map((id) => byId.get(id)).filter((i): i is Item => !!i)), [t.receiver, byId]);
  const lostFacts = useMemo(() => new Set(t.facts.filter((f) => f.status === "lost").map((f) => f.id)), [t.facts]);
  const [scrollTo, setScrollTo] = useState<{ index: number; seq: number } | null>(null);

  const follow = (id: string) => {
    flashItem(id);
    const r = layout.rows[layout.rowOfSender.get(id) ?? -1];
    const i = r ? rowIndex.get(r) : undefined;
    if (i !== undefined) setScrollTo({ index: i, seq: ++scrollSeq });
  };

  const cell = (c: DiffCell | null, side: "sender" | "receiver", extra?: React.ReactNode, clamp?: number) =>
    c ? (
      <ItemCard
        item={c.item}
        color={palette(c.item.agent)}
        agent={agentName(c.item.agent)}
        title={provenance(c.item, agentName, lookup)}
        testId="diff-item"
        status={c.status}
        side={side}
        flash={flash?.id === c.item.id}
        extra={extra}
        clamp={clamp ?? (side === "receiver" ? 5 : 2)}
        compact={c.status === "dropped" || clamp === 1}
        tag={c.item.kind === "pinned_fact" && c.item.fact && lostFacts.has(c.item.fact) && side === "sender" ? "fact lost" : undefined}
      />
    ) : (
      <div className="diff-empty" aria-hidden="true" />
    );

  const renderRow = (i: number) => {
    const r = rows[i] as DiffRow;
    if (r.kind === "carried") {
      return (
        <div className="diff-row row-carried">
          {cell(r.left, "sender")}
          <span className="diff-glyph g-carried" title="carried: the same item on both sides">
            {GLYPH.carried}
          </span>
          <div className="diff-carried-right">{cell(r.right, "receiver", undefined, 1)}</div>
        </div>
      );
    }
    if (r.kind === "transformed") {
      const links = (
        <div className="source-links">
          <span className="muted">derived from</span>
          {r.links.length === 0 && <span className="muted">no item of the sender</span>}
          {r.links.map((id) => {
            const src = byId.get(id);
            return (
              <button key={id} type="button" className="source-link" data-testid="source-link" data-source={id} onClick={() => follow(id)}>
                {src ? `${src.kind.replace("_", " ")}${src.name ? ` ${src.name}` : ""}` : id.slice(0, 8)}
              </button>
            );
          })}
        </div>
      );
      return (
        <div className="diff-row row-transformed">
          <div className="diff-sources">{r.left.length ? r.left.map((c) => <div key={c.item.id}>{cell(c, "sender")}</div>) : <div className="diff-empty" />}</div>
          <span className="diff-glyph g-transformed" title="transformed: derived from the sender's items">
            {GLYPH.transformed}
          </span>
          {cell(r.right, "receiver", links)}
        </div>
      );
    }
    return (
      <div className="diff-row row-change">
        {cell(r.left, "sender")}
        <span className="diff-glyph-pair">
          {r.left && (
            <span className="diff-glyph g-dropped" title="dropped: the receiver gets it in no form">
              {GLYPH.dropped}
            </span>
          )}
          {r.right && (
            <span className={`diff-glyph g-${r.right.status}`} title="added: new on the receiver's side">
              {GLYPH[r.right.status]}
            </span>
          )}
        </span>
        {cell(r.right, "receiver")}
      </div>
    );
  };

  return (
    <div className="diff-view" data-testid="transfer-diff" data-from={t.from} data-to={t.to} data-kind={t.kind} data-index={view.index}>
      <div className="diff-head">
        <span className={`kind-chip kind-${t.kind}`}>
          {t.kind === "handoff" ? <ArrowRightLeft size={12} /> : <CornerDownRight size={12} />}
          {t.kind}
        </span>
        <span className="diff-route">
          <strong style={{ color: palette(t.from) }}>{agentName(t.from)}</strong>
          <ArrowRight size={13} className="muted" />
          <strong style={{ color: palette(t.to) }}>{agentName(t.to)}</strong>
        </span>
        <span className="policy-chip mono" data-testid="diff-policy" title="The context policy that built the receiver's input">
          {t.policy}
        </span>
        <span className="diff-index muted">
          transfer T{view.index} · step {t.step}
          {t.edge ? ` · ${t.edge}` : " · escalation by a guard"}
        </span>
      </div>
      <div className="diff-summary">
        <span className="count-chip c-carried">{layout.counts.carried} carried</span>
        <span className="count-chip c-transformed">{layout.counts.transformed} transformed</span>
        <span className="count-chip c-dropped">{layout.counts.dropped} dropped</span>
        <span className="count-chip c-added">{layout.counts.added} added</span>
        {t.facts.length > 0 && <span className="summary-sep" />}
        {t.facts.map((f) => (
          <span key={f.id} className={`fact-check fact-check-${f.status}`} data-testid="diff-fact" data-fact={f.id} data-status={f.status}>
            <Pin size={11} />
            <span className="mono">{f.id}</span>
            <FactStatusPill status={f.status} />
          </span>
        ))}
        <div className="spacer" />
        <label className="check-inline">
          <input type="checkbox" checked={hideCarried} onChange={(e) => setHideCarried(e.target.checked)} data-testid="hide-carried" />
          Hide carried
        </label>
      </div>
      <div className="diff-cols">
        <div className="diff-col-head">
          Sender's context <span className="muted">— {agentName(t.from)} · {t.sender.length} items · ~{formatTokens(senderTokens)} tok</span>
        </div>
        <span />
        <div className="diff-col-head">
          Receiver's input <span className="muted">— {agentName(t.to)} · {t.receiver.length} items · ~{formatTokens(receiverTokens)} tok</span>
        </div>
      </div>
      <MeasuredList className="diff-rows" count={rows.length} render={renderRow} estimate={72} scrollTo={scrollTo} testId="diff-rows" />
    </div>
  );
}

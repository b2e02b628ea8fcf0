// A transfer's diff: the sender's visible context beside the receiver's input, items lined up
// (or one unified column), with the counts as filters, a resizable split and Expand all. At a
// delegation what the caller keeps is "withheld", not "dropped": the caller still holds it.
import { ArrowRight, ArrowRightLeft, ChevronsDownUp, ChevronsUpDown, Columns2, CornerDownRight, Dot, Equal, GripVertical, Minus, Pin, Plus, Rows3, X } from "lucide-react";
import { memo, useCallback, useLayoutEffect, useMemo, useRef, useState } from "react";
import { FactStatusPill } from "../run/badges";
import { filterRows, layoutDiff, lineOfSender, notSentStatus, UNIFIED_MARK, unifiedLines, type DiffCell, type DiffRow, type DiffStatus, type UnifiedLine } from "../run/diff";
import { formatTokens } from "../run/format";
import { contextTokens, type Item, type TransferView } from "../run/types";
import { useDebugger } from "../store/debugger";
import { clampSplit, loadMode, loadSplit, saveMode, saveSplit, SPLIT_DEFAULT, SPLIT_MAX, SPLIT_MIN, type DiffMode } from "./diffPrefs";
import { ItemCard, type ItemTag } from "./ItemCard";
import { provenance } from "./provenance";
import type { AgentLookups } from "./lookups";
import { MeasuredList } from "./MeasuredList";
import type { Suspect } from "../run/suspects";
import "../styles/diff.css";

const GLYPH: Record<DiffStatus, React.ReactNode> = {
  carried: <Equal size={13} />,
  transformed: <ArrowRight size={13} />,
  dropped: <Minus size={13} />,
  withheld: <Dot size={16} />,
  added: <Plus size={13} />,
};

let scrollSeq = 0;

type CardOptions = { extra?: React.ReactNode; clamp?: number; compact?: boolean; dataSide?: "sender" | "receiver" };

/** What the rows draw with (one object while what they show stays the same, so rows can be memoised). */
type RowCtx = {
  titles: Record<DiffStatus, string>;
  card: (c: DiffCell, side: "sender" | "receiver", opts?: CardOptions) => React.ReactNode;
  cell: (c: DiffCell | null, side: "sender" | "receiver", extra?: React.ReactNode, clamp?: number) => React.ReactNode;
  glyph: (s: DiffStatus) => React.ReactNode;
  sourceLinks: (links: string[]) => React.ReactNode;
  /** The sender's name. */
  from: string;
};

/** One row of the split view: carried (both sides, one line on the right), transformed (its sources), or a change. */
const DiffRowView = memo(function DiffRowView({ row: r, ctx }: { row: DiffRow; ctx: RowCtx }) {
  const { cell, glyph, sourceLinks } = ctx;
  if (r.kind === "carried") {
    return (
      <div className="diff-row row-carried" data-testid="diff-row" data-kind="carried">
        {cell(r.left, "sender")}
        {glyph("carried")}
        <div className="diff-carried-right">{cell(r.right, "receiver", undefined, 1)}</div>
      </div>
    );
  }
  if (r.kind === "transformed") {
    return (
      <div className="diff-row row-transformed" data-testid="diff-row" data-kind="transformed">
        <div className="diff-sources">{r.left.length ? r.left.map((c) => <div key={c.item.id}>{cell(c, "sender")}</div>) : <div className="diff-empty" />}</div>
        {glyph("transformed")}
        {cell(r.right, "receiver", sourceLinks(r.links))}
      </div>
    );
  }
  return (
    <div className={`diff-row row-change${r.left ? ` has-${r.left.status}` : ""}`} data-testid="diff-row" data-kind="change">
      {cell(r.left, "sender")}
      <span className="diff-glyph-pair">
        {r.left && glyph(r.left.status)}
        {r.right && glyph(r.right.status)}
      </span>
      {cell(r.right, "receiver")}
    </div>
  );
});

/** One line of the unified view: its mark, the item, and for a transformed one the sender items it came from. */
const DiffLineView = memo(function DiffLineView({ line: l, ctx }: { line: UnifiedLine; ctx: RowCtx }) {
  const { card, sourceLinks, titles, from } = ctx;
  const side = l.side === "receiver" ? "receiver" : "sender";
  return (
    <div className={`diff-uline u-${l.status}`} data-testid="diff-line" data-mark={l.mark} data-status={l.status} data-side={l.side}>
      <span className={`diff-umark g-${l.status}`} title={titles[l.status]} role="img" aria-label={l.status}>
        {l.mark}
      </span>
      <div className="diff-ubody">
        {l.sources.length > 0 && (
          <div className="diff-usources">
            <span className="muted small">from {from}'s</span>
            {l.sources.map((c) => card(c, "sender", { compact: true, clamp: 1 }))}
          </div>
        )}
        {card(l.cell, side, { extra: l.status === "transformed" ? sourceLinks(l.links) : undefined, dataSide: side })}
      </div>
    </div>
  );
});

export function DiffView({
  view,
  lookups,
  defaultMode,
  testId = "transfer-diff",
  suspects,
}: {
  view: TransferView;
  lookups: AgentLookups;
  /** This transfer's suspects by item id (the Suspects tab): marked "suspect" in their confidence's colour. */
  suspects?: ReadonlyMap<string, Pick<Suspect, "confidence" | "loss" | "evidence">>;
  /** Start in this mode and do not remember changes (the compare dialog); else the user's last choice. */
  defaultMode?: DiffMode;
  testId?: string;
}) {
  const { palette, agentName } = lookups;
  const t = view.transfer;
  const layout = useMemo(() => layoutDiff(view), [view]);
  const notSent = notSentStatus(t.kind);
  const from = agentName(t.from);
  const to = agentName(t.to);
  const [filter, setFilter] = useState<DiffStatus | null>(null);
  const [mode, setModeState] = useState<DiffMode>(() => defaultMode ?? loadMode());
  const [split, setSplitState] = useState<number>(() => loadSplit());
  const [expandAll, setExpandAll] = useState(false);
  const [epoch, setEpoch] = useState(0);
  const flash = useDebugger((s) => s.flash);
  const flashItem = useDebugger((s) => s.flashItem);
  const byId = useMemo(() => new Map(view.items.map((i) => [i.id, i])), [view.items]);
  const lookup = useCallback((id: string) => byId.get(id), [byId]);
  const rows = useMemo(() => filterRows(layout.rows, filter), [layout, filter]);
  // The unified column is laid out only when shown (at 10,000 items it is not free).
  const lines = useMemo(() => (mode === "unified" ? unifiedLines(rows) : []), [rows, mode]);
  const senderTokens = useMemo(() => contextTokens(t.sender.map((id) => byId.get(id)).filter((i): i is Item => !!i)), [t.sender, byId]);
  const receiverTokens = useMemo(() => contextTokens(t.receiver.map((id) => byId.get(id)).filter((i): i is Item => !!i)), [t.receiver, byId]);
  const lostFacts = useMemo(() => new Set(t.facts.filter((f) => f.status === "lost").map((f) => f.id)), [t.facts]);
  const keptFacts = useMemo(
    () => new Set(t.kind === "delegation" ? t.facts.filter((f) => f.status === "carried" || f.status === "transformed").map((f) => f.id) : []),
    [t.facts, t.kind],
  );
  // An item flashed before the diff opened (a suspect picked in the Suspects tab) is scrolled to;
  // else the first pinned fact lost here, which a short window would otherwise show cut off.
  const [scrollTo, setScrollTo] = useState<{ index: number; seq: number } | null>(() => {
    const target =
      flash?.id ??
      t.sender.find((id) => {
        const item = byId.get(id);
        return item?.kind === "pinned_fact" && !!item.fact && lostFacts.has(item.fact);
      });
    if (!target) return null;
    const r = layout.rows[layout.rowOfSender.get(target) ?? -1];
    const i = mode === "unified" ? (lineOfSender(lines).get(target) ?? -1) : r ? rows.indexOf(r) : -1;
    return i >= 0 ? { index: i, seq: ++scrollSeq } : null;
  });
  const rootRef = useRef<HTMLDivElement>(null);
  const drag = useRef<{ x: number; split: number; width: number } | null>(null);

  const setMode = (m: DiffMode) => {
    setModeState(m);
    if (!defaultMode) saveMode(m);
  };
  const setSplit = (v: number) => {
    const c = clampSplit(v);
    setSplitState(c);
    saveSplit(c);
  };
  const toggleExpand = () => {
    setExpandAll(!expandAll);
    setEpoch(epoch + 1);
  };

  const follow = (id: string) => {
    flashItem(id);
    // the source may be hidden by a filter: show everything, then find it
    const all = filter ? layout.rows : rows;
    if (filter) setFilter(null);
    if (mode === "unified") {
      const i = lineOfSender(unifiedLines(all)).get(id);
      if (i !== undefined) setScrollTo({ index: i, seq: ++scrollSeq });
      return;
    }
    const r = layout.rows[layout.rowOfSender.get(id) ?? -1];
    const i = r ? all.indexOf(r) : -1;
    if (i >= 0) setScrollTo({ index: i, seq: ++scrollSeq });
  };

  // What every row draws with, made once per change of what it shows: a scroll renders only the
  // rows that come into view, and dragging the split renders none (the widths are CSS variables).
  const followRef = useRef(follow);
  useLayoutEffect(() => {
    followRef.current = follow;
  });
  const flashId = flash?.id ?? null;
  const ctx = useMemo<RowCtx>(() => {
    const titles: Record<DiffStatus, string> = {
      carried: `carried: the same item on both sides`,
      transformed: `transformed: ${to} gets it in another form (derived from the sender's items)`,
      dropped: `dropped: ${to} gets it in no form`,
      withheld: `withheld by the owner: ${from} keeps it in its own context; a delegation sends ${to} only the tool input`,
      added: `added: new on ${to}'s side`,
    };
    const tagsFor = (c: DiffCell, side: "sender" | "receiver"): ItemTag[] => {
      const tags: ItemTag[] = [];
      if (side !== "sender") return tags;
      const fact = c.item.kind === "pinned_fact" ? c.item.fact : null;
      const lost = !!fact && lostFacts.has(fact);
      if (c.status === "dropped") {
        tags.push(lost ? { text: "dropped · fact lost", tone: "lost", title: `${titles.dropped}: the pinned fact ${fact} is lost here` } : { text: "dropped", tone: "dropped", title: titles.dropped });
      } else if (c.status === "withheld") {
        tags.push({ text: "withheld", tone: "withheld", title: titles.withheld });
      } else if (lost) {
        tags.push({ text: "fact lost", tone: "lost", title: `The pinned fact ${fact} is lost at this transfer` });
      }
      if (fact && keptFacts.has(fact)) tags.push({ text: `kept by ${from}`, tone: "withheld", title: `${from} stays the owner and still holds ${fact}` });
      const suspect = suspects?.get(c.item.id);
      if (suspect) {
        const why = suspect.evidence.map((e) => e.text).join("; ");
        tags.push({ text: "suspect", tone: `suspect-${suspect.confidence}`, title: `A suspect (${suspect.confidence} confidence, ${suspect.loss}): ${why || "see the Suspects tab"}` });
      }
      return tags;
    };
    const card: RowCtx["card"] = (c, side, opts = {}) => (
      <ItemCard
        key={`${c.item.id}:${epoch}`}
        item={c.item}
        color={palette(c.item.agent)}
        agent={agentName(c.item.agent)}
        title={provenance(c.item, agentName, lookup)}
        testId="diff-item"
        status={c.status}
        side={opts.dataSide ?? side}
        flash={flashId === c.item.id}
        extra={opts.extra}
        clamp={opts.clamp ?? (side === "receiver" ? 5 : c.status === "dropped" && c.item.kind !== "pinned_fact" ? 2 : 3)}
        compact={opts.compact}
        defaultOpen={expandAll}
        tags={tagsFor(c, side)}
      />
    );
    const cell: RowCtx["cell"] = (c, side, extra, clamp) =>
      c ? card(c, side, { extra, clamp, compact: clamp === 1 }) : <div className="diff-empty" aria-hidden="true" />;
    const glyph: RowCtx["glyph"] = (st) => (
      <span className={`diff-glyph g-${st}`} title={titles[st]} role="img" aria-label={st}>
        {GLYPH[st]}
      </span>
    );
    const sourceLinks: RowCtx["sourceLinks"] = (links) => (
      <div className="source-links">
        <span className="muted">derived from</span>
        {links.length === 0 && <span className="muted">no item of the sender</span>}
        {links.map((id) => {
          const src = byId.get(id);
          return (
            <button key={id} type="button" className="source-link" data-testid="source-link" data-source={id} onClick={() => followRef.current(id)}>
              {src ? `${src.kind.replace("_", " ")}${src.name ? ` ${src.name}` : ""}` : id.slice(0, 8)}
            </button>
          );
        })}
      </div>
    );
    return { titles, card, cell, glyph, sourceLinks, from };
  }, [to, from, lostFacts, keptFacts, suspects, epoch, palette, agentName, lookup, flashId, expandAll, byId]);
  const STATUS_TITLE = ctx.titles;

  const renderRow = useCallback((i: number) => <DiffRowView row={rows[i] as DiffRow} ctx={ctx} />, [rows, ctx]);
  const renderLine = useCallback((i: number) => <DiffLineView line={lines[i] as UnifiedLine} ctx={ctx} />, [lines, ctx]);

  const onSplitKey = (e: React.KeyboardEvent) => {
    const moves: Record<string, number> = { ArrowLeft: -5, ArrowRight: 5 };
    if (e.key in moves) setSplit(split + (moves[e.key] as number));
    else if (e.key === "Home") setSplit(SPLIT_MIN);
    else if (e.key === "End") setSplit(SPLIT_MAX);
    else if (e.key === "Enter") setSplit(SPLIT_DEFAULT);
    else return;
    e.preventDefault();
    e.stopPropagation();
  };

  const chips: DiffStatus[] = ["carried", "transformed", notSent, "added"];
  const count = mode === "unified" ? lines.length : rows.length;
  return (
    <div
      className={`diff-view is-${mode}`}
      ref={rootRef}
      style={{ "--diff-left": `${split}fr`, "--diff-right": `${100 - split}fr` } as React.CSSProperties}
      data-testid={testId}
      data-from={t.from}
      data-to={t.to}
      data-kind={t.kind}
      data-index={view.index}
      data-mode={mode}
      data-filter={filter ?? undefined}
    >
      <div className="diff-head">
        <span className={`kind-chip kind-${t.kind}`}>
          {t.kind === "handoff" ? <ArrowRightLeft size={12} /> : <CornerDownRight size={12} />}
          {t.kind}
        </span>
        <span className="diff-route">
          <strong style={{ color: palette(t.from) }} title={from}>
            {from}
          </strong>
          <ArrowRight size={13} className="muted" />
          <strong style={{ color: palette(t.to) }} title={to}>
            {to}
          </strong>
        </span>
        <span className="policy-chip mono" data-testid="diff-policy" title="The context policy that built the receiver's input">
          {t.policy}
        </span>
        <span className="diff-index muted" title={`transfer T${view.index} at step ${t.step}${t.edge ? ` over the edge ${t.edge}` : ": an escalation by a guard"}`}>
          T{view.index}
          {t.edge ? "" : " · escalation by a guard"}
        </span>
        <div className="diff-tools">
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            data-testid="diff-expand-all"
            aria-pressed={expandAll}
            aria-label={expandAll ? "Collapse all" : "Expand all"}
            onClick={toggleExpand}
            title={expandAll ? "Clamp every item to a few lines" : "Show every item's whole text"}
          >
            {expandAll ? <ChevronsDownUp size={13} /> : <ChevronsUpDown size={13} />}
            <span className="tool-label">{expandAll ? "Collapse all" : "Expand all"}</span>
          </button>
          <div className="segmented diff-seg" role="group" aria-label="Diff layout">
            <button type="button" className={mode === "split" ? "is-active" : undefined} aria-pressed={mode === "split"} data-testid="diff-mode-split" aria-label="Split" onClick={() => setMode("split")} title="Sender and receiver side by side">
              <Columns2 size={13} /> <span className="tool-label">Split</span>
            </button>
            <button type="button" className={mode === "unified" ? "is-active" : undefined} aria-pressed={mode === "unified"} data-testid="diff-mode-unified" aria-label="Unified" onClick={() => setMode("unified")} title="One column, marked like a unified diff">
              <Rows3 size={13} /> <span className="tool-label">Unified</span>
            </button>
          </div>
        </div>
      </div>
      <div className="diff-summary">
        <div className="diff-filters" role="group" aria-label="Show only the items that were">
          {chips.map((s) => (
            <button
              key={s}
              type="button"
              className={`count-chip c-${s}`}
              data-testid="diff-filter"
              data-status={s}
              aria-pressed={filter === s}
              disabled={layout.counts[s] === 0 && filter !== s}
              onClick={() => setFilter(filter === s ? null : s)}
              title={`${STATUS_TITLE[s]}. Click to show only these; click again for all.`}
            >
              {layout.counts[s]} {s}
            </button>
          ))}
          {filter && (
            <button type="button" className="chip-clear" data-testid="diff-filter-clear" onClick={() => setFilter(null)}>
              <X size={11} /> show all
            </button>
          )}
        </div>
        {t.facts.length > 0 && <span className="summary-sep" />}
        {t.facts.map((f) => (
          <span key={f.id} className={`fact-check fact-check-${f.status}`} data-testid="diff-fact" data-fact={f.id} data-status={f.status}>
            <Pin size={11} />
            <span className="mono">{f.id}</span>
            <FactStatusPill status={f.status} />
            {keptFacts.has(f.id) && (
              <span className="fact-kept" title={`A delegation leaves ownership with ${from}: it still holds the fact`}>
                kept by {from}
              </span>
            )}
          </span>
        ))}
      </div>
      {mode === "split" ? (
        <div className="diff-cols">
          <div className="diff-col-head">
            {t.kind === "delegation" ? "Caller keeps" : "Sender"}{" "}
            <span className="muted">
              — <span title={from}>{from}</span> · {t.sender.length} items · ~{formatTokens(senderTokens)} tok
            </span>
          </div>
          <div
            className="diff-split"
            role="separator"
            aria-orientation="vertical"
            aria-label="Resize the sender and receiver columns"
            aria-valuenow={split}
            aria-valuemin={SPLIT_MIN}
            aria-valuemax={SPLIT_MAX}
            aria-valuetext={`sender ${split}%, receiver ${100 - split}%`}
            tabIndex={0}
            data-testid="diff-split"
            title="Drag (or ←/→) to share the width; Enter resets"
            onKeyDown={onSplitKey}
            onDoubleClick={() => setSplit(SPLIT_DEFAULT)}
            onPointerDown={(e) => {
              const width = rootRef.current?.querySelector(".diff-cols")?.clientWidth ?? 600;
              drag.current = { x: e.clientX, split, width };
              (e.currentTarget as HTMLElement).setPointerCapture?.(e.pointerId);
            }}
            onPointerMove={(e) => {
              const d = drag.current;
              if (d) setSplitState(clampSplit(d.split + ((e.clientX - d.x) / Math.max(1, d.width - 36)) * 100));
            }}
            onPointerUp={() => {
              if (drag.current) saveSplit(split);
              drag.current = null;
            }}
          >
            <GripVertical size={13} />
          </div>
          <div className="diff-col-head">
            {t.kind === "delegation" ? "Delegate gets" : "Receiver"}{" "}
            <span className="muted">
              — <span title={to}>{to}</span> · {t.receiver.length} items · ~{formatTokens(receiverTokens)} tok
            </span>
          </div>
        </div>
      ) : (
        <div className="diff-cols is-unified">
          <div className="diff-col-head">
            Unified <span className="muted">— {from} ({t.sender.length} items) → {to} ({t.receiver.length} items)</span>
          </div>
          <div className="diff-legend muted" data-testid="diff-legend">
            {chips.map((s) => (
              <span key={s}>
                <b className={`diff-umark-mini g-${s}`}>{UNIFIED_MARK[s]}</b> {s}
              </span>
            ))}
          </div>
        </div>
      )}
      {count === 0 ? (
        <div className="pane-empty" data-testid="diff-empty">
          {filter ? `No ${filter} items at this transfer.` : "Neither side has any item."}
        </div>
      ) : (
        <MeasuredList
          key={mode}
          className="diff-rows"
          count={count}
          render={mode === "unified" ? renderLine : renderRow}
          estimate={72}
          scrollTo={scrollTo}
          testId="diff-rows"
        />
      )}
    </div>
  );
}

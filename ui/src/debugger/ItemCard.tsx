// One context item: coloured by the agent that created it, its kind, its text (wrapped to a few
// lines, with a visible "more" to read it whole), its token estimate, and its provenance on hover
// (agent, turn, derived from).
import { ChevronDown, ChevronUp, Link2 } from "lucide-react";
import { memo, useLayoutEffect, useRef, useState, type ReactNode } from "react";
import { ItemKindBadge } from "../run/badges";
import { itemText, itemTokens, type Item } from "../run/types";

/** A short marker beside the item's kind: `lost` (red, e.g. "fact lost"), `dropped` (grey), `withheld` (blue-grey), a suspect in its confidence's colour (styles/suspects.css). */
export type ItemTag = { text: string; tone: "lost" | "dropped" | "withheld" | "suspect-high" | "suspect-medium" | "suspect-low"; title?: string };

export const ItemCard = memo(function ItemCard({
  item,
  color,
  agent,
  title,
  testId = "context-item",
  status,
  side,
  extra,
  flash,
  clamp = 3,
  compact = false,
  defaultOpen = false,
  tags,
}: {
  item: Item;
  color: string;
  agent: string;
  /** Provenance text (hover). */
  title: string;
  testId?: string;
  status?: string;
  side?: "sender" | "receiver";
  extra?: ReactNode;
  flash?: boolean;
  /** Lines of text shown before "more". */
  clamp?: number;
  /** One line (kind, agent, text); click to see it whole. */
  compact?: boolean;
  /** Start with the whole text shown (the diff's "Expand all"). */
  defaultOpen?: boolean;
  tags?: readonly ItemTag[];
}) {
  const [open, setOpen] = useState(defaultOpen);
  const [overflows, setOverflows] = useState(false);
  const textRef = useRef<HTMLDivElement>(null);
  const text = itemText(item);
  const mono = item.kind === "tool_call" || item.kind === "transfer_call" || item.kind === "tool_result" || item.kind === "transfer_output";
  // Before layout (or where there is none, as in tests) a long text is taken to overflow.
  const long = text.length > 140 || text.includes("\n");

  useLayoutEffect(() => {
    const el = textRef.current;
    if (!el || open) return;
    const measure = () =>
      setOverflows(el.clientHeight === 0 ? long : compact ? el.scrollWidth > el.clientWidth + 1 : el.scrollHeight > el.clientHeight + 1);
    measure();
    if (typeof ResizeObserver === "undefined") return;
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [open, text, clamp, long, compact]);

  const cls = `item-card${compact && !open ? " is-compact" : ""}${status ? ` diff-${status}` : ""}${flash ? " is-flash" : ""}`;
  const tagEls = tags?.map((t) => (
    <span key={t.text} className={`item-tag tag-${t.tone}`} title={t.title}>
      {t.text}
    </span>
  ));
  const agentEl = (
    <span className="item-agent" style={{ color }} title={agent}>
      {agent}
    </span>
  );
  const canToggle = open || overflows;
  const toggle = canToggle ? (
    <button
      type="button"
      className="item-more"
      data-testid="item-expand"
      aria-expanded={open}
      aria-label={open ? "less: show less of this item" : "more: show all of this item"}
      onClick={(e) => {
        e.stopPropagation();
        setOpen(!open);
      }}
    >
      {open ? <ChevronUp size={12} /> : <ChevronDown size={12} />}
      <span className="more-label">{open ? "less" : "more"}</span>
    </button>
  ) : null;

  if (compact && !open) {
    return (
      <div
        className={cls}
        style={{ "--agent": color } as React.CSSProperties}
        data-testid={testId}
        data-kind={item.kind}
        data-item={item.id}
        data-agent={item.agent}
        data-status={status}
        data-side={side}
        title={title}
        onClick={() => overflows && setOpen(true)}
      >
        <ItemKindBadge kind={item.kind} />
        {agentEl}
        <div ref={textRef} className={`item-line${mono ? " mono" : ""}`}>
          {text}
        </div>
        {tagEls}
        <span className="item-tokens">~{itemTokens(item)} tok</span>
        {toggle}
      </div>
    );
  }
  return (
    <div
      className={cls}
      style={{ "--agent": color } as React.CSSProperties}
      data-testid={testId}
      data-kind={item.kind}
      data-item={item.id}
      data-agent={item.agent}
      data-status={status}
      data-side={side}
      data-open={open || undefined}
      title={title}
    >
      <div className="item-head">
        <ItemKindBadge kind={item.kind} />
        {agentEl}
        <span className="item-turn">turn {item.turn}</span>
        {item.derived_from && item.derived_from.length > 0 && (
          <span className="item-derived" title="Derived from other items (hover the card for its sources)">
            <Link2 size={11} />
          </span>
        )}
        {tagEls}
        <span className="item-tokens">~{itemTokens(item)} tok</span>
      </div>
      {text && (
        <div className={`item-body${open ? " is-open" : ""}`}>
          <div
            ref={textRef}
            className={`item-text${mono ? " mono" : ""}${open ? " is-open" : ""}${canToggle ? " can-toggle" : ""}`}
            style={open ? undefined : { WebkitLineClamp: clamp }}
            data-testid="item-text"
            onClick={() => canToggle && setOpen(!open)}
          >
            {text}
          </div>
          {toggle}
        </div>
      )}
      {extra}
    </div>
  );
});

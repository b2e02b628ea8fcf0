// One context item: coloured by the agent that created it, its kind, its text (clamped; click
// to expand), its token estimate, and its provenance on hover (agent, turn, derived from).
import { Link2 } from "lucide-react";
import { memo, useState, type ReactNode } from "react";
import { ItemKindBadge } from "../run/badges";
import { itemText, itemTokens, type Item } from "../run/types";

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
  tag,
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
  clamp?: number;
  /** One line (kind, agent, text); click to see it whole. */
  compact?: boolean;
  /** A short red marker (e.g. "fact lost"). */
  tag?: string;
}) {
  const [open, setOpen] = useState(false);
  const text = itemText(item);
  const mono = item.kind === "tool_call" || item.kind === "transfer_call" || item.kind === "tool_result" || item.kind === "transfer_output";
  const long = text.length > 140 || text.includes("\n");
  if (compact && !open) {
    return (
      <button
        type="button"
        className={`item-card is-compact${status ? ` diff-${status}` : ""}${flash ? " is-flash" : ""}`}
        style={{ "--agent": color } as React.CSSProperties}
        data-testid={testId}
        data-kind={item.kind}
        data-item={item.id}
        data-agent={item.agent}
        data-status={status}
        data-side={side}
        title={title}
        onClick={() => setOpen(true)}
      >
        <ItemKindBadge kind={item.kind} />
        <span className="item-agent" style={{ color }}>
          {agent}
        </span>
        <span className={`item-line${mono ? " mono" : ""}`}>{text}</span>
        {tag && <span className="item-tag">{tag}</span>}
        <span className="item-tokens">~{itemTokens(item)} tok</span>
      </button>
    );
  }
  return (
    <div
      className={`item-card${status ? ` diff-${status}` : ""}${flash ? " is-flash" : ""}`}
      style={{ "--agent": color } as React.CSSProperties}
      data-testid={testId}
      data-kind={item.kind}
      data-item={item.id}
      data-agent={item.agent}
      data-status={status}
      data-side={side}
      title={title}
    >
      <div className="item-head">
        <ItemKindBadge kind={item.kind} />
        <span className="item-agent" style={{ color }}>
          {agent}
        </span>
        <span className="item-turn">turn {item.turn}</span>
        {item.derived_from && item.derived_from.length > 0 && (
          <span className="item-derived" title="Derived from other items (hover the card for its sources)">
            <Link2 size={11} />
          </span>
        )}
        {tag && <span className="item-tag">{tag}</span>}
        <span className="item-tokens">~{itemTokens(item)} tok</span>
      </div>
      {text && (
        <button
          type="button"
          className={`item-text${mono ? " mono" : ""}${open ? " is-open" : ""}`}
          style={open ? undefined : { WebkitLineClamp: clamp }}
          onClick={() => long && setOpen(!open)}
          aria-expanded={long ? open : undefined}
          tabIndex={long ? 0 : -1}
        >
          {text}
        </button>
      )}
      {extra}
    </div>
  );
});

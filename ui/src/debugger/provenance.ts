// The hover text of an item: who made it, when, and what it was derived from.
import { ITEM_LABELS } from "../run/format";
import { itemTokens, type Item } from "../run/types";

export type ItemLookup = (id: string) => Item | undefined;

export function provenance(item: Item, agentName: (id: string) => string, lookup: ItemLookup): string {
  const lines = [
    `${ITEM_LABELS[item.kind]} · created by ${item.agent === "user" ? "the user" : agentName(item.agent)} · turn ${item.turn}`,
  ];
  if (item.fact) lines.push(`pinned fact: ${item.fact}`);
  for (const d of item.derived_from ?? []) {
    const src = lookup(d);
    lines.push(
      src
        ? `derived from: ${ITEM_LABELS[src.kind]}${src.name ? ` ${src.name}` : ""} (${src.agent === "user" ? "user" : agentName(src.agent)}, turn ${src.turn})`
        : `derived from: item ${d.slice(0, 8)}`,
    );
  }
  lines.push(`id ${item.id.slice(0, 12)} · ~${itemTokens(item)} tokens`);
  return lines.join("\n");
}


// Lines a transfer's diff up for a side-by-side view: the sender's context on the left, the
// receiver's input on the right. Carried items share a row; a transformed item sits next to its
// sources; between those anchors, dropped (left only) and added (right only) items are zipped
// into rows, as a side-by-side text diff pairs deletions with insertions. At a delegation the
// caller keeps ownership and its whole context, so what did not cross is withheld, not dropped.
// Also: filtering rows by status, and the same rows as one unified column.
import type { EdgeKind, Item, TransferView } from "./types";

/**
 * An item's fate at a transfer. `withheld` is the UI's word for a delegation's `dropped`: the
 * caller keeps it (it stays in the caller's context) and the delegate never sees it.
 */
export type DiffStatus = "carried" | "transformed" | "dropped" | "withheld" | "added";

export const DIFF_STATUSES: readonly DiffStatus[] = ["carried", "transformed", "dropped", "withheld", "added"];

/** What a sender item that did not cross is called at a transfer of this kind. */
export function notSentStatus(kind: EdgeKind): "dropped" | "withheld" {
  return kind === "delegation" ? "withheld" : "dropped";
}

export type DiffCell = { item: Item; status: DiffStatus };

export type DiffRow =
  | { kind: "carried"; key: string; left: DiffCell; right: DiffCell }
  | {
      kind: "transformed";
      key: string;
      right: DiffCell;
      /** Sources shown in this row (sources already shown in an earlier row are in `links` only). */
      left: DiffCell[];
      /** Every sender item the receiver item derives from, in sender order. */
      links: string[];
    }
  | { kind: "change"; key: string; left: DiffCell | null; right: DiffCell | null };

export type DiffLayout = {
  rows: DiffRow[];
  /** Sender item id → index of the row that shows it (for source links). */
  rowOfSender: Map<string, number>;
  counts: Record<DiffStatus, number>;
};

/** The sender items `id` derives from, following lineage through items outside the sender. */
export function sourcesInSender(id: string, items: Map<string, Item>, sender: Set<string>): string[] {
  const start = items.get(id);
  if (!start?.derived_from?.length) return [];
  const out = new Set<string>();
  const seen = new Set<string>();
  const stack = [...start.derived_from];
  while (stack.length) {
    const x = stack.pop() as string;
    if (seen.has(x)) continue;
    seen.add(x);
    if (sender.has(x)) {
      out.add(x);
      continue;
    }
    const it = items.get(x);
    if (it?.derived_from) stack.push(...it.derived_from);
  }
  return [...out];
}

function placeholder(id: string): Item {
  return { id, kind: "user_message", text: "(item not in the store)", agent: "?", turn: 0 };
}

export function layoutDiff(view: TransferView): DiffLayout {
  const t = view.transfer;
  const items = new Map(view.items.map((i) => [i.id, i]));
  const get = (id: string) => items.get(id) ?? placeholder(id);
  const senderIndex = new Map(t.sender.map((id, i) => [id, i]));
  const senderSet = new Set(t.sender);
  const carried = new Set(t.carried);
  const transformed = new Set(t.transformed);
  const dropped = new Set(t.dropped);

  const rows: DiffRow[] = [];
  const rowOfSender = new Map<string, number>();
  const shown = new Set<string>(); // sender items placed in a row
  let pendingLeft: DiffCell[] = [];
  let pendingRight: DiffCell[] = [];
  let si = 0;

  const notSent = notSentStatus(t.kind);
  const leftStatus = (id: string): DiffStatus => (carried.has(id) ? "carried" : dropped.has(id) ? notSent : "transformed");

  const flush = () => {
    const n = Math.max(pendingLeft.length, pendingRight.length);
    for (let i = 0; i < n; i++) {
      const left = pendingLeft[i] ?? null;
      const right = pendingRight[i] ?? null;
      if (left) rowOfSender.set(left.item.id, rows.length);
      rows.push({ kind: "change", key: `c${rows.length}:${left?.item.id ?? ""}:${right?.item.id ?? ""}`, left, right });
    }
    pendingLeft = [];
    pendingRight = [];
  };
  /** Queues sender items before index `k` that no row shows yet. */
  const takeSenderUpTo = (k: number, skip: Set<string> = new Set()) => {
    for (; si < k; si++) {
      const id = t.sender[si] as string;
      if (shown.has(id) || skip.has(id)) continue;
      shown.add(id);
      pendingLeft.push({ item: get(id), status: leftStatus(id) });
    }
  };

  for (const rid of t.receiver) {
    if (carried.has(rid) && senderIndex.has(rid)) {
      const k = senderIndex.get(rid) as number;
      if (k >= si) takeSenderUpTo(k);
      flush();
      si = Math.max(si, k + 1);
      shown.add(rid);
      rowOfSender.set(rid, rows.length);
      const cell: DiffCell = { item: get(rid), status: "carried" };
      rows.push({ kind: "carried", key: `k:${rid}`, left: cell, right: cell });
    } else if (transformed.has(rid)) {
      const links = sourcesInSender(rid, items, senderSet).sort((a, b) => (senderIndex.get(a) ?? 0) - (senderIndex.get(b) ?? 0));
      const fresh = links.filter((id) => !shown.has(id));
      if (fresh.length) takeSenderUpTo(senderIndex.get(fresh[0] as string) as number, new Set(links));
      flush();
      const at = rows.length;
      for (const id of fresh) {
        shown.add(id);
        rowOfSender.set(id, at);
      }
      rows.push({
        kind: "transformed",
        key: `t:${rid}`,
        right: { item: get(rid), status: "transformed" },
        left: fresh.map((id) => ({ item: get(id), status: "transformed" })),
        links,
      });
    } else {
      pendingRight.push({ item: get(rid), status: carried.has(rid) ? "carried" : "added" });
    }
  }
  takeSenderUpTo(t.sender.length);
  flush();

  const counts: Record<DiffStatus, number> = {
    carried: t.carried.length,
    transformed: t.transformed.length,
    dropped: notSent === "dropped" ? t.dropped.length : 0,
    withheld: notSent === "withheld" ? t.dropped.length : 0,
    added: t.added.length,
  };
  return { rows, rowOfSender, counts };
}

/**
 * The rows that show an item of status `only` (all rows when null). A row pairing a drop with
 * an addition keeps only the side that matches, so a filtered list shows one kind of item.
 */
export function filterRows(rows: readonly DiffRow[], only: DiffStatus | null): DiffRow[] {
  if (!only) return [...rows];
  const out: DiffRow[] = [];
  for (const r of rows) {
    if (r.kind === "carried") {
      if (only === "carried") out.push(r);
    } else if (r.kind === "transformed") {
      if (only === "transformed") out.push(r);
    } else {
      const left = r.left?.status === only ? r.left : null;
      const right = r.right?.status === only ? r.right : null;
      if (left || right) out.push(left === r.left && right === r.right ? r : { ...r, left, right });
    }
  }
  return out;
}

/** A unified diff's line marks: − not received (dropped), · withheld by the caller, + added, = carried, → transformed. */
export const UNIFIED_MARK: Record<DiffStatus, string> = {
  dropped: "−",
  withheld: "·",
  added: "+",
  carried: "=",
  transformed: "→",
};

export type UnifiedLine = {
  key: string;
  status: DiffStatus;
  mark: string;
  /** The item the line shows: the sender's for − and ·, the receiver's for + and →, the shared one for =. */
  cell: DiffCell;
  side: "sender" | "receiver" | "both";
  /** For a transformed line: the sender items first shown with it (the others are in `links` only). */
  sources: DiffCell[];
  links: string[];
};

/**
 * The side-by-side rows as one column, the way a unified diff reads: between carried anchors,
 * every item the receiver did not get (−, or · at a delegation), then every item it got new (+);
 * a carried item once (=); a transformed item (→) with the sender items it came from.
 */
export function unifiedLines(rows: readonly DiffRow[]): UnifiedLine[] {
  const out: UnifiedLine[] = [];
  let gone: DiffCell[] = [];
  let fresh: DiffCell[] = [];
  const line = (cell: DiffCell, side: UnifiedLine["side"], extra: Partial<UnifiedLine> = {}): UnifiedLine => ({
    key: `${side[0]}:${cell.item.id}:${out.length}`,
    status: cell.status,
    mark: UNIFIED_MARK[cell.status],
    cell,
    side,
    sources: [],
    links: [],
    ...extra,
  });
  const flush = () => {
    for (const c of gone) out.push(line(c, "sender"));
    for (const c of fresh) out.push(line(c, "receiver"));
    gone = [];
    fresh = [];
  };
  for (const r of rows) {
    if (r.kind === "change") {
      if (r.left) gone.push(r.left);
      if (r.right) fresh.push(r.right);
      continue;
    }
    flush();
    if (r.kind === "carried") out.push(line(r.right, "both"));
    else out.push(line(r.right, "receiver", { sources: r.left, links: r.links }));
  }
  flush();
  return out;
}

/** Sender item id → index of the unified line that shows it (as itself or as a source). */
export function lineOfSender(lines: readonly UnifiedLine[]): Map<string, number> {
  const m = new Map<string, number>();
  lines.forEach((l, i) => {
    if (l.side !== "receiver") m.set(l.cell.item.id, i);
    for (const s of l.sources) m.set(s.item.id, i);
  });
  return m;
}

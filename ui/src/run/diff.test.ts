import { describe, expect, it } from "vitest";
import { RECORDED_RUNS } from "../platform/mock-runs";
import { filterRows, layoutDiff, lineOfSender, sourcesInSender, unifiedLines, type DiffRow, type UnifiedLine } from "./diff";
import type { Item, Transfer, TransferView } from "./types";

function recordedView(run: string, index: number): TransferView {
  const r = RECORDED_RUNS[run]!;
  const transfer = r.transfers[index]!;
  const ids = new Set([...transfer.sender, ...transfer.receiver]);
  for (const id of [...ids]) for (const d of r.items[id]?.derived_from ?? []) ids.add(d);
  return { index, transfer, items: [...ids].map((id) => r.items[id]!).filter(Boolean) };
}

const item = (id: string, extra: Partial<Item> = {}): Item => ({ id, kind: "user_message", text: id, agent: "a", turn: 0, ...extra });

function view(t: Partial<Transfer> & Pick<Transfer, "sender" | "receiver">, items: Item[]): TransferView {
  return {
    index: 0,
    transfer: { step: 1, kind: "handoff", from: "a", to: "b", edge: "a->b", policy: "full", carried: [], transformed: [], dropped: [], added: [], facts: [], ...t },
    items,
  };
}

/** Rows as `left|right` strings of item ids (`-` for an empty side), for compact assertions. */
function shape(rows: DiffRow[]): string[] {
  return rows.map((r) => {
    if (r.kind === "carried") return `${r.left.item.id}=${r.right.item.id}`;
    if (r.kind === "transformed") return `${r.left.map((c) => c.item.id).join("+") || "-"}>${r.right.item.id}`;
    return `${r.left?.item.id ?? "-"}|${r.right?.item.id ?? "-"}`;
  });
}

describe("transfer diff layout", () => {
  it("lines ticket-reopen's resolution → verification handoff up: instructions swap, dropped history, the call beside its field message", () => {
    const v = recordedView("ticket-reopen", 1);
    const { rows, counts } = layoutDiff(v);
    expect(counts).toEqual({ carried: 0, transformed: 1, dropped: 12, withheld: 0, added: 1 });
    // first row pairs the dropped sender instructions with the receiver's added instructions
    const first = rows[0]!;
    expect(first.kind).toBe("change");
    if (first.kind !== "change") throw new Error();
    expect(first.left).toMatchObject({ status: "dropped", item: { kind: "instructions", agent: "resolution" } });
    expect(first.right).toMatchObject({ status: "added", item: { kind: "instructions", agent: "verification" } });
    // the transformed row shows the transfer call it came from, after the dropped history
    const t = rows.find((r) => r.kind === "transformed");
    if (!t || t.kind !== "transformed") throw new Error("no transformed row");
    expect(t.left.map((c) => c.item.kind)).toEqual(["transfer_call"]);
    expect(t.right.item.text).toContain("status: resolved");
    // every sender item appears exactly once, in sender order
    const lefts = rows.flatMap((r) => (r.kind === "transformed" ? r.left : r.kind === "carried" ? [r.left] : r.left ? [r.left] : [])).map((c) => c.item.id);
    expect(lefts).toEqual(v.transfer.sender);
    const dropped = rows.flatMap((r) => (r.kind === "change" && r.left ? [r.left] : [])).filter((c) => c.status === "dropped");
    expect(dropped.map((c) => c.item.kind)).toContain("pinned_fact");
    expect(dropped.map((c) => c.item.kind)).toContain("reasoning");
    expect(dropped).toHaveLength(12);
  });

  it("keeps carried items on one row and zips drops with additions between them", () => {
    const v = view(
      { sender: ["i1", "u", "r", "c"], receiver: ["i2", "u", "f", "c"], carried: ["u", "c"], dropped: ["i1", "r"], added: ["i2", "f"] },
      ["i1", "u", "r", "c", "i2", "f"].map((id) => item(id)),
    );
    expect(shape(layoutDiff(v).rows)).toEqual(["i1|i2", "u=u", "r|f", "c=c"]);
  });

  it("puts a summary next to all its sources, following lineage through items outside the sender", () => {
    const items = [
      item("x"),
      item("y"),
      item("z"),
      item("mid", { derived_from: ["x", "y"] }),
      item("sum", { kind: "user_message", derived_from: ["mid", "z"] }),
      item("ins", { kind: "instructions" }),
    ];
    const v = view({ sender: ["x", "y", "z"], receiver: ["ins", "sum"], transformed: ["sum"], added: ["ins"], policy: "nest_summary" }, items);
    const byId = new Map(items.map((i) => [i.id, i]));
    expect(sourcesInSender("sum", byId, new Set(["x", "y", "z"])).sort()).toEqual(["x", "y", "z"]);
    expect(shape(layoutDiff(v).rows)).toEqual(["-|ins", "x+y+z>sum"]);
  });

  it("shows a source shared by two transformed items once, and links it from both", () => {
    const items = [item("call"), item("f1", { derived_from: ["call"] }), item("f2", { derived_from: ["call"] })];
    const v = view({ sender: ["call"], receiver: ["f1", "f2"], transformed: ["f1", "f2"] }, items);
    const { rows, rowOfSender } = layoutDiff(v);
    expect(shape(rows)).toEqual(["call>f1", "->f2"]);
    const second = rows[1]!;
    expect(second.kind === "transformed" && second.links).toEqual(["call"]);
    expect(rowOfSender.get("call")).toBe(0);
  });

  it("handles a delegation: only the tool input crosses, derived from the delegation call", () => {
    const v = recordedView("ticket-supervisor", 1);
    const { rows, counts } = layoutDiff(v);
    expect(counts.transformed).toBe(1);
    const t = rows.find((r) => r.kind === "transformed");
    expect(t && t.kind === "transformed" && t.left[0]?.item.kind).toBe("transfer_call");
    expect(rows.filter((r) => r.kind === "change" && r.right?.status === "added")).toHaveLength(1);
  });

  it("survives an item the store did not name", () => {
    const v = view({ sender: ["gone"], receiver: [], dropped: ["gone"] }, []);
    const { rows } = layoutDiff(v);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.kind === "change" && rows[0]!.left?.item.text).toContain("not in the store");
  });
});

/** Unified lines as `mark id` strings (a transformed line lists its sources: `→ sum<x+y`). */
function ushape(lines: UnifiedLine[]): string[] {
  return lines.map((l) => `${l.mark} ${l.cell.item.id}${l.sources.length ? `<${l.sources.map((c) => c.item.id).join("+")}` : ""}`);
}

// i1|i2, u=u, r|f, c=c: instructions swapped, a carried message, a reply dropped for a new one.
const swap = () =>
  view(
    { sender: ["i1", "u", "r", "c"], receiver: ["i2", "u", "f", "c"], carried: ["u", "c"], dropped: ["i1", "r"], added: ["i2", "f"] },
    ["i1", "u", "r", "c", "i2", "f"].map((id) => item(id)),
  );

describe("delegation: what the caller keeps is withheld, not dropped", () => {
  it("ticket-supervisor's first delegation: the supervisor's instructions, pinned fact and the user's ticket stay with it", () => {
    // examples/ticket-supervisor.yaml: at its first call the supervisor sees its instructions, the
    // pinned fact it holds, the user's ticket, and its own call to triage; triage gets its own
    // instructions plus the tool input (derived from that call).
    const v = recordedView("ticket-supervisor", 0);
    expect(v.transfer.kind).toBe("delegation");
    const { rows, counts } = layoutDiff(v);
    expect(counts).toEqual({ carried: 0, transformed: 1, dropped: 0, withheld: 3, added: 1 });
    const left = rows.flatMap((r) => (r.kind === "change" && r.left ? [r.left] : []));
    expect(left.map((c) => [c.item.kind, c.status])).toEqual([
      ["instructions", "withheld"],
      ["pinned_fact", "withheld"],
      ["user_message", "withheld"],
    ]);
    // nothing of this transfer reads as dropped, and the fact check agrees: the owner still has it
    expect(rows.some((r) => r.kind === "change" && r.left?.status === "dropped")).toBe(false);
    expect(v.transfer.facts).toEqual([{ id: "resolved-meaning", status: "carried" }]);
  });

  it("a handoff's missing items stay dropped", () => {
    const { counts, rows } = layoutDiff(swap());
    expect(counts.dropped).toBe(2);
    expect(counts.withheld).toBe(0);
    expect(rows.filter((r) => r.kind === "change" && r.left).map((r) => r.kind === "change" && r.left?.status)).toEqual(["dropped", "dropped"]);
  });

  it("the same items at a delegation are withheld", () => {
    const v = swap();
    v.transfer.kind = "delegation";
    const { counts } = layoutDiff(v);
    expect(counts).toMatchObject({ dropped: 0, withheld: 2 });
    expect(ushape(unifiedLines(layoutDiff(v).rows))).toEqual(["· i1", "+ i2", "= u", "· r", "+ f", "= c"]);
  });
});

describe("filtering the diff by status", () => {
  it("shows only the items of the chosen kind; a mixed row keeps the matching side", () => {
    const { rows } = layoutDiff(swap());
    expect(shape(filterRows(rows, null))).toEqual(["i1|i2", "u=u", "r|f", "c=c"]);
    expect(shape(filterRows(rows, "dropped"))).toEqual(["i1|-", "r|-"]);
    expect(shape(filterRows(rows, "added"))).toEqual(["-|i2", "-|f"]);
    expect(shape(filterRows(rows, "carried"))).toEqual(["u=u", "c=c"]);
    expect(filterRows(rows, "transformed")).toEqual([]);
    expect(filterRows(rows, "withheld")).toEqual([]);
  });

  it("ticket-reopen's lossy handoff filtered to dropped: twelve items, the pinned fact among them, nothing on the receiver's side", () => {
    const rows = filterRows(layoutDiff(recordedView("ticket-reopen", 1)).rows, "dropped");
    expect(rows).toHaveLength(12);
    const cells = rows.map((r) => (r.kind === "change" ? r : null));
    expect(cells.every((r) => r && r.left?.status === "dropped" && r.right === null)).toBe(true);
    expect(cells.map((r) => r?.left?.item.kind)).toContain("pinned_fact");
  });

  it("a transformed item with its sources", () => {
    const items = [item("call"), item("f1", { derived_from: ["call"] }), item("ins")];
    const { rows } = layoutDiff(view({ sender: ["call"], receiver: ["ins", "f1"], transformed: ["f1"], added: ["ins"] }, items));
    expect(shape(filterRows(rows, "transformed"))).toEqual(["call>f1"]);
  });
});

describe("the unified view", () => {
  it("marks each item once: − dropped, + added, = carried", () => {
    expect(ushape(unifiedLines(layoutDiff(swap()).rows))).toEqual(["− i1", "+ i2", "= u", "− r", "+ f", "= c"]);
  });

  it("between two carried items lists every drop before every addition, as a unified diff does", () => {
    const v = view(
      { sender: ["a", "b", "c"], receiver: ["x", "c"], carried: ["c"], dropped: ["a", "b"], added: ["x"] },
      ["a", "b", "c", "x"].map((id) => item(id)),
    );
    // side by side: a|x, b|-, c=c
    expect(shape(layoutDiff(v).rows)).toEqual(["a|x", "b|-", "c=c"]);
    expect(ushape(unifiedLines(layoutDiff(v).rows))).toEqual(["− a", "− b", "+ x", "= c"]);
  });

  it("puts a summary (→) with all its sources, and finds a source's line", () => {
    const items = [item("x"), item("y"), item("z"), item("sum", { derived_from: ["x", "y", "z"] }), item("ins", { kind: "instructions" })];
    const v = view({ sender: ["x", "y", "z"], receiver: ["ins", "sum"], transformed: ["sum"], added: ["ins"], policy: "nest_summary" }, items);
    const lines = unifiedLines(layoutDiff(v).rows);
    expect(ushape(lines)).toEqual(["+ ins", "→ sum<x+y+z"]);
    expect(lines[1]!.links).toEqual(["x", "y", "z"]);
    expect(lineOfSender(lines).get("y")).toBe(1);
    expect(lineOfSender(lines).has("ins")).toBe(false);
  });

  it("ticket-reopen's lossy handoff: twelve −, the new instructions +, the structured message → from the transfer call", () => {
    const lines = unifiedLines(layoutDiff(recordedView("ticket-reopen", 1)).rows);
    const marks = lines.map((l) => l.mark);
    expect(marks.filter((m) => m === "−")).toHaveLength(12);
    expect(lines.filter((l) => l.mark === "+").map((l) => l.cell.item.kind)).toEqual(["instructions"]);
    const t = lines.find((l) => l.mark === "→")!;
    expect(t.sources.map((c) => c.item.kind)).toEqual(["transfer_call"]);
    expect(t.cell.item.text).toContain("status: resolved");
    expect(marks).not.toContain("=");
  });
});

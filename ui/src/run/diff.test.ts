import { describe, expect, it } from "vitest";
import { RECORDED_RUNS } from "../platform/mock-runs";
import { layoutDiff, sourcesInSender, type DiffRow } from "./diff";
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
    expect(counts).toEqual({ carried: 0, transformed: 1, dropped: 12, added: 1 });
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

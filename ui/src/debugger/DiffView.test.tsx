// The transfer diff on the mock platform's recorded runs: count chips as filters, the unified
// view, the split handle, Expand all, and a delegation's kept items read as withheld.
import { fireEvent, render, screen, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { RECORDED_RUNS } from "../platform/mock-runs";
import type { TransferView } from "../run/types";
import { DiffView } from "./DiffView";
import { agentLookups } from "./lookups";

function recordedView(run: string, index: number): { view: TransferView; lookups: ReturnType<typeof agentLookups> } {
  const r = RECORDED_RUNS[run]!;
  const transfer = r.transfers[index]!;
  const ids = new Set([...transfer.sender, ...transfer.receiver]);
  for (const id of [...ids]) for (const d of r.items[id]?.derived_from ?? []) ids.add(d);
  return { view: { index, transfer, items: [...ids].map((id) => r.items[id]!).filter(Boolean) }, lookups: agentLookups(r.topology) };
}

const chip = (status: string) => screen.getAllByTestId("diff-filter").find((c) => c.getAttribute("data-status") === status) as HTMLElement;
const items = () => screen.getAllByTestId("diff-item").map((e) => `${e.getAttribute("data-status")}:${e.getAttribute("data-kind")}`);

describe("the transfer diff", () => {
  beforeEach(() => localStorage.clear());

  it("ticket-reopen's lossy handoff: the chips filter, pressed again they clear", () => {
    const { view, lookups } = recordedView("ticket-reopen", 1);
    render(<DiffView view={view} lookups={lookups} />);
    expect(screen.getAllByTestId("diff-filter").map((c) => c.textContent)).toEqual(["0 carried", "1 transformed", "12 dropped", "1 added"]);
    expect(items()).toHaveLength(15);
    fireEvent.click(chip("dropped"));
    expect(chip("dropped").getAttribute("aria-pressed")).toBe("true");
    expect(items()).toHaveLength(12);
    expect(items().every((s) => s.startsWith("dropped:"))).toBe(true);
    // another chip replaces the filter
    fireEvent.click(chip("transformed"));
    expect(chip("dropped").getAttribute("aria-pressed")).toBe("false");
    expect(items()).toEqual(["transformed:transfer_call", "transformed:user_message"]);
    fireEvent.click(chip("transformed"));
    expect(items()).toHaveLength(15);
    // nothing carried: that chip cannot be pressed
    expect((chip("carried") as HTMLButtonElement).disabled).toBe(true);
  });

  it("the lost pinned fact is tagged dropped and lost, whole text, its agent named", () => {
    const { view, lookups } = recordedView("ticket-reopen", 1);
    render(<DiffView view={view} lookups={lookups} />);
    const fact = screen.getAllByTestId("diff-item").find((e) => e.getAttribute("data-kind") === "pinned_fact")!;
    expect(within(fact).getByTestId("item-text").textContent).toBe("Resolved means patched behind a feature flag, pending manual rollout.");
    expect(fact.textContent).toContain("dropped · fact lost");
    expect(fact.querySelector(".item-agent")?.getAttribute("title")).toBe("Resolution");
  });

  it("the unified view marks every item once: twelve −, one +, one →", () => {
    const { view, lookups } = recordedView("ticket-reopen", 1);
    render(<DiffView view={view} lookups={lookups} />);
    fireEvent.click(screen.getByTestId("diff-mode-unified"));
    expect(screen.getByTestId("transfer-diff").getAttribute("data-mode")).toBe("unified");
    expect(screen.getByTestId("diff-mode-unified").getAttribute("aria-pressed")).toBe("true");
    const marks = screen.getAllByTestId("diff-line").map((l) => l.getAttribute("data-mark"));
    expect(marks.filter((m) => m === "−")).toHaveLength(12);
    expect(marks.filter((m) => m !== "−")).toEqual(["+", "→"]);
    expect(screen.queryAllByTestId("diff-row")).toHaveLength(0);
    // the choice is remembered for the next diff
    expect(localStorage.getItem("baton.diff.mode")).toBe("unified");
  });

  it("the split handle moves by keyboard within its bounds; Enter resets it", () => {
    const { view, lookups } = recordedView("ticket-reopen", 1);
    render(<DiffView view={view} lookups={lookups} />);
    const split = screen.getByTestId("diff-split");
    expect(split.getAttribute("role")).toBe("separator");
    expect(split.getAttribute("aria-valuenow")).toBe("58");
    fireEvent.keyDown(split, { key: "ArrowLeft" });
    expect(split.getAttribute("aria-valuenow")).toBe("53");
    fireEvent.keyDown(split, { key: "End" });
    expect(split.getAttribute("aria-valuenow")).toBe("80");
    fireEvent.keyDown(split, { key: "ArrowRight" });
    expect(split.getAttribute("aria-valuenow")).toBe("80");
    fireEvent.keyDown(split, { key: "Enter" });
    expect(split.getAttribute("aria-valuenow")).toBe("58");
  });

  it("Expand all opens every item; Collapse all closes them", () => {
    const { view, lookups } = recordedView("ticket-reopen", 1);
    render(<DiffView view={view} lookups={lookups} />);
    const btn = screen.getByTestId("diff-expand-all");
    fireEvent.click(btn);
    expect(btn.getAttribute("aria-pressed")).toBe("true");
    expect(screen.getAllByTestId("diff-item").every((e) => e.hasAttribute("data-open"))).toBe(true);
    fireEvent.click(btn);
    expect(screen.getAllByTestId("diff-item").some((e) => e.hasAttribute("data-open"))).toBe(false);
  });

  it("ticket-supervisor's delegation: what the supervisor keeps is withheld, the fact kept", () => {
    const { view, lookups } = recordedView("ticket-supervisor", 0);
    render(<DiffView view={view} lookups={lookups} />);
    expect(screen.getAllByTestId("diff-filter").map((c) => c.textContent)).toEqual(["0 carried", "1 transformed", "3 withheld", "1 added"]);
    expect(items().filter((s) => s.startsWith("dropped"))).toEqual([]);
    const fact = screen.getAllByTestId("diff-item").find((e) => e.getAttribute("data-kind") === "pinned_fact")!;
    expect(fact.getAttribute("data-status")).toBe("withheld");
    expect(fact.textContent).toContain("kept by Supervisor");
    expect(fact.textContent).not.toMatch(/dropped|lost/);
    expect(screen.getByTestId("diff-fact").getAttribute("data-status")).toBe("carried");
    expect(screen.getByTestId("diff-fact").textContent).toContain("kept by Supervisor");
    fireEvent.click(screen.getByTestId("diff-mode-unified"));
    expect(screen.getAllByTestId("diff-line").map((l) => l.getAttribute("data-mark"))).toEqual(["·", "·", "·", "+", "→"]);
  });
});

import { act, fireEvent, render, screen } from "@testing-library/react";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentPalette } from "../run/palette";
import type { StepBrief } from "../run/types";
import { ROW_HEIGHT, Timeline } from "./Timeline";

const VIEWPORT = 560; // 20 rows

function bigRun(n: number): StepBrief[] {
  return Array.from({ length: n }, (_, i) => ({
    index: i,
    kind: i % 20 === 0 ? "model_call" : "tool_call",
    agent: "worker",
    owner: "worker",
    depth: 0,
    transfer: null,
    detail: i % 20 === 0 ? `call ${i / 20 + 1} of Worker` : "poll → queue: 1 item left",
    tokens: null,
    context_len: null,
    start_ms: null,
    duration_ms: null,
  }));
}

const rows = () => screen.queryAllByTestId("timeline-step").map((r) => Number(r.getAttribute("data-index")));

describe("virtualised timeline", () => {
  // happy-dom does no layout: give every element a viewport and the list's full height.
  const saved = ["clientHeight", "scrollHeight"].map((k) => [k, Object.getOwnPropertyDescriptor(HTMLElement.prototype, k)] as const);
  beforeAll(() => {
    Object.defineProperty(HTMLElement.prototype, "clientHeight", { configurable: true, get: () => VIEWPORT });
    Object.defineProperty(HTMLElement.prototype, "scrollHeight", { configurable: true, get: () => 10_000 * ROW_HEIGHT });
  });
  afterAll(() => {
    for (const [k, d] of saved) if (d) Object.defineProperty(HTMLElement.prototype, k, d);
    else delete (HTMLElement.prototype as unknown as Record<string, unknown>)[k];
  });

  const props = { palette: agentPalette(["worker"]), agentName: (id: string) => id, label: "steps" };

  it("renders only a window of a 10,000-step run", () => {
    render(<Timeline steps={bigRun(10_000)} {...props} />);
    const r = rows();
    expect(r[0]).toBe(0);
    expect(r.length).toBeGreaterThanOrEqual(VIEWPORT / ROW_HEIGHT);
    expect(r.length).toBeLessThan(60);
    const inner = screen.getByTestId("timeline").firstElementChild as HTMLElement;
    expect(inner.style.height).toBe(`${10_000 * ROW_HEIGHT}px`);
  });

  it("moves the window when scrolled, and to the current step", async () => {
    const { rerender } = render(<Timeline steps={bigRun(10_000)} {...props} />);
    const list = screen.getByTestId("timeline");
    await act(async () => {
      list.scrollTop = 5000 * ROW_HEIGHT;
      fireEvent.scroll(list);
    });
    expect(rows()).toContain(5000);
    expect(rows()).not.toContain(0);
    await act(async () => {
      rerender(<Timeline steps={bigRun(10_000)} {...props} current={9000} />);
      await new Promise((r) => setTimeout(r, 80)); // the virtualiser scrolls on the next frames
    });
    await act(async () => {
      fireEvent.scroll(list);
      await new Promise((r) => setTimeout(r, 20));
    });
    expect(list.scrollTop).toBeGreaterThan(8900 * ROW_HEIGHT);
    expect(rows()).toContain(9000);
    expect(screen.getByTestId("timeline").getAttribute("aria-activedescendant")).toBe("timeline-row-9000");
    const row = screen.getAllByTestId("timeline-step").find((r) => r.getAttribute("data-index") === "9000")!;
    expect(row.getAttribute("aria-selected")).toBe("true");
  });

  it("indents steps inside a delegation and marks transfers and lost facts", () => {
    const steps: StepBrief[] = [
      { index: 0, kind: "delegation", agent: "w", owner: "s", depth: 1, transfer: 0, detail: "Supervisor asks W", tokens: null, context_len: 3, start_ms: null, duration_ms: null },
      { index: 1, kind: "model_call", agent: "w", owner: "s", depth: 1, transfer: null, detail: "call 1 of W", tokens: 12, context_len: 3, start_ms: null, duration_ms: null },
    ];
    render(<Timeline steps={steps} {...props} lostSteps={new Set([0])} />);
    const [first, second] = screen.getAllByTestId("timeline-step");
    expect(first!.querySelectorAll(".tl-guide")).toHaveLength(1);
    expect(first!.textContent).toContain("T0");
    expect(first!.querySelector(".tl-lost")).toBeTruthy();
    expect(second!.textContent).toContain("12");
  });
});

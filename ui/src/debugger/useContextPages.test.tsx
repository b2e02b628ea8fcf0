// A long context pages in: the step view's first window is there at once, rows further down ask
// the store for their page once, a failed page is reported and asked again, and another step
// starts afresh. The "store" here is a list of 1,200 made-up items.
import { act, renderHook, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { describe, expect, it, vi } from "vitest";
import { PlatformProvider } from "../app/platform-context";
import type { Item } from "../bindings/Item";
import type { StepView } from "../bindings/StepView";
import type { Platform } from "../platform/types";
import { pagesOf } from "../run/contextWindow";
import { useContextPages } from "./useContextPages";

const TOTAL = 1200;
const item = (i: number): Item => ({ id: `i${i}`, kind: "tool_result", agent: "a", text: `result ${i}`, turn: 1 }) as Item;

function view(step: number): StepView {
  return {
    step: { index: step, kind: "model_call", agent: "a", owner: "a", depth: 0, context: [] },
    context: Array.from({ length: 500 }, (_, i) => item(i)),
    context_offset: 0,
    context_total: TOTAL,
    output: [],
    transfer: null,
    step_count: 10,
    prev_transfer: null,
    next_transfer: null,
  };
}

function setup(fail = false) {
  const step_context = vi.fn(async ({ offset, limit, step }: { offset: number; limit: number; step: number }) => {
    if (fail) throw new Error("the store is locked");
    const items = [];
    for (let i = offset; i < Math.min(TOTAL, offset + limit); i++) items.push(item(i));
    return { step, offset, total: TOTAL, items };
  });
  const platform = { step_context } as unknown as Platform;
  const wrapper = ({ children }: { children: ReactNode }) => <PlatformProvider platform={platform}>{children}</PlatformProvider>;
  return { step_context, wrapper };
}

describe("useContextPages", () => {
  it("knows the pages a range of rows falls in", () => {
    expect(pagesOf(0, 10, TOTAL)).toEqual([0]);
    expect(pagesOf(480, 520, TOTAL)).toEqual([0, 1]);
    expect(pagesOf(1100, 5000, TOTAL)).toEqual([2]);
    expect(pagesOf(10, 5, TOTAL)).toEqual([]);
  });

  it("has the first window at once and asks for a further page once", async () => {
    const { step_context, wrapper } = setup();
    const v = view(3);
    const { result } = renderHook(() => useContextPages("run-1", v), { wrapper });
    expect(result.current.total).toBe(TOTAL);
    expect(result.current.at(499)?.text).toBe("result 499");
    expect(result.current.at(600)).toBeUndefined();
    act(() => result.current.show(0, 20));
    expect(step_context).not.toHaveBeenCalled();
    act(() => {
      result.current.show(590, 610);
      result.current.show(595, 615);
    });
    expect(step_context).toHaveBeenCalledTimes(1);
    expect(step_context).toHaveBeenCalledWith({ run_id: "run-1", step: 3, offset: 500, limit: 500 });
    await waitFor(() => expect(result.current.at(600)?.text).toBe("result 600"));
    expect(result.current.at(999)?.text).toBe("result 999");
    act(() => result.current.show(900, 1010));
    expect(step_context).toHaveBeenCalledTimes(2);
    await waitFor(() => expect(result.current.at(1199)?.text).toBe("result 1199"));
  });

  it("reports a page that failed and asks again when shown again", async () => {
    const { step_context, wrapper } = setup(true);
    const v = view(3);
    const { result } = renderHook(() => useContextPages("run-1", v), { wrapper });
    act(() => result.current.show(700, 710));
    await waitFor(() => expect(result.current.error).toContain("the store is locked"));
    act(() => result.current.show(700, 710));
    await waitFor(() => expect(step_context).toHaveBeenCalledTimes(2));
  });

  it("starts afresh on another step", async () => {
    const { wrapper } = setup();
    let v = view(3);
    const { result, rerender } = renderHook(() => useContextPages("run-1", v), { wrapper });
    act(() => result.current.show(600, 610));
    await waitFor(() => expect(result.current.at(600)).toBeDefined());
    v = view(4);
    rerender();
    expect(result.current.at(600)).toBeUndefined();
    expect(result.current.at(10)?.text).toBe("result 10");
  });
});

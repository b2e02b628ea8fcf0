// useLint: asks after a change (debounced), not after a change to the layout alone, and never
// sends the layout (the backend's lint and fact flow do not read it).
import { act, render } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { PlatformContext } from "../commands/platform";
import { normalizeTopology, setPositions } from "../model/topology";
import { FIXTURES } from "../platform/fixtures";
import type { Platform } from "../platform/types";
import { useDesigner } from "../store/designer";
import { LINT_DEBOUNCE_MS, sameButLayout, useLint } from "./useLint";

function Lint() {
  useLint();
  return null;
}

describe("useLint", () => {
  const t = normalizeTopology(FIXTURES["ticket-reopen.yaml"]!);

  it("tells layout-only changes apart", () => {
    expect(sameButLayout(t, setPositions(t, { triage: { x: 1, y: 2 } }))).toBe(true);
    expect(sameButLayout(t, { ...t, name: "other" })).toBe(false);
    expect(sameButLayout(t, { ...t, agents: [...t.agents] })).toBe(false);
    expect(sameButLayout(t, null)).toBe(false);
  });

  it("lints a change, skips a move, and sends no layout", async () => {
    vi.useFakeTimers();
    try {
      const lint = vi.fn(async () => [{ code: "missing-model" as const, severity: "error" as const, message: "m", agents: ["triage"], edges: [] }]);
      const flow = vi.fn(async () => []);
      const platform = { lint_topology: lint, fact_flow: flow } as unknown as Platform;
      useDesigner.getState().load(setPositions(t, { triage: { x: 0, y: 0 } }), "ticket-reopen.yaml", []);
      render(
        <PlatformContext.Provider value={platform}>
          <Lint />
        </PlatformContext.Provider>,
      );
      await act(async () => void (await vi.advanceTimersByTimeAsync(LINT_DEBOUNCE_MS + 10)));
      expect(lint).toHaveBeenCalledTimes(1);
      expect(flow).toHaveBeenCalledTimes(1);
      const sent = (lint.mock.calls[0] as unknown as [{ topology: { layout?: unknown; agents: unknown[] } }])[0].topology;
      expect(sent.layout).toBeUndefined();
      expect(sent.agents).toHaveLength(t.agents.length);
      expect(useDesigner.getState().findings.map((f) => f.code)).toEqual(["missing-model"]);
      // A move: nothing asked, the findings stay.
      act(() => useDesigner.getState().commit((cur) => setPositions(cur, { triage: { x: 40, y: 10 } })));
      await act(async () => void (await vi.advanceTimersByTimeAsync(LINT_DEBOUNCE_MS * 2)));
      expect(lint).toHaveBeenCalledTimes(1);
      expect(useDesigner.getState().findings).toHaveLength(1);
      // A rename: asked again.
      act(() => useDesigner.getState().commit((cur) => ({ ...cur, name: "renamed" })));
      await act(async () => void (await vi.advanceTimersByTimeAsync(LINT_DEBOUNCE_MS + 10)));
      expect(lint).toHaveBeenCalledTimes(2);
      expect(flow).toHaveBeenCalledTimes(2);
    } finally {
      vi.useRealTimers();
    }
  });
});

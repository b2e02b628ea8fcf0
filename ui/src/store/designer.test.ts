import { beforeEach, describe, expect, it, vi } from "vitest";
import { addAgent, addEdge, updateAgent } from "../model/topology";
import type { Topology } from "../model/types";
import { COALESCE_MS, selectDirty, useDesigner } from "./designer";

const base: Topology = {
  version: 1,
  name: "t",
  entry: "a",
  agents: [
    { id: "a", name: "A" },
    { id: "b", name: "B" },
  ],
  edges: [{ kind: "handoff", from: "a", to: "b" }],
  guards: { max_turns: 10, on_revisit: "allow" },
};

const s = () => useDesigner.getState();

describe("designer store", () => {
  beforeEach(() => {
    s().close();
    s().load(base, "t.yaml");
  });

  it("loads with filled edge ids, clean and without history", () => {
    expect(s().topology?.edges[0]?.id).toBe("a->b");
    expect(selectDirty(s())).toBe(false);
    expect(s().past).toHaveLength(0);
  });

  it("undoes and redoes every commit, and is clean again after undoing to the saved state", () => {
    s().commit((t) => addAgent(t)[0]);
    s().commit((t) => addEdge(t, "a", "agent", "delegation")[0]);
    expect(s().topology?.agents).toHaveLength(3);
    expect(selectDirty(s())).toBe(true);
    s().undo();
    expect(s().topology?.edges).toHaveLength(1);
    s().undo();
    expect(s().topology?.agents).toHaveLength(2);
    expect(selectDirty(s())).toBe(false);
    s().redo();
    s().redo();
    expect(s().topology?.edges.map((e) => e.id)).toEqual(["a->b", "a->agent"]);
    s().redo();
    expect(s().future).toHaveLength(0);
  });

  it("a new commit clears the redo stack", () => {
    s().commit((t) => addAgent(t)[0]);
    s().undo();
    expect(s().future).toHaveLength(1);
    s().commit((t) => ({ ...t, name: "x" }));
    expect(s().future).toHaveLength(0);
  });

  it("coalesces typing with the same key into one step, until a pause", () => {
    vi.useFakeTimers();
    try {
      for (const name of ["N", "Ne", "New"]) {
        s().commit((t) => updateAgent(t, "a", (a) => ({ ...a, name })), { coalesce: "agent:a:name" });
      }
      expect(s().past).toHaveLength(1);
      vi.advanceTimersByTime(COALESCE_MS + 10);
      s().commit((t) => updateAgent(t, "a", (a) => ({ ...a, name: "Newer" })), { coalesce: "agent:a:name" });
      expect(s().past).toHaveLength(2);
      s().commit((t) => updateAgent(t, "a", (a) => ({ ...a, name: "Other" })), { coalesce: "agent:b:name" });
      expect(s().past).toHaveLength(3);
      s().undo();
      s().undo();
      expect(s().topology?.agents[0]?.name).toBe("New");
      s().undo();
      expect(s().topology?.agents[0]?.name).toBe("A");
    } finally {
      vi.useRealTimers();
    }
  });

  it("a gesture (drag) is one step however long it takes", () => {
    s().beginGesture("gesture:drag:1");
    for (let i = 0; i < 5; i++) {
      s().commit((t) => ({ ...t, layout: { a: { x: i, y: i } } }), { coalesce: "gesture:drag:1" });
    }
    expect(s().past).toHaveLength(1);
    s().undo();
    expect(s().topology?.layout).toBeUndefined();
  });

  it("deletes the selection in one step and restores it, with the selection, on undo", () => {
    s().setSelection({ agents: ["b"], edges: [] });
    s().deleteSelection();
    expect(s().topology?.agents.map((a) => a.id)).toEqual(["a"]);
    expect(s().topology?.edges).toEqual([]);
    expect(s().selection).toEqual({ agents: [], edges: [] });
    s().undo();
    expect(s().topology?.edges).toHaveLength(1);
    expect(s().selection).toEqual({ agents: ["b"], edges: [] });
  });

  it("select all takes every agent and edge", () => {
    s().selectAll();
    expect(s().selection).toEqual({ agents: ["a", "b"], edges: ["a->b"] });
  });

  it("markSaved makes the saved value the clean one", () => {
    s().commit((t) => ({ ...t, name: "renamed" }));
    s().markSaved("other.yaml");
    expect(selectDirty(s())).toBe(false);
    expect(s().path).toBe("other.yaml");
    s().undo();
    expect(selectDirty(s())).toBe(true);
  });
});

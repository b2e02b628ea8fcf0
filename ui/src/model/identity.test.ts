import { describe, expect, it } from "vitest";
import { identityOnOpen, withIdentity } from "./identity";
import type { Topology } from "./types";

const t = { version: 1, name: "ticket-reopen", entry: "a", agents: [{ id: "a", name: "A" }], edges: [] } as unknown as Topology;

describe("a topology's identity", () => {
  it("is given on the first save and kept by later saves and renames to the same file", () => {
    const first = withIdentity(t, "ticket-reopen.yaml", null);
    expect(first.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const renamed = { ...first, name: "ticket-reopen-edited" };
    expect(withIdentity(renamed, "ticket-reopen.yaml", "ticket-reopen.yaml")).toBe(renamed);
  });
  it("is new for a copy saved to another file (Save As)", () => {
    const saved = withIdentity(t, "a.yaml", null);
    const copy = withIdentity(saved, "b.yaml", "a.yaml");
    expect(copy.id).not.toBe(saved.id);
    expect(copy.name).toBe(saved.name);
  });
});

describe("identity on open", () => {
  it("derives the same identity each time one file without one is opened, another for another file", () => {
    const a1 = identityOnOpen(t, "/work/ticket-reopen.yaml");
    const a2 = identityOnOpen(t, "/work/ticket-reopen.yaml");
    const b = identityOnOpen(t, "/work/copy.yaml");
    expect(a1.id).toBe(a2.id);
    expect(b.id).not.toBe(a1.id);
    expect(a1.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });
  it("keeps the identity a file holds", () => {
    expect(identityOnOpen({ ...t, id: "kept" }, "/x.yaml").id).toBe("kept");
  });
});

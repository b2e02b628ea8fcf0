// The designer's refusals say why: a self-edge, a duplicate edge, a file name that would not say
// its format.
import { describe, expect, it } from "vitest";
import type { Topology } from "./types";
import { checkExportPath, checkTopologyPath, connectionRefusal, edgeRefusal } from "./refusals";

const t: Topology = {
  version: 1,
  name: "t",
  entry: "triage",
  agents: [
    { id: "triage", name: "Triage" },
    { id: "billing", name: "Billing" },
  ],
  edges: [{ id: "triage->billing", kind: "handoff", from: "triage", to: "billing" }],
  guards: { max_turns: 10, on_revisit: "allow" },
};

describe("edge refusals", () => {
  it("refuses an agent connected to itself", () => {
    expect(connectionRefusal(t, "triage", "triage")).toBe("Triage cannot hand off or delegate to itself: an edge joins two different agents.");
    expect(edgeRefusal(t, "billing", "billing", "delegation")).toBe("Billing cannot delegate to itself: an edge joins two different agents.");
  });

  it("refuses a second edge of the same kind between the same agents, not the other kind or direction", () => {
    expect(edgeRefusal(t, "triage", "billing", "handoff")).toBe(
      "Triage already has a handoff to Billing: a second one would give its model the same tool twice.",
    );
    expect(edgeRefusal(t, "triage", "billing", "delegation")).toBeNull();
    expect(edgeRefusal(t, "billing", "triage", "handoff")).toBeNull();
    expect(connectionRefusal(t, "triage", "billing")).toBeNull();
    const both: Topology = { ...t, edges: [...t.edges, { id: "d", kind: "delegation", from: "triage", to: "billing" }] };
    expect(connectionRefusal(both, "triage", "billing")).toBe("Triage already has a handoff and a delegation to Billing.");
  });
});

describe("save paths", () => {
  it("accepts .yaml, .yml and .json, refuses .txt with the .yaml name", () => {
    for (const p of ["a.yaml", "dir/a.YML", "a.json"]) expect(checkTopologyPath(p)).toEqual({ ok: true });
    expect(checkTopologyPath("notes/topology.txt")).toEqual({
      ok: false,
      reason: "A topology is saved as .yaml, .yml or .json; 'topology.txt' would hold YAML under a .txt name.",
      fixed: "notes/topology.yaml",
    });
    expect(checkTopologyPath("topology")).toMatchObject({ ok: false, fixed: "topology.yaml" });
    expect(checkTopologyPath("my.dir/topology")).toMatchObject({ ok: false, fixed: "my.dir/topology.yaml" });
  });

  it("refuses a YAML or JSON export whose extension says another format", () => {
    expect(checkExportPath("t.yml", "yaml", "yaml")).toEqual({ ok: true });
    expect(checkExportPath("t.json", "yaml", "yaml")).toMatchObject({ ok: false, fixed: "t.yaml" });
    expect(checkExportPath("t.txt", "json", "json")).toMatchObject({ ok: false, fixed: "t.json" });
    expect(checkExportPath("agents.txt", "openai-agents-py", "py")).toEqual({ ok: true });
  });
});

import { describe, expect, it, vi } from "vitest";
import { PlatformError } from "../platform/types";
import { codeCandidates, fileKind, isTraceCandidate, openTopologyOrTrace } from "./open-file";

describe("opening a file of unknown kind", () => {
  it("tells topologies and traces apart by extension where it can", () => {
    expect(fileKind("/a/b.yaml")).toBe("topology");
    expect(fileKind("B.YML")).toBe("topology");
    expect(fileKind("t.jsonl")).toBe("trace");
    expect(fileKind("t.json")).toBe("either");
    expect(isTraceCandidate("x.json")).toBe(true);
    expect(isTraceCandidate("x.jsonl")).toBe(true);
    expect(isTraceCandidate("x.yaml")).toBe(false);
  });

  it("opens YAML as a topology and JSONL as a trace, without trying the other", async () => {
    const deps = { openTopology: vi.fn(async () => {}), importTrace: vi.fn(async () => {}) };
    await expect(openTopologyOrTrace("a.yaml", deps)).resolves.toBe("topology");
    await expect(openTopologyOrTrace("a.jsonl", deps)).resolves.toBe("trace");
    expect(deps.openTopology.mock.calls).toEqual([["a.yaml"]]);
    expect(deps.importTrace.mock.calls).toEqual([["a.jsonl"]]);
  });

  it("imports a JSON file as a trace when it is not a topology (config.*)", async () => {
    const deps = {
      openTopology: vi.fn(async () => {
        throw new PlatformError("config.type", "unknown field `resourceSpans`");
      }),
      importTrace: vi.fn(async () => {}),
    };
    await expect(openTopologyOrTrace("otlp.json", deps)).resolves.toBe("trace");
    expect(deps.importTrace).toHaveBeenCalledWith("otlp.json");
  });

  it("does not import on other errors (a missing file), and says what both attempts found", async () => {
    const missing = {
      openTopology: vi.fn(async () => {
        throw new PlatformError("config.read", "no such file");
      }),
      importTrace: vi.fn(async () => {}),
    };
    await expect(openTopologyOrTrace("x.json", missing)).rejects.toMatchObject({ code: "config.read" });
    expect(missing.importTrace).not.toHaveBeenCalled();

    const neither = {
      openTopology: vi.fn(async () => {
        throw new PlatformError("config.syntax", "expected struct Topology");
      }),
      importTrace: vi.fn(async () => {
        throw new PlatformError("import.unknown_format", "cannot tell which format this is");
      }),
    };
    const err = await openTopologyOrTrace("x.json", neither).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "import.unknown_format" });
    expect((err as Error).message).toContain("not a topology (expected struct Topology)");
    expect((err as Error).message).toContain("not a trace either (cannot tell which format this is)");
  });
});

describe("codeCandidates", () => {
  const f = (path: string) => ({ path, name: path.slice(path.lastIndexOf("/") + 1) });
  it("lists an ADK agent folder once, as the folder, beside modules and Agent Config YAML", () => {
    const listed = codeCandidates([
      f("agents/support/__init__.py"),
      f("agents/support/agent.py"),
      f("agents/support/tools.py"),
      f("app.py"),
      f("cfg/root_agent.yaml"),
      f("notes.md"),
      f("lib/__init__.py"),
    ]);
    expect(listed.map((x) => x.path)).toEqual(["agents/support", "agents/support/tools.py", "app.py", "cfg/root_agent.yaml", "lib/__init__.py"]);
    expect(listed[0].name).toBe("support/ (ADK agent folder)");
  });
});

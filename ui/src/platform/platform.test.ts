import { describe, expect, it, vi } from "vitest";
import { FIXTURES } from "./fixtures";
import { createHttpPlatform } from "./http";
import { detectPlatformKind } from "./index";
import { createMockPlatform } from "./mock";
import { PlatformError, toPlatformError } from "./types";

describe("adapter selection", () => {
  it("picks tauri when its internals are injected, http otherwise, mock when forced", () => {
    expect(detectPlatformKind({ location: { search: "" }, __TAURI_INTERNALS__: {} })).toBe("tauri");
    expect(detectPlatformKind({ location: { search: "" } })).toBe("http");
    expect(detectPlatformKind({ location: { search: "?platform=mock" }, __TAURI_INTERNALS__: {} })).toBe("mock");
    expect(detectPlatformKind({ location: { search: "?platform=other" } })).toBe("http");
  });
});

describe("http adapter", () => {
  it("POSTs the args as JSON to /api/<command> and returns the JSON answer", async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify([{ path: "a.yaml", name: "a.yaml" }]), { status: 200 }));
    const p = createHttpPlatform("http://host:1/", fetchMock as unknown as typeof fetch);
    await expect(p.list_files()).resolves.toEqual([{ path: "a.yaml", name: "a.yaml" }]);
    expect(fetchMock).toHaveBeenCalledWith("http://host:1/api/list_files", expect.objectContaining({ method: "POST", body: "{}" }));
  });

  it("passes args through unchanged", async () => {
    const fetchMock = vi.fn(async (_url: string, init: RequestInit) => new Response(init.body as string, { status: 200 }));
    const p = createHttpPlatform("http://h", fetchMock as unknown as typeof fetch);
    const got = await p.refactor_supervisor({ topology: FIXTURES["ticket-reopen.yaml"]!, chain: ["x"] });
    expect(got).toMatchObject({ topology: { name: "ticket-reopen" }, chain: ["x"] });
    expect(fetchMock.mock.calls[0]?.[0]).toBe("http://h/api/refactor_supervisor");
  });

  it("turns 4xx/5xx {code, message} into a PlatformError", async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ code: "io.not_found", message: "no such file" }), { status: 404 }));
    const p = createHttpPlatform("http://h", fetchMock as unknown as typeof fetch);
    const err = await p.open_topology({ path: "x.yaml" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PlatformError);
    expect(err).toMatchObject({ code: "io.not_found", message: "no such file" });
  });

  it("reports a network failure and a non-JSON error body", async () => {
    const down = createHttpPlatform("http://h", (async () => {
      throw new TypeError("Failed to fetch");
    }) as unknown as typeof fetch);
    await expect(down.list_files()).rejects.toMatchObject({ code: "network" });
    const html = createHttpPlatform("http://h", (async () => new Response("<h1>bad gateway</h1>", { status: 502 })) as unknown as typeof fetch);
    await expect(html.list_files()).rejects.toMatchObject({ code: "http.502" });
  });
});

describe("http adapter: runs", () => {
  const topology = FIXTURES["ticket-reopen.yaml"]!;
  const args = { topology, scenario: null, breakpoints: [], mock_delay_ms: 50, live: false };

  it("starts a run, then long-polls run_events with a moving `from` until finished", async () => {
    const polls: unknown[] = [];
    const pages = [
      { events: [{ type: "started", run_id: "r1", topology: "t", scenario: "s", started_at: "x" }], finished: false },
      { events: [], finished: false },
      { events: [{ type: "resumed" }, { type: "finished", outcome: { status: "completed", reason: "", owner: "a" }, usage: {}, ended_at: "y" }], finished: true },
    ];
    const fetchMock = vi.fn(async (url: string, init: RequestInit) => {
      if (url.endsWith("/start_run")) {
        expect(JSON.parse(init.body as string)).toMatchObject({ mock_delay_ms: 50, breakpoints: [] });
        return new Response(JSON.stringify({ run_id: "r1" }));
      }
      polls.push(JSON.parse(init.body as string));
      return new Response(JSON.stringify(pages.shift()));
    });
    const p = createHttpPlatform("http://h", fetchMock as unknown as typeof fetch);
    const events: string[] = [];
    const done = new Promise<void>((res) => {
      void p.startRun(args, (e) => {
        events.push(e.type);
        if (e.type === "finished") res();
      });
    });
    await done;
    expect(events).toEqual(["started", "resumed", "finished"]);
    expect(polls).toEqual([
      { run_id: "r1", from: 0 },
      { run_id: "r1", from: 1 },
      { run_id: "r1", from: 1 },
    ]);
  });

  it("reports a stream that cannot go on", async () => {
    const fetchMock = vi.fn(async (url: string) =>
      url.endsWith("/start_run")
        ? new Response(JSON.stringify({ run_id: "r1" }))
        : new Response(JSON.stringify({ code: "run.not_live", message: "not running" }), { status: 404 }),
    );
    const p = createHttpPlatform("http://h", fetchMock as unknown as typeof fetch);
    const got = await new Promise((res) => void p.startRun(args, res));
    expect(got).toMatchObject({ type: "stream_error" });
  });

  it("sends the debugger's queries with their args", async () => {
    const fetchMock = vi.fn(async (_url: string, init: RequestInit) => new Response(init.body as string));
    const p = createHttpPlatform("http://h", fetchMock as unknown as typeof fetch);
    await p.step_view({ run_id: "r", step: 3 });
    await p.list_runs({ topology: "ticket-reopen" });
    expect(fetchMock.mock.calls.map((c) => [c[0], c[1].body])).toEqual([
      ["http://h/api/step_view", '{"run_id":"r","step":3}'],
      ["http://h/api/list_runs", '{"topology":"ticket-reopen"}'],
    ]);
  });
});

describe("errors", () => {
  it("normalises whatever a host throws", () => {
    expect(toPlatformError({ code: "c", message: "m" })).toMatchObject({ code: "c", message: "m" });
    expect(toPlatformError('{"code":"c","message":"m"}')).toMatchObject({ code: "c", message: "m" });
    expect(toPlatformError("plain")).toMatchObject({ code: "internal", message: "plain" });
    expect(toPlatformError(new Error("boom"))).toMatchObject({ code: "internal", message: "boom" });
  });
});

describe("mock platform", () => {
  it("lists, opens with ids filled and findings, and saves by extension", async () => {
    const p = createMockPlatform();
    expect((await p.list_files()).map((f) => f.path)).toContain("ticket-reopen.yaml");
    const opened = await p.open_topology({ path: "handoff-loop.yaml" });
    expect(opened.topology.edges.map((e) => e.id)).toEqual(["triage->billing", "billing->technical", "technical->billing"]);
    expect(opened.findings.map((f) => f.code)).toContain("handoff-back-to-source");
    await p.save_topology({ topology: opened.topology, path: "copy.json" });
    expect(p.files.has("copy.json")).toBe(true);
    await expect(p.save_topology({ topology: opened.topology, path: "copy.txt" })).rejects.toMatchObject({ code: "save.extension" });
  });

  it("refactors the longest chain into delegations under a supervisor", async () => {
    const p = createMockPlatform();
    const { topology } = await p.open_topology({ path: "ticket-reopen.yaml" });
    const r = await p.refactor_supervisor({ topology, chain: [] });
    expect(r.entry).toBe("supervisor");
    expect(r.edges.every((e) => e.kind === "delegation")).toBe(true);
  });
});

describe("tauri adapter: runs", () => {
  it("passes a Channel as `on_event` and forwards its messages", async () => {
    vi.resetModules();
    const invoke = vi.fn(async () => "run-7");
    class FakeChannel {
      onmessage: (m: unknown) => void = () => {};
    }
    vi.doMock("@tauri-apps/api/core", () => ({ invoke, Channel: FakeChannel }));
    vi.doMock("@tauri-apps/plugin-dialog", () => ({ open: vi.fn(), save: vi.fn() }));
    const { createTauriPlatform } = await import("./tauri");
    const p = createTauriPlatform();
    const got: unknown[] = [];
    const args = { topology: FIXTURES["ticket-reopen.yaml"]!, scenario: null, breakpoints: ["a->b"], mock_delay_ms: null, live: false };
    await expect(p.startRun(args, (e) => got.push(e))).resolves.toBe("run-7");
    const [command, sent] = invoke.mock.calls[0] as unknown as [string, { args: unknown; on_event: FakeChannel }];
    expect(command).toBe("start_run");
    expect(sent.args).toBe(args);
    sent.on_event.onmessage({ type: "resumed" });
    expect(got).toEqual([{ type: "resumed" }]);
    await p.step_view({ run_id: "run-7", step: 2 });
    expect(invoke).toHaveBeenLastCalledWith("step_view", { run_id: "run-7", step: 2 });
    vi.doUnmock("@tauri-apps/api/core");
    vi.doUnmock("@tauri-apps/plugin-dialog");
  });
});

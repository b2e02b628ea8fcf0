import type { Provider } from "../bindings/Provider";
import { describe, expect, it, vi } from "vitest";
import { FIXTURES } from "./fixtures";
import { createHttpPlatform, launchToken } from "./http";
import { createPlatform, detectPlatformKind, MOCK_ALLOWED } from "./index";
import { createMockPlatform } from "./mock";
import { PlatformError, toPlatformError } from "./types";

describe("adapter selection", () => {
  it("picks tauri when its internals are injected, http otherwise, mock when forced", () => {
    expect(detectPlatformKind({ location: { search: "" }, __TAURI_INTERNALS__: {} })).toBe("tauri");
    expect(detectPlatformKind({ location: { search: "" } })).toBe("http");
    expect(detectPlatformKind({ location: { search: "?platform=mock" }, __TAURI_INTERNALS__: {} })).toBe("mock");
    expect(detectPlatformKind({ location: { search: "?platform=other" } })).toBe("http");
    expect(detectPlatformKind({ location: { search: "?platform=http" }, __TAURI_INTERNALS__: {} })).toBe("http");
  });

  it("ignores ?platform=mock where the mock is not allowed (a production build): the real adapter", () => {
    expect(detectPlatformKind({ location: { search: "?platform=mock" } }, false)).toBe("http");
    expect(detectPlatformKind({ location: { search: "?platform=mock" }, __TAURI_INTERNALS__: {} }, false)).toBe("tauri");
    expect(detectPlatformKind({ location: { search: "?platform=http" }, __TAURI_INTERNALS__: {} }, false)).toBe("http");
    expect(detectPlatformKind({ location: { search: "?platform=nonsense" }, __TAURI_INTERNALS__: {} }, false)).toBe("tauri");
  });

  it("allows the mock in tests, and loads it on demand", async () => {
    expect(MOCK_ALLOWED).toBe(true);
    const p = await createPlatform("mock");
    expect(p.kind).toBe("mock");
    await expect(p.list_files()).resolves.toEqual(expect.arrayContaining([expect.objectContaining({ path: "ticket-reopen.yaml" })]));
    expect((await createPlatform("http")).kind).toBe("http");
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
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ code: "config.read", message: "no such file" }), { status: 404 }));
    const p = createHttpPlatform("http://h", fetchMock as unknown as typeof fetch);
    const err = await p.open_topology({ path: "x.yaml" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PlatformError);
    expect(err).toMatchObject({ code: "config.read", message: "no such file" });
  });

  it("reports a network failure and a non-JSON error body", async () => {
    const down = createHttpPlatform("http://h", (async () => {
      throw new TypeError("Failed to fetch");
    }) as unknown as typeof fetch);
    await expect(down.list_files()).rejects.toMatchObject({ code: "ui.network" });
    const html = createHttpPlatform("http://h", (async () => new Response("<h1>bad gateway</h1>", { status: 502 })) as unknown as typeof fetch);
    await expect(html.list_files()).rejects.toMatchObject({ code: "ui.http", message: expect.stringContaining("HTTP 502") });
  });

  it("sends the launch token `baton serve` printed, and keeps it for the tab", async () => {
    const fetchMock = vi.fn(async () => new Response("[]", { status: 200 }));
    const p = createHttpPlatform("http://h", fetchMock as unknown as typeof fetch, "t0k3n");
    await p.list_files();
    const init = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect((init[1].headers as Record<string, string>).Authorization).toBe("Bearer t0k3n");
    const storage = new Map<string, string>();
    const session = { getItem: (k: string) => storage.get(k) ?? null, setItem: (k: string, v: string) => void storage.set(k, v) } as Storage;
    expect(launchToken({ location: { search: "?token=abc&open=x.yaml" }, sessionStorage: session })).toBe("abc");
    expect(launchToken({ location: { search: "?run=r1" }, sessionStorage: session })).toBe("abc");
  });
});

describe("http adapter: runs", () => {
  const topology = FIXTURES["ticket-reopen.yaml"]!;
  const args = { topology, scenario: null, breakpoints: [], mock_delay_ms: 50, real_providers: false };

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
    expect(toPlatformError("plain")).toMatchObject({ code: "ui.internal", message: "plain" });
    expect(toPlatformError(new Error("boom"))).toMatchObject({ code: "ui.internal", message: "boom" });
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
    await expect(p.save_topology({ topology: opened.topology, path: "copy.txt" })).rejects.toMatchObject({ code: "config.write" });
  });

  it("refactors the longest chain into delegations under a supervisor", async () => {
    const p = createMockPlatform();
    const { topology } = await p.open_topology({ path: "ticket-reopen.yaml" });
    const { topology: r, chain, chosen } = await p.refactor_supervisor({ topology, chain: [] });
    expect(r.entry).toBe("supervisor");
    expect(r.edges.every((e) => e.kind === "delegation")).toBe(true);
    // ticket-reopen's longest chain from the entry: triage → resolution → verification.
    expect(chain).toEqual(["triage->resolution", "resolution->verification"]);
    expect(chosen).toBe(false);
  });
});

describe("tauri adapter: runs", () => {
  it("sends every command through the shell's one `call` command, and long-polls a run's events", async () => {
    vi.resetModules();
    let polls = 0;
    const invoke = vi.fn(async (name: string, a: { command: string; args: unknown }) => {
      if (name !== "call") throw new Error(`unexpected ${name}`);
      if (a.command === "start_run") return { run_id: "run-7" };
      if (a.command === "run_events") {
        polls += 1;
        return { events: [{ type: "resumed" }], finished: true };
      }
      return null;
    });
    vi.doMock("@tauri-apps/api/core", () => ({ invoke }));
    const { createTauriPlatform } = await import("./tauri");
    const p = createTauriPlatform();
    const got: unknown[] = [];
    const args = { topology: FIXTURES["ticket-reopen.yaml"]!, scenario: null, breakpoints: ["a->b"], mock_delay_ms: null, real_providers: false };
    await expect(p.startRun(args, (e) => got.push(e))).resolves.toBe("run-7");
    expect(invoke).toHaveBeenNthCalledWith(1, "call", { command: "start_run", args });
    await vi.waitFor(() => expect(got).toEqual([{ type: "resumed" }]));
    expect(polls).toBe(1);
    expect(invoke).toHaveBeenLastCalledWith("call", { command: "run_events", args: { run_id: "run-7", from: 0 } });
    await p.step_view({ run_id: "run-7", step: 2 });
    expect(invoke).toHaveBeenLastCalledWith("call", { command: "step_view", args: { run_id: "run-7", step: 2 } });
    vi.doUnmock("@tauri-apps/api/core");
  });
});

describe("tauri adapter: dialogs and the new commands", () => {
  it("runs the file dialogs in the shell (which allows the chosen path) and names args in snake_case", async () => {
    vi.resetModules();
    const invoke = vi.fn(async (name: string, a: { command?: string }) =>
      name === "call" ? (a.command === "import_trace" ? ["r1"] : a.command === "initial_file" ? "/home/u/t.yaml" : null) : "/home/u/x.json",
    );
    vi.doMock("@tauri-apps/api/core", () => ({ invoke }));
    const { createTauriPlatform } = await import("./tauri");
    const p = createTauriPlatform();
    await expect(p.dialogs?.choose_open_path({ extensions: ["json", "jsonl"], label: "Trace" })).resolves.toBe("/home/u/x.json");
    expect(invoke).toHaveBeenLastCalledWith("choose_open_path", { extensions: ["json", "jsonl"], label: "Trace" });
    await p.dialogs?.choose_save_path({ default_name: "a.yaml", extensions: ["yaml"] });
    expect(invoke).toHaveBeenLastCalledWith("choose_save_path", { default_name: "a.yaml", extensions: ["yaml"] });
    await expect(p.import_trace({ path: "/home/u/x.json" })).resolves.toEqual(["r1"]);
    expect(invoke).toHaveBeenLastCalledWith("call", { command: "import_trace", args: { path: "/home/u/x.json" } });
    await p.import_trace({ path: "/t.jsonl", from: "otlp" });
    expect(invoke).toHaveBeenLastCalledWith("call", { command: "import_trace", args: { path: "/t.jsonl", from: "otlp" } });
    await p.set_provider_key({ provider: "openai", key: "sk-x" });
    expect(invoke).toHaveBeenLastCalledWith("call", { command: "set_provider_key", args: { provider: "openai", key: "sk-x" } });
    await p.delete_provider_key({ provider: "openai" });
    expect(invoke).toHaveBeenLastCalledWith("call", { command: "delete_provider_key", args: { provider: "openai" } });
    await p.provider_status();
    expect(invoke).toHaveBeenLastCalledWith("call", { command: "provider_status", args: {} });
    await expect(p.initial_file()).resolves.toBe("/home/u/t.yaml");
    vi.doUnmock("@tauri-apps/api/core");
  });

  it("turns a rejected invoke ({code, message}) into a PlatformError", async () => {
    vi.resetModules();
    const invoke = vi.fn(async () => {
      throw { code: "import.parse", message: "t.jsonl: line 4 (byte 1693): not valid openai-agents input" };
    });
    vi.doMock("@tauri-apps/api/core", () => ({ invoke }));
    const { createTauriPlatform } = await import("./tauri");
    const err = await createTauriPlatform()
      .import_trace({ path: "t.jsonl" })
      .catch((e: unknown) => e);
    // (a fresh module graph: its own PlatformError class)
    expect(err).toMatchObject({ name: "PlatformError", code: "import.parse", message: expect.stringContaining("line 4 (byte 1693)") });
    vi.doUnmock("@tauri-apps/api/core");
  });
});

describe("http adapter: providers and traces", () => {
  it("asks the backend for the command line (a browser page has none), and posts the new commands like the others", async () => {
    const fetchMock = vi.fn(async (url: string, init: RequestInit) =>
      new Response(url.endsWith("/initial_file") ? "null" : (init.body as string), { status: 200 }),
    );
    const p = createHttpPlatform("http://h", fetchMock as unknown as typeof fetch);
    await expect(p.initial_file()).resolves.toBeNull();
    expect(fetchMock.mock.calls.at(-1)?.[0]).toBe("http://h/api/initial_file");
    await p.import_trace({ path: "otlp.json", from: "otlp" });
    expect(fetchMock.mock.calls.at(-1)?.[0]).toBe("http://h/api/import_trace");
    expect(fetchMock.mock.calls.at(-1)?.[1].body).toBe(JSON.stringify({ path: "otlp.json", from: "otlp" }));
    await p.set_provider_key({ provider: "anthropic", key: "k" });
    expect(fetchMock.mock.calls.at(-1)?.[0]).toBe("http://h/api/set_provider_key");
  });
});

describe("mock platform: providers and traces", () => {
  it("stores keys in a pretend keyring (never returned) and reports where each key comes from", async () => {
    const p = createMockPlatform(undefined, { envKeys: {} });
    const before = await p.provider_status();
    expect(before.find((s) => s.provider === "anthropic")?.key).toBeNull();
    await p.set_provider_key({ provider: "anthropic", key: " sk-ant " });
    expect(p.keyring.get("anthropic")).toBe("sk-ant");
    const after = await p.provider_status();
    expect(after.find((s) => s.provider === "anthropic")).toMatchObject({ key: "OS keyring", reachable: true });
    expect(JSON.stringify(after)).not.toContain("sk-ant");
    await p.delete_provider_key({ provider: "anthropic" });
    expect((await p.provider_status()).find((s) => s.provider === "anthropic")?.key).toBeNull();
    await expect(p.set_provider_key({ provider: "nope" as Provider, key: "k" })).rejects.toMatchObject({ code: "api.args" });
    await expect(p.set_provider_key({ provider: "gemini", key: "  " })).rejects.toMatchObject({ code: "providers.key" });
  });

  it("imports a trace into runs listed under its topology, with the importer's notes", async () => {
    const p = createMockPlatform();
    const ids = await p.import_trace({ path: "traces/support-otlp.json" });
    expect(ids).toHaveLength(1);
    const runs = await p.list_runs({ topology: "handoff-loop" });
    const run = runs.find((r) => r.id === ids[0]);
    expect(run?.source).toMatchObject({ format: "otlp", file: "traces/support-otlp.json", notes: ["provider: openai", expect.any(String)] });
    await expect(p.import_trace({ path: "traces/broken.jsonl" })).rejects.toMatchObject({ code: "import.parse" });
    await expect(p.open_topology({ path: "traces/support-otlp.json" })).rejects.toMatchObject({ code: "config.type" });
  });
});

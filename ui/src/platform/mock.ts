import { CATALOG } from "../bindings/commands";
import type { Refactored } from "../bindings/Refactored";
import type { ErrorCode } from "../bindings/ErrorCode";
// An in-memory backend for component tests and `?platform=mock` in the dev server (never in a
// production build). Its lint, export and refactor are small stand-ins for the Rust core's, good
// enough to exercise the UI.
import type { Agent, Edge, Finding, Topology } from "../model/types";
import { edgeId, normalizeTopology, orderChain, longestHandoffChain, policyLabel, uniqueEdgeId } from "../model/topology";
import { FIXTURES } from "./fixtures";
import type { CaptureStatus } from "../bindings/CaptureStatus";
import type { ProviderStatus } from "../bindings/ProviderStatus";
import { createMockRuns, RECORDED_RUNS, runningPart, type RecordedRun } from "./mock-runs";
import type { ExportFormat, NativeDialogs, Platform } from "./types";
import { EXPORT_FORMATS, PlatformError, REAL_PROVIDERS } from "./types";

const clone = <T,>(v: T): T => structuredClone(v);

/** A trace file the mock backend can import: the runs it holds (all saved, or none). */
export type MockTrace = { format: string; notes: string[]; runs: RecordedRun[] } | { error: { code: ErrorCode; message: string } };

/** One trace by default: the recorded handoff-loop run, as if exported by an OTel SDK. */
export function defaultTraces(): Record<string, MockTrace> {
  const base = RECORDED_RUNS["handoff-loop"];
  if (!base) return {};
  return {
    "traces/support-otlp.json": {
      format: "otlp",
      notes: ["provider: openai", "token counts were not recorded; estimated from the text"],
      runs: [{ ...base, summary: { ...base.summary, scenario: "imported", outcome: { status: "completed", reason: "imported from otlp" } } }],
    },
    "traces/broken.jsonl": {
      error: {
        code: "import.parse",
        message: "traces/broken.jsonl: line 3 (byte 812): expected a span object; nothing was imported",
      },
    },
  };
}

/** Environment variables the mock pretends are set, by provider (like `OPENAI_API_KEY=...`). */
const DEFAULT_ENV_KEYS: Record<string, string> = { openai: "$OPENAI_API_KEY", "openai-responses": "$OPENAI_API_KEY" };

const BASE_URLS: Record<string, string | null> = {
  openai: "https://api.openai.com/v1",
  "openai-responses": "https://api.openai.com/v1",
  anthropic: "https://api.anthropic.com",
  gemini: "https://generativelanguage.googleapis.com",
  "openai-compatible": null,
};

export type MockOptions = {
  recordedRuns?: Record<string, RecordedRun>;
  delayMs?: number;
  /** The file the "app" was started on. */
  initialFile?: string | null;
  /** Native dialogs (to test the desktop flows); none by default, like a browser. */
  dialogs?: NativeDialogs | null;
  traces?: Record<string, MockTrace>;
  /** Providers with a key in the environment, and where it comes from. */
  envKeys?: Record<string, string>;
  /** Ports on 127.0.0.1 something else listens on: `capture_start` there fails with `capture.listen`. */
  takenPorts?: number[];
  /**
   * Traces a running system sends once capture is on: one is saved as a run every
   * `captureEveryMs` (none by default; the dev server's `?platform=mock` gets `demoCaptureFeed()`).
   */
  captureFeed?: RecordedRun[];
  captureEveryMs?: number;
};

/** What the dev server's mock captures: the recorded handoff-loop run, as if traced by an OTel SDK. */
export function demoCaptureFeed(): RecordedRun[] {
  const base = RECORDED_RUNS["handoff-loop"];
  return base ? [{ ...base, summary: { ...base.summary, topology: "support workflow", scenario: "imported", outcome: { status: "completed", reason: "imported from otlp" } } }] : [];
}

const NOT_CAPTURING: CaptureStatus = { on: false, endpoint: null, spans: 0, runs: 0, transfers: 0, lost_facts: 0, waiting: 0, last_run: null, refused: [] };

export type MockPlatform = Platform & {
  /** Files as saved, by path (tests inspect them). */
  readonly files: Map<string, Topology>;
  readonly texts: Map<string, string>;
  /** Keys stored in the pretend OS keyring, by provider. */
  readonly keyring: Map<string, string>;
  /** Every command called, in order. */
  readonly calls: { command: string; args: unknown }[];
  /**
   * A trace arriving at the capture endpoint, saved as a run at once (the backend waits for it to
   * go quiet); the run id. Fails when capture is off, as a closed port would. `id`: the run it was
   * shown as while it arrived (`receiveRunning`), replaced.
   */
  receiveTrace(run: RecordedRun, id?: string): string;
  /**
   * Part of a trace still arriving: saved as a running run with its first `steps` steps, as the
   * backend shows one about once a second; again with more steps and the same `id`, it replaces
   * that run. The run id.
   */
  receiveRunning(run: RecordedRun, steps: number, id?: string): string;
};

export function createMockPlatform(fixtures: Record<string, Topology> = FIXTURES, opts: MockOptions = {}): MockPlatform {
  const runs = createMockRuns(opts.recordedRuns, opts.delayMs);
  const files = new Map<string, Topology>(Object.entries(fixtures).map(([k, v]) => [k, clone(v)]));
  const texts = new Map<string, string>();
  const traces = new Map<string, MockTrace>(Object.entries(opts.traces ?? defaultTraces()));
  const keyring = new Map<string, string>();
  const envKeys = opts.envKeys ?? DEFAULT_ENV_KEYS;
  const calls: { command: string; args: unknown }[] = [];
  const log = (command: string, args: unknown) => calls.push({ command, args });
  const knownProvider = (provider: string) => {
    if (!(REAL_PROVIDERS as readonly string[]).includes(provider)) {
      throw new PlatformError(
        "api.args",
        `unknown provider '${provider}'; use openai, openai-responses, anthropic, gemini or openai-compatible`,
      );
    }
  };
  // The Responses API shares OpenAI's keyring entry, as in the backend.
  const keyringUser = (provider: string) => (provider === "openai-responses" ? "openai" : provider);

  // Live capture: one pretend endpoint at a time; "free" ports (port 0) are handed out from 43180.
  let capture: { status: CaptureStatus; timers: ReturnType<typeof setTimeout>[] } | null = null;
  let freePort = 43180;
  const takenPorts = new Set(opts.takenPorts ?? []);
  /** Runs saved from captured traces: when they started and what the status counted of them. */
  const captured = new Map<string, { startedAt: string; steps: number; transfers: number; lost: number }>();
  function receiveTrace(r: RecordedRun, replace?: string): string {
    if (!capture?.status.endpoint) throw new PlatformError("ui.network", "nothing listens for traces: capture is off");
    const endpoint = capture.status.endpoint;
    const before = replace ? captured.get(replace) : undefined;
    const startedAt = before?.startedAt ?? new Date().toISOString();
    const id = runs.add({ ...r, summary: { ...r.summary, started_at: startedAt, source: { format: "otlp", file: endpoint, notes: [], captured: true }, origin: "captured" } }, before ? replace : undefined);
    const s = capture.status;
    const lost = r.transfers.reduce((n, t) => n + t.facts.filter((f) => f.status === "lost").length, 0);
    captured.set(id, { startedAt, steps: r.steps.length, transfers: r.transfers.length, lost });
    // A run shown before is counted once: its transfers and lost facts as it is now.
    capture.status = {
      ...s,
      spans: s.spans + r.steps.length - (before?.steps ?? -1),
      runs: s.runs + (before ? 0 : 1),
      transfers: s.transfers + r.transfers.length - (before?.transfers ?? 0),
      lost_facts: s.lost_facts + lost - (before?.lost ?? 0),
      last_run: id,
    };
    return id;
  }

  return {
    kind: "mock",
    dialogs: opts.dialogs ?? null,
    files,
    texts,
    keyring,
    calls,
    async list_files() {
      log("list_files", {});
      return [...files.keys(), ...traces.keys()].sort().map((path) => ({ path, name: path.split("/").pop() ?? path }));
    },
    async open_topology({ path }) {
      log("open_topology", { path });
      if (traces.has(path)) {
        throw new PlatformError("config.type", `${path}:2:3: in \`resourceSpans\`: unknown field \`resourceSpans\`, expected one of \`version\`, \`name\``);
      }
      const t = files.get(path);
      if (!t) throw new PlatformError("config.read", `no such file: ${path}`);
      const topology = normalizeTopology(clone(t));
      return { path, topology, findings: mockLint(topology) };
    },
    async new_topology({ name }) {
      log("new_topology", { name });
      return {
        version: 1,
        name,
        entry: "agent",
        agents: [{ id: "agent", name: "Agent", kind: "agent", model: { provider: "mock", name: "mock" } }],
        edges: [],
        guards: { max_turns: 10, on_revisit: "allow" },
      };
    },
    async save_topology({ topology, path }) {
      log("save_topology", { path });
      if (!/\.(ya?ml|json)$/i.test(path)) {
        throw new PlatformError("config.write", "a topology file must end in .yaml, .yml or .json");
      }
      files.set(path, clone(topology));
      return null;
    },
    async lint_topology({ topology }) {
      log("lint_topology", {});
      return mockLint(normalizeTopology(topology));
    },
    async fork_run({ run_id, fork }) {
      log("fork_run", { run_id, at: fork.at });
      // Forks re-run under the Rust core's replay provider (src/fork.rs); the mock has none.
      throw new PlatformError("api.args", "forking needs the Baton backend (the mock platform has none)");
    },
    async suspects({ run_id }) {
      log("suspects", { run_id });
      // The evidence is read by the Rust core (src/suspects.rs); the mock has none.
      throw new PlatformError("api.args", "suspects need the Baton backend (the mock platform has none)");
    },
    async prove_start({ run_id }) {
      log("prove_start", { run_id });
      // Proofs fork the run under the Rust core's replay (src/suspects/prove.rs); the mock has none.
      throw new PlatformError("api.args", "proofs need the Baton backend (the mock platform has none)");
    },
    async prove_status({ job }) {
      log("prove_status", { job });
      throw new PlatformError("api.args", `no proof '${job}' in this session; start one with prove_start`);
    },
    async prove_cancel({ job }) {
      log("prove_cancel", { job });
      throw new PlatformError("api.args", `no proof '${job}' in this session; start one with prove_start`);
    },
    mark_run: (a) => (log("mark_run", a), runs.mark_run(a)),
    async what_if({ run_id, index }) {
      log("what_if", { run_id, index });
      // The policies' effects are the Rust core's (src/whatif.rs); the mock has no stand-in.
      throw new PlatformError("api.args", "what-if needs the Baton backend (the mock platform has none)");
    },
    async run_matrix() {
      log("run_matrix", {});
      // The runs are the Rust core's (src/matrix.rs); the mock has none.
      throw new PlatformError("api.args", "the model matrix needs the Baton backend (the mock platform has none)");
    },
    async test_topology() {
      log("test_topology", {});
      // The runs and checks are the Rust core's (src/testing.rs); the mock has none.
      throw new PlatformError("api.args", "tests need the Baton backend (the mock platform has none)");
    },
    async fact_flow() {
      log("fact_flow", {});
      // The Rust core's analysis (src/lint/flow.rs) has no stand-in here: no chips in the mock.
      return [];
    },
    async export_topology({ topology, format }) {
      log("export_topology", { format });
      if (!EXPORT_FORMATS.includes(format)) throw new PlatformError("api.args", `unknown export format '${format}'`);
      return mockExport(normalizeTopology(topology), format);
    },
    async import_code({ path }) {
      log("import_code", { path });
      // The mock host has no Python: a file it holds as a topology stands for the code.
      const t = files.get(path);
      if (!t) throw new PlatformError("code.read", `cannot read ${path}: no such file`);
      const topology = normalizeTopology(t);
      return { topology, findings: mockLint(topology), notes: [] };
    },
    async about() {
      log("about", {});
      return { version: "0.0.0-mock", commit: "mock", store: "(in memory)", data_dir: null, log_dir: "(none)", os: "mock", compositing: null };
    },
    async code_interpreters({ path }) {
      log("code_interpreters", { path });
      // The mock host has no Python beside its files: only the default.
      return [{ path: "python3", found: "python3 on PATH" }];
    },
    async refactor_supervisor({ topology, chain }) {
      log("refactor_supervisor", { chain });
      return mockRefactor(normalizeTopology(topology), chain ?? []);
    },
    async write_text({ path, text }) {
      log("write_text", { path });
      texts.set(path, text);
      return null;
    },
    startRun(args, onEvent) {
      log("start_run", { scenario: args.scenario, breakpoints: args.breakpoints, mock_delay_ms: args.mock_delay_ms, real_providers: args.real_providers ?? false });
      return runs.startRun(args, onEvent);
    },
    cancel_run: (a) => (log("cancel_run", a), runs.cancel_run(a)),
    resume_run: (a) => (log("resume_run", a), runs.resume_run(a)),
    list_runs: (a) => (log("list_runs", a ?? {}), runs.list_runs({ topology: a?.topology ?? undefined })),
    search_runs: (q) => (log("search_runs", q ?? {}), runs.search_runs(q ?? {})),
    run_overview: (a) => (log("run_overview", a), runs.run_overview(a)),
    run_tail: (a) => (log("run_tail", a), runs.run_tail(a)),
    step_view: (a) => (log("step_view", a), runs.step_view(a)),
    step_context: (a) => (log("step_context", a), runs.step_context(a)),
    transfer_view: (a) => (log("transfer_view", a), runs.transfer_view(a)),
    fact_lost_steps: (a) => (log("fact_lost_steps", a), runs.fact_lost_steps(a)),
    delete_run: (a) => (log("delete_run", a), runs.delete_run(a)),
    async catalog() {
      log("catalog", {});
      return CATALOG;
    },
    async provider_status() {
      log("provider_status", {});
      return REAL_PROVIDERS.map((provider): ProviderStatus => {
        const key = envKeys[provider] ?? (keyring.has(keyringUser(provider)) ? "OS keyring" : null);
        const base_url = BASE_URLS[provider] ?? null;
        if (!base_url) {
          return { provider, key, base_url, reachable: false, detail: "no base URL: set OPENAI_COMPATIBLE_BASE_URL or an agent's base_url" };
        }
        if (!key) return { provider, key, base_url, reachable: false, detail: `not configured: store a key for ${provider}` };
        return { provider, key, base_url, reachable: true, detail: "reachable (HTTP 200)" };
      });
    },
    async set_provider_key({ provider, key }) {
      log("set_provider_key", { provider });
      knownProvider(provider);
      if (key.trim() === "") throw new PlatformError("providers.key", "the key is empty");
      keyring.set(keyringUser(provider), key.trim());
      return null;
    },
    async delete_provider_key({ provider }) {
      log("delete_provider_key", { provider });
      knownProvider(provider);
      keyring.delete(keyringUser(provider));
      return null;
    },
    async import_trace({ path, from }) {
      log("import_trace", { path, from });
      const trace = traces.get(path);
      if (!trace) throw new PlatformError("import.read", `${path}: cannot read the file: No such file or directory; nothing was imported`);
      if ("error" in trace) throw new PlatformError(trace.error.code, trace.error.message);
      return trace.runs.map((r) =>
        runs.add({ ...r, summary: { ...r.summary, started_at: new Date().toISOString(), source: { format: trace.format, file: path, notes: trace.notes }, origin: "imported" } }),
      );
    },
    async import_trace_upload({ name, text, from }) {
      log("import_trace_upload", { name, from, bytes: text.length });
      // The mock has no importers: an upload stands for the trace registered under its name.
      if (!text.trim()) throw new PlatformError("import.read", `${name}: the file is empty; nothing was imported`);
      const trace = traces.get(name);
      if (!trace) throw new PlatformError("import.unknown_format", `${name}: not a trace Baton can read; nothing was imported`);
      if ("error" in trace) throw new PlatformError(trace.error.code, trace.error.message);
      return trace.runs.map((r) =>
        runs.add({ ...r, summary: { ...r.summary, started_at: new Date().toISOString(), source: { format: trace.format, file: name, notes: trace.notes }, origin: "imported" } }),
      );
    },
    receiveTrace,
    receiveRunning: (r, steps, id) => receiveTrace(runningPart(r, steps), id),
    async capture_start(a) {
      log("capture_start", a ?? {});
      if (capture) return clone(capture.status);
      const asked = a?.port ?? 4318;
      if (takenPorts.has(asked)) {
        throw new PlatformError(
          "capture.listen",
          `cannot listen on 127.0.0.1:${asked}: Address already in use (os error 98); another collector may be running there (stop it, or pick another port)`,
        );
      }
      const port = asked === 0 ? freePort++ : asked;
      capture = { status: { ...NOT_CAPTURING, on: true, endpoint: `http://127.0.0.1:${port}/v1/traces` }, timers: [] };
      const every = opts.captureEveryMs ?? 2000;
      capture.timers = (opts.captureFeed ?? []).map((r, i) => setTimeout(() => capture && receiveTrace(r), every * (i + 1)));
      return clone(capture.status);
    },
    async capture_stop() {
      log("capture_stop", {});
      if (!capture) return clone(NOT_CAPTURING);
      capture.timers.forEach(clearTimeout);
      const stopped = { ...capture.status, on: false };
      capture = null;
      return stopped;
    },
    async capture_status() {
      log("capture_status", {});
      return clone(capture?.status ?? NOT_CAPTURING);
    },
    async initial_file() {
      log("initial_file", {});
      return opts.initialFile ?? null;
    },
  };
}

function name(t: Topology, id: string): string {
  return t.agents.find((a) => a.id === id)?.name ?? id;
}

export function mockLint(t: Topology): Finding[] {
  const out: Finding[] = [];
  const known = new Set(t.agents.map((a) => a.id));
  if (!known.has(t.entry)) {
    out.push({ code: "missing-entry", severity: "error", message: `the entry agent '${t.entry}' does not exist`, agents: [], edges: [] });
  }
  for (const e of t.edges) {
    for (const end of [e.from, e.to]) {
      if (!known.has(end)) {
        out.push({ code: "missing-agent", severity: "error", message: `edge ${edgeId(e)} names an unknown agent '${end}'`, agents: [], edges: [edgeId(e)] });
      }
    }
  }
  const handoffs = t.edges.filter((e) => e.kind === "handoff");
  for (const e of handoffs) {
    if (e.from >= e.to) continue;
    const back = handoffs.find((b) => b.from === e.to && b.to === e.from);
    if (back) {
      out.push({
        code: "handoff-back-to-source",
        severity: "warning",
        message: `${name(t, e.from)} hands off to ${name(t, e.to)} and ${name(t, e.to)} can hand straight back`,
        agents: [e.from, e.to],
        edges: [edgeId(e), edgeId(back)],
      });
    }
  }
  const reach = new Set<string>([t.entry]);
  const queue = [t.entry];
  while (queue.length) {
    const a = queue.shift() as string;
    for (const e of t.edges) {
      if (e.from === a && !reach.has(e.to)) {
        reach.add(e.to);
        queue.push(e.to);
      }
    }
  }
  const escalation = t.guards.on_revisit === "escalate" ? (t.guards.escalate_to ?? t.agents.find((a) => a.kind === "human")?.id) : undefined;
  for (const a of t.agents) {
    if (!reach.has(a.id) && a.id !== escalation) {
      out.push({ code: "unreachable-agent", severity: "warning", message: `${a.name} cannot be reached from the entry agent`, agents: [a.id], edges: [] });
    }
    if ((a.kind ?? "agent") !== "human" && !a.model) {
      out.push({ code: "missing-model", severity: "warning", message: `${a.name} has no model`, agents: [a.id], edges: [] });
    }
  }
  for (const e of handoffs) {
    if (e.acceptance === "verify") {
      out.push({
        code: "verify-handoff",
        severity: "warning",
        message: `${name(t, e.to)}'s "done" must be verified, but ${name(t, e.from)} hands off and steps out: apply the supervisor refactor`,
        agents: [e.from, e.to],
        edges: [edgeId(e)],
      });
    }
  }
  return out;
}

function modelLine(a: Agent): string {
  return a.model ? `${a.model.provider} · ${a.model.name}` : "human";
}

export function mockExport(t: Topology, format: ExportFormat): string {
  switch (format) {
    case "json":
      return JSON.stringify(t, null, 2);
    case "yaml":
      return `# mock YAML export\n${JSON.stringify(t, null, 2)}\n`;
    case "mermaid": {
      const lines = ["flowchart LR"];
      for (const a of t.agents) lines.push(`  n_${a.id}["${a.name}<br/><small>${modelLine(a)}</small>"]`);
      for (const e of t.edges) {
        lines.push(
          e.kind === "handoff"
            ? `  n_${e.from} ==>|"handoff · ${policyLabel(e.policy)}"| n_${e.to}`
            : `  n_${e.from} -.->|"delegates"| n_${e.to}`,
        );
      }
      lines.push(`  start((start)) --> n_${t.entry}`);
      return lines.join("\n") + "\n";
    }
    case "dot": {
      const lines = ["digraph topology {", "  rankdir=LR;"];
      for (const a of t.agents) lines.push(`  "${a.id}" [label="${a.name}"];`);
      for (const e of t.edges) lines.push(`  "${e.from}" -> "${e.to}" [style=${e.kind === "handoff" ? "solid" : "dashed"}];`);
      lines.push("}");
      return lines.join("\n") + "\n";
    }
    case "openai-agents-py":
      return `# mock export of ${t.name}\nfrom agents import Agent\n` + t.agents.map((a) => `${a.id} = Agent(name=${JSON.stringify(a.name)})`).join("\n") + "\n";
    case "adk-py":
      return `# mock export of ${t.name}\nfrom google.adk.agents import LlmAgent\n` + t.agents.map((a) => `${a.id} = LlmAgent(name=${JSON.stringify(a.name)})`).join("\n") + "\n";
    case "langgraph-py":
      return `# mock export of ${t.name}\nfrom langchain.agents import create_agent\n` + t.agents.map((a) => `${a.id} = create_agent(None, name=${JSON.stringify(a.name)})`).join("\n") + "\n";
    case "adk-yaml":
      return t.agents.map((a) => `# --- ${a.id === t.entry ? "root_agent" : a.id}.yaml ---\nagent_class: LlmAgent\nname: ${a.name}\n`).join("\n");
  }
}

export function mockRefactor(t: Topology, chainIn: string[]): Refactored {
  const chain = chainIn.length ? orderChain(t, chainIn) : longestHandoffChain(t);
  if (!chain || chain.length === 0) throw new PlatformError("refactor.not_chain", "no handoff chain to refactor");
  const edges = chain.map((id) => t.edges.find((e) => edgeId(e) === id) as Edge);
  const workers = [edges[0]!.from, ...edges.map((e) => e.to)];
  const supId = t.agents.some((a) => a.id === "supervisor") ? "supervisor-2" : "supervisor";
  const sup: Agent = {
    id: supId,
    name: "Supervisor",
    kind: "supervisor",
    instructions: `Delegate the work, in order, to: ${workers.map((w) => name(t, w)).join(", ")}.`,
    model: { provider: "mock", name: "mock" },
  };
  let next: Topology = { ...t, agents: [sup, ...t.agents], edges: t.edges.filter((e) => !chain.includes(edgeId(e))) };
  for (const w of workers) {
    const id = uniqueEdgeId(next, supId, w);
    next = { ...next, edges: [...next.edges, { id, kind: "delegation", from: supId, to: w }] };
  }
  if (workers[0] === t.entry) next = { ...next, entry: supId };
  // The mock words only the structural changes (the store's refactor also words scripts and facts).
  const changes: Refactored["changes"] = [
    { area: "agent", text: `Adds the supervisor Supervisor (id ${supId})` },
    ...edges.map((e) => ({ area: "edge" as const, text: `Removes the handoff ${name(t, e.from)} → ${name(t, e.to)}` })),
    ...workers.map((w) => ({ area: "edge" as const, text: `Adds the delegation Supervisor → ${name(t, w)}` })),
  ];
  return { topology: next, supervisor: supId, chain, chosen: chainIn.length > 0, changes };
}

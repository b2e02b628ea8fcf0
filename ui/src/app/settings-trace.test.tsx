// Settings (providers and keys), File → Open trace, the file on the command line and live runs,
// with the mock platform (its keyring is a Map: nothing touches the real one).
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { createMockPlatform, type MockOptions } from "../platform/mock";
import { useDebugger } from "../store/debugger";
import { useDesigner } from "../store/designer";
import { useRun } from "../store/run";
import { useUi } from "../store/ui";
import { App } from "./App";

function start(opts: MockOptions = {}) {
  const platform = createMockPlatform(undefined, opts);
  render(<App platform={platform} />);
  return platform;
}

const row = (provider: string) => screen.getAllByTestId("provider-row").find((r) => r.getAttribute("data-provider") === provider) as HTMLElement;

beforeEach(() => {
  useDesigner.getState().close();
  useDebugger.getState().exit();
  useRun.setState({ live: null, breakpoints: {}, scenario: {}, latencyMs: 0, useLive: false });
  useUi.setState({ dialog: null, confirm: null, toasts: [], compare: null, bottomTab: "problems", bottomOpen: true });
  localStorage.clear();
});

describe("settings: model providers", () => {
  it("lists each provider: configured or not, from where, reachable or not", async () => {
    start();
    await screen.findByTestId("welcome");
    fireEvent.click(screen.getByTestId("settings-open"));
    await screen.findByTestId("settings-dialog");
    await waitFor(() => expect(screen.getAllByTestId("provider-row")).toHaveLength(5));
    expect(screen.getAllByTestId("provider-row").map((r) => r.getAttribute("data-provider"))).toEqual([
      "openai",
      "openai-responses",
      "anthropic",
      "gemini",
      "openai-compatible",
    ]);
    expect(row("openai").getAttribute("data-configured")).toBe("true");
    expect(within(row("openai")).getByTestId("provider-key-source").textContent).toContain("$OPENAI_API_KEY");
    expect(within(row("openai")).getByTestId("provider-reachable").getAttribute("data-reachable")).toBe("true");
    expect(row("anthropic").getAttribute("data-configured")).toBe("false");
    expect(within(row("anthropic")).getByTestId("provider-key-source").textContent).toContain("Not configured");
    // no key in the keyring: nothing to remove
    expect(within(row("anthropic")).queryByTestId("provider-key-delete")).toBeNull();
  });

  it("stores a key in the keyring, refreshes, never shows it; removes it again", async () => {
    const platform = start({ envKeys: {} });
    fireEvent.click(await screen.findByTestId("settings-open"));
    await waitFor(() => expect(row("gemini").getAttribute("data-configured")).toBe("false"));
    const input = within(row("gemini")).getByTestId("provider-key-input") as HTMLInputElement;
    expect(input.type).toBe("password");
    expect((within(row("gemini")).getByTestId("provider-key-save") as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(input, { target: { value: "AIza-secret" } });
    fireEvent.click(within(row("gemini")).getByTestId("provider-key-save"));
    await waitFor(() => expect(row("gemini").getAttribute("data-configured")).toBe("true"));
    expect(platform.keyring.get("gemini")).toBe("AIza-secret");
    expect(within(row("gemini")).getByTestId("provider-key-source").textContent).toContain("OS keyring");
    expect((within(row("gemini")).getByTestId("provider-key-input") as HTMLInputElement).value).toBe("");
    expect(screen.getByTestId("settings-dialog").innerHTML).not.toContain("AIza-secret");
    const calls = platform.calls.filter((c) => c.command === "provider_status").length;
    expect(calls).toBeGreaterThanOrEqual(2);

    fireEvent.click(within(row("gemini")).getByTestId("provider-key-delete"));
    await waitFor(() => expect(row("gemini").getAttribute("data-configured")).toBe("false"));
    expect(platform.keyring.has("gemini")).toBe(false);
  });

  it("shows the backend's refusal on the row", async () => {
    const platform = start({ envKeys: {} });
    platform.set_provider_key = vi.fn(async () => {
      throw Object.assign(new Error("the OS keyring refused the key: no secret service"), { code: "providers.keyring" });
    });
    fireEvent.click(await screen.findByTestId("settings-open"));
    await waitFor(() => expect(row("anthropic")).toBeDefined());
    fireEvent.change(within(row("anthropic")).getByTestId("provider-key-input"), { target: { value: "k" } });
    fireEvent.click(within(row("anthropic")).getByTestId("provider-key-save"));
    expect((await within(row("anthropic")).findByTestId("provider-error")).textContent).toContain("no secret service");
  });
});

describe("open trace", () => {
  it("File → Open trace (browser): pick a JSON file, import it, debug the run, read the importer's notes", async () => {
    const platform = start();
    await screen.findByTestId("welcome");
    fireEvent.click(screen.getByTestId("menu-open-trace"));
    const dialog = await screen.findByTestId("trace-dialog");
    const files = await within(dialog).findAllByTestId("trace-file");
    // only files that may be traces are offered
    expect(files.map((f) => f.getAttribute("data-path"))).toEqual(["traces/broken.jsonl", "traces/support-otlp.json"]);
    fireEvent.click(files[1] as HTMLElement);
    expect((screen.getByTestId("trace-path-input") as HTMLInputElement).value).toBe("traces/support-otlp.json");
    fireEvent.click(screen.getByTestId("trace-import"));
    await screen.findByTestId("transport");
    expect(screen.getByTestId("app").getAttribute("data-mode")).toBe("debug");
    expect(screen.queryByTestId("trace-dialog")).toBeNull();
    expect(platform.calls.find((c) => c.command === "import_trace")?.args).toEqual({ path: "traces/support-otlp.json", from: undefined });
    const source = screen.getByTestId("run-source");
    expect(source.getAttribute("data-format")).toBe("otlp");
    expect(within(source).getAllByTestId("import-note").map((n) => n.textContent?.trim())).toContain("provider: openai");

    // the run's (rebuilt) topology opens in the editor, unsaved, with the run in its Runs list
    fireEvent.click(screen.getByTestId("run-edit-topology"));
    await screen.findByTestId("node-billing");
    expect(useDesigner.getState().path).toBeNull();
    expect(screen.getByTestId("tab-runs").getAttribute("aria-selected")).toBe("true");
    await waitFor(() => expect(platform.calls.some((c) => c.command === "list_runs" && (c.args as { topology?: string }).topology === "handoff-loop")).toBe(true));
    const rows = await screen.findAllByTestId("run-row");
    expect(rows.some((r) => within(r).queryByTestId("run-imported")?.textContent === "otlp")).toBe(true);
  });

  it("keeps the importer's error in the dialog (format, line, what was expected)", async () => {
    start();
    await screen.findByTestId("welcome");
    fireEvent.click(screen.getByTestId("menu-open-trace"));
    fireEvent.change(await screen.findByTestId("trace-path-input"), { target: { value: "traces/broken.jsonl" } });
    fireEvent.change(screen.getByTestId("trace-format"), { target: { value: "openai-agents" } });
    fireEvent.click(screen.getByTestId("trace-import"));
    const err = await screen.findByTestId("trace-error");
    expect(err.getAttribute("data-code")).toBe("import.parse");
    expect(err.textContent).toContain("line 3 (byte 812)");
    expect(screen.getByTestId("app").getAttribute("data-mode")).toBe("design");
  });

  it("Ctrl+Shift+O opens the native dialog where there is one (json/jsonl, labelled Trace)", async () => {
    const choose_open_path = vi.fn(async () => "traces/support-otlp.json");
    const choose_save_path = vi.fn(async () => null);
    const platform = start({ dialogs: { choose_open_path, choose_save_path } });
    await screen.findByTestId("welcome");
    fireEvent.keyDown(window, { key: "O", ctrlKey: true, shiftKey: true });
    await screen.findByTestId("transport");
    expect(choose_open_path).toHaveBeenCalledWith({ extensions: ["json", "jsonl"], label: "Trace" });
    expect(platform.calls.some((c) => c.command === "import_trace")).toBe(true);
    expect(screen.queryByTestId("trace-dialog")).toBeNull();
  });
});

describe("the file on the command line", () => {
  it("opens a topology", async () => {
    const platform = start({ initialFile: "ticket-reopen.yaml" });
    await screen.findByTestId("node-triage");
    expect(platform.calls.filter((c) => c.command === "initial_file")).toHaveLength(1);
    expect(platform.calls.some((c) => c.command === "import_trace")).toBe(false);
  });

  it("imports a JSON file that is not a topology, and debugs its first run", async () => {
    const platform = start({ initialFile: "traces/support-otlp.json" });
    await screen.findByTestId("transport");
    expect(platform.calls.map((c) => c.command)).toEqual(expect.arrayContaining(["open_topology", "import_trace"]));
    expect(screen.getByTestId("run-source")).toBeTruthy();
  });

  it("shows an error when the file is neither", async () => {
    start({ initialFile: "missing.yaml" });
    const toast = await screen.findByTestId("toast-error");
    expect(toast.textContent).toContain("Could not open missing.yaml");
    expect(toast.textContent).toContain("no such file");
  });
});

describe("save with the native dialog", () => {
  it("asks the shell for a path with a file name and the extension", async () => {
    const choose_save_path = vi.fn(async () => "copy.yaml");
    const platform = start({ dialogs: { choose_open_path: vi.fn(async () => null), choose_save_path } });
    fireEvent.click((await screen.findAllByTestId("welcome-file")).find((f) => f.textContent?.includes("ticket-reopen.yaml")) as HTMLElement);
    await screen.findByTestId("node-triage");
    fireEvent.click(screen.getByTestId("menu-save-as"));
    await waitFor(() => expect(platform.files.has("copy.yaml")).toBe(true));
    expect(choose_save_path).toHaveBeenCalledWith({ default_name: "ticket-reopen.yaml", extensions: ["yaml"] });
  });
});

describe("live runs", () => {
  it("the Use real providers switch sends real_providers: true and names agents without a key", async () => {
    const platform = start({ envKeys: {} });
    fireEvent.click((await screen.findAllByTestId("welcome-file")).find((f) => f.textContent?.includes("ticket-reopen.yaml")) as HTMLElement);
    await screen.findByTestId("node-triage");
    fireEvent.click(screen.getByTestId("tab-run"));
    const toggle = screen.getByTestId("run-live") as HTMLInputElement;
    expect(toggle.checked).toBe(false);
    fireEvent.click(toggle);
    expect(toggle.checked).toBe(true);
    const note = await screen.findByTestId("run-live-missing");
    expect(note.textContent).toContain("Triage (openai)");
    expect(note.textContent).toContain("Resolution (openai)");
    fireEvent.click(screen.getByTestId("run-start"));
    await waitFor(() => expect(platform.calls.find((c) => c.command === "start_run")?.args).toMatchObject({ real_providers: true }));
  });
});

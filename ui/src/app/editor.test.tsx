// The editor's issue-17 behaviours with the mock platform: scenarios edited in the inspector (undo,
// dirty, field errors), findings with code and fixes, refusals that say why, a failed save that
// keeps the typed path, one rule for the Run controls, a message run, the missing-key toast said
// once, the palette, the sheet, the minimap toggle and the debugger's address.
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { SHORTCUTS } from "../commands/keymap";
import { createMockPlatform } from "../platform/mock";
import { PlatformError } from "../platform/types";
import { useDebugger } from "../store/debugger";
import { useDesigner } from "../store/designer";
import { useEditor } from "../store/editor";
import { useRun } from "../store/run";
import { useUi } from "../store/ui";
import { App } from "./App";

async function openTicketReopen(platform = createMockPlatform()) {
  render(<App platform={platform} />);
  const files = await screen.findAllByTestId("welcome-file");
  fireEvent.click(files.find((f) => f.textContent?.includes("ticket-reopen.yaml")) as HTMLElement);
  await screen.findByTestId("node-triage");
  return platform;
}

const doc = () => useDesigner.getState().topology;

describe("editor (issue 17)", () => {
  beforeEach(() => {
    useDesigner.getState().close();
    useDebugger.getState().exit();
    useRun.setState({ live: null, breakpoints: {}, scenario: {}, latencyMs: 0, useLive: false });
    useUi.setState({ dialog: null, confirm: null, toasts: [], compare: null, bottomTab: "problems", bottomOpen: true });
    useEditor.setState({ notice: null, runMessage: "", minimap: true });
    localStorage.clear();
  });

  it("creates, renames and deletes scenarios through the designer (undo, dirty)", async () => {
    await openTicketReopen();
    const editor = screen.getByTestId("scenario-editor");
    expect(editor.getAttribute("data-scenario")).toBe("flagged-fix");
    fireEvent.click(screen.getByTestId("scenario-new"));
    expect(doc()?.scenarios?.map((s) => s.name)).toEqual(["flagged-fix", "scenario"]);
    expect(screen.getByTestId("scenario-editor").getAttribute("data-scenario")).toBe("scenario");
    expect(screen.getByTestId("dirty-marker")).toBeTruthy();

    fireEvent.change(screen.getByTestId("scenario-input"), { target: { value: "Where is my refund?" } });
    expect(doc()?.scenarios?.[1]?.input).toBe("Where is my refund?");

    // A taken name stays typed with why; nothing is renamed.
    const name = screen.getByTestId("scenario-name") as HTMLInputElement;
    fireEvent.change(name, { target: { value: "flagged-fix" } });
    fireEvent.blur(name);
    expect(name.value).toBe("flagged-fix");
    expect(screen.getByTestId("scenario-name-error").textContent).toContain("Another scenario is called 'flagged-fix'.");
    expect(doc()?.scenarios?.map((s) => s.name)).toEqual(["flagged-fix", "scenario"]);
    fireEvent.change(name, { target: { value: "refund" } });
    fireEvent.keyDown(name, { key: "Enter" });
    expect(doc()?.scenarios?.map((s) => s.name)).toEqual(["flagged-fix", "refund"]);
    expect(useRun.getState().scenario["ticket-reopen"]).toBe("refund");

    fireEvent.click(screen.getByTestId("scenario-delete"));
    expect(doc()?.scenarios?.map((s) => s.name)).toEqual(["flagged-fix"]);
    fireEvent.click(screen.getByTestId("undo"));
    expect(doc()?.scenarios?.map((s) => s.name)).toEqual(["flagged-fix", "refund"]);
  });

  it("edits mock rules and names the field of a call the agent cannot make", async () => {
    await openTicketReopen();
    fireEvent.click(screen.getByTestId("scenario-new"));
    const triage = screen.getByTestId("script-triage");
    // A screen reader hears whose rule the button adds.
    expect(within(triage).getByRole("button", { name: "Add a rule for Triage" })).toBe(within(triage).getByTestId("rule-add-triage"));
    fireEvent.click(within(triage).getByTestId("rule-add-triage"));
    // An empty rule answers nothing: said under the rule.
    await waitFor(() => expect(within(screen.getByTestId("script-triage")).getAllByTestId("field-issue")[0]?.getAttribute("data-field")).toBe("scripts.triage[0]"));
    fireEvent.change(screen.getByTestId("rule-say-triage-0"), { target: { value: "Routing to resolution." } });
    // Triage's tools, as ticket-reopen.yaml gives them: only the transfer of its one handoff.
    const add = screen.getByTestId("call-add-triage-0") as HTMLSelectElement;
    expect([...add.options].map((o) => o.value).filter(Boolean)).toEqual(["transfer_to_resolution"]);
    fireEvent.change(add, { target: { value: "transfer_to_resolution" } });
    expect(doc()?.scenarios?.[1]?.scripts?.triage).toEqual([{ say: "Routing to resolution.", calls: [{ tool: "transfer_to_resolution" }] }]);
    expect(within(screen.getByTestId("script-triage")).queryAllByTestId("field-issue")).toHaveLength(0);

    // The same call in Verification's script: it has no such transfer.
    act(() =>
      useDesigner.getState().commit((t) => ({
        ...t,
        scenarios: t.scenarios?.map((s) => (s.name === "scenario" ? { ...s, scripts: { ...s.scripts, verification: [{ calls: [{ tool: "transfer_to_resolution" }] }] } } : s)),
      })),
    );
    const issue = await within(screen.getByTestId("script-verification")).findByTestId("field-issue");
    expect(issue.getAttribute("data-field")).toBe("scripts.verification[0].calls[0].tool");
    expect(issue.textContent).toBe("Verification has no handoff to Resolution: connect them on the canvas first (Verification's transfers: none).");
  });

  it("shows the selected agent's rules in the chosen scenario", async () => {
    await openTicketReopen();
    act(() => useDesigner.getState().setSelection({ agents: ["resolution"], edges: [] }));
    const section = await screen.findByTestId("agent-script");
    // The mock platform's ticket-reopen has flagged-fix without scripts: Resolution has no rules yet.
    expect(within(section).getByTestId("script-resolution").getAttribute("data-rules")).toBe("0");
    fireEvent.click(within(section).getByTestId("rule-add-resolution"));
    fireEvent.change(within(section).getByTestId("rule-say-resolution-0"), { target: { value: "Fixed behind FIX_4812." } });
    expect(doc()?.scenarios?.[0]?.scripts?.resolution).toEqual([{ say: "Fixed behind FIX_4812." }]);
    // Its tools as the model sees them: patch_checkout, then the handoff's transfer.
    const add = within(section).getByTestId("call-add-resolution-0") as HTMLSelectElement;
    expect([...add.options].map((o) => o.value).filter(Boolean)).toEqual(["patch_checkout", "transfer_to_verification"]);
  });

  it("renders a finding's backticks as code and applies its fix", async () => {
    const platform = createMockPlatform();
    platform.lint_topology = async () => [
      { code: "missing-entry", severity: "error", message: "the entry agent 'gone' does not exist; set `entry` to one of the agents' ids", agents: ["gone"], edges: [] },
    ];
    await openTicketReopen(platform);
    act(() => useDesigner.getState().commit((t) => ({ ...t, entry: "gone" })));
    await waitFor(() => expect(screen.getByTestId("finding").getAttribute("data-code")).toBe("missing-entry"));
    const finding = screen.getByTestId("finding");
    expect(within(finding).getByText("entry").tagName).toBe("CODE");
    expect(finding.textContent).not.toContain("`");
    // Triage is the only agent nothing leads to: the fix makes it the entry.
    const fix = await screen.findByTestId("finding-fix");
    expect(fix.textContent).toContain("Make Triage the entry");
    fireEvent.click(fix);
    expect(doc()?.entry).toBe("triage");
  });

  it("refuses a duplicate edge with why, and keeps a duplicate agent id typed with an error", async () => {
    await openTicketReopen();
    act(() => useUi.getState().setPendingConnection({ from: "triage", to: "resolution", x: 100, y: 100 }));
    const handoff = await screen.findByTestId("edge-kind-handoff");
    expect(handoff.getAttribute("aria-disabled")).toBe("true");
    fireEvent.click(handoff);
    expect(screen.getByTestId("canvas-refusal").textContent).toContain("Triage already has a handoff to Resolution");
    expect(doc()?.edges).toHaveLength(2);

    act(() => useDesigner.getState().setSelection({ agents: ["triage"], edges: [] }));
    const id = (await screen.findByTestId("agent-id")) as HTMLInputElement;
    fireEvent.change(id, { target: { value: "resolution" } });
    fireEvent.blur(id);
    expect(id.value).toBe("resolution");
    expect(screen.getByTestId("inspector-agent").textContent).toContain("'resolution' is taken. Not renamed");
    expect(doc()?.agents.map((a) => a.id)).toEqual(["triage", "resolution", "verification"]);
  });

  it("a refused or failed Save As keeps the prompt open with the typed path", async () => {
    const platform = await openTicketReopen();
    fireEvent.click(screen.getByTestId("menu-save-as"));
    const input = (await screen.findByTestId("path-input")) as HTMLInputElement;
    fireEvent.change(input, { target: { value: "notes/topology.txt" } });
    fireEvent.click(screen.getByTestId("path-ok"));
    expect((await screen.findByTestId("path-error")).textContent).toContain("A topology is saved as .yaml, .yml or .json");
    expect(input.value).toBe("notes/topology.txt");
    expect(platform.calls.some((c) => c.command === "save_topology")).toBe(false);
    fireEvent.click(screen.getByTestId("path-fix"));
    expect(input.value).toBe("notes/topology.yaml");

    platform.save_topology = async () => {
      throw new PlatformError("files.denied", "notes/topology.yaml is outside the folder Baton serves");
    };
    fireEvent.click(screen.getByTestId("path-ok"));
    await waitFor(() => expect(screen.getByTestId("path-error").textContent).toContain("outside the folder Baton serves"));
    expect((screen.getByTestId("path-input") as HTMLInputElement).value).toBe("notes/topology.yaml");
    expect(useDesigner.getState().path).toBe("ticket-reopen.yaml");
  });

  it("Run and Start share one rule and say why; a typed message runs as an ad-hoc scenario", async () => {
    const platform = await openTicketReopen();
    act(() => useDesigner.getState().commit((t) => ({ ...t, scenarios: [] })));
    fireEvent.click(screen.getByTestId("tab-run"));
    const top = screen.getByTestId("topbar-run") as HTMLButtonElement;
    const start = screen.getByTestId("run-start") as HTMLButtonElement;
    expect(top.disabled).toBe(true);
    expect(start.disabled).toBe(true);
    expect(top.getAttribute("data-blocked")).toBe(start.getAttribute("data-blocked"));
    expect(screen.getByTestId("run-blocked").textContent).toContain("Add a scenario first");

    let args: unknown = null;
    platform.startRun = async (a) => {
      args = a;
      return "r1";
    };
    fireEvent.change(screen.getByTestId("run-message"), { target: { value: "My card was charged twice." } });
    fireEvent.click(screen.getByTestId("run-message-send"));
    await waitFor(() => expect(args).not.toBeNull());
    const a = args as { scenario: string; topology: { scenarios: { name: string; input: string }[] } };
    expect(a.scenario).toBe("message");
    expect(a.topology.scenarios).toEqual([{ name: "message", input: "My card was charged twice." }]);
    // The document is not changed by a message run.
    expect(doc()?.scenarios).toEqual([]);
  });

  it("says the missing-key sentence once when real providers have no key", async () => {
    const platform = await openTicketReopen();
    platform.startRun = async () => {
      throw new PlatformError(
        "model.config",
        ["Triage", "Resolution", "Verification"].map((a) => `${a} uses openai but no key is set: export OPENAI_API_KEY or store one with \`baton providers set-key openai\``).join("\n"),
      );
    };
    fireEvent.click(screen.getByTestId("topbar-run"));
    const toast = await screen.findByTestId("toast-error");
    expect(toast.textContent?.match(/no key/gi)).toHaveLength(1);
    expect(toast.textContent).toContain("Triage, Resolution and Verification use it");
    expect(toast.textContent).not.toContain("baton providers");
  });

  it("? shows every shortcut; Ctrl+K filters the commands and Enter runs one", async () => {
    await openTicketReopen();
    fireEvent.keyDown(window, { key: "?", shiftKey: true });
    const sheet = await screen.findByTestId("shortcut-sheet");
    expect(within(sheet).getAllByTestId("sheet-row")).toHaveLength(SHORTCUTS.length);
    fireEvent.keyDown(window, { key: "Escape" });
    await waitFor(() => expect(screen.queryByTestId("shortcut-sheet")).toBeNull());

    fireEvent.keyDown(window, { key: "k", ctrlKey: true });
    const input = await screen.findByTestId("palette-input");
    fireEvent.change(input, { target: { value: "saved runs" } });
    expect(screen.getAllByTestId("palette-item")[0]?.getAttribute("data-id")).toBe("tab-runs");
    fireEvent.keyDown(input, { key: "Enter" });
    await waitFor(() => expect(useUi.getState().bottomTab).toBe("runs"));
    expect(screen.queryByTestId("palette")).toBeNull();
  });

  it("hides the minimap and remembers it", async () => {
    await openTicketReopen();
    expect(document.querySelector(".react-flow__minimap")).not.toBeNull();
    fireEvent.click(screen.getByTestId("minimap-toggle"));
    expect(document.querySelector(".react-flow__minimap")).toBeNull();
    expect(localStorage.getItem("baton.minimap")).toBe("off");
  });

  it("the address follows the debugger's step without adding history entries", async () => {
    await openTicketReopen();
    fireEvent.click(screen.getByTestId("topbar-run"));
    await waitFor(() => expect(screen.getByTestId("run-status").getAttribute("data-status")).toBe("finished"));
    fireEvent.click(screen.getByTestId("run-debug"));
    await screen.findByTestId("transport");
    const runId = useDebugger.getState().runId as string;
    await waitFor(() => expect(new URLSearchParams(window.location.search).get("run")).toBe(runId));
    const entries = window.history.length;
    fireEvent.keyDown(window, { key: "ArrowRight" });
    fireEvent.keyDown(window, { key: "ArrowRight" });
    await waitFor(() => expect(new URLSearchParams(window.location.search).get("step")).toBe("2"));
    expect(window.history.length).toBe(entries);
    fireEvent.keyDown(window, { key: "Escape" });
    await waitFor(() => expect(new URLSearchParams(window.location.search).get("run")).toBeNull());
  });
});

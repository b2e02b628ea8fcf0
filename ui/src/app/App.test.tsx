import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { createMockPlatform } from "../platform/mock";
import { useDesigner } from "../store/designer";
import { useUi } from "../store/ui";
import { App } from "./App";

async function openTicketReopen() {
  const platform = createMockPlatform();
  render(<App platform={platform} />);
  const files = await screen.findAllByTestId("welcome-file");
  const file = files.find((f) => f.textContent?.includes("ticket-reopen.yaml"));
  expect(file).toBeDefined();
  fireEvent.click(file as HTMLElement);
  await screen.findByTestId("node-triage");
  return platform;
}

describe("designer with the mock platform", () => {
  beforeEach(() => {
    useDesigner.getState().close();
    useUi.setState({ dialog: null, confirm: null, toasts: [] });
    localStorage.clear();
  });

  it("opens a topology: agents on the canvas, entry marked, findings in Problems", async () => {
    await openTicketReopen();
    expect(screen.getByTestId("node-resolution")).toBeTruthy();
    expect(screen.getByTestId("node-triage").getAttribute("data-entry")).toBe("true");
    const problems = screen.getByTestId("problems");
    const finding = within(problems).getByTestId("finding");
    expect(finding.getAttribute("data-code")).toBe("verify-handoff");
    expect(screen.getByTestId("lint-marker-verification").getAttribute("data-severity")).toBe("warning");
    expect(screen.getByTestId("doc-title").textContent).toContain("ticket-reopen.yaml");
  });

  it("clicking a finding selects its edge; the policy editor changes it; undo restores it", async () => {
    await openTicketReopen();
    fireEvent.click(screen.getByTestId("finding"));
    expect(useDesigner.getState().selection).toEqual({ agents: [], edges: ["resolution->verification"] });
    const select = (await screen.findByTestId("policy-select")) as HTMLSelectElement;
    expect(select.value).toBe("fields");
    fireEvent.change(select, { target: { value: "last_n" } });
    const edge = () => useDesigner.getState().topology?.edges.find((e) => e.id === "resolution->verification");
    expect(edge()?.policy).toEqual({ last_n: 3 });
    const n = screen.getByTestId("policy-last-n") as HTMLInputElement;
    fireEvent.change(n, { target: { value: "5" } });
    expect(edge()?.policy).toEqual({ last_n: 5 });
    expect(screen.getByTestId("dirty-marker")).toBeTruthy();
    fireEvent.click(screen.getByTestId("undo"));
    fireEvent.click(screen.getByTestId("undo"));
    expect(edge()?.policy).toMatchObject({ fields: [{ name: "ticket" }, { name: "status" }] });
    expect(screen.queryByTestId("dirty-marker")).toBeNull();
  });

  it("adds an agent, edits it in the inspector, and lint runs live", async () => {
    const platform = await openTicketReopen();
    fireEvent.click(screen.getByTestId("add-agent"));
    await screen.findByTestId("node-agent");
    const inspector = screen.getByTestId("inspector");
    const name = within(inspector).getByTestId("agent-name") as HTMLInputElement;
    fireEvent.change(name, { target: { value: "Escalation" } });
    expect(useDesigner.getState().topology?.agents.at(-1)?.name).toBe("Escalation");
    await waitFor(() => expect(screen.getAllByTestId("finding").map((f) => f.getAttribute("data-code"))).toContain("unreachable-agent"));
    expect(platform.calls.some((c) => c.command === "lint_topology")).toBe(true);
  });

  it("connecting two agents asks for the edge kind and creates the edge with a fresh id", async () => {
    await openTicketReopen();
    act(() => useUi.getState().setPendingConnection({ from: "verification", to: "resolution", x: 100, y: 100 }));
    fireEvent.click(await screen.findByTestId("edge-kind-handoff"));
    const t = useDesigner.getState().topology;
    expect(t?.edges.at(-1)).toEqual({ id: "verification->resolution", kind: "handoff", from: "verification", to: "resolution" });
    await waitFor(() =>
      expect(screen.getAllByTestId("finding").map((f) => f.getAttribute("data-code"))).toContain("handoff-back-to-source"),
    );
  });

  it("exports a preview in the chosen format", async () => {
    await openTicketReopen();
    fireEvent.click(screen.getByTestId("export-open"));
    const preview = await screen.findByTestId("export-preview");
    await waitFor(() => expect(preview.textContent).toContain('"name": "ticket-reopen"'));
    fireEvent.change(screen.getByTestId("export-format"), { target: { value: "mermaid" } });
    await waitFor(() => expect(screen.getByTestId("export-preview").textContent).toContain("flowchart LR"));
    expect(screen.getByTestId("export-preview").textContent).toContain("n_resolution ==>|\"handoff · fields(ticket,status)\"| n_verification");
  });

  it("refactors to a supervisor in one undoable step", async () => {
    await openTicketReopen();
    fireEvent.click(screen.getByTestId("refactor-supervisor"));
    // A preview first: nothing selected, so the longest chain from the entry.
    const preview = await screen.findByTestId("refactor-preview");
    expect(screen.getByTestId("refactor-scope").textContent).toContain("Triage → Resolution → Verification");
    expect(preview.textContent).toContain("Removes the handoff Resolution → Verification");
    expect(screen.queryByTestId("node-supervisor")).toBeNull();
    fireEvent.click(screen.getByTestId("refactor-apply"));
    await screen.findByTestId("node-supervisor");
    expect(useDesigner.getState().topology?.entry).toBe("supervisor");
    expect(useDesigner.getState().topology?.layout?.supervisor).toBeDefined();
    fireEvent.click(screen.getByTestId("undo"));
    expect(useDesigner.getState().topology?.entry).toBe("triage");
    expect(screen.queryByTestId("node-supervisor")).toBeNull();
  });

  it("saves under a new name through the path prompt, and asks before discarding changes", async () => {
    const platform = await openTicketReopen();
    fireEvent.change(screen.getByTestId("topology-name"), { target: { value: "renamed" } });
    fireEvent.click(screen.getByTestId("menu-save-as"));
    const input = (await screen.findByTestId("path-input")) as HTMLInputElement;
    expect(input.value).toBe("ticket-reopen.yaml");
    fireEvent.change(input, { target: { value: "copy.yaml" } });
    fireEvent.click(screen.getByTestId("path-ok"));
    await waitFor(() => expect(platform.files.get("copy.yaml")?.name).toBe("renamed"));
    expect(useDesigner.getState().path).toBe("copy.yaml");
    expect(screen.queryByTestId("dirty-marker")).toBeNull();

    fireEvent.change(screen.getByTestId("topology-name"), { target: { value: "changed again" } });
    fireEvent.click(screen.getByTestId("menu-new"));
    await screen.findByTestId("confirm-dialog");
    fireEvent.click(screen.getByTestId("confirm-cancel"));
    expect(useDesigner.getState().topology?.name).toBe("changed again");
    fireEvent.click(screen.getByTestId("menu-new"));
    fireEvent.click(await screen.findByTestId("confirm-alternate"));
    await waitFor(() => expect(useDesigner.getState().topology?.name).toBe("untitled"));
    expect(useDesigner.getState().path).toBeNull();
  });
});

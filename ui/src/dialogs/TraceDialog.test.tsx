// Open trace's "Choose a file…" in the browser host (no native dialog): the picked file's text is
// imported and its run opened; an error stays in the dialog with its code; a duplicate can be
// imported again.
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { App } from "../app/App";
import { createMockPlatform, type MockTrace } from "../platform/mock";
import { FIXTURES } from "../platform/fixtures";
import { RECORDED_RUNS, type RecordedRun } from "../platform/mock-runs";
import { PlatformError } from "../platform/types";
import { useDebugger } from "../store/debugger";
import { useDesigner } from "../store/designer";
import { useUi } from "../store/ui";

const LOOP = RECORDED_RUNS["handoff-loop"] as RecordedRun;
const TRACES: Record<string, MockTrace> = {
  "agents.jsonl": { format: "openai-agents", notes: [], runs: [LOOP] },
  "broken.jsonl": { error: { code: "import.parse", message: "broken.jsonl: line 2 (byte 40): expected a span object; nothing was imported" } },
};

async function openDialog(platform = createMockPlatform(FIXTURES, { traces: TRACES })) {
  render(<App platform={platform} />);
  fireEvent.click(await screen.findByTestId("welcome-open-trace"));
  await screen.findByTestId("trace-dialog");
  return platform;
}

const choose = (name: string, text: string) => fireEvent.change(screen.getByTestId("trace-upload-input"), { target: { files: [new File([text], name)] } });

describe("Open trace: Choose a file…", () => {
  beforeEach(() => {
    useDesigner.getState().close();
    useDebugger.getState().exit();
    useUi.setState({ dialog: null, confirm: null, toasts: [], compare: null });
  });

  it("imports the chosen file's content and opens it in the debugger", async () => {
    const platform = await openDialog();
    expect(screen.getByTestId("trace-upload").textContent).toMatch(/Choose a file/);
    expect(screen.getByTestId("trace-upload-input").getAttribute("accept")).toBe(".json,.jsonl,.ndjson,.txt");
    choose("agents.jsonl", '{"object":"trace"}\n');
    await waitFor(() => expect(useDebugger.getState().overview?.summary.source).toMatchObject({ file: "agents.jsonl" }));
    expect(screen.queryByTestId("trace-dialog")).toBeNull();
    expect(platform.calls.filter((c) => c.command === "import_trace_upload").map((c) => (c.args as { name: string }).name)).toEqual(["agents.jsonl"]);
  });

  it("keeps the error and its code in the dialog", async () => {
    await openDialog();
    choose("broken.jsonl", "{}\n{");
    const err = await screen.findByTestId("trace-error");
    expect(err.getAttribute("data-code")).toBe("import.parse");
    expect(err.textContent).toMatch(/line 2 \(byte 40\)/);
    expect(screen.getByTestId("trace-dialog")).toBeTruthy();
    expect(useDebugger.getState().mode).toBe("design");
  });

  it("offers Import again for a file imported before", async () => {
    const platform = createMockPlatform(FIXTURES, { traces: TRACES });
    const real = platform.import_trace_upload;
    platform.import_trace_upload = (a) =>
      a.again ? real(a) : Promise.reject(new PlatformError("import.duplicate", `${a.name}: already imported as run ${LOOP.summary.id} (the same content); import again with --again`));
    await openDialog(platform);
    choose("agents.jsonl", "{}");
    const err = await screen.findByTestId("trace-error");
    expect(err.getAttribute("data-code")).toBe("import.duplicate");
    fireEvent.click(screen.getByTestId("trace-import-again"));
    await waitFor(() => expect(useDebugger.getState().overview).not.toBeNull());
    expect(screen.queryByTestId("trace-dialog")).toBeNull();
  });
});

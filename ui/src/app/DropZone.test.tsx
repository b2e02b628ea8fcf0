// A trace file dropped on the window, with the mock platform: imported from its content and
// opened in the debugger; refused before reading (kind, count, size) or by the backend, with the
// message and code kept in the overlay and nothing imported; "Import again" for a duplicate.
import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { createMockPlatform, type MockPlatform, type MockTrace } from "../platform/mock";
import { RECORDED_RUNS, type RecordedRun } from "../platform/mock-runs";
import { FIXTURES } from "../platform/fixtures";
import { PlatformError } from "../platform/types";
import { NO_FILTERS } from "../run/runsQuery";
import { useDebugger } from "../store/debugger";
import { useDesigner } from "../store/designer";
import { useRunsHome } from "../store/runsHome";
import { useUi } from "../store/ui";
import { App } from "./App";

const LOOP = RECORDED_RUNS["handoff-loop"] as RecordedRun;

/** What the mock imports under each file name (it has no importers of its own). */
const TRACES: Record<string, MockTrace> = {
  "handoff.jsonl": { format: "openai-agents", notes: [], runs: [{ ...LOOP, summary: { ...LOOP.summary, scenario: "imported" } }] },
  "broken.jsonl": { error: { code: "import.parse", message: "broken.jsonl: line 3 (byte 812): expected a span object; nothing was imported" } },
};

type Droppable = { name: string; size: number; text(): Promise<string> };

const file = (name: string, text: string): Droppable => new File([text], name);

function dispatch(type: string, files: Droppable[]) {
  const e = new Event(type, { bubbles: true, cancelable: true });
  Object.defineProperty(e, "dataTransfer", { value: { types: ["Files"], files, dropEffect: "none" } });
  act(() => {
    window.dispatchEvent(e);
  });
  return e;
}

const uploads = (p: MockPlatform) => p.calls.filter((c) => c.command === "import_trace_upload");

async function start(platform = createMockPlatform(FIXTURES, { traces: TRACES })) {
  render(<App platform={platform} />);
  await screen.findByTestId("welcome");
  return platform;
}

describe("dropping a trace file on the window", () => {
  beforeEach(() => {
    useDesigner.getState().close();
    useDebugger.getState().exit();
    useRunsHome.setState({ open: false, filters: NO_FILTERS });
    useUi.setState({ dialog: null, confirm: null, toasts: [], compare: null });
  });

  it("shows an overlay while a file is dragged over the window, gone when it leaves", async () => {
    await start();
    const over = dispatch("dragenter", [file("handoff.jsonl", "{}")]);
    expect(over.defaultPrevented).toBe(true);
    expect(screen.getByTestId("drop-overlay").getAttribute("data-state")).toBe("dragging");
    expect(dispatch("dragover", []).defaultPrevented).toBe(true); // a drop is allowed
    dispatch("dragleave", []);
    expect(screen.queryByTestId("drop-overlay")).toBeNull();
  });

  it("imports the dropped file's text under its name and opens its first run in the debugger", async () => {
    const platform = await start();
    const text = '{"object":"trace.span"}\n';
    const drop = dispatch("drop", [file("handoff.jsonl", text)]);
    expect(drop.defaultPrevented).toBe(true); // the browser does not open the file itself
    await waitFor(() => expect(useDebugger.getState().overview?.summary.topology).toBe("handoff-loop"));
    expect(uploads(platform)).toEqual([{ command: "import_trace_upload", args: { name: "handoff.jsonl", from: undefined, bytes: text.length } }]);
    expect(screen.getByTestId("debugger").getAttribute("data-run")).toBe(useDebugger.getState().runId);
    expect(useDebugger.getState().overview?.summary.source).toMatchObject({ file: "handoff.jsonl" });
    await waitFor(() => expect(screen.queryByTestId("drop-overlay")).toBeNull());
  });

  it("works over the Runs home too, which gives way to the debugger", async () => {
    await start();
    act(() => useRunsHome.getState().show());
    await screen.findByTestId("runs-home");
    dispatch("drop", [file("handoff.jsonl", "{}")]);
    await waitFor(() => expect(useDebugger.getState().overview).not.toBeNull());
    expect(screen.queryByTestId("runs-home")).toBeNull();
  });

  it("refuses a file that is not a trace, several files, and an empty one, without sending anything", async () => {
    const platform = await start();
    dispatch("drop", [file("ticket-reopen.yaml", "version: 1\n")]);
    let err = await screen.findByTestId("drop-error");
    expect(err.getAttribute("data-code")).toBe("import.unknown_format");
    expect(screen.getByTestId("drop-error-message").textContent).toMatch(/ticket-reopen\.yaml is not a trace file/);
    fireEvent.click(screen.getByTestId("drop-close"));
    expect(screen.queryByTestId("drop-overlay")).toBeNull();

    dispatch("drop", [file("a.jsonl", "{}"), file("b.jsonl", "{}")]);
    err = await screen.findByTestId("drop-error");
    expect(err.getAttribute("data-code")).toBe("import.read");
    expect(err.textContent).toMatch(/2 files were dropped; drop one trace file at a time/);
    fireEvent.keyDown(window, { key: "Escape" });
    await waitFor(() => expect(screen.queryByTestId("drop-overlay")).toBeNull());

    dispatch("drop", [file("blank.json", "  \n")]);
    err = await screen.findByTestId("drop-error");
    expect(err.getAttribute("data-code")).toBe("import.read");
    expect(err.textContent).toMatch(/blank\.json: the file is empty/);

    expect(uploads(platform)).toEqual([]);
    expect(useDebugger.getState().mode).toBe("design");
  });

  it("refuses a file over the request limit before reading it, pointing to Open trace with a path", async () => {
    const platform = await start();
    const text = vi.fn(async () => "");
    dispatch("drop", [{ name: "huge.jsonl", size: 40 * 1024 * 1024, text }]);
    const err = await screen.findByTestId("drop-error");
    expect(err.getAttribute("data-code")).toBe("import.too_large");
    expect(err.textContent).toMatch(/huge\.jsonl is 40 MB/);
    expect(err.textContent).toMatch(/Open trace with its path/);
    expect(text).not.toHaveBeenCalled();
    expect(uploads(platform)).toEqual([]);
  });

  it("keeps the backend's error and code in the overlay, and nothing is imported", async () => {
    const platform = await start();
    const before = (await platform.search_runs({})).total;
    dispatch("drop", [file("broken.jsonl", "{}\n{}\n{")]);
    const err = await screen.findByTestId("drop-error");
    expect(err.getAttribute("data-code")).toBe("import.parse");
    expect(screen.getByTestId("drop-error-code").textContent).toBe("import.parse");
    expect(err.textContent).toMatch(/line 3 \(byte 812\): expected a span object/);
    fireEvent.click(screen.getByTestId("drop-close"));
    dispatch("drop", [file("notes.json", '{"hello": 1}')]);
    expect((await screen.findByTestId("drop-error")).getAttribute("data-code")).toBe("import.unknown_format");
    expect((await platform.search_runs({})).total).toBe(before);
    expect(useDebugger.getState().mode).toBe("design");
  });

  it("offers Import again for a file imported before (and the earlier run)", async () => {
    const platform = await start();
    const real = platform.import_trace_upload;
    const earlier = LOOP.summary.id;
    platform.import_trace_upload = (a) =>
      a.again
        ? real(a)
        : Promise.reject(
            new PlatformError("import.duplicate", `${a.name}: already imported as run ${earlier} (the same content); \`baton trace show ${earlier}\` shows it, or import again with --again`),
          );
    dispatch("drop", [file("handoff.jsonl", "{}")]);
    const err = await screen.findByTestId("drop-error");
    expect(err.getAttribute("data-code")).toBe("import.duplicate");
    // the window's ways, not the CLI's
    expect(err.textContent).not.toMatch(/--again|baton trace show/);
    expect(err.textContent).toMatch(new RegExp(`already imported as run ${earlier}`));
    expect(screen.getByTestId("drop-open-earlier")).toBeTruthy();
    fireEvent.click(screen.getByTestId("drop-import-again"));
    await waitFor(() => expect(useDebugger.getState().overview).not.toBeNull());
    expect(useDebugger.getState().runId).not.toBe(earlier);
    await waitFor(() => expect(screen.queryByTestId("drop-overlay")).toBeNull());
  });
});

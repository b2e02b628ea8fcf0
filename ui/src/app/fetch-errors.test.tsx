// Every backend read shows its failure (the backend's message and code), never an empty result.
import type { ErrorCode } from "../bindings/ErrorCode";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { createMockPlatform, type MockPlatform } from "../platform/mock";
import { PlatformError } from "../platform/types";
import { useDebugger } from "../store/debugger";
import { useDesigner } from "../store/designer";
import { useRun } from "../store/run";
import { useUi } from "../store/ui";
import { App } from "./App";

beforeEach(() => {
  useDesigner.getState().close();
  useDebugger.getState().exit();
  useRun.setState({ live: null, breakpoints: {}, scenario: {}, latencyMs: 0, useLive: false });
  useUi.setState({ dialog: null, confirm: null, toasts: [], compare: null, bottomTab: "problems", bottomOpen: true });
  localStorage.clear();
});

const refuse = (code: ErrorCode, message: string) => vi.fn(async () => Promise.reject(new PlatformError(code, message)));

async function openTicketReopen(platform: MockPlatform) {
  render(<App platform={platform} />);
  const files = await screen.findAllByTestId("welcome-file");
  fireEvent.click(files.find((f) => f.textContent?.includes("ticket-reopen.yaml")) as HTMLElement);
  await screen.findByTestId("node-triage");
}

describe("failed reads are shown", () => {
  it("the welcome screen's file list, with a retry", async () => {
    const platform = createMockPlatform();
    const list_files = platform.list_files;
    platform.list_files = refuse("files.denied", "cannot read the folder");
    render(<App platform={platform} />);
    const err = await screen.findByTestId("welcome-files-error");
    expect(err.textContent).toContain("cannot read the folder");
    expect(err.getAttribute("data-code")).toBe("files.denied");
    platform.list_files = list_files;
    fireEvent.click(within(err).getByText("Retry"));
    await screen.findAllByTestId("welcome-file");
    expect(screen.queryByTestId("welcome-files-error")).toBeNull();
  });

  it("the Runs tab's list", async () => {
    const platform = createMockPlatform();
    await openTicketReopen(platform);
    platform.list_runs = refuse("store.locked", "the run store is locked");
    fireEvent.click(screen.getByTestId("tab-runs"));
    const err = await screen.findByTestId("runs-error");
    expect(err.textContent).toContain("the run store is locked");
    expect(err.getAttribute("data-code")).toBe("store.locked");
  });

  it("Settings' provider check", async () => {
    const platform = createMockPlatform();
    platform.provider_status = refuse("model.transport", "no network");
    render(<App platform={platform} />);
    fireEvent.click(await screen.findByTestId("settings-open"));
    expect((await screen.findByTestId("providers-error")).textContent).toContain("no network");
  });

  it("a step of the debugger, with a retry", async () => {
    const platform = createMockPlatform();
    await openTicketReopen(platform);
    fireEvent.click(screen.getByTestId("topbar-run"));
    await waitFor(() => expect(screen.getByTestId("run-status").getAttribute("data-status")).toBe("finished"));
    fireEvent.click(screen.getByTestId("run-debug"));
    await screen.findByTestId("transport");
    const step_view = platform.step_view;
    platform.step_view = refuse("store.corrupt", "step 8 is unreadable");
    const input = screen.getByTestId("step-input");
    fireEvent.focus(input);
    fireEvent.change(input, { target: { value: "8" } });
    fireEvent.keyDown(input, { key: "Enter" });
    const err = await screen.findByTestId("step-error");
    expect(err.textContent).toContain("step 8 is unreadable");
    expect(err.getAttribute("data-code")).toBe("store.corrupt");
    platform.step_view = step_view;
    fireEvent.click(within(err).getByText("Retry"));
    await waitFor(() => expect(screen.getByTestId("step-detail").getAttribute("data-step")).toBe("8"));
    expect(screen.queryByTestId("step-error")).toBeNull();
  });
});

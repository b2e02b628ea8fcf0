// The Runs tab's Capture switch, against the mock platform: the endpoint, its environment line and
// the counts while it is on; captured runs (of any topology) listed as they are saved; a taken
// port shown as the backend's {code, message}; off again.
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { createMockPlatform, demoCaptureFeed, type MockOptions, type MockPlatform } from "../platform/mock";
import { DEFAULT_CAPTURE_PORT } from "../run/capture";
import { useDebugger } from "../store/debugger";
import { useDesigner } from "../store/designer";
import { useRun } from "../store/run";
import { useUi } from "../store/ui";
import { App } from "./App";

beforeEach(() => {
  useDesigner.getState().close();
  useDebugger.getState().exit();
  useRun.setState({ live: null, breakpoints: {}, scenario: {}, latencyMs: 0, useLive: false, capturePort: DEFAULT_CAPTURE_PORT });
  useUi.setState({ dialog: null, confirm: null, toasts: [], compare: null, bottomTab: "problems", bottomOpen: true });
  localStorage.clear();
});

async function runsTab(opts: MockOptions = {}): Promise<MockPlatform> {
  const platform = createMockPlatform(undefined, opts);
  render(<App platform={platform} />);
  const files = await screen.findAllByTestId("welcome-file");
  fireEvent.click(files.find((f) => f.textContent?.includes("ticket-reopen.yaml")) as HTMLElement);
  await screen.findByTestId("node-triage");
  fireEvent.click(screen.getByTestId("tab-runs"));
  await screen.findByTestId("runs-panel");
  return platform;
}

const captureSwitch = () => screen.getByTestId("capture-switch") as HTMLInputElement;

describe("the Capture switch", () => {
  it("is off by default; on, it shows the endpoint, the environment line and the counts, and lists what arrives", async () => {
    const platform = await runsTab();
    await waitFor(() => expect(platform.calls.some((c) => c.command === "capture_status")).toBe(true));
    expect(captureSwitch().checked).toBe(false);
    expect(screen.queryByTestId("capture-bar")).toBeNull();
    expect((screen.getByTestId("capture-port") as HTMLInputElement).value).toBe("4318");

    // a port that is not one cannot be asked for
    fireEvent.change(screen.getByTestId("capture-port"), { target: { value: "70000" } });
    expect(captureSwitch().disabled).toBe(true);
    fireEvent.change(screen.getByTestId("capture-port"), { target: { value: "0" } });
    expect(captureSwitch().disabled).toBe(false);

    fireEvent.click(captureSwitch());
    const endpoint = await screen.findByTestId("capture-endpoint");
    expect(platform.calls.find((c) => c.command === "capture_start")?.args).toEqual({ port: 0 });
    expect(endpoint.textContent).toBe("http://127.0.0.1:43180/v1/traces");
    expect(screen.getByTestId("capture-hint").textContent).toBe("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=http://127.0.0.1:43180/v1/traces");
    expect(screen.getByTestId("capture-badge").textContent).toBe("0 runs · 0 transfers · 0 spans waiting");
    expect(captureSwitch().checked).toBe(true);
    expect(screen.queryByTestId("capture-port")).toBeNull();
    await screen.findByTestId("captured-empty");

    // a trace of another topology arrives: the polled status moves and the run is listed
    const [trace] = demoCaptureFeed();
    const id = platform.receiveTrace(trace!);
    const captured = await screen.findByTestId("captured-list");
    await waitFor(() => expect(within(captured).getAllByTestId("run-row").map((r) => r.getAttribute("data-run"))).toEqual([id]), { timeout: 3000 });
    const row = within(captured).getByTestId("run-row");
    expect(within(row).getByTestId("run-topology").textContent).toBe("support workflow");
    expect(within(row).getByTestId("run-imported").textContent).toBe("otlp");
    expect(screen.getByTestId("capture-badge").getAttribute("data-runs")).toBe("1");
    expect(screen.getByTestId("capture-badge").textContent).toMatch(/^1 run · \d+ transfers? · 0 spans waiting$/);
    // not a run of the open topology: listed once, among the captured ones
    expect(screen.getAllByTestId("run-row").filter((r) => r.getAttribute("data-run") === id)).toHaveLength(1);

    // off: the open traces are saved, the lists asked again, the bar and the captured list go
    fireEvent.click(captureSwitch());
    await waitFor(() => expect(screen.queryByTestId("capture-bar")).toBeNull());
    expect(platform.calls.some((c) => c.command === "capture_stop")).toBe(true);
    expect(screen.queryByTestId("captured-list")).toBeNull();
    expect(captureSwitch().checked).toBe(false);
    expect((screen.getByTestId("capture-port") as HTMLInputElement).value).toBe("0");
  });

  it("polls only while on", async () => {
    const platform = await runsTab();
    await waitFor(() => expect(platform.calls.some((c) => c.command === "capture_status")).toBe(true));
    const polls = () => platform.calls.filter((c) => c.command === "capture_status").length;
    const before = polls();
    await new Promise((r) => setTimeout(r, 1300));
    expect(polls()).toBe(before);
    fireEvent.click(captureSwitch());
    await screen.findByTestId("capture-endpoint");
    const on = polls();
    await waitFor(() => expect(polls()).toBeGreaterThan(on), { timeout: 2500 });
  });

  it("a taken port is shown as the backend's {code, message}, and the switch stays off", async () => {
    const platform = await runsTab({ takenPorts: [4318] });
    fireEvent.click(captureSwitch());
    const err = await screen.findByTestId("capture-error");
    expect(err.getAttribute("data-code")).toBe("capture.listen");
    expect(err.textContent).toContain("Could not start capture: cannot listen on 127.0.0.1:4318");
    expect(err.textContent).toContain("pick another port");
    expect(captureSwitch().checked).toBe(false);
    expect(platform.calls.find((c) => c.command === "capture_start")?.args).toEqual({ port: 4318 });
    // another port: it starts, and the error goes
    fireEvent.change(screen.getByTestId("capture-port"), { target: { value: "4319" } });
    fireEvent.click(captureSwitch());
    expect((await screen.findByTestId("capture-endpoint")).textContent).toBe("http://127.0.0.1:4319/v1/traces");
    expect(screen.queryByTestId("capture-error")).toBeNull();
  });
});

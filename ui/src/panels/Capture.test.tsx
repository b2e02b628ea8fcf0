// Why this file exists: the capture bar says which traces were not saved and why (issue #31):
// a refused trace must not vanish behind "0 spans waiting".
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Capture } from "../hooks/useCapture";
import { CaptureBar } from "./Capture";

const capture = (refused: string[]): Capture => ({
  status: {
    on: true,
    endpoint: "http://127.0.0.1:4318/v1/traces",
    spans: 1,
    runs: 0,
    transfers: 0,
    lost_facts: 0,
    waiting: 0,
    last_run: null,
    refused,
  },
  statusError: null,
  pending: null,
  error: null,
  on: true,
  setOn: async () => {},
});

describe("the capture bar", () => {
  it("says nothing of refusals when there are none", () => {
    render(<CaptureBar capture={capture([])} />);
    expect(screen.queryByTestId("capture-refused")).toBeNull();
  });

  it("shows the latest refused trace's reason and counts them", () => {
    const why = "trace 00aa: no model call, tool run or transfer Baton recognises (…); not saved";
    render(<CaptureBar capture={capture(["trace 0011: earlier", why])} />);
    const el = screen.getByTestId("capture-refused");
    expect(el.dataset.count).toBe("2");
    expect(el.textContent).toContain("2 traces not saved");
    expect(el.textContent).toContain(why);
    expect(el.getAttribute("title")).toContain("trace 0011: earlier");
  });
});

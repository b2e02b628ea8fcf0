// A model call's detail with a recorded exchange (hand-made, in the Chat Completions shape the
// OpenAI provider records): the summary lines, and the request and response as folding JSON.
import { render, screen, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import type { StepBrief, StepView } from "../run/types";
import { useDebugger } from "../store/debugger";
import { ModelCallView } from "./ModelCallView";

const view: StepView = {
  step: {
    index: 2,
    kind: "model_call",
    agent: "resolution",
    owner: "resolution",
    depth: 0,
    context: [],
    usage: { input_tokens: 129, output_tokens: 15 },
    exchange: {
      request: { model: "gpt-4o", messages: [{ role: "system", content: "You fix bugs." }, { role: "user", content: "Ticket #4812" }] },
      response: { model: "gpt-4o-2024-08-06", choices: [{ index: 0, finish_reason: "tool_calls", message: { role: "assistant", content: null } }], usage: { prompt_tokens: 129, completion_tokens: 15 } },
    },
  },
  context: [],
  context_offset: 0,
  context_total: 0,
  output: [],
  transfer: null,
  step_count: 12,
  prev_transfer: 1,
  next_transfer: 5,
};
const brief: StepBrief = { index: 2, kind: "model_call", agent: "resolution", owner: "resolution", depth: 0, transfer: null, detail: "call 1 of Resolution", tokens: 144, context_len: 7, start_ms: 40, duration_ms: 812 };

describe("a model call's detail", () => {
  beforeEach(() => useDebugger.setState({ topology: null }));

  it("shows the model the provider answered with, latency, finish reason and tokens; request and response fold", () => {
    render(<ModelCallView view={view} brief={brief} />);
    expect(screen.getByTestId("call-model").textContent).toContain("gpt-4o-2024-08-06");
    expect(screen.getByTestId("call-latency").textContent).toContain("812 ms");
    expect(screen.getByTestId("call-finish").textContent).toContain("tool_calls");
    expect(screen.getByTestId("call-tokens").textContent).toContain("129 in · 15 out");
    // no cost in this response: no cost line, and the view says so
    expect(screen.queryByTestId("call-cost")).toBeNull();
    expect(screen.getByTestId("call-missing").textContent).toContain("cost");

    const req = screen.getByTestId("call-request");
    expect(req.textContent).toContain('"messages"');
    expect(req.textContent).toContain('"You fix bugs."');
    // the first two levels open; deeper ones fold (a message object inside the list)
    const nodes = within(req).getAllByTestId("json-node") as HTMLDetailsElement[];
    expect(nodes[0]!.open).toBe(true);
    expect(nodes.some((n) => !n.open)).toBe(true);
    expect(screen.getByTestId("call-response").textContent).toContain('"finish_reason"');
  });
});

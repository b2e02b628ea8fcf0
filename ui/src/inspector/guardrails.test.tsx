// Guardrail editing through the designer store (undo, dirty) and the inspector's Guardrails section, on a topology transcribed from examples/ticket-reopen.yaml (entry triage; triage → resolution → verification) with the guardrail format of schema/topology.schema.json and bindings/Guardrail.ts.
import { act, fireEvent, render, screen, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { deriveFlow } from "../canvas/derive";
import { addGuardrail, guardrailBadge, neverRuns, parseSchema, removeGuardrail, setGuardrailOn, updateGuardrail, withCheckKind } from "../model/guardrails";
import { removeAgents, renameAgent } from "../model/topology";
import type { Topology } from "../model/types";
import { EMPTY_SELECTION, selectDirty, useDesigner } from "../store/designer";
import { GuardrailsEditor } from "./GuardrailsEditor";

const ticket: Topology = {
  version: 1,
  name: "ticket-reopen",
  entry: "triage",
  agents: [
    { id: "triage", name: "Triage" },
    { id: "resolution", name: "Resolution" },
    { id: "verification", name: "Verification" },
  ],
  edges: [
    { kind: "handoff", from: "triage", to: "resolution" },
    { kind: "handoff", from: "resolution", to: "verification" },
  ],
  guards: { max_turns: 10, max_handoffs: 4, on_revisit: "stop" },
};

const s = () => useDesigner.getState();

function Editor({ scope }: { scope: string | null }) {
  const t = useDesigner((st) => st.topology);
  return t ? <GuardrailsEditor topology={t} scope={scope} /> : null;
}

describe("guardrail edits (model)", () => {
  it("adds, edits and removes by index; an output guardrail has no run_in_parallel", () => {
    let t = addGuardrail(ticket, "triage");
    expect(t.guardrails).toEqual([{ name: "input_guardrail", agent: "triage", on: "input", check: { contains: "" }, run_in_parallel: true }]);
    t = addGuardrail(t, null, "output");
    expect(t.guardrails?.[1]).toEqual({ name: "output_guardrail", on: "output", check: { contains: "" } });
    t = addGuardrail(t, "triage");
    expect(t.guardrails?.[2]?.name).toBe("input_guardrail_2");
    t = updateGuardrail(t, 0, (g) => ({ ...g, name: "no_refund", check: { contains: "refund" } }));
    expect(t.guardrails?.[0]).toMatchObject({ name: "no_refund", check: { contains: "refund" } });
    expect(setGuardrailOn(t.guardrails![0]!, "output")).toEqual({ name: "no_refund", agent: "triage", on: "output", check: { contains: "refund" } });
    t = removeGuardrail(removeGuardrail(removeGuardrail(t, 2), 1), 0);
    expect(t).toEqual(ticket);
  });

  it("switches the check's kind (contains ↔ regex keep the text) and reads a schema as JSON text", () => {
    expect(withCheckKind({ contains: "refund" }, "regex")).toEqual({ regex: "refund" });
    expect(withCheckKind({ regex: "ref(und)?" }, "contains")).toEqual({ contains: "ref(und)?" });
    expect(withCheckKind({ contains: "x" }, "schema")).toEqual({ schema: { type: "object" } });
    expect(parseSchema('{"type": "object", "required": ["answer"]}')).toEqual({ ok: true, value: { type: "object", required: ["answer"] } });
    expect(parseSchema('{"type": ').ok).toBe(false);
    expect(parseSchema("[1]").ok).toBe(false);
  });

  it("an input guardrail on a non-entry agent never runs; run-wide and output ones do", () => {
    expect(neverRuns(ticket, { name: "g", agent: "verification", on: "input", check: { contains: "x" } })).toMatch(/Never runs: .*starting agent only \(here triage\)/);
    expect(neverRuns(ticket, { name: "g", agent: "triage", on: "input", check: { contains: "x" } })).toBeNull();
    expect(neverRuns(ticket, { name: "g", agent: "verification", on: "output", check: { contains: "x" } })).toBeNull();
    expect(neverRuns(ticket, { name: "g", on: "input", check: { contains: "x" } })).toBeNull();
  });

  it("the canvas badge counts an agent's guardrails by input/output and lists them in its title", () => {
    const t: Topology = {
      ...ticket,
      guardrails: [
        { name: "no_refund", agent: "triage", on: "input", check: { contains: "refund" } },
        { name: "json_answer", agent: "triage", on: "output", check: { schema: { type: "object" } } },
        { name: "everywhere", on: "input", check: { regex: "secret" } },
      ],
    };
    expect(guardrailBadge(t, "triage")).toEqual({ input: 1, output: 1, title: "Guardrails:\nno_refund (input · contains 'refund')\njson_answer (output · JSON Schema)" });
    expect(guardrailBadge(t, "resolution")).toBeNull();
    const { nodes } = deriveFlow(t, EMPTY_SELECTION, [], {});
    expect(nodes.find((n) => n.id === "triage")?.data.guardrails?.input).toBe(1);
    expect(nodes.find((n) => n.id === "resolution")?.data.guardrails).toBeUndefined();
  });

  it("renaming an agent renames its guardrails' agent; removing it removes them", () => {
    const t: Topology = { ...ticket, guardrails: [{ name: "g", agent: "resolution", on: "output", check: { contains: "x" } }, { name: "w", on: "input", check: { contains: "y" } }] };
    expect(renameAgent(t, "resolution", "fixer").guardrails?.[0]?.agent).toBe("fixer");
    expect(removeAgents(t, ["resolution"]).guardrails).toEqual([{ name: "w", on: "input", check: { contains: "y" } }]);
  });
});

describe("the Guardrails section (through the designer's commit)", () => {
  beforeEach(() => {
    s().close();
    s().load(ticket, "ticket-reopen.yaml");
  });

  it("adds an input guardrail on the entry agent, edits it, and undo takes each edit back", () => {
    render(<Editor scope="triage" />);
    const section = screen.getByTestId("guardrails");
    expect(within(section).getByRole("heading").textContent).toBe("Guardrails · 0");
    fireEvent.click(within(section).getByTestId("guardrail-add"));
    expect(selectDirty(s())).toBe(true);
    const card = screen.getByTestId("guardrail-0");
    expect(card.dataset.on).toBe("input");
    fireEvent.change(within(card).getByTestId("guardrail-name"), { target: { value: "no_refund" } });
    fireEvent.change(within(card).getByTestId("guardrail-value"), { target: { value: "refund" } });
    fireEvent.change(within(card).getByTestId("guardrail-message"), { target: { value: "Refund requests go to billing." } });
    fireEvent.click(within(card).getByTestId("guardrail-parallel-blocking"));
    expect(s().topology?.guardrails).toEqual([
      { name: "no_refund", agent: "triage", on: "input", check: { contains: "refund" }, run_in_parallel: false, message: "Refund requests go to billing." },
    ]);
    // output: no run_in_parallel, no "When"
    fireEvent.click(within(card).getByTestId("guardrail-on-output"));
    expect(s().topology?.guardrails?.[0]).not.toHaveProperty("run_in_parallel");
    expect(within(card).queryByTestId("guardrail-parallel")).toBeNull();
    act(() => s().undo());
    expect(s().topology?.guardrails?.[0]?.run_in_parallel).toBe(false);
    act(() => s().undo());
    expect(s().topology?.guardrails?.[0]?.run_in_parallel).toBe(true);
    // back to before the add: clean again
    while (s().past.length) act(() => s().undo());
    expect(s().topology?.guardrails).toBeUndefined();
    expect(selectDirty(s())).toBe(false);
    expect(within(screen.getByTestId("guardrails")).getByRole("heading").textContent).toBe("Guardrails · 0");
  });

  it("a schema check is JSON text: invalid JSON is kept as typed with why, not applied; valid JSON is", () => {
    render(<Editor scope={null} />);
    fireEvent.click(within(screen.getByTestId("guardrails-run-wide")).getByTestId("guardrail-add"));
    const card = screen.getByTestId("guardrail-0");
    fireEvent.click(within(card).getByTestId("guardrail-kind-schema"));
    expect(s().topology?.guardrails?.[0]?.check).toEqual({ schema: { type: "object" } });
    const area = within(card).getByTestId("guardrail-schema") as HTMLTextAreaElement;
    fireEvent.change(area, { target: { value: '{"type": "object", "required": [' } });
    expect(area.value).toBe('{"type": "object", "required": [');
    expect(area.getAttribute("aria-invalid")).toBe("true");
    expect(card.textContent).toMatch(/Not JSON/);
    expect(s().topology?.guardrails?.[0]?.check).toEqual({ schema: { type: "object" } });
    fireEvent.change(area, { target: { value: '{"type": "object", "required": ["answer"]}' } });
    expect(area.getAttribute("aria-invalid")).toBe("false");
    expect(s().topology?.guardrails?.[0]?.check).toEqual({ schema: { type: "object", required: ["answer"] } });
    // run-wide: no agent
    expect(s().topology?.guardrails?.[0]).not.toHaveProperty("agent");
  });

  it("says next to an input guardrail on a non-entry agent that the SDK never runs it; removes it", () => {
    act(() => s().commit((t) => ({ ...t, guardrails: [{ name: "late_check", agent: "verification", on: "input", check: { contains: "refund" } }] })));
    render(<Editor scope="verification" />);
    const card = screen.getByTestId("guardrail-0");
    expect(within(card).getByTestId("guardrail-never").textContent).toMatch(/Never runs: the Agents SDK checks input guardrails on the starting agent only \(here triage\)/);
    fireEvent.click(within(card).getByTestId("guardrail-on-output"));
    expect(within(screen.getByTestId("guardrail-0")).queryByTestId("guardrail-never")).toBeNull();
    fireEvent.click(within(screen.getByTestId("guardrail-0")).getByTestId("guardrail-remove"));
    expect(s().topology?.guardrails).toBeUndefined();
    expect(screen.queryByTestId("guardrail-0")).toBeNull();
  });
});

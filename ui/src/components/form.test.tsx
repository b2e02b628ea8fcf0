// NumberField keeps what is typed until it is a value, and follows changes made elsewhere.
import { fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { NumberField } from "./form";

function Harness({ initial = 3 as number | null }) {
  const [value, setValue] = useState<number | null>(initial);
  return (
    <>
      <NumberField label="Turns" value={value} onChange={setValue} testId="n" min={1} integer allowEmpty={false} />
      <output data-testid="value">{String(value)}</output>
      <button onClick={() => setValue(7)}>elsewhere</button>
    </>
  );
}

const input = () => screen.getByTestId("n") as HTMLInputElement;

describe("NumberField", () => {
  it("keeps a draft that is not a value yet, with the reason, and does not hand it on", () => {
    render(<Harness />);
    fireEvent.change(input(), { target: { value: "2.5" } });
    expect(input().value).toBe("2.5");
    expect(screen.getByText("A whole number")).toBeTruthy();
    expect(screen.getByTestId("value").textContent).toBe("3");
    fireEvent.change(input(), { target: { value: "" } });
    expect(screen.getByText("Required")).toBeTruthy();
    fireEvent.change(input(), { target: { value: "0" } });
    expect(screen.getByText("At least 1")).toBeTruthy();
  });

  it("keeps the text it typed for the value it produced", () => {
    render(<Harness />);
    fireEvent.change(input(), { target: { value: "05" } });
    expect(screen.getByTestId("value").textContent).toBe("5");
    expect(input().value).toBe("05");
  });

  it("shows a value changed elsewhere (undo, another selection) instead of the draft", () => {
    render(<Harness />);
    fireEvent.change(input(), { target: { value: "x" } });
    expect(screen.getByText("Not a number")).toBeTruthy();
    fireEvent.click(screen.getByText("elsewhere"));
    expect(input().value).toBe("7");
    expect(screen.queryByText("Not a number")).toBeNull();
  });
});

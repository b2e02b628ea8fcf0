// The Python picker's memory and choice, on hand-made lists like the backend's.
import { beforeEach, describe, expect, it } from "vitest";
import { interpreterLabel, lastPython, preselect, rememberPython } from "./interpreters";

const found = [
  { path: "/work/app/.venv/bin/python", found: "a virtual environment beside the module" },
  { path: "/opt/py/bin/python3", found: "$BATON_PYTHON" },
  { path: "python3", found: "python3 on PATH" },
];

describe("interpreters", () => {
  beforeEach(() => localStorage.clear());

  it("preselects the default unless another was used last for this module and is still found", () => {
    expect(preselect(found, null)).toBe("/work/app/.venv/bin/python");
    rememberPython("app.py", "python3");
    expect(lastPython("app.py")).toBe("python3");
    expect(lastPython("other.py")).toBeNull();
    expect(preselect(found, lastPython("app.py"))).toBe("python3");
    // a venv since deleted: back to the default
    expect(preselect(found, "/gone/.venv/bin/python")).toBe("/work/app/.venv/bin/python");
    expect(preselect([], null)).toBe("");
  });

  it("says where each was found, and which was used last", () => {
    expect(interpreterLabel(found[2]!, "python3")).toBe("python3 — python3 on PATH (used last)");
    expect(interpreterLabel(found[0]!, "python3")).toBe("/work/app/.venv/bin/python — a virtual environment beside the module");
  });

  it("keeps the newest fifty modules", () => {
    for (let i = 0; i < 60; i++) rememberPython(`m${i}.py`, "python3");
    expect(lastPython("m9.py")).toBeNull();
    expect(lastPython("m10.py")).toBe("python3");
    expect(lastPython("m59.py")).toBe("python3");
  });
});

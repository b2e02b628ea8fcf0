// The facts overlay of imported runs: per run id in localStorage, read back on a new start, one
// run's pins apart from another's, and damaged entries skipped.
import { beforeEach, describe, expect, it } from "vitest";
import { OVERLAY_PREFIX, overlayOf, readOverlays, useFactOverlay } from "./factOverlay";

const BILLING = { id: "you-resolve-billing-questions-anything-caused", text: "You resolve billing questions. Anything caused by a bug belongs to technical support.", holders: ["billing"] };
const TECH = { id: "you-resolve-technical-issues-anything-about", text: "You resolve technical issues. Anything about money belongs to billing.", holders: ["technical"] };

describe("the facts overlay store", () => {
  beforeEach(() => {
    localStorage.clear();
    useFactOverlay.getState().reload();
  });

  it("keeps each run's facts under its own key, and reads them back", () => {
    useFactOverlay.getState().pin("run-a", BILLING);
    useFactOverlay.getState().pin("run-a", TECH);
    useFactOverlay.getState().pin("run-b", TECH);
    expect(JSON.parse(localStorage.getItem(`${OVERLAY_PREFIX}run-a`) ?? "[]")).toEqual([BILLING, TECH]);
    expect(JSON.parse(localStorage.getItem(`${OVERLAY_PREFIX}run-b`) ?? "[]")).toEqual([TECH]);
    // a new window starts from storage
    expect(readOverlays()).toEqual({ "run-a": [BILLING, TECH], "run-b": [TECH] });
    useFactOverlay.setState({ byRun: {} });
    useFactOverlay.getState().reload();
    expect(overlayOf(useFactOverlay.getState(), "run-a")).toEqual([BILLING, TECH]);
  });

  it("replaces a fact of the same id; unpinning the last one removes the run's key", () => {
    useFactOverlay.getState().pin("run-a", BILLING);
    useFactOverlay.getState().pin("run-a", { ...BILLING, holders: ["triage"] });
    expect(overlayOf(useFactOverlay.getState(), "run-a")).toEqual([{ ...BILLING, holders: ["triage"] }]);
    useFactOverlay.getState().unpin("run-a", BILLING.id);
    expect(localStorage.getItem(`${OVERLAY_PREFIX}run-a`)).toBeNull();
    expect(useFactOverlay.getState().byRun).toEqual({});
  });

  it("the same empty list for a run without facts or no run; damaged entries and other keys are skipped", () => {
    const s = useFactOverlay.getState();
    expect(overlayOf(s, "nope")).toBe(overlayOf(s, null));
    localStorage.setItem(`${OVERLAY_PREFIX}bad`, "{not json");
    localStorage.setItem(`${OVERLAY_PREFIX}odd`, JSON.stringify([BILLING, { id: 3 }, "x"]));
    localStorage.setItem("baton.diff.mode", "split");
    expect(readOverlays()).toEqual({ odd: [BILLING] });
  });
});

// The places an agent's name may wrap, read off names from real traces (ADK's sample agents).
import { describe, expect, it } from "vitest";
import { wordBreaks } from "./wordBreaks";

describe("wordBreaks", () => {
  it("breaks after separators and before a capital, never inside a word", () => {
    expect(wordBreaks("information_retrieval_agent")).toEqual(["information_", "retrieval_", "agent"]);
    expect(wordBreaks("researchPlanAgent")).toEqual(["research", "Plan", "Agent"]);
    expect(wordBreaks("front-desk.v2")).toEqual(["front-", "desk.", "v2"]);
    expect(wordBreaks("Billing")).toEqual(["Billing"]);
    expect(wordBreaks("ends_")).toEqual(["ends_"]);
    expect(wordBreaks("")).toEqual([""]);
  });
});

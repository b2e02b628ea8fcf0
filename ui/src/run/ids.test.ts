import { describe, expect, it } from "vitest";
import { shortRunId } from "./ids";

describe("shortRunId", () => {
  it("tells apart two UUIDv7 ids made in the same millisecond", () => {
    // RFC 9562 UUIDv7: 48 bits of Unix ms, then version, then random bits.
    const parent = "019ae3b2-7c41-7a1f-9d2e-4b8c1f00aa01";
    const fork = "019ae3b2-7c41-7c55-8e10-0d7f3e92bb42";
    expect(parent.slice(0, 8)).toBe(fork.slice(0, 8));
    expect(shortRunId(parent)).toBe("1f00aa01");
    expect(shortRunId(fork)).toBe("3e92bb42");
  });
  it("keeps a short id whole", () => {
    expect(shortRunId("abc")).toBe("abc");
  });
});

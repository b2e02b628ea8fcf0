import { beforeEach, describe, expect, it } from "vitest";
import { clearRecent, fileName, loadRecent, pushRecent } from "./recent";

describe("recent files", () => {
  beforeEach(() => clearRecent());

  it("keeps the most recent first, without duplicates, at most 8", () => {
    for (let i = 0; i < 10; i++) pushRecent(`dir/f${i}.yaml`);
    pushRecent("dir/f5.yaml");
    const r = loadRecent();
    expect(r).toHaveLength(8);
    expect(r[0]).toEqual({ path: "dir/f5.yaml", name: "f5.yaml" });
    expect(r.filter((x) => x.path === "dir/f5.yaml")).toHaveLength(1);
  });

  it("survives garbage in storage", () => {
    localStorage.setItem("baton.recent", "{not json");
    expect(loadRecent()).toEqual([]);
    localStorage.setItem("baton.recent", JSON.stringify([{ path: 1 }, { path: "a", name: "a" }]));
    expect(loadRecent()).toEqual([{ path: "a", name: "a" }]);
  });

  it("names files on any host", () => {
    expect(fileName("C:\\x\\y.yaml")).toBe("y.yaml");
    expect(fileName("/a/b.json")).toBe("b.json");
  });
});

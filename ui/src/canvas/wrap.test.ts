// The debugger's wrapped layout, on small made-up graphs whose answers are worked out by hand.
import { describe, expect, it } from "vitest";
import { panInto } from "./debugLayout";
import { cardPx, legibleFloor } from "./legible";
import { chooseWrap, layersOf, minWrapWidth, placeRows, wrapLines } from "./wrap";

describe("wrapLines / minWrapWidth", () => {
  it("counts greedy lines, Infinity when a piece is wider than the line", () => {
    expect(wrapLines([5, 5, 5], 10)).toBe(2);
    expect(wrapLines([5, 5, 5], 15)).toBe(1);
    expect(wrapLines([12], 10)).toBe(Infinity);
    expect(wrapLines([], 10)).toBe(1);
  });

  it("finds the narrowest line for at most n lines", () => {
    // 4 | 6 | 3 on three lines needs 6; 4 | 6 3 on two needs 9; one line needs 13
    expect(minWrapWidth([4, 6, 3], 3)).toBe(6);
    expect(minWrapWidth([4, 6, 3], 2)).toBe(9);
    expect(minWrapWidth([4, 6, 3], 1)).toBe(13);
  });
});

describe("layersOf", () => {
  it("groups by x within the tolerance, left to right, each top to bottom", () => {
    const at = { a: { x: 0, y: 0 }, b: { x: 300, y: 50 }, c: { x: 310, y: -20 }, d: { x: 700, y: 0 } };
    expect(layersOf(at)).toEqual([["a"], ["c", "b"], ["d"]]);
  });
});

describe("placeRows", () => {
  it("wraps layers onto rows, centring each layer on its row, in flow units", () => {
    const size = (id: string) => ({ w: 100, h: id === "b" ? 60 : 40 });
    const p = placeRows([["a"], ["b"], ["c"]], 2, 0.5, size, { layer: 20, stack: 10, row: 30, below: 0 });
    // row 0 is 60 px tall: a (40) 10 px down; b 100 + 20 px right; row 1 starts 60 + 30 px down
    expect(p.positions).toEqual({ a: { x: 0, y: 20 }, b: { x: 240, y: 0 }, c: { x: 0, y: 180 } });
    expect(p.width).toBe(220);
    expect(p.height).toBe(130);
  });
});

describe("chooseWrap", () => {
  const layers = [["a"], ["b"], ["c"], ["d"]];
  const size = (_: string, z: number) => ({ w: 100 * z, h: 50 * z });
  const gaps = { layer: 10, stack: 0, row: 10, below: 0 };

  it("picks the rows that show the chain largest", () => {
    // one row: 400z + 30 <= 250 gives 0.55; two rows: 200z + 10 <= 250 and 100z + 10 <= 200
    // allow 1 (the cap); four rows: 200z + 30 <= 200 gives 0.85; three rows are two rows
    const c = chooseWrap({ layers, size, gaps, room: { w: 250, h: 200 }, minZoom: 0.1, maxZoom: 1 });
    expect(c.rows).toBe(2);
    expect(c.zoom).toBe(1);
    expect(c.fits).toBe(true);
    expect(c.positions.c).toEqual({ x: 0, y: 60 });
    expect([c.width, c.height]).toEqual([210, 110]);
    const one = chooseWrap({ layers, size, gaps, room: { w: 250, h: 40 }, minZoom: 0.1, maxZoom: 1 });
    expect(one.rows).toBe(1);
    expect(one.zoom).toBeCloseTo(0.55, 5);
  });

  it("where nothing fits at the floor, keeps the floor and the rows that show most", () => {
    // at 0.5: one row 230x25 shows 100/230; two rows 110x60 show 100/110 * 40/60; four 50x130 show 40/130
    const c = chooseWrap({ layers, size, gaps, room: { w: 100, h: 40 }, minZoom: 0.5, maxZoom: 1 });
    expect([c.rows, c.zoom, c.fits]).toEqual([2, 0.5, false]);
  });
});

describe("cardPx / legibleFloor", () => {
  // far out the name is 10.6 px scaled by 1.12 / z: 11.872 px on screen, each piece counted 4 % wider
  const f = 10.6 * 1.12 * 1.04;

  it("sizes a card by the lines its name takes", () => {
    // pieces 74.1, 61.7, 49.4 px; at 0.5 the name has 104 px: three lines
    const half = cardPx([6, 5, 4], 0.5);
    expect(half.w).toBe(116);
    expect(half.h).toBeCloseTo(14 + 3 * 11.872 * 1.12 + 10.2 * 1.12 * 1.5, 6);
    // at 0.8 the icon shows and the name has 168 * 0.8 = 134.4 px: 74.1 | 61.7 + 49.4
    expect(cardPx([6, 5, 4], 0.8).h).toBeCloseTo(22.4 + 2 * 11.872 * 1.12 + 10.2 * 1.12 * 1.5, 6);
  });

  it("is the zoom at which the widest piece fills the name's box", () => {
    expect(legibleFloor([[6, 5, 4], [2]], 1)).toBeCloseTo((6 * f) / 208, 6);
    // 12 units need 148 px: over 0.7 of 208, so the icon shows and the box is 168
    expect(legibleFloor([[12]], 1)).toBeCloseTo((12 * f) / 168, 6);
    expect(legibleFloor([[14]], 1)).toBe(1);
  });
});

describe("panInto", () => {
  // the pane's room: x 56..586, y 28..192
  const pane = { w: 600, h: 200 };
  it("pans the least that brings a box inside, its start first when it is too large", () => {
    expect(panInto({ left: 100, top: 40, w: 80, h: 60 }, pane)).toEqual({ dx: 0, dy: 0 });
    expect(panInto({ left: 560, top: 40, w: 80, h: 60 }, pane)).toEqual({ dx: -54, dy: 0 });
    expect(panInto({ left: 10, top: 40, w: 80, h: 60 }, pane)).toEqual({ dx: 46, dy: 0 });
    expect(panInto({ left: 100, top: 50, w: 80, h: 180 }, pane)).toEqual({ dx: 0, dy: -22 });
  });
});

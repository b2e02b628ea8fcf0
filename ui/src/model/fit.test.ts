// Fit padding keeps the minimap's corner free by the band that costs the drawing least.
import { describe, expect, it } from "vitest";
import { OVERLAY, fitPadding, fitZoom, nodesBounds } from "./fit";

describe("fit padding", () => {
  it("without the minimap, only the toolbar and controls are kept clear", () => {
    expect(fitPadding({ width: 900, height: 100 }, { width: 940, height: 380 }, false)).toEqual({
      top: OVERLAY.top,
      right: OVERLAY.edge,
      bottom: OVERLAY.edge,
      left: OVERLAY.left,
    });
  });

  it("a wide drawing keeps a band free at the bottom, a tall one at the right", () => {
    const wide = fitPadding({ width: 1200, height: 100 }, { width: 940, height: 380 }, true);
    expect(wide.bottom).toBe(OVERLAY.minimap.height);
    expect(wide.right).toBe(OVERLAY.edge);
    const tall = fitPadding({ width: 200, height: 900 }, { width: 940, height: 380 }, true);
    expect(tall.right).toBe(OVERLAY.minimap.width);
    expect(tall.bottom).toBe(OVERLAY.edge);
  });

  it("whatever it picks, the fitted drawing ends before the minimap's box", () => {
    const view = { width: 940, height: 380 };
    for (const bounds of [{ width: 1200, height: 100 }, { width: 200, height: 900 }, { width: 600, height: 400 }]) {
      const pad = fitPadding(bounds, view, true);
      const z = fitZoom(bounds, view, pad, 1.1);
      // fitView centres the drawing in the padded box; its right and bottom edges on screen:
      const w = view.width - pad.left - pad.right;
      const h = view.height - pad.top - pad.bottom;
      const right = pad.left + (w + bounds.width * z) / 2;
      const bottom = pad.top + (h + bounds.height * z) / 2;
      const clear = right <= view.width - OVERLAY.minimap.width || bottom <= view.height - OVERLAY.minimap.height;
      expect(clear).toBe(true);
    }
  });

  it("measures the box around the nodes", () => {
    expect(nodesBounds([{ x: 0, y: 0 }, { x: 300, y: 50 }], [{ width: 100, height: 40 }, undefined], { width: 200, height: 80 })).toEqual({ width: 500, height: 130 });
  });
});

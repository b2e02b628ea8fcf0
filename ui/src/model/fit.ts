// Fit-view padding that keeps the nodes clear of what floats over the canvas (the add toolbar at
// the top left, the zoom controls at the bottom left, the minimap at the bottom right): the
// minimap's corner is kept free by reserving either a band at the bottom or one at the right,
// whichever leaves the drawing larger.
import type { Position } from "./types";

export type Size = { width: number; height: number };
export type PxPadding = { top: number; right: number; bottom: number; left: number };

/** The space the overlays take, in screen pixels (see `.canvas-toolbar`, `.react-flow__minimap`). */
export const OVERLAY = {
  top: 64,
  left: 56,
  edge: 24,
  /** The minimap's box plus its margin. */
  minimap: { width: 180 + 15 + 12, height: 120 + 15 + 12 },
} as const;

/** The zoom `fitView` would pick for `bounds` in `view` with `pad` around it. */
export function fitZoom(bounds: Size, view: Size, pad: PxPadding, maxZoom: number): number {
  const w = Math.max(1, view.width - pad.left - pad.right);
  const h = Math.max(1, view.height - pad.top - pad.bottom);
  return Math.min(maxZoom, w / Math.max(1, bounds.width), h / Math.max(1, bounds.height));
}

export function fitPadding(bounds: Size, view: Size, minimap: boolean, maxZoom = 1.1): PxPadding {
  const base: PxPadding = { top: OVERLAY.top, right: OVERLAY.edge, bottom: OVERLAY.edge, left: OVERLAY.left };
  if (!minimap) return base;
  const bottom = { ...base, bottom: OVERLAY.minimap.height };
  const right = { ...base, right: OVERLAY.minimap.width };
  return fitZoom(bounds, view, right, maxZoom) > fitZoom(bounds, view, bottom, maxZoom) ? right : bottom;
}

/** The box around placed nodes (a default size for the ones not measured yet). */
export function nodesBounds(positions: readonly Position[], sizes: readonly (Size | undefined)[], fallback: Size): Size {
  if (positions.length === 0) return fallback;
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  positions.forEach((p, i) => {
    const s = sizes[i] ?? fallback;
    x0 = Math.min(x0, p.x);
    y0 = Math.min(y0, p.y);
    x1 = Math.max(x1, p.x + s.width);
    y1 = Math.max(y1, p.y + s.height);
  });
  return { width: x1 - x0, height: y1 - y0 };
}

/** As React Flow takes it (`"24px"` per side). */
export function asFlowPadding(p: PxPadding): { top: `${number}px`; right: `${number}px`; bottom: `${number}px`; left: `${number}px` } {
  return { top: `${p.top}px`, right: `${p.right}px`, bottom: `${p.bottom}px`, left: `${p.left}px` };
}

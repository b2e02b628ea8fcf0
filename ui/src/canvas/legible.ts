// The size of a debugger agent card on screen at a zoom, and the zoom below which a name no longer
// fits it (pure): what `chooseWrap` lays out. Below full zoom the debugger shows a card's name and
// its visits pill only, its text scaled to stay >= 11 px on screen (charts.css `.is-far` rules,
// whose numbers are mirrored here), while the card itself shrinks with the zoom: so a long name
// needs a zoom floor, and the card's height depends on how many lines the name takes.
import { labelScaleAt } from "./edges/geometry";
import { minWrapWidth, wrapLines, type Px } from "./wrap";

/** A card's width in flow units (app.css `.node-card`). */
export const CARD_W = 232;
/** The most lines a name takes (charts.css: `-webkit-line-clamp` far out). */
export const NAME_LINES = 3;
/** Below this zoom the card's icon is hidden (DebugCanvas's VERY_FAR_ZOOM), leaving the name more room. */
export const ICON_ZOOM = 0.7;

/** The name's box in flow units: the card less its header padding (12 + 12), and the icon and its gap (30 + 10) when shown. */
const nameWidth = (z: number) => (z < ICON_ZOOM ? CARD_W - 24 : CARD_W - 64);
/** The name's font size on screen (10.6 px scaled). */
export const namePx = (z: number) => 10.6 * labelScaleAt(z) * z;
/** The visits pill's height on screen: 10.2 px scaled, line-height 1, padding 0.25em above and below. */
const pillPx = (z: number) => 10.2 * labelScaleAt(z) * z * 1.5;
/** Room kept in a line for rounding and the font loading late. */
const SLACK = 1.04;

/**
 * A card on screen at zoom `z`, its name given as the widths of its pieces (`wordBreaks`) at a
 * 1 px font: 232 flow units wide; tall by its border (1 + 1), header padding (12 + 4), the pill's
 * bottom margin (10), all in flow units, plus its name's lines and its pill, in screen pixels.
 */
export function cardPx(pieces: readonly number[], z: number): Px {
  const f = namePx(z);
  const lines = Math.min(NAME_LINES, wrapLines(pieces.map((p) => p * f * SLACK), nameWidth(z) * z));
  return { w: CARD_W * z, h: 28 * z + lines * f * 1.12 + pillPx(z) };
}

/** The lowest zoom (at most `cap`) at which every name fits its card in NAME_LINES lines at the legible size. */
export function legibleFloor(names: readonly (readonly number[])[], cap: number): number {
  // below full zoom the name's size on screen is constant (labelScaleAt keeps it at 11.87 px)
  const f = namePx(cap);
  const need = Math.max(0, ...names.map((pieces) => minWrapWidth(pieces.map((p) => p * f * SLACK), NAME_LINES)));
  const far = need / nameWidth(0);
  const z = far < ICON_ZOOM ? far : need / nameWidth(ICON_ZOOM);
  return Math.min(cap, z);
}

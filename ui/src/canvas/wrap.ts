// The debugger's legible layout (pure): its graph pane is short and a long chain of agents fitted
// into it whole came out at zoom 0.2, with names cut to their first letters and edge chips on the
// nodes. Here the topology's layers (its columns, left to right) are wrapped onto rows, as text
// wraps, at the number of rows that lets the graph show largest; a zoom floor keeps every name
// whole in a few lines at the debugger's on-screen label size; the gaps between layers and rows
// are set in screen pixels, so edge chips (drawn at a fixed screen size) sit clear of the nodes.
// Everything is measured in screen pixels at a zoom `z`; positions are returned in flow units.

export type Px = { w: number; h: number };
export type XY = { x: number; y: number };

/** How many lines greedy wrapping gives pieces of these widths in lines of `width` (Infinity: one piece is wider). */
export function wrapLines(pieces: readonly number[], width: number): number {
  let lines = 0;
  let used = Infinity;
  for (const p of pieces) {
    if (p > width) return Infinity;
    if (used + p > width) {
      lines += 1;
      used = p;
    } else {
      used += p;
    }
  }
  return Math.max(1, lines);
}

/** The narrowest line width at which the pieces wrap into `maxLines` lines or fewer. */
export function minWrapWidth(pieces: readonly number[], maxLines: number): number {
  // the answer is always the width of a run of consecutive pieces
  const candidates: number[] = [];
  for (let i = 0; i < pieces.length; i++) {
    let sum = 0;
    for (let j = i; j < pieces.length; j++) {
      sum += pieces[j]!;
      candidates.push(sum);
    }
  }
  candidates.sort((a, b) => a - b);
  return candidates.find((w) => wrapLines(pieces, w) <= maxLines) ?? 0;
}

/** The layers of a left-to-right drawing: ids grouped by x (within `tolerance`), left to right, each top to bottom. */
export function layersOf(positions: Readonly<Record<string, XY>>, tolerance = 40): string[][] {
  const ids = Object.keys(positions).sort((a, b) => positions[a]!.x - positions[b]!.x || positions[a]!.y - positions[b]!.y);
  const layers: { x: number; ids: string[] }[] = [];
  for (const id of ids) {
    const last = layers[layers.length - 1];
    if (last && positions[id]!.x - last.x <= tolerance) last.ids.push(id);
    else layers.push({ x: positions[id]!.x, ids: [id] });
  }
  return layers.map((l) => l.ids.sort((a, b) => positions[a]!.y - positions[b]!.y));
}

export type WrapGaps = {
  /** Between two layers of a row: room for an edge chip and a few pixels either side. */
  layer: number;
  /** Between two agents of one layer. */
  stack: number;
  /** Between two rows: a wrapping edge's corridor and its chip, and the run tag above a node. */
  row: number;
  /** Below the last row, for edges that go backwards (drawn under the nodes); 0 when none. */
  below: number;
};

export type Placed = { positions: Record<string, XY>; width: number; height: number };

/** The layers on `rows` rows at zoom `z` (sizes in screen pixels): flow positions and the screen box. */
export function placeRows(layers: readonly (readonly string[])[], rows: number, z: number, size: (id: string, z: number) => Px, gaps: WrapGaps): Placed {
  const perRow = Math.ceil(layers.length / rows);
  const positions: Record<string, XY> = {};
  let top = 0;
  let width = 0;
  for (let r = 0; r < rows; r++) {
    const row = layers.slice(r * perRow, (r + 1) * perRow);
    if (row.length === 0) break;
    const boxes = row.map((ids) => ids.map((id) => size(id, z)));
    const heights = boxes.map((b) => b.reduce((s, x) => s + x.h, 0) + gaps.stack * (b.length - 1));
    const rowH = Math.max(...heights);
    let left = 0;
    row.forEach((ids, i) => {
      // each layer centred on the row, so a chain's edges run straight
      let y = top + (rowH - heights[i]!) / 2;
      ids.forEach((id, j) => {
        positions[id] = { x: left / z, y: y / z };
        y += boxes[i]![j]!.h + gaps.stack;
      });
      left += Math.max(...boxes[i]!.map((b) => b.w)) + gaps.layer;
    });
    width = Math.max(width, left - gaps.layer);
    top += rowH + gaps.row;
  }
  return { positions, width, height: top - gaps.row + gaps.below };
}

export type WrapChoice = Placed & { rows: number; zoom: number; fits: boolean };

export type WrapRequest = {
  layers: readonly (readonly string[])[];
  /** An agent's box on screen at zoom z. */
  size: (id: string, z: number) => Px;
  gaps: WrapGaps;
  /** The room on screen for the drawing (the pane less its margins). */
  room: Px;
  /** Below this zoom a name no longer fits its node. */
  minZoom: number;
  maxZoom: number;
};

/** The largest zoom in [lo, hi] at which `fits(z)` holds (it holds for smaller zooms), or null. */
function largestZoom(lo: number, hi: number, fits: (z: number) => boolean): number | null {
  if (!fits(lo)) return null;
  if (fits(hi)) return hi;
  for (let i = 0; i < 24; i++) {
    const mid = (lo + hi) / 2;
    if (fits(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

/**
 * The number of rows that shows the drawing largest: where some fit the room at a legible zoom,
 * the one with the largest zoom (fewest rows on a tie); where none does, the one that shows the
 * most of it at the floor zoom (the rest is a pan away).
 */
export function chooseWrap(req: WrapRequest): WrapChoice {
  const { layers, size, gaps, room, minZoom, maxZoom } = req;
  let best: WrapChoice | null = null;
  let bestShown = -1;
  for (let rows = 1; rows <= Math.max(1, layers.length); rows++) {
    const perRow = Math.ceil(layers.length / rows);
    // the same layout as fewer rows (e.g. 5 layers on 4 rows is 2+2+1, as on 3)
    if (rows > 1 && Math.ceil(layers.length / perRow) < rows) continue;
    const gapsHere = rows > 1 ? gaps : { ...gaps, row: 0 };
    const fitsAt = (z: number) => {
      const p = placeRows(layers, rows, z, size, gapsHere);
      return p.width <= room.w && p.height <= room.h;
    };
    const z = largestZoom(minZoom, maxZoom, fitsAt);
    if (z !== null) {
      if (!best || !best.fits || z > best.zoom + 1e-6) best = { ...placeRows(layers, rows, z, size, gapsHere), rows, zoom: z, fits: true };
      continue;
    }
    if (best?.fits) continue;
    const p = placeRows(layers, rows, minZoom, size, gapsHere);
    const shown = Math.min(1, room.w / p.width) * Math.min(1, room.h / p.height);
    if (shown > bestShown + 1e-6) {
      bestShown = shown;
      best = { ...p, rows, zoom: minZoom, fits: false };
    }
  }
  return best ?? { positions: {}, width: 0, height: 0, rows: 1, zoom: maxZoom, fits: true };
}

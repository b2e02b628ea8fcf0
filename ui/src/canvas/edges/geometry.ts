// Edge paths: a cubic curve for forward edges (fanned out when several join the same pair) and a
// rounded detour below both nodes for edges that point backwards, so A→B and B→A never overlap.

export type Pt = { x: number; y: number };

export type EdgeGeometry = { path: string; label: Pt };

export function forwardPath(s: Pt, t: Pt, offset: number): EdgeGeometry {
  const dx = Math.max(48, Math.abs(t.x - s.x) * 0.45);
  const p1 = { x: s.x + dx, y: s.y + offset };
  const p2 = { x: t.x - dx, y: t.y + offset };
  const path = `M ${s.x},${s.y} C ${p1.x},${p1.y} ${p2.x},${p2.y} ${t.x},${t.y}`;
  const label = {
    x: (s.x + 3 * p1.x + 3 * p2.x + t.x) / 8,
    y: (s.y + 3 * p1.y + 3 * p2.y + t.y) / 8,
  };
  return { path, label };
}

/** A polyline with rounded corners. */
export function roundedPath(points: Pt[], radius: number): string {
  if (points.length < 2) return "";
  const first = points[0] as Pt;
  let d = `M ${first.x},${first.y}`;
  for (let i = 1; i < points.length - 1; i++) {
    const prev = points[i - 1] as Pt;
    const cur = points[i] as Pt;
    const next = points[i + 1] as Pt;
    const inLen = Math.hypot(cur.x - prev.x, cur.y - prev.y);
    const outLen = Math.hypot(next.x - cur.x, next.y - cur.y);
    const r = Math.min(radius, inLen / 2, outLen / 2);
    const a = { x: cur.x - ((cur.x - prev.x) / (inLen || 1)) * r, y: cur.y - ((cur.y - prev.y) / (inLen || 1)) * r };
    const b = { x: cur.x + ((next.x - cur.x) / (outLen || 1)) * r, y: cur.y + ((next.y - cur.y) / (outLen || 1)) * r };
    d += ` L ${a.x},${a.y} Q ${cur.x},${cur.y} ${b.x},${b.y}`;
  }
  const last = points[points.length - 1] as Pt;
  return `${d} L ${last.x},${last.y}`;
}

/**
 * Backwards: out to the right, down `drop` below both nodes (`bottom`), across, up, and into the
 * target's left side. With `drop` 0 and `bottom` the corridor between two rows of a wrapped
 * drawing, the edge that wraps from one row to the next.
 */
export function backwardPath(s: Pt, t: Pt, bottom: number, lane: number, drop = 44): EdgeGeometry {
  const out = 28 + lane * 10;
  const y = bottom + drop + lane * 26;
  const points: Pt[] = [
    s,
    { x: s.x + out, y: s.y },
    { x: s.x + out, y },
    { x: t.x - out, y },
    { x: t.x - out, y: t.y },
    t,
  ];
  return { path: roundedPath(points, 14), label: { x: (s.x + t.x) / 2, y } };
}

/** Whether an edge from s to t has to go backwards (its target is not to the right). */
export function isBackward(s: Pt, t: Pt): boolean {
  return t.x < s.x + 24;
}

/** How much the debugger scales its labels at a zoom (DebugCanvas's --dbg-label-scale): its 10 px labels show at 11.2 px. */
export function labelScaleAt(zoom: number): number {
  return Math.max(1, 11.2 / (10 * zoom));
}

// Frame times as the page's own timeline sees them: every requestAnimationFrame interval while an
// action runs, and the long animation frames (over 50 ms) Chromium's performance timeline reports.
/** Starts recording in the page. */
export async function startFrames(page) {
  await page.evaluate(() => {
    const rec = { deltas: [], long: 0, stop: false };
    window.__frames = rec;
    let last = performance.now();
    const tick = (t) => {
      rec.deltas.push(t - last);
      last = t;
      if (!rec.stop) requestAnimationFrame(tick);
    };
    requestAnimationFrame((t) => {
      last = t;
      requestAnimationFrame(tick);
    });
    try {
      rec.observer = new PerformanceObserver((list) => (rec.long += list.getEntries().length));
      rec.observer.observe({ type: "long-animation-frame" });
    } catch {
      /* not supported: only the rAF intervals */
    }
  });
}

/** Stops recording; returns { frames, p50, p95, max, fps, long } (milliseconds; fps from the median). */
export async function stopFrames(page) {
  const { deltas, long } = await page.evaluate(() => {
    const rec = window.__frames;
    rec.stop = true;
    rec.observer?.disconnect();
    return { deltas: rec.deltas, long: rec.long };
  });
  const s = [...deltas].sort((a, b) => a - b);
  const q = (p) => (s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))] : NaN);
  const mean = deltas.reduce((a, b) => a + b, 0) / Math.max(1, deltas.length);
  return { frames: s.length, p50: q(0.5), p95: q(0.95), max: s[s.length - 1] ?? NaN, fps: 1000 / mean, long };
}

export const fmt = (n, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : "n/a");

/** One figure line: `name: value unit (bound …; met|MISSED)`. */
export function figure(name, value, unit, bound, ok) {
  const verdict = bound ? `; ${ok ? "met" : "MISSED"}` : "";
  console.log(`${name}: ${fmt(value)} ${unit}${bound ? ` (bound ${bound}${verdict})` : ""}`);
}

// In-page probes shared by the browser bench (playwright's page.evaluate) and the real app's
// (webdriverio's browser.execute): each is a self-contained async function run inside the page,
// timing what a user sees: from a key press to the frame that shows the new step, and the
// requestAnimationFrame intervals meanwhile.

/** Presses `key` `n` times (each once the last step is shown); per-press latency and frame times. */
export async function keyProbe({ key, n, shift = false }) {
  const detail = () => document.querySelector('[data-testid="step-detail"]');
  const at = () => detail()?.getAttribute("data-step");
  const shown = () => detail() && !detail().hasAttribute("data-loading");
  const frames = [];
  let last = performance.now();
  let stop = false;
  const tick = (t) => {
    frames.push(t - last);
    last = t;
    if (!stop) requestAnimationFrame(tick);
  };
  requestAnimationFrame((t) => {
    last = t;
    requestAnimationFrame(tick);
  });
  const next = () => new Promise((r) => requestAnimationFrame(r));
  const lat = [];
  for (let i = 0; i < n; i++) {
    const from = at();
    const t0 = performance.now();
    (document.activeElement ?? document.body).dispatchEvent(new KeyboardEvent("keydown", { key, shiftKey: shift, bubbles: true }));
    const until = t0 + 10_000;
    while (!(shown() && at() !== from) && performance.now() < until) await next();
    lat.push(performance.now() - t0);
  }
  stop = true;
  await next();
  return { lat, frames };
}

/** Scrolls the element matching `selector` from top to bottom in `steps` frames; the frame times. */
export async function scrollProbe({ selector, steps }) {
  const el = document.querySelector(selector);
  if (!el) return { frames: [], error: `no ${selector}` };
  el.scrollTop = 0;
  const next = () => new Promise((r) => requestAnimationFrame(r));
  await next();
  const frames = [];
  let last = performance.now();
  const end = el.scrollHeight - el.clientHeight;
  for (let i = 1; i <= steps; i++) {
    el.scrollTop = (end * i) / steps;
    const t = await next();
    frames.push(t - last);
    last = t;
  }
  return { frames, height: el.scrollHeight };
}

/** Milliseconds from this document's start until `selector` is in it. */
export async function untilProbe({ selector, timeout = 60_000 }) {
  const next = () => new Promise((r) => requestAnimationFrame(r));
  const until = performance.now() + timeout;
  while (!document.querySelector(selector) && performance.now() < until) await next();
  return document.querySelector(selector) ? performance.now() : null;
}

/** p50/p95/max of a list of milliseconds. */
export function stats(ms) {
  const s = [...ms].sort((a, b) => a - b);
  const q = (p) => (s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))] : NaN);
  return { n: s.length, p50: q(0.5), p95: q(0.95), max: s[s.length - 1] ?? NaN };
}

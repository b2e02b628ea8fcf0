// Screenshots of the built UI with headless Debian Chromium (never a downloaded browser).
// usage: node scripts/screenshot.mjs URL OUT.png [width height] [--select=node-id] [--click=testid ...]
import { chromium } from "playwright-core";

const [url, out, w = "1440", h = "900", ...rest] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
});
const opt = (k) => rest.find((r) => r.startsWith(`--${k}=`))?.split("=")[1];
const page = await browser.newPage({ viewport: { width: Number(w), height: Number(h) }, deviceScaleFactor: Number(opt("scale") ?? 1) });
page.on("console", (m) => m.type() === "error" && console.error("console:", m.text()));
page.on("pageerror", (e) => console.error("pageerror:", e.message));
await page.goto(url);
await page.waitForTimeout(1200);
for (const r of rest) {
  const [k, v] = r.replace(/^--/, "").split("=");
  if (k === "click") await page.getByTestId(v).first().click();
  if (k === "wait") await page.waitForTimeout(Number(v));
  if (k === "key") await page.keyboard.press(v);
}
await page.waitForTimeout(500);
const clip = opt("clip")?.split(",").map(Number);
await page.screenshot({ path: out, ...(clip ? { clip: { x: clip[0], y: clip[1], width: clip[2], height: clip[3] } } : {}) });
await browser.close();

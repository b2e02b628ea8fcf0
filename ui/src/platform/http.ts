import type { Platform } from "./types";
import { PlatformError, toPlatformError } from "./types";
import { realPlatform, type Call } from "./commands";

type Fetch = typeof fetch;

const TOKEN_KEY = "baton.token";

/**
 * The launch token `baton serve` printed in its URL (`?token=…`); kept for the tab's session so
 * that navigation within the app, which rewrites the query, does not lose it.
 */
export function launchToken(win: { location: { search: string }; sessionStorage?: Storage } = window): string {
  const fromUrl = new URLSearchParams(win.location.search).get("token");
  const storage = win.sessionStorage;
  if (fromUrl) {
    storage?.setItem(TOKEN_KEY, fromUrl);
    return fromUrl;
  }
  return storage?.getItem(TOKEN_KEY) ?? "";
}

/** `baton serve`: `POST {base}/api/<command>` with the args as JSON and the launch token; errors as `{code, message}`. */
export function createHttpPlatform(
  base: string = window.location.origin,
  fetchImpl: Fetch = fetch.bind(window),
  token: string = launchToken(),
): Platform {
  const call: Call = async (command, args) => {
    let res: Response;
    try {
      res = await fetchImpl(`${base.replace(/\/$/, "")}/api/${command}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
        body: JSON.stringify(args),
      });
    } catch (e) {
      throw toPlatformError(e, "ui.network");
    }
    const text = await res.text();
    let body: unknown = null;
    if (text.length > 0) {
      try {
        body = JSON.parse(text);
      } catch {
        if (!res.ok) throw new PlatformError("ui.http", `HTTP ${res.status}: ${text}`);
        throw new PlatformError("ui.bad_json", `the backend answered ${command} with invalid JSON`);
      }
    }
    if (!res.ok) throw toPlatformError(body ?? `HTTP ${res.status} ${res.statusText}`, "ui.http");
    return body as never;
  };
  return realPlatform("http", call, null);
}

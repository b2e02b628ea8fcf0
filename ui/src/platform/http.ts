import type { CommandName, Platform } from "./types";
import { PlatformError, toPlatformError } from "./types";

type Fetch = typeof fetch;

/** `baton serve`: `POST {base}/api/<command>` with the args as JSON; errors as `{code, message}`. */
export function createHttpPlatform(base: string = window.location.origin, fetchImpl: Fetch = fetch.bind(window)): Platform {
  async function call<T>(command: CommandName, args: object): Promise<T> {
    let res: Response;
    try {
      res = await fetchImpl(`${base.replace(/\/$/, "")}/api/${command}`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(args),
      });
    } catch (e) {
      throw toPlatformError(e, "network");
    }
    const text = await res.text();
    let body: unknown = null;
    if (text.length > 0) {
      try {
        body = JSON.parse(text);
      } catch {
        if (!res.ok) throw new PlatformError(`http.${res.status}`, text);
        throw new PlatformError("http.bad-json", `the backend answered ${command} with invalid JSON`);
      }
    }
    if (!res.ok) {
      const err = toPlatformError(body ?? `HTTP ${res.status} ${res.statusText}`, `http.${res.status}`);
      throw err;
    }
    return body as T;
  }

  return {
    kind: "http",
    dialogs: null,
    list_files: () => call("list_files", {}),
    open_topology: (a) => call("open_topology", a),
    new_topology: (a) => call("new_topology", a),
    save_topology: (a) => call("save_topology", a),
    lint_topology: (a) => call("lint_topology", a),
    export_topology: (a) => call("export_topology", a),
    refactor_supervisor: (a) => call("refactor_supervisor", a),
    write_text: (a) => call("write_text", a),
  };
}

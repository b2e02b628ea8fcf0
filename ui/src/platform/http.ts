import type { LiveEvent } from "../bindings/LiveEvent";
import type { CommandName, Platform, RunStreamEvent, StartRunInput } from "./types";
import { PlatformError, toPlatformError } from "./types";
import { sharedCommands } from "./commands";

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

  /** Long-polls `run_events` until the run has finished; gives up after repeated failures. */
  async function stream(run_id: string, onEvent: (e: RunStreamEvent) => void) {
    let from = 0;
    let failures = 0;
    for (;;) {
      let r: { events: LiveEvent[]; finished: boolean };
      try {
        r = await call("run_events", { run_id, from });
      } catch (e) {
        const err = e as PlatformError;
        failures += 1;
        if (err.code === "run.not_live" || failures > 5) {
          onEvent({ type: "stream_error", message: `lost the run's events: ${err.message}` });
          return;
        }
        await new Promise((res) => setTimeout(res, 300 * failures));
        continue;
      }
      failures = 0;
      for (const e of r.events) onEvent(e);
      from += r.events.length;
      if (r.finished) return;
    }
  }

  async function startRun(args: StartRunInput, onEvent: (e: RunStreamEvent) => void): Promise<string> {
    const { run_id } = await call<{ run_id: string }>("start_run", args);
    void stream(run_id, onEvent);
    return run_id;
  }

  return {
    kind: "http",
    dialogs: null,
    ...sharedCommands(call),
    startRun,
    // A browser page has no command line; `?open=` does the job.
    initial_file: async () => null,
  };
}

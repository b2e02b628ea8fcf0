import { COMMAND_NAMES, type CommandName, type Commands } from "../bindings/commands";
import type { LiveEvent } from "../bindings/LiveEvent";
import type { Backend, Platform, PlatformError, RunStreamEvent, StartRunInput } from "./types";

/** How a host sends one backend command (Tauri `invoke("call")`, HTTP `POST /api/<name>`). */
export type Call = <K extends CommandName>(command: K, args: Commands[K]["args"]) => Promise<Commands[K]["result"]>;

/** Every declared command as a method, from the generated list: no host lists them by hand. */
export function backend(call: Call): Backend {
  const out: Record<string, (args: unknown) => Promise<unknown>> = {};
  for (const name of COMMAND_NAMES) {
    out[name] = (args) => call(name, (args ?? {}) as never);
  }
  return out as Backend;
}

/** Long-polls `run_events` until the run has finished; gives up after repeated failures. */
async function stream(b: Backend, run_id: string, onEvent: (e: RunStreamEvent) => void) {
  let from = 0;
  let failures = 0;
  for (;;) {
    let r: { events: LiveEvent[]; finished: boolean };
    try {
      r = await b.run_events({ run_id, from });
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

/** The commands of a real host: every declared command, and `startRun` over them. */
export function realPlatform(kind: "tauri" | "http", call: Call, dialogs: Platform["dialogs"]): Platform {
  const b = backend(call);
  return {
    ...b,
    kind,
    dialogs,
    async startRun(args: StartRunInput, onEvent: (e: RunStreamEvent) => void): Promise<string> {
      const { run_id } = await b.start_run(args);
      void stream(b, run_id, onEvent);
      return run_id;
    },
  };
}

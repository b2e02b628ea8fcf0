import { Channel, invoke } from "@tauri-apps/api/core";
import type { LiveEvent } from "../bindings/LiveEvent";
import type { CommandName, Platform } from "./types";
import { toPlatformError } from "./types";
import { sharedCommands } from "./commands";

/** The desktop shell: each backend command is a Tauri command; errors arrive as `{code, message}`. */
export function createTauriPlatform(): Platform {
  async function call<T>(command: CommandName, args: Record<string, unknown>): Promise<T> {
    try {
      return await invoke<T>(command, args);
    } catch (e) {
      throw toPlatformError(e);
    }
  }

  return {
    kind: "tauri",
    // The shell runs the dialogs, so it knows (and allows) the paths the user chose.
    dialogs: {
      choose_open_path: (a) => call("choose_open_path", a),
      choose_save_path: (a) => call("choose_save_path", a),
    },
    ...sharedCommands(call),
    // The shell streams a run's events over a Channel and answers with the run id.
    async startRun(args, onEvent) {
      const channel = new Channel<LiveEvent>();
      channel.onmessage = onEvent;
      // The shell names its arguments in snake_case (`#[tauri::command(rename_all = "snake_case")]`).
      return call<string>("start_run", { args, on_event: channel });
    },
    initial_file: () => call("initial_file", {}),
  };
}

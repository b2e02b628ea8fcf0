import { Channel, invoke } from "@tauri-apps/api/core";
import type { LiveEvent } from "../bindings/LiveEvent";
import type { CommandName, Platform } from "./types";
import { toPlatformError } from "./types";

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
    list_files: () => call("list_files", {}),
    open_topology: (a) => call("open_topology", a),
    new_topology: (a) => call("new_topology", a),
    save_topology: (a) => call("save_topology", a),
    lint_topology: (a) => call("lint_topology", a),
    export_topology: (a) => call("export_topology", a),
    refactor_supervisor: (a) => call("refactor_supervisor", a),
    write_text: (a) => call("write_text", a),
    // The shell streams a run's events over a Channel and answers with the run id.
    async startRun(args, onEvent) {
      const channel = new Channel<LiveEvent>();
      channel.onmessage = onEvent;
      // The shell names its arguments in snake_case (`#[tauri::command(rename_all = "snake_case")]`).
      return call<string>("start_run", { args, on_event: channel });
    },
    cancel_run: (a) => call("cancel_run", a),
    resume_run: (a) => call("resume_run", a),
    list_runs: (a) => call("list_runs", a),
    run_overview: (a) => call("run_overview", a),
    step_view: (a) => call("step_view", a),
    transfer_view: (a) => call("transfer_view", a),
    fact_lost_steps: (a) => call("fact_lost_steps", a),
    delete_run: (a) => call("delete_run", a),
    provider_status: () => call("provider_status", {}),
    set_provider_key: (a) => call("set_provider_key", a),
    delete_provider_key: (a) => call("delete_provider_key", a),
    import_trace: (a) => call("import_trace", { path: a.path, from: a.from ?? null }),
    initial_file: () => call("initial_file", {}),
  };
}

import type { CommandName, Platform } from "./types";

/** How a host sends one backend command (Tauri `invoke`, HTTP `POST /api/<name>`). */
export type Call = <T>(command: CommandName, args: Record<string, unknown>) => Promise<T>;

/** The commands every real host sends the same way: the name, and the arguments as given. */
export type SharedCommands = Omit<Platform, "kind" | "dialogs" | "startRun" | "initial_file">;

export function sharedCommands(call: Call): SharedCommands {
  return {
    list_files: () => call("list_files", {}),
    open_topology: (a) => call("open_topology", a),
    new_topology: (a) => call("new_topology", a),
    save_topology: (a) => call("save_topology", a),
    lint_topology: (a) => call("lint_topology", a),
    export_topology: (a) => call("export_topology", a),
    refactor_supervisor: (a) => call("refactor_supervisor", a),
    write_text: (a) => call("write_text", a),
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
  };
}

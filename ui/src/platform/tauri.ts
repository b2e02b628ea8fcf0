import { invoke } from "@tauri-apps/api/core";
import type { NativeDialogs, Platform } from "./types";
import { toPlatformError } from "./types";
import { realPlatform, type Call } from "./commands";

/**
 * The desktop shell: every declared command goes through its one `call` command; the native
 * file dialogs are the shell's own. Errors arrive as `{code, message}`.
 */
export function createTauriPlatform(): Platform {
  const call: Call = async (command, args) => {
    try {
      return await invoke("call", { command, args });
    } catch (e) {
      throw toPlatformError(e);
    }
  };
  const dialog = async <T,>(name: keyof NativeDialogs, args: Record<string, unknown>): Promise<T> => {
    try {
      return await invoke<T>(name, args);
    } catch (e) {
      throw toPlatformError(e);
    }
  };
  // The shell runs the dialogs, so it knows (and allows) the paths the user chose.
  const dialogs: NativeDialogs = {
    choose_open_path: (a) => dialog("choose_open_path", a),
    choose_save_path: (a) => dialog("choose_save_path", a),
  };
  return realPlatform("tauri", call, dialogs);
}

// The Runs tab's Capture switch: the session's capture status (asked on mount, then every second
// while capture is on) and turning capture on or off, keeping the backend's `{code, message}` when
// that failed (a taken port: `capture.listen`) until the next try.
import { useCallback, useState } from "react";
import type { RunCommands } from "../commands/run";
import { toPlatformError, type PlatformError } from "../platform/types";
import type { CaptureStatus } from "../run/capture";
import { useCaptureStatus } from "./queries";

export type Capture = {
  /** The backend's status; null until it first answers. */
  status: CaptureStatus | null;
  /** Why the status could not be read. */
  statusError: PlatformError | null;
  /** Turning capture on or off, until the status has been asked again. */
  pending: "start" | "stop" | null;
  /** Why the last start or stop failed; null once one succeeds. */
  error: { action: "start" | "stop"; error: PlatformError } | null;
  /** Whether the switch shows on (what is being asked for while pending). */
  on: boolean;
  setOn(on: boolean, port: number): Promise<void>;
};

export function useCapture(commands: RunCommands): Capture {
  const query = useCaptureStatus();
  const [pending, setPending] = useState<Capture["pending"]>(null);
  const [error, setError] = useState<Capture["error"]>(null);
  const { refresh } = query;

  const setOn = useCallback(
    async (on: boolean, port: number) => {
      setPending(on ? "start" : "stop");
      setError(null);
      try {
        if (on) await commands.startCapture(port);
        else await commands.stopCapture();
      } catch (e) {
        setError({ action: on ? "start" : "stop", error: toPlatformError(e) });
      }
      await refresh();
      setPending(null);
    },
    [commands, refresh],
  );

  const status = query.data ?? null;
  return { status, statusError: query.error, pending, error, on: pending ? pending === "start" : (status?.on ?? false), setOn };
}

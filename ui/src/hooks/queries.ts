// Backend reads that several components make: one key and one fetcher each, so they share answers.
import { usePlatform } from "../commands/platform";
import { useQuery, type Query } from "./useQuery";
import type { FileEntry } from "../platform/types";
import type { ProviderStatus } from "../run/providers";
import { CAPTURE_POLL_MS, type CaptureStatus } from "../run/capture";

/** The files the backend offers (the welcome screen, Open, Open trace): asked again on each mount. */
export function useFileList(): Query<FileEntry[]> {
  const platform = usePlatform();
  return useQuery(["list_files"], () => platform.list_files());
}

/**
 * Each real provider's key source and endpoint (Settings, the Run panel). Checking reaches every
 * endpoint (up to a few seconds): Settings asks again on each opening, the Run panel only when
 * there is no answer yet (`staleTime: Infinity`); the answer is kept for the session.
 */
export function useProviderStatus(options: { enabled?: boolean; staleTime?: number } = {}): Query<ProviderStatus[]> {
  const platform = usePlatform();
  return useQuery(["provider_status"], () => platform.provider_status(), { gcTime: Infinity, ...options });
}

/**
 * Whether live capture is on in this session (the backend's word: it outlives the page), its
 * endpoint and counts: asked on each mount, then every second while capture is on.
 */
export function useCaptureStatus(): Query<CaptureStatus> {
  const platform = usePlatform();
  return useQuery(["capture_status"], () => platform.capture_status(), { refetchInterval: (s) => (s?.on ? CAPTURE_POLL_MS : false) });
}

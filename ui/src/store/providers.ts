// The last `provider_status` answer, shared by Settings and the Run panel. Checking reaches each
// provider's endpoint (up to a few seconds), so it runs on demand; only the latest answer counts.
import { create } from "zustand";
import type { ProviderStatus } from "../bindings/ProviderStatus";
import type { Platform } from "../platform/types";

type ProvidersState = {
  statuses: ProviderStatus[] | null;
  checking: boolean;
  error: string | null;
  refresh(platform: Platform): Promise<void>;
  /** Checks once, unless an answer is already here. */
  ensure(platform: Platform): Promise<void>;
};

let seq = 0;

export const useProviders = create<ProvidersState>()((set, get) => ({
  statuses: null,
  checking: false,
  error: null,
  async refresh(platform) {
    const mine = ++seq;
    set({ checking: true, error: null });
    try {
      const statuses = await platform.provider_status();
      if (mine === seq) set({ statuses, checking: false });
    } catch (e) {
      if (mine === seq) set({ checking: false, error: e instanceof Error ? e.message : String(e) });
    }
  },
  ensure(platform) {
    return get().statuses ? Promise.resolve() : get().refresh(platform);
  },
}));

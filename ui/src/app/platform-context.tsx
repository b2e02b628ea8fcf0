import { QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode } from "react";
import { PlatformContext } from "../commands/platform";
import { queryClientFor } from "../hooks/useQuery";
import type { Platform } from "../platform/types";

/** The platform, and the cache of its answers (`useQuery`): a new platform starts with an empty one. */
export function PlatformProvider({ platform, children }: { platform: Platform; children: ReactNode }) {
  const client = queryClientFor(platform);
  return (
    <PlatformContext.Provider value={platform}>
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    </PlatformContext.Provider>
  );
}

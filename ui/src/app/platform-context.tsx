import { type ReactNode } from "react";
import { PlatformContext } from "../commands/platform";
import type { Platform } from "../platform/types";


export function PlatformProvider({ platform, children }: { platform: Platform; children: ReactNode }) {
  return <PlatformContext.Provider value={platform}>{children}</PlatformContext.Provider>;
}

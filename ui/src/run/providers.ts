// Which real providers are usable, from `provider_status`, and which agents of a topology a live
// run could not call.
import type { ProviderStatus } from "../bindings/ProviderStatus";
import type { Topology } from "../model/types";
import type { Provider } from "../bindings/Provider";
import { PROVIDER_LABELS } from "../model/topology";

export { PROVIDER_LABELS };

export type { ProviderStatus };

export const providerLabel = (p: string) => PROVIDER_LABELS[p as Provider] ?? p;

/**
 * Whether a provider can be called: it has a key, or (an OpenAI-compatible server, which may need
 * none) a base URL, here or on the agent.
 */
export function isConfigured(s: ProviderStatus | undefined, agentBaseUrl?: string | null): boolean {
  if (!s) return false;
  if (s.provider === "openai-compatible") return s.key !== null || s.base_url !== null || !!agentBaseUrl;
  return s.key !== null;
}

/** Where the key comes from, in words. */
export function keySource(s: ProviderStatus): string {
  if (s.key) return s.key.startsWith("$") ? `environment (${s.key})` : s.key;
  if (s.provider === "openai-compatible" && s.base_url) return "no key needed";
  return "not configured";
}

/** Whether a key in the OS keyring is what the provider uses (so removing it matters). */
export const usesKeyring = (s: ProviderStatus) => s.key === "OS keyring";

export type MissingProvider = { agent: string; name: string; provider: string };

/** Agents a live run would call through a provider that has no key (mock and human agents need none). */
export function unconfiguredAgents(t: Topology | null, statuses: readonly ProviderStatus[]): MissingProvider[] {
  if (!t) return [];
  const by = new Map(statuses.map((s) => [s.provider, s]));
  const out: MissingProvider[] = [];
  for (const a of t.agents) {
    const m = a.model;
    if (!m || m.provider === "mock" || a.kind === "human") continue;
    if (!isConfigured(by.get(m.provider), m.base_url)) out.push({ agent: a.id, name: a.name || a.id, provider: m.provider });
  }
  return out;
}

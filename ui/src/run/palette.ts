// A stable colour per agent: by the agent's place in the topology (so three agents never share
// one), by a hash of its id for agents the topology does not list. The user is slate.
const PALETTE = [
  "#4f46e5", // indigo
  "#0f766e", // teal (700: AA on white and the soft status fills)
  "#c2410c", // orange
  "#be185d", // pink
  "#0369a1", // sky
  "#7c3aed", // violet
  "#4d7c0f", // lime
  "#a16207", // amber
  "#0e7490", // cyan
  "#9f1239", // rose
] as const;

export const USER_COLOR = "#475569";

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

export type AgentPalette = (agent: string) => string;

export function agentPalette(agentIds: readonly string[]): AgentPalette {
  const idx = new Map(agentIds.map((id, i) => [id, i]));
  return (agent) => {
    if (agent === "user") return USER_COLOR;
    const i = idx.get(agent);
    return PALETTE[(i ?? hash(agent)) % PALETTE.length] as string;
  };
}

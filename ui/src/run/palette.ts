// A stable colour per agent: by the agent's place in the topology (so three agents never share
// one), by a hash of its id for agents the topology does not list. The user is slate. The colours
// are CSS variables (--agent-0 … --agent-9, --agent-user in styles/app.css: indigo, teal, orange,
// pink, sky, violet, lime, amber, cyan, rose at AA on the light surfaces, lighter shades in the
// dark theme), so a theme change recolours everything at once (a canvas reads their computed values).
const PALETTE_SIZE = 10;

export const USER_COLOR = "var(--agent-user)";

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
    return `var(--agent-${(i ?? hash(agent)) % PALETTE_SIZE})`;
  };
}

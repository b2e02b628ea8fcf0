// Agent names and colours for the open run (from its topology, or from the agents its steps name).
import { useMemo } from "react";
import { agentPalette, type AgentPalette } from "../run/palette";
import { useDebugger } from "../store/debugger";
import type { Topology } from "../model/types";
import type { Steps } from "../run/types";

export type AgentLookups = { palette: AgentPalette; agentName: (id: string) => string };

export function agentLookups(topology: Topology | null, steps?: Steps): AgentLookups {
  const ids = topology ? topology.agents.map((a) => a.id) : (steps?.actingAgents() ?? []);
  const names = new Map(topology?.agents.map((a) => [a.id, a.name || a.id]) ?? []);
  return {
    palette: agentPalette(ids),
    agentName: (id) => (id === "user" ? "User" : (names.get(id) ?? id)),
  };
}

export function useRunLookups(): AgentLookups {
  const topology = useDebugger((s) => s.topology);
  const steps = useDebugger((s) => s.overview?.steps);
  return useMemo(() => agentLookups(topology, topology ? undefined : steps), [topology, steps]);
}

import type { Finding, Severity } from "../model/types";
import type { LintMark } from "./types";

const RANK: Record<Severity, number> = { error: 3, warning: 2, info: 1 };

export function worse(a: Severity, b: Severity): Severity {
  return RANK[a] >= RANK[b] ? a : b;
}

/** The worst finding per agent and per edge, for markers on the canvas. */
export function lintMarks(findings: readonly Finding[]): { agents: Map<string, LintMark>; edges: Map<string, LintMark> } {
  const agents = new Map<string, LintMark>();
  const edges = new Map<string, LintMark>();
  const add = (map: Map<string, LintMark>, id: string, f: Finding) => {
    const m = map.get(id);
    if (!m) map.set(id, { severity: f.severity, count: 1, codes: [f.code] });
    else map.set(id, { severity: worse(m.severity, f.severity), count: m.count + 1, codes: [...m.codes, f.code] });
  };
  for (const f of findings) {
    for (const a of f.agents) add(agents, a, f);
    for (const e of f.edges) add(edges, e, f);
  }
  return { agents, edges };
}

export function severityRank(s: Severity): number {
  return RANK[s];
}

// The edits the designer refuses, each with the sentence that says why: a self-edge, a second
// edge of the same kind between the same agents, a file name whose extension would not say the
// format that gets written.
import type { EdgeKind, Topology } from "./types";

const name = (t: Topology, id: string) => t.agents.find((a) => a.id === id)?.name || id;

/** Why an edge `from → to` of `kind` cannot be added, or null when it can. */
export function edgeRefusal(t: Topology, from: string, to: string, kind: EdgeKind): string | null {
  if (from === to) {
    return `${name(t, from)} cannot ${kind === "handoff" ? "hand off" : "delegate"} to itself: an edge joins two different agents.`;
  }
  if (t.edges.some((e) => e.from === from && e.to === to && e.kind === kind)) {
    return `${name(t, from)} already has a ${kind} to ${name(t, to)}: a second one would give its model the same tool twice.`;
  }
  return null;
}

/** Why connecting `from → to` is refused whatever the kind (both kinds taken, or a self-edge). */
export function connectionRefusal(t: Topology, from: string, to: string): string | null {
  if (from === to) return `${name(t, from)} cannot hand off or delegate to itself: an edge joins two different agents.`;
  const handoff = edgeRefusal(t, from, to, "handoff");
  const delegation = edgeRefusal(t, from, to, "delegation");
  if (handoff && delegation) return `${name(t, from)} already has a handoff and a delegation to ${name(t, to)}.`;
  return null;
}

export type PathCheck = { ok: true } | { ok: false; reason: string; fixed: string };

const TOPOLOGY_EXT = /\.(ya?ml|json)$/i;

function withExtension(path: string, ext: string): string {
  const slash = path.lastIndexOf("/");
  const dot = path.lastIndexOf(".");
  const stem = dot > slash + 1 ? path.slice(0, dot) : path;
  return `${stem}.${ext}`;
}

/**
 * A topology is written as JSON for `.json` and as YAML for `.yaml`/`.yml`; any other name is
 * refused (the backend would write YAML into it), with the name it should have.
 */
export function checkTopologyPath(path: string, preferred: "yaml" | "json" = "yaml"): PathCheck {
  const p = path.trim();
  if (TOPOLOGY_EXT.test(p)) return { ok: true };
  const fixed = withExtension(p, preferred);
  const base = p.slice(p.lastIndexOf("/") + 1);
  const dot = base.lastIndexOf(".");
  const reason =
    dot > 0
      ? `A topology is saved as .yaml, .yml or .json; '${base}' would hold YAML under a ${base.slice(dot)} name.`
      : `A topology file needs an extension: .yaml, .yml or .json (it says the format).`;
  return { ok: false, reason, fixed };
}

/** An export in `format` must carry its format's extension (`.yml` also for YAML). */
export function checkExportPath(path: string, format: string, ext: string): PathCheck {
  const p = path.trim();
  const ok = format === "yaml" ? /\.ya?ml$/i.test(p) : p.toLowerCase().endsWith(`.${ext.toLowerCase()}`);
  if (ok) return { ok: true };
  // YAML and JSON exports are written as topologies, whose format the extension picks.
  if (format === "yaml" || format === "json") {
    const base = p.slice(p.lastIndexOf("/") + 1);
    return { ok: false, reason: `A ${format === "yaml" ? "YAML" : "JSON"} export ends in .${ext}; '${base}' would be written in another format or refused.`, fixed: withExtension(p, ext) };
  }
  return { ok: true };
}

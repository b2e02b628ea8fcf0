// Live lint: after each change (debounced) ask the backend for findings and the fact flow (the
// edges' pinned-fact chips); stale answers are dropped. Neither reads the layout (designer-only
// data): a move or an auto-layout asks nothing, and the layout is not sent (at 1,000 agents it is
// a fifth of the request).
import { useEffect, useRef } from "react";
import { usePlatform } from "../commands/platform";
import type { Topology } from "../model/types";
import { useDesigner } from "../store/designer";
import { useFactFlow } from "../store/factFlow";

export const LINT_DEBOUNCE_MS = 200;

/** Whether two topologies differ at most in their layout (what lint and the fact flow never read). */
export function sameButLayout(a: Topology | null | undefined, b: Topology | null | undefined): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  const ka = Object.keys(a) as (keyof Topology)[];
  const kb = Object.keys(b) as (keyof Topology)[];
  const keys = new Set([...ka, ...kb]);
  for (const k of keys) if (k !== "layout" && a[k] !== b[k]) return false;
  return true;
}

export function useLint() {
  const platform = usePlatform();
  const topology = useDesigner((s) => s.topology);
  // The topology last asked about (and the platform asked), to skip layout-only changes.
  const asked = useRef<{ topology: Topology; platform: unknown } | null>(null);
  useEffect(() => {
    if (!topology) return;
    if (asked.current && asked.current.platform === platform && sameButLayout(asked.current.topology, topology)) return;
    // An answer still applies while the document shows this topology, or one that differs from
    // it only in the layout (a move while the request was out).
    const fresh = () => sameButLayout(useDesigner.getState().topology, topology);
    const timer = setTimeout(() => {
      asked.current = { topology, platform };
      const sent: Topology = { ...topology, layout: undefined };
      const start = performance.now();
      const lint = platform
        .lint_topology({ topology: sent })
        .then((findings) => {
          if (fresh()) useDesigner.getState().setFindings(findings);
        })
        .catch(() => {
          /* a topology the backend cannot read yet (e.g. mid-edit); keep the last findings */
        });
      const flow = platform
        .fact_flow({ topology: sent })
        .then((flows) => {
          if (fresh()) useFactFlow.getState().set(flows);
        })
        .catch(() => {
          /* as above: keep the last chips */
        });
      // The round trip as the window sees it (both answers applied), for the bench.
      void Promise.all([lint, flow]).then(() => {
        try {
          performance.measure("baton:lint", { start, end: performance.now(), detail: { agents: topology.agents.length } });
        } catch {
          /* no User Timing */
        }
      });
    }, LINT_DEBOUNCE_MS);
    // Cleared before it asked: `asked` still holds the last topology sent, so the next change asks.
    return () => clearTimeout(timer);
  }, [platform, topology]);
}

// Live lint: after each change (debounced) ask the backend for findings and the fact flow (the
// edges' pinned-fact chips); stale answers are dropped.
import { useEffect } from "react";
import { usePlatform } from "../commands/platform";
import { useDesigner } from "../store/designer";
import { useFactFlow } from "../store/factFlow";

export const LINT_DEBOUNCE_MS = 200;

export function useLint() {
  const platform = usePlatform();
  const topology = useDesigner((s) => s.topology);
  useEffect(() => {
    if (!topology) return;
    let cancelled = false;
    const timer = setTimeout(() => {
      const start = performance.now();
      const lint = platform
        .lint_topology({ topology })
        .then((findings) => {
          if (!cancelled && useDesigner.getState().topology === topology) useDesigner.getState().setFindings(findings);
        })
        .catch(() => {
          /* a topology the backend cannot read yet (e.g. mid-edit); keep the last findings */
        });
      const flow = platform
        .fact_flow({ topology })
        .then((flows) => {
          if (!cancelled && useDesigner.getState().topology === topology) useFactFlow.getState().set(flows);
        })
        .catch(() => {
          /* as above: keep the last chips */
        });
      // The round trip as the window sees it (both answers applied), for the bench.
      void Promise.all([lint, flow]).then(() => {
        if (cancelled) return;
        try {
          performance.measure("baton:lint", { start, end: performance.now(), detail: { agents: topology.agents.length } });
        } catch {
          /* no User Timing */
        }
      });
    }, LINT_DEBOUNCE_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [platform, topology]);
}

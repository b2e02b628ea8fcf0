// Creating a scenario from anywhere (the inspector, the Run tab, the palette): one designer commit,
// made the scenario the Run tab runs, and the inspector's scenario editor brought into view.
import { addScenario } from "../model/scenario";
import { EMPTY_SELECTION, useDesigner } from "../store/designer";
import { useRun } from "../store/run";

export function createScenario(init: { input?: string } = {}): string | null {
  const t = useDesigner.getState().topology;
  if (!t) return null;
  let name: string | null = null;
  useDesigner.getState().commit(
    (cur) => {
      const [next, n] = addScenario(cur, init.input ? { input: init.input } : {});
      name = n;
      return next;
    },
    { select: EMPTY_SELECTION },
  );
  if (name) useRun.getState().setScenario(t.name, name);
  if (typeof requestAnimationFrame === "function") {
    requestAnimationFrame(() => {
      const el = document.querySelector('[data-testid="scenarios"]');
      if (el && "scrollIntoView" in el) el.scrollIntoView({ block: "start", behavior: "smooth" });
    });
  }
  return name;
}

// Creating a scenario from anywhere (the inspector, the Run tab, the palette): one designer commit,
// made the scenario the Run tab runs, and the inspector's scenario editor brought into view.
import { addScenario, updateScenario, withDefaultRules } from "../model/scenario";
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

/**
 * Gives every agent of the scenario `name` that has no mock rules the default ones (one designer
 * commit, undoable); without a scenario, creates one with them. Returns the scenario's name.
 */
export function addDefaultRules(name: string | undefined, input = ""): string | null {
  const t = useDesigner.getState().topology;
  if (!t) return null;
  let chosen: string | null = null;
  useDesigner.getState().commit((cur) => {
    const target = (cur.scenarios ?? []).find((s) => s.name === name);
    if (target) {
      chosen = target.name;
      return updateScenario(cur, target.name, (s) => withDefaultRules(cur, s));
    }
    const [next, n] = addScenario(cur, { input });
    chosen = n;
    return updateScenario(next, n, (s) => withDefaultRules(next, s));
  });
  if (chosen) useRun.getState().setScenario(t.name, chosen);
  return chosen;
}

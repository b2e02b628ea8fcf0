// A step's context as the list sees it: the items of its first window at once, the other pages
// asked for (once each) when rows in them come into view; a page that failed is asked again the
// next time it is shown.
import { useCallback, useMemo, useRef, useState } from "react";
import type { Item } from "../bindings/Item";
import type { StepView } from "../bindings/StepView";
import { usePlatform } from "../commands/platform";
import { CONTEXT_PAGE, pagesOf } from "../run/contextWindow";

export type ContextPages = {
  total: number;
  /** The item at row `i`, or undefined while its page is on its way. */
  at(i: number): Item | undefined;
  /** Rows `start` to `end` are on screen: fetch the pages they need. */
  show(start: number, end: number): void;
  /** Why the last page failed to load, or null. */
  error: string | null;
};

type Loaded = { view: StepView; items: ReadonlyMap<number, Item>; error: string | null };

const firstWindow = (view: StepView): Loaded => ({
  view,
  items: new Map(view.context.map((item, k) => [view.context_offset + k, item])),
  error: null,
});

export function useContextPages(runId: string, view: StepView): ContextPages {
  const platform = usePlatform();
  const [loaded, setLoaded] = useState(() => firstWindow(view));
  // Pages on their way, by step view (a new step starts afresh).
  const pending = useRef(new WeakMap<StepView, Set<number>>());
  // Another step: its first window, until a page of it arrives (derived, not set, while rendering).
  const current = useMemo(() => (loaded.view === view ? loaded : firstWindow(view)), [loaded, view]);
  const items = current.items;

  const show = useCallback(
    (start: number, end: number) => {
      let mine = pending.current.get(view);
      if (!mine) pending.current.set(view, (mine = new Set()));
      for (const p of pagesOf(start, end, view.context_total)) {
        const offset = p * CONTEXT_PAGE;
        if (mine.has(p) || items.has(offset)) continue;
        mine.add(p);
        const done = mine;
        platform
          .step_context({ run_id: runId, step: view.step.index, offset, limit: CONTEXT_PAGE })
          .then((page) =>
            setLoaded((prev) => {
              const s = prev.view === view ? prev : firstWindow(view);
              const next = new Map(s.items);
              page.items.forEach((item, k) => next.set(page.offset + k, item));
              return { view, items: next, error: null };
            }),
          )
          .catch((e: unknown) =>
            setLoaded((prev) => ({ ...(prev.view === view ? prev : firstWindow(view)), error: e instanceof Error ? e.message : String(e) })),
          )
          .finally(() => done.delete(p));
      }
    },
    [platform, runId, view, items],
  );

  return { total: view.context_total, at: (i) => items.get(i), show, error: current.error };
}

// A list of variable-height rows: rendered whole while short, virtualised (rows measured as they
// render) once long, so a step that sees thousands of items stays fast.
import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useRef, type ReactNode } from "react";

export const VIRTUALISE_AFTER = 120;

export function MeasuredList({
  count,
  render,
  estimate = 64,
  className,
  testId,
  scrollTo,
  onRange,
}: {
  count: number;
  render: (index: number) => ReactNode;
  estimate?: number;
  className?: string;
  testId?: string;
  /** A row to bring into view (changes trigger the scroll). */
  scrollTo?: { index: number; seq: number } | null;
  /** The rows rendered (first and last index) whenever they change (a paged list loads them). */
  onRange?: (start: number, end: number) => void;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const virtual = count > VIRTUALISE_AFTER;
  // TanStack Virtual hands back an imperative object; the React Compiler skips this component.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: virtual ? count : 0,
    getScrollElement: () => ref.current,
    estimateSize: () => estimate,
    overscan: 6,
    initialRect: { width: 400, height: 600 },
  });

  useEffect(() => {
    if (!scrollTo) return;
    if (virtual) {
      virtualizer.scrollToIndex(scrollTo.index, { align: "center" });
    } else {
      const el = ref.current?.querySelector(`[data-row="${scrollTo.index}"]`);
      el?.scrollIntoView?.({ block: "nearest", behavior: "smooth" });
    }
  }, [scrollTo, virtual, virtualizer]);

  const shown = virtual ? virtualizer.getVirtualItems() : null;
  const first = shown ? (shown[0]?.index ?? 0) : 0;
  const last = shown ? (shown[shown.length - 1]?.index ?? -1) : count - 1;
  useEffect(() => {
    if (last >= first) onRange?.(first, last);
  }, [first, last, onRange]);

  return (
    <div className={`measured-list ${className ?? ""}`} ref={ref} data-testid={testId} data-virtual={virtual || undefined}>
      {virtual ? (
        <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
          {(shown ?? []).map((v) => (
            <div
              key={v.key as number}
              data-index={v.index}
              data-row={v.index}
              ref={virtualizer.measureElement}
              className="measured-row"
              style={{ position: "absolute", top: 0, left: 0, right: 0, transform: `translateY(${v.start}px)` }}
            >
              {render(v.index)}
            </div>
          ))}
        </div>
      ) : (
        Array.from({ length: count }, (_, i) => (
          <div key={i} data-row={i} className="measured-row">
            {render(i)}
          </div>
        ))
      )}
    </div>
  );
}

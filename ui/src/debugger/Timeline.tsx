// A run's steps as a virtualised list (fixed-height rows, so 10,000 steps scroll as fast as 10):
// kind icon, agent colour, depth indentation, transfer and lost-fact markers. The list may be a
// filtered one (the debugger's search and kind filters).
import { useVirtualizer } from "@tanstack/react-virtual";
import { CircleDot, Pin } from "lucide-react";
import { memo, useEffect, useRef } from "react";
import { StepKindIcon } from "../run/badges";
import { formatTokens } from "../run/format";
import type { AgentPalette } from "../run/palette";
import { num, type StepBrief, type StepList } from "../run/types";

export const ROW_HEIGHT = 28;

export type TimelineProps = {
  steps: StepList;
  palette: AgentPalette;
  agentName: (id: string) => string;
  /** The selected step (debugger); none in the live view. */
  current?: number;
  onPick?: (index: number) => void;
  /** Steps of transfers where a fact was lost. */
  lostSteps?: ReadonlySet<number>;
  /** A step the run is paused before. */
  pausedStep?: number | null;
  /** Keep the last step in view as steps arrive (live). */
  follow?: boolean;
  testId?: string;
  label: string;
  /** Keys the list handles while focused (Up/Down, PageUp/PageDown); the debugger passes its own. */
  onKey?: (e: React.KeyboardEvent) => void;
};

export function Timeline({ steps, palette, agentName, current, onPick, lostSteps, pausedStep, follow, testId = "timeline", label, onKey }: TimelineProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  // TanStack Virtual hands back an imperative object; the React Compiler skips this component.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: steps.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    initialRect: { width: 300, height: 600 },
  });

  // Keep the current step in view (debugger): a neighbour scrolls just enough, a jump centres it.
  // While live, follow the newest step.
  // (The list may be filtered: the current step's row is found by its index.)
  const prev = useRef<number | undefined>(undefined);
  const row = current === undefined ? -1 : rowOf(steps, current);
  useEffect(() => {
    if (row < 0) return;
    const near = prev.current !== undefined && Math.abs(row - prev.current) <= 1;
    prev.current = row;
    // A neighbour already in view needs no scroll (asking anyway reads the list's size, which
    // lays out the page again on every step); the virtualiser's last known offset tells.
    const top = row * ROW_HEIGHT;
    const offset = virtualizer.scrollOffset;
    const height = virtualizer.scrollRect?.height;
    if (near && offset != null && height != null && top >= offset && top + ROW_HEIGHT <= offset + height) return;
    virtualizer.scrollToIndex(row, { align: near ? "auto" : "center" });
  }, [row, virtualizer]);
  useEffect(() => {
    if (follow && steps.length > 0) virtualizer.scrollToIndex(steps.length - 1, { align: "end" });
  }, [follow, steps.length, virtualizer]);

  const items = virtualizer.getVirtualItems();
  return (
    <div
      className="timeline"
      ref={scrollRef}
      data-testid={testId}
      data-count={steps.length}
      role="listbox"
      aria-label={label}
      aria-activedescendant={current !== undefined ? `${testId}-row-${current}` : undefined}
      tabIndex={0}
      onKeyDown={onKey}
    >
      <div className="timeline-inner" style={{ height: virtualizer.getTotalSize() }}>
        {items.map((v) => {
          const s = steps.at(v.index) as StepBrief;
          return (
            <TimelineRow
              key={v.key as number}
              id={`${testId}-row-${s.index}`}
              step={s}
              top={v.start}
              color={palette(s.agent)}
              agent={agentName(s.agent)}
              selected={current === s.index}
              lost={lostSteps?.has(s.index) ?? false}
              paused={pausedStep === s.index}
              onPick={onPick}
            />
          );
        })}
      </div>
    </div>
  );
}

/** The row of step `index` in a list sorted by index (a filtered one too); -1 when it is not shown. */
function rowOf(steps: StepList, index: number): number {
  if (steps.at(index)?.index === index) return index;
  let lo = 0;
  let hi = steps.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const at = (steps.at(mid) as StepBrief).index;
    if (at === index) return mid;
    if (at < index) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

const TimelineRow = memo(function TimelineRow({
  id,
  step,
  top,
  color,
  agent,
  selected,
  lost,
  paused,
  onPick,
}: {
  id: string;
  step: StepBrief;
  top: number;
  color: string;
  agent: string;
  selected: boolean;
  lost: boolean;
  paused: boolean;
  onPick?: (index: number) => void;
}) {
  const transfer = step.transfer !== null;
  const tokens = step.tokens !== null ? num(step.tokens) : null;
  return (
    <div
      id={id}
      role="option"
      aria-selected={selected}
      className={`tl-row${selected ? " is-current" : ""}${transfer ? " is-transfer" : ""}${step.kind === "guard" ? " is-guard" : ""}`}
      style={{ transform: `translateY(${top}px)`, height: ROW_HEIGHT }}
      data-testid="timeline-step"
      data-index={step.index}
      data-kind={step.kind}
      data-agent={step.agent}
      onClick={onPick ? () => onPick(step.index) : undefined}
      title={`#${step.index} · ${step.kind.replace("_", " ")} · ${agent}${step.owner !== step.agent ? ` (owner: ${step.owner})` : ""}\n${step.detail}`}
    >
      <span className="tl-index mono">{step.index}</span>
      <span className="tl-depth" style={{ width: step.depth * 14 }} aria-hidden="true">
        {Array.from({ length: step.depth }, (_, i) => (
          <span key={i} className="tl-guide" style={{ left: i * 14 + 6 }} />
        ))}
      </span>
      <StepKindIcon kind={step.kind} size={12} />
      <span className="tl-agent">
        <span className="tl-dot" style={{ background: color }} />
        {agent}
      </span>
      <span className="tl-detail">{step.detail}</span>
      {paused && (
        <span className="tl-paused" title="Paused before this transfer">
          <CircleDot size={12} />
        </span>
      )}
      {lost && (
        <span className="tl-lost" title="A pinned fact was lost at this transfer">
          <Pin size={11} />
        </span>
      )}
      {transfer && <span className="tl-transfer">T{step.transfer}</span>}
      {tokens !== null && <span className="tl-tokens">{formatTokens(tokens)}</span>}
    </div>
  );
});

// The Problems tab: lint findings, worst first, each with its whole message (wrapped, `code` as
// code), a click that shows it on the canvas, and a Fix button where the fix follows from it.
// A long list (a generated or imported topology may have thousands) is virtualised.
import { defaultRangeExtractor, useVirtualizer, type Range } from "@tanstack/react-virtual";
import { CheckCircle2, Wrench } from "lucide-react";
import { memo, useCallback, useEffect, useMemo, useRef, useState } from "react";
import "../styles/editor.css";
import { useCommands, type Commands } from "../commands/designer";
import { windowText } from "../commands/messages";
import { SeverityIcon } from "../canvas/icons";
import { severityRank } from "../canvas/lint";
import { findingFix, messageRuns, type Fix } from "../model/findings";
import type { Finding, Topology } from "../model/types";
import { useDesigner } from "../store/designer";

export function FindingText({ message }: { message: string }) {
  return (
    <>
      {messageRuns(message).map((r, i) =>
        r.code ? (
          <code key={i} className="finding-inline-code">
            {r.text}
          </code>
        ) : (
          <span key={i}>{r.text}</span>
        ),
      )}
    </>
  );
}

/** Up to this many findings the list holds every row; past it, only those in view (and a few around). */
export const PROBLEMS_VIRTUALISE_AFTER = 100;
/** A row's height before it is measured (one line of message). */
const ROW_ESTIMATE = 34;

export function ProblemsPanel() {
  const findings = useDesigner((s) => s.findings);
  const topology = useDesigner((s) => s.topology);
  const commands = useCommands();
  const sorted = useMemo(() => [...findings].sort((a, b) => severityRank(b.severity) - severityRank(a.severity)), [findings]);
  const names = useMemo(() => new Map(topology?.agents.map((a) => [a.id, a.name]) ?? []), [topology]);

  if (sorted.length === 0) {
    return (
      <div className="problems-empty" data-testid="problems">
        <CheckCircle2 size={16} className="ok-icon" /> No problems found in this topology.
      </div>
    );
  }
  const row = (f: Finding, i: number) => <FindingRow finding={f} index={i} topology={topology} names={names} commands={commands} />;
  return sorted.length > PROBLEMS_VIRTUALISE_AFTER ? (
    <VirtualFindings findings={sorted} row={row} />
  ) : (
    <div className="problems-scroll" style={SCROLL_STYLE} data-testid="problems-scroll">
      <ul className="problems" data-testid="problems" role="list" data-count={sorted.length}>
        {sorted.map((f, i) => (
          <li key={`${f.code}-${i}`} className="finding-row" data-index={i}>
            {row(f, i)}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The list scrolls on its own (the bottom panel's body holds it at its height) and contains its layout and paint: rows coming into view do not make the browser walk the rest of the window (a scenario of 1,000 rules in the inspector is 50,000 elements). */
const SCROLL_STYLE: React.CSSProperties = { flex: 1, minHeight: 0, overflowY: "auto", contain: "strict" };

/**
 * A long list of findings: only the rows in view (measured as they render, a message may wrap)
 * and a few around them are in the page, and the focused one stays there. ↑/↓, Page Up/Down,
 * Home and End move the focus from finding to finding, scrolling the list to it.
 */
function VirtualFindings({ findings, row }: { findings: Finding[]; row: (f: Finding, i: number) => React.ReactNode }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const [focused, setFocused] = useState<number | null>(null);
  const [focusTo, setFocusTo] = useState<number | null>(null);
  const keep = focused !== null && focused < findings.length ? focused : null;
  const rangeExtractor = useCallback(
    (range: Range) => {
      const out = defaultRangeExtractor(range);
      if (keep !== null && !out.includes(keep)) out.push(keep);
      return out.sort((a, b) => a - b);
    },
    [keep],
  );
  // TanStack Virtual hands back an imperative object; the React Compiler skips this component.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: findings.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_ESTIMATE,
    overscan: 8,
    rangeExtractor,
    initialRect: { width: 1000, height: 300 },
  });
  // A key moved the focus: the row is in the page (the range keeps the focused one), its button takes it.
  useEffect(() => {
    if (focusTo === null) return;
    const el = listRef.current?.querySelector<HTMLElement>(`li[data-index="${focusTo}"] [data-testid="finding"]`);
    if (el) {
      el.focus({ preventScroll: true });
      setFocusTo(null);
    }
  }, [focusTo]);
  const onKeyDown = (e: React.KeyboardEvent) => {
    const li = (e.target as HTMLElement).closest("li[data-index]");
    if (!li || !(e.target as HTMLElement).matches('[data-testid="finding"]')) return;
    const at = Number(li.getAttribute("data-index"));
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 300) / ROW_ESTIMATE) - 1);
    const moves: Record<string, number> = { ArrowDown: at + 1, ArrowUp: at - 1, PageDown: at + page, PageUp: at - page, Home: 0, End: findings.length - 1 };
    if (!(e.key in moves)) return;
    e.preventDefault();
    e.stopPropagation();
    const to = Math.min(findings.length - 1, Math.max(0, moves[e.key] as number));
    virtualizer.scrollToIndex(to, { align: "auto" });
    setFocused(to);
    setFocusTo(to);
  };
  const items = virtualizer.getVirtualItems();
  return (
    <div className="problems-scroll" style={SCROLL_STYLE} ref={scrollRef} data-testid="problems-scroll" data-virtual="true">
      <ul
        className="problems"
        ref={listRef}
        data-testid="problems"
        role="list"
        aria-label={`${findings.length} problems`}
        data-count={findings.length}
        style={{ height: virtualizer.getTotalSize(), position: "relative" }}
        onKeyDown={onKeyDown}
        onFocus={(e) => {
          const li = (e.target as HTMLElement).closest("li[data-index]");
          if (li) setFocused(Number(li.getAttribute("data-index")));
        }}
      >
        {items.map((v) => (
          <li
            key={v.key as number}
            className="finding-row"
            data-index={v.index}
            ref={virtualizer.measureElement}
            aria-posinset={v.index + 1}
            aria-setsize={findings.length}
            style={{ position: "absolute", top: 0, left: 0, right: 0, transform: `translateY(${v.start}px)` }}
          >
            {row(findings[v.index] as Finding, v.index)}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** One finding: its severity, code, whole message and where; a click shows it on the canvas. */
const FindingRow = memo(function FindingRow({
  finding: f,
  topology,
  names,
  commands,
}: {
  finding: Finding;
  index: number;
  topology: Topology | null;
  names: ReadonlyMap<string, string>;
  commands: Commands;
}) {
  const fix = topology ? findingFix(topology, f) : null;
  const where = f.edges.length > 0 ? f.edges.join(", ") : f.agents.map((id) => names.get(id) ?? id).join(", ");
  return (
    <>
      <button
        className={`finding sev-row-${f.severity}`}
        data-testid="finding"
        data-code={f.code}
        data-severity={f.severity}
        data-fix={fix ? fix.kind : undefined}
        onClick={() => commands.focusFinding(f)}
        title="Select and show on the canvas"
      >
        <SeverityIcon severity={f.severity} size={14} />
        <span className="finding-code mono">{f.code}</span>
        <span className="finding-message">
          <FindingText message={windowText(f.code, f.message)} />
        </span>
        <span className="finding-where" title={where}>
          {where}
        </span>
      </button>
      {fix && topology && <FixControl fix={fix} finding={f} topology={topology} commands={commands} />}
    </>
  );
});

function FixControl({ fix, finding, topology, commands }: { fix: Fix; finding: Finding; topology: Topology; commands: Commands }) {
  const commit = useDesigner((s) => s.commit);
  if (fix.kind === "choose-entry") {
    return (
      <select
        className="select select-sm finding-fix-select"
        data-testid="finding-fix"
        data-code={finding.code}
        aria-label="Set the entry agent"
        value=""
        onChange={(e) => {
          const id = e.target.value;
          if (id) commit((t) => ({ ...t, entry: id }));
        }}
      >
        <option value="">Fix: set the entry…</option>
        {fix.candidates.map((id) => (
          <option key={id} value={id}>
            {topology.agents.find((a) => a.id === id)?.name || id}
          </option>
        ))}
      </select>
    );
  }
  return (
    <button
      className="btn btn-secondary btn-sm finding-fix"
      data-testid="finding-fix"
      data-code={finding.code}
      title={fix.kind === "refactor" ? "A supervisor delegates the chain and verifies the claim (one undo step)" : "Apply this fix (one undo step)"}
      onClick={() => {
        if (fix.kind === "edit") commit(fix.apply);
        else {
          useDesigner.getState().setSelection({ agents: [], edges: fix.edges });
          void commands.refactorSupervisor();
        }
      }}
    >
      <Wrench size={12} /> {fix.label}
    </button>
  );
}

// The Runs home: every run in the store (Baton's own, imported, captured) in one virtualised
// table, newest first, with filters (topology, origin, status, lost facts, a person's mark, days) and a debounced
// search; pages come from `search_runs` as the table scrolls. Open one in the debugger, delete
// one, or pick two (of any topologies) and compare them. It replaces the editor or the debugger
// while shown (the top bar's Runs button, Esc or Close leave it) and closes itself when another
// run or document opens.
import "../styles/runs.css";
import { useVirtualizer } from "@tanstack/react-virtual";
import { AlertOctagon, Bug, Columns2, FileUp, Loader2, RefreshCw, Rows3, Search, Trash2, X } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import type { RunCommands } from "../commands/run";
import { useRunPages } from "../hooks/useRunPages";
import { isModalOpen } from "../hooks/useShortcuts";
import type { OutcomeStatus } from "../bindings/OutcomeStatus";
import type { RunOrigin } from "../bindings/RunOrigin";
import { durationMs, formatDuration, formatTokens, formatWhen, OUTCOME_LABELS } from "../run/format";
import { activeFilters, JUDGEMENT_LABELS, ORIGIN_LABELS, type RunFilters } from "../run/runsQuery";
import { num, type RunSummary } from "../run/types";
import { useDebugger } from "../store/debugger";
import { useDesigner } from "../store/designer";
import { useRunsHome } from "../store/runsHome";
import { useUi } from "../store/ui";
import { LostFacts, RunIdTag, RunMarkBadge, RunOutcome, RunSourceTag } from "./runCells";

const ROW_HEIGHT = 40;
/** Load the next page when the last loaded row is this close to view. */
const AHEAD = 20;
const SEARCH_DEBOUNCE_MS = 250;

const STATUSES: OutcomeStatus[] = ["completed", "stopped", "escalated", "failed", "cancelled", "interrupted", "running"];
const ORIGINS: RunOrigin[] = ["native", "imported", "captured"];

export function RunsHome({ run }: { run: RunCommands }) {
  const filters = useRunsHome((s) => s.filters);
  const setFilters = useRunsHome((s) => s.setFilters);
  const pages = useRunPages(filters);
  const [picked, setPicked] = useState<string[]>([]);
  useCloseOnElsewhere();
  useEscapeCloses();

  const { runs, total } = pages;
  const n = activeFilters(filters);
  const open = (id: string) => {
    useRunsHome.getState().hide();
    void run.openRun(id);
  };
  const toggle = (id: string) => setPicked(picked.includes(id) ? picked.filter((x) => x !== id) : [...picked.slice(-1), id]);

  return (
    <section
      className="runs-home"
      data-testid="runs-home"
      aria-label="All runs"
      data-search={filters.search}
      data-loading={pages.loading || pages.stale ? "true" : undefined}
    >
      <header className="rh-head">
        <Rows3 size={16} className="muted" />
        <h2>Runs</h2>
        <span className="rh-total" data-testid="runs-home-total" data-total={total ?? ""} aria-live="polite">
          {total === null ? "…" : `${total.toLocaleString()} ${total === 1 ? "run" : "runs"}${n > 0 ? " match" : ""}`}
          {pages.loading && <Loader2 size={12} className="spin" aria-label="loading" />}
        </span>
        <span className="muted small rh-hint">
          <FileUp size={13} /> Drop a trace file anywhere to import it
        </span>
        <div className="spacer" />
        <span className="muted small rh-picked" data-testid="runs-home-picked">
          {picked.length === 2 ? "2 runs picked" : picked.length === 1 ? "Pick one more to compare" : "Pick two runs to compare"}
        </span>
        <button
          className="btn btn-secondary btn-sm"
          data-testid="runs-home-compare"
          disabled={picked.length !== 2}
          onClick={() => useUi.getState().setCompare([picked[0] as string, picked[1] as string])}
          title="Compare the two picked runs' transfers (of any topologies)"
        >
          <Columns2 size={13} /> Compare
        </button>
        <button className="btn btn-ghost btn-sm" onClick={() => void run.openTrace()} data-testid="runs-home-open-trace" title="Import a trace file and debug it">
          <FileUp size={13} /> Open trace…
        </button>
        <button className="icon-btn sm" aria-label="Refresh" title="Refresh" onClick={() => void pages.refresh()} aria-busy={pages.loading}>
          <RefreshCw size={13} className={pages.loading ? "spin" : undefined} />
        </button>
        <button className="btn btn-ghost btn-sm" data-testid="runs-home-close" onClick={() => useRunsHome.getState().hide()} title="Back (Esc)">
          <X size={14} /> Close
        </button>
      </header>
      <FilterBar filters={filters} topologies={pages.topologies} onChange={setFilters} active={n} />
      {pages.error && (
        <div className="rh-error" role="alert" data-testid="runs-home-error" data-code={pages.error.code}>
          <AlertOctagon size={15} />
          <span>
            Could not list the runs: {pages.error.message} <span className="mono">({pages.error.code})</span>
          </span>
          <button className="btn btn-secondary btn-sm" onClick={() => void pages.refresh()} disabled={pages.loading}>
            Retry
          </button>
        </div>
      )}
      {runs === null ? (
        !pages.error && (
          <div className="pane-empty">
            <Loader2 size={14} className="spin" /> Loading the runs…
          </div>
        )
      ) : runs.length === 0 && !pages.error ? (
        <div className="rh-empty" data-testid="runs-home-empty">
          {n > 0 ? (
            <>
              No runs match these filters.{" "}
              <button className="btn btn-secondary btn-sm" onClick={() => useRunsHome.getState().clearFilters()}>
                Clear the filters
              </button>
            </>
          ) : (
            <>No runs in the store yet. Run a topology (Run, F5), import a trace (Open trace…, or drop a file here), or capture one (the Runs tab's Capture switch).</>
          )}
        </div>
      ) : (
        <RunTable
          runs={runs}
          total={total ?? runs.length}
          stale={pages.stale}
          hasMore={pages.hasMore}
          loadingMore={pages.loadingMore}
          loadMore={pages.loadMore}
          picked={picked}
          onPick={toggle}
          onOpen={open}
          onDelete={(r) => void run.deleteRun(r.id, `Run of ${r.topology} · ${r.scenario} (${formatWhen(r.started_at)})`)}
        />
      )}
    </section>
  );
}

function FilterBar({ filters, topologies, onChange, active }: { filters: RunFilters; topologies: string[]; onChange: (p: Partial<RunFilters>) => void; active: number }) {
  const id = useId();
  // The box updates at once; the query follows once typing pauses.
  const [text, setText] = useState(filters.search);
  const pushed = useRef(filters.search);
  useEffect(() => {
    if (text === pushed.current) return;
    const t = setTimeout(() => {
      pushed.current = text;
      onChange({ search: text });
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [text, onChange]);
  // Filters cleared elsewhere (Clear) empty the box too.
  useEffect(() => {
    if (filters.search !== pushed.current) {
      pushed.current = filters.search;
      setText(filters.search);
    }
  }, [filters.search]);
  const select = <K extends keyof RunFilters>(key: K, label: string, options: [string, string][], testId: string) => (
    <label className="rh-filter">
      <span className="rh-filter-label">{label}</span>
      <select className={`select select-sm${filters[key] ? " is-set" : ""}`} value={filters[key]} data-testid={testId} onChange={(e) => onChange({ [key]: e.target.value } as Partial<RunFilters>)}>
        {options.map(([v, l]) => (
          <option key={v} value={v}>
            {l}
          </option>
        ))}
      </select>
    </label>
  );
  const topologyOptions: [string, string][] = [["", "All"], ...topologies.map((t): [string, string] => [t, t])];
  if (filters.topology && !topologies.includes(filters.topology)) topologyOptions.push([filters.topology, filters.topology]);
  return (
    <div className="rh-filters" role="search" data-testid="runs-home-filters">
      <div className="rh-search">
        <Search size={14} className="muted" />
        <input
          id={`${id}-search`}
          className="input input-sm"
          type="search"
          placeholder="Search id, topology, scenario, answer, file…"
          aria-label="Search the runs"
          data-testid="runs-home-search"
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
      </div>
      {select("topology", "Topology", topologyOptions, "runs-home-topology")}
      {select("origin", "Origin", [["", "Any"], ...ORIGINS.map((o): [string, string] => [o, ORIGIN_LABELS[o]])], "runs-home-origin")}
      {select("status", "Outcome", [["", "Any"], ...STATUSES.map((s): [string, string] => [s, OUTCOME_LABELS[s]])], "runs-home-status")}
      {select("lost", "Lost facts", [["", "Any"], ["yes", "Lost a fact"], ["no", "None lost"]], "runs-home-lost")}
      {select("judgement", "Mark", [["", "All"], ["good", `Marked ${JUDGEMENT_LABELS.good.toLowerCase()}`], ["bad", `Marked ${JUDGEMENT_LABELS.bad.toLowerCase()}`]], "runs-home-judgement")}
      <span className="rh-dates" role="group" aria-label="Started between">
        <span className="rh-filter-label">Started</span>
        <input
          className="input input-sm rh-date"
          type="date"
          aria-label="Started on or after"
          value={filters.since}
          max={filters.until || undefined}
          data-testid="runs-home-since"
          onChange={(e) => onChange({ since: e.target.value })}
        />
        <span className="muted">–</span>
        <input
          className="input input-sm rh-date"
          type="date"
          aria-label="Started on or before"
          value={filters.until}
          min={filters.since || undefined}
          data-testid="runs-home-until"
          onChange={(e) => onChange({ until: e.target.value })}
        />
      </span>
      {active > 0 && (
        <button className="btn btn-ghost btn-sm" data-testid="runs-home-clear" onClick={() => useRunsHome.getState().clearFilters()}>
          <X size={13} /> Clear {active === 1 ? "the filter" : `${active} filters`}
        </button>
      )}
    </div>
  );
}

function RunTable({
  runs,
  total,
  stale,
  hasMore,
  loadingMore,
  loadMore,
  picked,
  onPick,
  onOpen,
  onDelete,
}: {
  runs: RunSummary[];
  total: number;
  stale: boolean;
  hasMore: boolean;
  loadingMore: boolean;
  loadMore: () => void;
  picked: string[];
  onPick: (id: string) => void;
  onOpen: (id: string) => void;
  onDelete: (r: RunSummary) => void;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const count = runs.length + (hasMore ? 1 : 0);
  // TanStack Virtual hands back an imperative object; the React Compiler skips this component.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
    initialRect: { width: 1200, height: 600 },
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.length ? (items[items.length - 1]?.index ?? 0) : 0;
  useEffect(() => {
    if (hasMore && !loadingMore && lastIndex >= runs.length - AHEAD) loadMore();
  }, [hasMore, loadingMore, lastIndex, runs.length, loadMore]);

  return (
    <div className={`rh-table${stale ? " is-stale" : ""}`} role="table" aria-label="Runs, newest first" aria-rowcount={total + 1} data-testid="runs-home-list" data-count={runs.length}>
      <div className="rh-row rh-header" role="row">
        <span className="c-pick" role="columnheader" aria-label="Pick to compare" />
        <span className="c-outcome" role="columnheader">
          Outcome
        </span>
        <span className="c-mark" role="columnheader" title="A person's mark: good or bad">
          Mark
        </span>
        <span className="c-topology" role="columnheader">
          Topology
        </span>
        <span className="c-scenario" role="columnheader">
          Scenario / source
        </span>
        <span className="c-origin" role="columnheader">
          Origin
        </span>
        <span className="c-started" role="columnheader" aria-sort="descending" title="Newest first">
          Started ↓
        </span>
        <span className="c-duration num" role="columnheader">
          Duration
        </span>
        <span className="c-tokens num" role="columnheader">
          Tokens
        </span>
        <span className="c-steps num" role="columnheader">
          Steps
        </span>
        <span className="c-transfers num" role="columnheader">
          Transfers
        </span>
        <span className="c-lost num" role="columnheader">
          Lost facts
        </span>
        <span className="c-actions" role="columnheader" aria-label="Actions" />
      </div>
      <div className="rh-scroll" ref={scrollRef}>
        <div className="rh-rows" style={{ height: virtualizer.getTotalSize() }} role="rowgroup">
          {items.map((v) => {
            const r = runs[v.index];
            const style = { transform: `translateY(${v.start}px)`, height: ROW_HEIGHT };
            if (!r) {
              return (
                <div key="more" className="rh-row rh-more" style={style} role="row" data-testid="runs-home-more">
                  <span role="cell">
                    <Loader2 size={13} className="spin" /> Loading more runs… ({runs.length.toLocaleString()} of {total.toLocaleString()})
                  </span>
                </div>
              );
            }
            return <Row key={r.id} run={r} style={style} picked={picked.includes(r.id)} onPick={() => onPick(r.id)} onOpen={() => onOpen(r.id)} onDelete={() => onDelete(r)} />;
          })}
        </div>
      </div>
    </div>
  );
}

function Row({ run: r, style, picked, onPick, onOpen, onDelete }: { run: RunSummary; style: React.CSSProperties; picked: boolean; onPick: () => void; onOpen: () => void; onDelete: () => void }) {
  const label = `run of ${r.topology} · ${r.scenario} (${formatWhen(r.started_at)})`;
  return (
    <div
      className={`rh-row${picked ? " is-picked" : ""}`}
      style={style}
      role="row"
      tabIndex={0}
      data-testid="runs-home-row"
      data-run={r.id}
      data-status={r.outcome.status}
      data-origin={r.origin}
      data-topology={r.topology}
      data-lost={r.lost_facts}
      data-judgement={r.mark?.judgement ?? ""}
      onDoubleClick={onOpen}
      onKeyDown={(e) => {
        if (e.key === "Enter" && e.target === e.currentTarget) onOpen();
      }}
    >
      <span className="c-pick" role="cell">
        <input type="checkbox" checked={picked} onChange={onPick} aria-label={`Pick the ${label} to compare`} data-testid="runs-home-pick" />
      </span>
      <span className="c-outcome" role="cell">
        <RunOutcome run={r} />
      </span>
      <span className="c-mark" role="cell">
        <RunMarkBadge run={r} />
      </span>
      <span className="c-topology" role="cell" title={r.topology}>
        {r.topology}
      </span>
      <span className="c-scenario" role="cell">
        <span className="rh-ellipsis" title={r.scenario}>
          {r.scenario}
        </span>
        <RunIdTag run={r} />
        <RunSourceTag run={r} />
      </span>
      <span className="c-origin" role="cell">
        <span className={`rh-origin is-${r.origin}`}>{ORIGIN_LABELS[r.origin]}</span>
      </span>
      <span className="c-started" role="cell" title={r.started_at}>
        {formatWhen(r.started_at)}
      </span>
      <span className="c-duration num" role="cell">
        {formatDuration(durationMs(r.started_at, r.ended_at))}
      </span>
      <span className="c-tokens num" role="cell">
        {formatTokens(num(r.input_tokens) + num(r.output_tokens))}
      </span>
      <span className="c-steps num" role="cell">
        {r.steps.toLocaleString()}
      </span>
      <span className="c-transfers num" role="cell">
        {r.transfers}
      </span>
      <span className={`c-lost num${r.lost_facts > 0 ? " lost" : ""}`} role="cell" data-testid="runs-home-lost-cell">
        <LostFacts run={r} />
      </span>
      <span className="c-actions" role="cell">
        <button className="btn btn-secondary btn-sm" data-testid="runs-home-open" onClick={onOpen} title="Open in the debugger (Enter, or double-click the row)">
          <Bug size={13} /> Open
        </button>
        <button className="icon-btn sm danger" data-testid="runs-home-delete" aria-label={`Delete the ${label}`} title="Delete" onClick={onDelete}>
          <Trash2 size={13} />
        </button>
      </span>
    </div>
  );
}

/** The home closes when something else opens: a run in the debugger, or another document. */
function useCloseOnElsewhere() {
  const mode = useDebugger((s) => s.mode);
  const runId = useDebugger((s) => s.runId);
  const path = useDesigner((s) => s.path);
  const hasDoc = useDesigner((s) => s.topology !== null);
  const now = `${mode}|${runId ?? ""}|${path ?? ""}|${hasDoc}`;
  const first = useRef(now);
  useEffect(() => {
    if (now !== first.current) useRunsHome.getState().hide();
  }, [now]);
}

/** Esc leaves the home (a dialog on top takes its own Esc; a text field's Esc stays in it). */
function useEscapeCloses() {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape" || isModalOpen()) return;
      const el = e.target as HTMLElement | null;
      if (el && (el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.tagName === "SELECT") && (el as HTMLInputElement).value) return;
      e.preventDefault();
      useRunsHome.getState().hide();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}

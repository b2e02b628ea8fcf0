// The Runs tab: the saved runs of the open topology (by name), newest first. Open one in the
// debugger, delete one, or pick two and compare their transfers. The Capture switch listens for
// a running system's traces: while it is on, the runs saved from them (of any topology) are listed
// first, as they arrive. "All runs…" opens the Runs home (every run in the store). At narrow widths
// the columns read least (duration, tokens, steps, transfers) give way; Open stays in view.
// A topology may have thousands of runs: they come a page at a time (`list_runs` with a limit and
// an offset, the next page as the table's end comes into view) and only the rows in view (and a
// few around them) are in the page: the table is virtualised, spacer rows standing in for the rest.
import "../styles/runs.css";
import { keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import { useVirtualizer } from "@tanstack/react-virtual";
import { Bug, Columns2, Loader2, RefreshCw, Rows3, Trash2 } from "lucide-react";
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { useCapture } from "../hooks/useCapture";
import { useQuery } from "../hooks/useQuery";
import type { RunCommands } from "../commands/run";
import { toPlatformError, type PlatformError } from "../platform/types";
import { CAPTURED_SCAN, capturedAt, capturedRuns } from "../run/capture";
import { durationMs, formatDuration, formatTokens, formatWhen } from "../run/format";
import { num, type RunSummary } from "../run/types";
import { useDesigner } from "../store/designer";
import { useRun } from "../store/run";
import { useUi } from "../store/ui";
import { useRunsHome } from "../store/runsHome";
import { CaptureBar, CaptureSwitch } from "./Capture";
import { LostFacts, RunIdTag, RunOutcome, RunSourceTag } from "./runCells";

const COLUMNS = 10;
/** Runs asked per page. */
export const RUNS_PAGE = 200;
/** A row's height before it is measured. */
const ROW_ESTIMATE = 34;
/** Load the next page when the last row in the page is this close to the last loaded run. */
const AHEAD = 40;
/** Up to this many runs the table holds every row (no virtualiser: the common, short list). */
export const RUNS_VIRTUALISE_AFTER = 100;

/** The open topology's runs, newest first, page by page (the next page only when asked). */
function useTopologyRuns(commands: RunCommands, name: string | undefined, id: string | undefined, version: number, saved: number[]) {
  const { platform } = commands;
  const q = useInfiniteQuery<RunSummary[], PlatformError>({
    queryKey: ["list_runs", name, id, version, ...saved],
    enabled: name !== undefined,
    initialPageParam: 0,
    queryFn: async ({ pageParam }) => {
      try {
        // By the topology's identity when it has one (its runs across renames, not a copy's),
        // else by name.
        return await platform.list_runs({ topology: name, topology_id: id, limit: RUNS_PAGE, offset: pageParam as number });
      } catch (e) {
        throw toPlatformError(e);
      }
    },
    // A short page is the last; a full one may have more behind it.
    getNextPageParam: (last, all) => (last.length < RUNS_PAGE ? null : all.reduce((n, p) => n + p.length, 0)),
    // A finished or deleted run moves the key: the old list stays on screen while the new one
    // loads, but never another topology's.
    placeholderData: (prev, prevQuery) => (prevQuery?.queryKey[1] === name ? keepPreviousData(prev) : undefined),
  });
  const pages = q.data?.pages;
  // The store's answer per page: a run may move to the next page when one is saved meanwhile.
  const runs = useMemo(() => {
    if (!pages) return null;
    const seen = new Set<string>();
    return pages.flat().filter((r) => !seen.has(r.id) && seen.add(r.id));
  }, [pages]);
  const { fetchNextPage, hasNextPage, isFetchingNextPage, refetch } = q;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [fetchNextPage, hasNextPage, isFetchingNextPage]);
  return {
    runs,
    error: q.error,
    loading: q.isFetching && !isFetchingNextPage,
    hasMore: hasNextPage,
    loadingMore: isFetchingNextPage,
    loadMore,
    refresh: refetch,
  };
}

export function RunsPanel({ commands }: { commands: RunCommands }) {
  const name = useDesigner((s) => s.topology?.name);
  const topologyId = useDesigner((s) => s.topology?.id ?? undefined);
  const version = useRun((s) => s.runsVersion);
  const [chosen, setChosen] = useState<string[]>([]);
  const capture = useCapture(commands);

  const { platform } = commands;
  const status = capture.status;
  const endpoint = status?.on ? status.endpoint : null;
  // What capture has saved so far: when it moves, the lists are asked again, so captured runs
  // appear as they are saved (a trace is saved about 2 s after its root span arrives).
  const saved = [status?.runs ?? 0, status?.transfers ?? 0];
  // A finished or deleted run bumps the version: the list is asked again, the old one shown meanwhile.
  const list = useTopologyRuns(commands, name, topologyId, version, saved);
  // How many there are, once more than a page: the store counts them (one short query).
  const counted = useQuery(["count_runs", name, topologyId, version, ...saved], async () => (await platform.search_runs({ topology: name, topology_id: topologyId, limit: 0 })).total, {
    enabled: name !== undefined && list.hasMore,
    keepPrevious: (prev) => prev[1] === name,
  });
  // The runs that came in through the endpoint, whatever their topology (the newest runs are looked through).
  const capturedList = useQuery(
    ["captured_runs", endpoint, version, ...saved],
    async () => capturedRuns(await platform.list_runs({ limit: CAPTURED_SCAN }), endpoint ?? ""),
    { enabled: endpoint !== null, keepPrevious: (prev) => prev[1] === endpoint },
  );
  const runs = list.runs;
  const total = runs === null ? null : list.hasMore ? (counted.data ?? null) : runs.length;
  // A full last page looks as if more may follow; the store's count says none does.
  const more = list.hasMore && (total === null || (runs?.length ?? 0) < total);
  const captured = endpoint !== null ? (capturedList.data ?? null) : null;
  // Runs that are gone (deleted, another topology) are no longer picked.
  const picked = useMemo(
    () => chosen.filter((id) => runs?.some((r) => r.id === id) || captured?.some((r) => r.id === id)),
    [chosen, runs, captured],
  );

  const toggle = (id: string) => setChosen(picked.includes(id) ? picked.filter((x) => x !== id) : [...picked.slice(-1), id]);
  const refresh = () => {
    void list.refresh();
    if (endpoint !== null) void capturedList.refresh();
  };

  if (!name) return null;
  const capturing = endpoint !== null;
  const row = (r: RunSummary, showTopology = false, measure?: Measure, before?: RunSummary) => (
    <RunRow key={r.id} run={r} before={before} commands={commands} picked={picked.includes(r.id)} onPick={() => toggle(r.id)} showTopology={showTopology} measure={measure} />
  );
  return (
    <div className="runs-panel" data-testid="runs-panel">
      <div className="run-toolbar">
        <span className="runs-title">
          Runs of <strong>{name}</strong>
          {runs && (
            <span className="muted" data-testid="runs-count" data-total={total ?? ""}>
              {" "}
              · {total !== null ? total.toLocaleString() : `${runs.length.toLocaleString()}+`}
            </span>
          )}
        </span>
        <div className="toolbar-divider" />
        <CaptureSwitch capture={capture} />
        <div className="spacer" />
        <button className="btn btn-ghost btn-sm runs-all" data-testid="runs-all" onClick={() => useRunsHome.getState().show()} title="Every run in the store: of every topology, imported and captured">
          <Rows3 size={13} /> All runs…
        </button>
        <span className="muted small runs-pick-hint">{picked.length === 2 ? "2 runs picked" : "Pick two runs to compare their transfers"}</span>
        <button
          className="btn btn-secondary btn-sm"
          data-testid="runs-compare"
          disabled={picked.length !== 2}
          onClick={() => useUi.getState().setCompare([picked[0] as string, picked[1] as string])}
        >
          <Columns2 size={13} /> Compare
        </button>
        <button className="icon-btn sm" aria-label="Refresh" title="Refresh" onClick={refresh} aria-busy={list.loading}>
          <RefreshCw size={13} className={list.loading ? "spin" : undefined} />
        </button>
      </div>
      <CaptureBar capture={capture} />
      {list.error && (
        <div className="pane-empty text-error" role="alert" data-testid="runs-error" data-code={list.error.code}>
          Could not list runs: {list.error.message}
        </div>
      )}
      {capturing && capturedList.error && (
        <div className="pane-empty text-error" role="alert" data-testid="captured-error" data-code={capturedList.error.code}>
          Could not list the captured runs: {capturedList.error.message}
        </div>
      )}
      {!runs && !list.error && !capturing && <div className="pane-empty">Loading the runs…</div>}
      {runs && runs.length === 0 && !capturing && <div className="pane-empty">No saved runs of this topology yet. Start one in the Run tab (F5).</div>}
      {(capturing || (runs && runs.length > 0)) && (
        <RunsTable
          runs={runs ?? []}
          hasMore={more}
          loadingMore={list.loadingMore}
          loadMore={list.loadMore}
          total={total}
          row={row}
          aboveKey={`${capturing}:${captured?.length ?? "-"}:${capturedList.error?.code ?? ""}:${runs?.length ?? "-"}`}
          head={
            <thead>
              <tr>
                <th className="col-pick" aria-label="Pick to compare" />
                <th>Outcome</th>
                <th className="col-scenario">{capturing ? "Scenario / trace" : "Scenario"}</th>
                <th>Started</th>
                <th className="num col-duration">Duration</th>
                <th className="num col-tokens">Tokens</th>
                <th className="num col-steps">Steps</th>
                <th className="num col-transfers">Transfers</th>
                <th className="num col-lost">Lost facts</th>
                <th className="col-actions" aria-label="Actions" />
              </tr>
            </thead>
          }
          captured={
            capturing && (
              <tbody data-testid="captured-list" data-count={captured?.length ?? ""}>
                <tr className="runs-group">
                  <td colSpan={COLUMNS}>
                    Captured at this endpoint{captured && <span className="muted"> · {captured.length}</span>}
                    <span className="muted small"> (newest first, of any topology)</span>
                  </td>
                </tr>
                {captured === null ? (
                  <tr className="runs-group-empty">
                    <td colSpan={COLUMNS}>{capturedList.error ? "—" : "Loading the captured runs…"}</td>
                  </tr>
                ) : captured.length === 0 ? (
                  <tr className="runs-group-empty" data-testid="captured-empty">
                    <td colSpan={COLUMNS}>Nothing captured yet: send traces to the endpoint above. A trace is saved as a run about 2 s after its root span arrives.</td>
                  </tr>
                ) : (
                  captured.map((r, i) => row(r, true, undefined, captured[i + 1]))
                )}
              </tbody>
            )
          }
          lead={
            <>
              {capturing && (
                <tr className="runs-group">
                  <td colSpan={COLUMNS}>
                    Runs of <strong>{name}</strong>
                  </td>
                </tr>
              )}
              {capturing && runs && runs.length === 0 && (
                <tr className="runs-group-empty">
                  <td colSpan={COLUMNS}>No saved runs of this topology yet.</td>
                </tr>
              )}
            </>
          }
        />
      )}
    </div>
  );
}

/** A virtual row's place: its index (read back by the virtualiser) and the ref that measures it. */
type Measure = { index: number; ref: (el: Element | null) => void };

/**
 * The table: its head, the captured runs (whole: at most a scan's worth), then the topology's runs,
 * of which only those in view (and `overscan` around them) are rows; a spacer row above and
 * below keeps the scroll height, and a last row says more are loading while they do.
 */
function RunsTable({
  runs,
  hasMore,
  loadingMore,
  loadMore,
  total,
  row,
  head,
  captured,
  lead,
  aboveKey,
}: {
  runs: RunSummary[];
  hasMore: boolean;
  loadingMore: boolean;
  loadMore: () => void;
  total: number | null;
  row: (r: RunSummary, showTopology: boolean, measure?: Measure, before?: RunSummary) => React.ReactNode;
  head: React.ReactNode;
  captured: React.ReactNode;
  lead: React.ReactNode;
  /** Changes when the rows above the runs change (the captured list, the group's title). */
  aboveKey: string;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const anchorRef = useRef<HTMLTableRowElement>(null);
  // Where the first run's row starts in the scrolled content (below the head, the captured runs
  // and the group's title), measured after each render.
  const [margin, setMargin] = useState(0);
  // TanStack Virtual hands back an imperative object; the React Compiler skips this component.
  const virtual = runs.length > RUNS_VIRTUALISE_AFTER;
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: virtual ? runs.length : 0,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_ESTIMATE,
    overscan: 12,
    scrollMargin: margin,
    initialRect: { width: 1200, height: 400 },
    getItemKey: (i) => runs[i]?.id ?? i,
  });
  useLayoutEffect(() => {
    const wrap = scrollRef.current;
    const anchor = anchorRef.current;
    if (!virtual || !wrap || !anchor) return;
    const at = Math.round(anchor.getBoundingClientRect().top - wrap.getBoundingClientRect().top + wrap.scrollTop);
    if (at !== margin) setMargin(at);
  }, [virtual, margin, aboveKey]);
  const items = virtualizer.getVirtualItems();
  const lastIndex = virtual ? (items[items.length - 1]?.index ?? -1) : runs.length - 1;
  useEffect(() => {
    if (hasMore && !loadingMore && lastIndex >= runs.length - AHEAD) loadMore();
  }, [hasMore, loadingMore, lastIndex, runs.length, loadMore]);
  const first = items[0];
  const last = items[items.length - 1];
  const above = first ? first.start - margin : 0;
  const below = last ? virtualizer.getTotalSize() - (last.end - margin) : 0;
  return (
    <div className="runs-table-wrap" ref={scrollRef}>
      <table className="runs-table" data-testid="runs-list" data-count={runs.length} data-total={total ?? ""}>
        {head}
        {captured}
        <tbody>
          {lead}
          <tr ref={anchorRef} className="runs-spacer" aria-hidden="true">
            <td colSpan={COLUMNS} style={{ height: Math.max(0, above) }} />
          </tr>
          {virtual
            ? items.map((v) => {
                const r = runs[v.index];
                return r ? row(r, false, { index: v.index, ref: virtualizer.measureElement }, runs[v.index + 1]) : null;
              })
            : runs.map((r, i) => row(r, false, undefined, runs[i + 1]))}
          {below > 0 && (
            <tr className="runs-spacer" aria-hidden="true">
              <td colSpan={COLUMNS} style={{ height: below }} />
            </tr>
          )}
          {hasMore && (
            <tr className="runs-group-empty" data-testid="runs-more">
              <td colSpan={COLUMNS}>
                <Loader2 size={12} className="spin" /> Loading more runs… ({runs.length.toLocaleString()}
                {total !== null ? ` of ${total.toLocaleString()}` : ""})
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

/** One saved run: its outcome, where it came from, its size; open, delete or pick it. */
function RunRow({
  run: r,
  before,
  commands,
  picked: on,
  onPick,
  showTopology,
  measure,
}: {
  run: RunSummary;
  /** The run listed below it (saved before it): the row says what differs from it. */
  before?: RunSummary;
  commands: RunCommands;
  picked: boolean;
  onPick: () => void;
  /** Name the run's topology too (captured runs, of any topology). */
  showTopology: boolean;
  /** A row of the virtualised list: measured as it renders. */
  measure?: Measure;
}) {
  const label = `Run of ${r.scenario} (${formatWhen(r.started_at)})`;
  return (
    <tr
      className={on ? "is-picked" : undefined}
      ref={measure?.ref}
      data-index={measure?.index}
      data-testid="run-row"
      data-run={r.id}
      data-status={r.outcome.status}
      onDoubleClick={() => void commands.openRun(r.id)}
    >
      <td className="col-pick">
        <input type="checkbox" checked={on} onChange={onPick} aria-label={`Pick ${label} to compare`} data-testid="run-pick" />
      </td>
      <td className="col-outcome" title={r.outcome.reason}>
        <RunOutcome run={r} />
      </td>
      <td className="col-scenario" title={showTopology ? undefined : r.scenario}>
        {showTopology ? (
          <span className="run-topology" data-testid="run-topology" title={`Topology: ${r.topology} · scenario: ${r.scenario}`}>
            {r.topology}
          </span>
        ) : (
          <span className="run-scenario">{r.scenario}</span>
        )}
        <RunIdTag run={r} before={before} />
        <RunSourceTag run={r} />
      </td>
      {showTopology ? (
        <td title={`Captured at ${capturedAt(r)}; the trace says it started at ${r.started_at}`} data-testid="run-captured-at">
          {formatWhen(capturedAt(r))}
        </td>
      ) : (
        <td title={r.started_at}>{formatWhen(r.started_at)}</td>
      )}
      <td className="num col-duration">{formatDuration(durationMs(r.started_at, r.ended_at))}</td>
      <td className="num col-tokens">{formatTokens(num(r.input_tokens) + num(r.output_tokens))}</td>
      <td className="num col-steps">{r.steps.toLocaleString()}</td>
      <td className="num col-transfers">{r.transfers}</td>
      <td className={`num col-lost${r.lost_facts > 0 ? " lost" : ""}`} data-testid="run-lost">
        <LostFacts run={r} />
      </td>
      <td className="col-actions">
        <button className="btn btn-ghost btn-sm" data-testid="run-open" onClick={() => void commands.openRun(r.id)} title="Open in the debugger">
          <Bug size={13} /> Open
        </button>
        <button className="icon-btn sm danger" data-testid="run-delete" aria-label={`Delete ${label}`} title="Delete" onClick={() => void commands.deleteRun(r.id, label)}>
          <Trash2 size={13} />
        </button>
      </td>
    </tr>
  );
}

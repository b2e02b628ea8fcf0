// The Runs home's list: `search_runs` page by page (PAGE_SIZE runs, newest first), the next page
// asked only when the table scrolls near the end of what is loaded; never every run at once.
// Pages are cached by filters (and the runs version, bumped when a run finishes, is imported or
// deleted) in the platform's query cache; the last list stays on screen while a new one loads.
// While a listed run is still running (a native run in another window, a trace being captured),
// the loaded pages are asked again every RUNNING_REFRESH_MS (summaries only, never overviews);
// while capture is on, each run it saves asks them again too.
import { keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import { useCallback, useMemo } from "react";
import type { RunPage } from "../bindings/RunPage";
import type { RunSummary } from "../bindings/RunSummary";
import { usePlatform } from "../commands/platform";
import { toPlatformError, type PlatformError } from "../platform/types";
import { filterQuery, nextOffset, pageQuery, type RunFilters } from "../run/runsQuery";
import { useRun } from "../store/run";
import { useCaptureStatus } from "./queries";

export type RunPages = {
  /** The runs loaded so far, newest first (null before the first page). */
  runs: RunSummary[] | null;
  /** How many runs match the filters (from the latest page). */
  total: number | null;
  /** Every topology with runs in the store (for the filter). */
  topologies: string[];
  error: PlatformError | null;
  /** The first page (or a refresh) is loading. */
  loading: boolean;
  /** The list shown is the previous filters' while the new one loads. */
  stale: boolean;
  hasMore: boolean;
  loadingMore: boolean;
  /** Asks for the next page (once: a call while one is on its way does nothing). */
  loadMore(): void;
  refresh(): Promise<void>;
};

/** How often the list is asked again while a run in it is still running. */
export const RUNNING_REFRESH_MS = 2000;

/** Whether any run in the loaded pages is still running. */
export function anyRunning(pages: readonly RunPage[] | undefined): boolean {
  return !!pages?.some((p) => p.runs.some((r) => r.outcome.status === "running"));
}

export function useRunPages(filters: RunFilters): RunPages {
  const platform = usePlatform();
  const version = useRun((s) => s.runsVersion);
  // While capture is on, each run it saves or starts showing asks the list again.
  const capture = useCaptureStatus().data;
  const captured = capture?.on ? capture.runs : 0;
  const key = useMemo(() => ["search_runs", filterQuery(filters), version, captured], [filters, version, captured]);
  const q = useInfiniteQuery<RunPage, PlatformError>({
    queryKey: key,
    initialPageParam: 0,
    queryFn: async ({ pageParam }) => {
      try {
        return await platform.search_runs(pageQuery(filters, pageParam as number));
      } catch (e) {
        throw toPlatformError(e);
      }
    },
    getNextPageParam: (last, all) => nextOffset(all.reduce((n, p) => n + p.runs.length, 0), last.runs.length, last.total),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (anyRunning(query.state.data?.pages) ? RUNNING_REFRESH_MS : false),
  });
  const pages = q.data?.pages;
  const runs = useMemo(() => (pages ? pages.flatMap((p) => p.runs) : null), [pages]);
  const last = pages?.[pages.length - 1];
  const { fetchNextPage, hasNextPage, isFetchingNextPage, refetch } = q;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [fetchNextPage, hasNextPage, isFetchingNextPage]);
  const refresh = useCallback(async () => {
    await refetch();
  }, [refetch]);
  return {
    runs,
    total: last?.total ?? null,
    topologies: last?.topologies ?? [],
    error: q.error,
    loading: q.isFetching && !isFetchingNextPage,
    stale: q.isPlaceholderData,
    hasMore: hasNextPage,
    loadingMore: isFetchingNextPage,
    loadMore,
    refresh,
  };
}

// The one way a component reads from the backend: `useQuery(key, fetcher, options)` →
// `{ data, error, loading, refresh }`, on @tanstack/react-query. Answers are cached by key in the
// platform's QueryClient (`PlatformProvider` makes one per platform) and shared by every
// component that asks with the same key; a component shows only the answer for its current key,
// so a late answer for an older key is never shown; only the latest fetch of a key counts. Errors
// are the platform's `{code, message}` (`PlatformError`) and must be shown by the caller.
import { keepPreviousData, QueryClient, useQuery as useTanstackQuery, type QueryKey } from "@tanstack/react-query";
import { useCallback } from "react";
import { toPlatformError, type PlatformError } from "../platform/types";

declare module "@tanstack/react-query" {
  interface Register {
    defaultError: PlatformError;
  }
}

export type { QueryKey };

export type QueryOptions<T> = {
  /** False: do not fetch (yet); `data` stays whatever the cache holds for the key. Default true. */
  enabled?: boolean;
  /**
   * Keep showing the previous key's answer while the new key's loads (no flicker when stepping
   * or when a list's version changes); a function decides from the previous key.
   */
  keepPrevious?: boolean | ((previousKey: QueryKey) => boolean);
  /** How long (ms) an answer stays fresh: a component mounting within it does not ask again. Default 0. */
  staleTime?: number;
  /** How long (ms) an answer nobody shows stays in the cache. Default 5 minutes. */
  gcTime?: number;
  /** An answer already at hand (another cache), used without fetching. */
  initialData?: () => T | undefined;
  /**
   * Ask again every so many ms while a component shows the key (a status that changes on its
   * own); a function decides from the current answer (false: stop). Default: never.
   */
  refetchInterval?: number | false | ((data: T | undefined) => number | false);
};

export type Query<T> = {
  /** The answer for the key (or the previous key's, with `keepPrevious`, while loading). */
  data: T | undefined;
  /** Why the last fetch for the key failed; null once a fetch succeeds. */
  error: PlatformError | null;
  /** A fetch for the key is in flight (the first, or a refresh). */
  loading: boolean;
  /** Fetches the key again (the answer in flight, if any, is dropped); resolves when it settles. */
  refresh(): Promise<void>;
};

const clients = new WeakMap<object, QueryClient>();

/** The cache of a platform's answers, one per platform (the same one on every call). */
export function queryClientFor(platform: object): QueryClient {
  let client = clients.get(platform);
  if (!client) {
    client = createQueryClient();
    clients.set(platform, client);
  }
  return client;
}

/** Backend errors are deterministic: no retries, no refetch on focus. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: false,
        refetchOnWindowFocus: false,
        refetchOnReconnect: false,
        // Answers are shown as they came (large run overviews are not deep-compared).
        structuralSharing: false,
      },
    },
  });
}

export function useQuery<T>(key: QueryKey, fetcher: () => Promise<T>, options: QueryOptions<T> = {}): Query<T> {
  const { enabled = true, keepPrevious = false, staleTime, gcTime, initialData, refetchInterval } = options;
  const q = useTanstackQuery<T, PlatformError>({
    queryKey: key,
    queryFn: async () => {
      try {
        return await fetcher();
      } catch (e) {
        throw toPlatformError(e);
      }
    },
    enabled,
    ...(staleTime !== undefined && { staleTime }),
    ...(gcTime !== undefined && { gcTime }),
    ...(initialData && { initialData }),
    ...(refetchInterval !== undefined && {
      refetchInterval: typeof refetchInterval === "function" ? (query: { state: { data: T | undefined } }) => refetchInterval(query.state.data) : refetchInterval,
    }),
    placeholderData:
      typeof keepPrevious === "function"
        ? (prev, prevQuery) => (prevQuery && keepPrevious(prevQuery.queryKey) ? prev : undefined)
        : keepPrevious
          ? keepPreviousData
          : undefined,
  });
  const { refetch } = q;
  const refresh = useCallback(async () => {
    await refetch();
  }, [refetch]);
  return { data: q.data, error: q.error, loading: q.isFetching, refresh };
}

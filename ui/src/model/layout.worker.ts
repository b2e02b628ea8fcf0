// The layout worker: lays out off the main thread, so opening a large topology never freezes the
// window. One message per request, `{ id, request }`; answered by `{ id, result }` or `{ id, error }`.
import { computeLayout, type ElkLike, type LayoutRequest } from "./layout-engine";

type Elk = InstanceType<typeof import("elkjs/lib/elk.bundled.js").default>;
let elk: Promise<Elk> | null = null;

/** ELK (about 1.4 MB) loads on the first small graph, not with the worker. */
function loadElk(): Promise<ElkLike> {
  elk ??= import("elkjs/lib/elk.bundled.js").then(({ default: ELK }) => {
    // Loaded in a worker, elk.bundled.js also answers the worker's messages itself (as ELK's own
    // worker script): this worker's messages are ours.
    self.onmessage = null;
    return new ELK();
  });
  return elk as Promise<ElkLike>;
}

self.addEventListener("message", (e: MessageEvent<{ id: number; request: LayoutRequest }>) => {
  const { id, request } = e.data;
  computeLayout(request, loadElk).then(
    (result) => self.postMessage({ id, result }),
    (err: unknown) => self.postMessage({ id, error: err instanceof Error ? err.message : String(err) }),
  );
});

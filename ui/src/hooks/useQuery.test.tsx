// useQuery: answers by key, never a late answer for an older key, errors as PlatformError.
import { act, render, screen, waitFor } from "@testing-library/react";
import { QueryClientProvider } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { describe, expect, it, vi } from "vitest";
import { PlatformError } from "../platform/types";
import { createQueryClient, useQuery, type Query } from "./useQuery";

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function withClient(children: ReactNode) {
  return <QueryClientProvider client={createQueryClient()}>{children}</QueryClientProvider>;
}

function Show<T>({ id, q }: { id: string; q: Query<T> }) {
  return (
    <div data-testid={id} data-loading={String(q.loading)} data-code={q.error?.code ?? ""}>
      {q.error ? `error: ${q.error.message}` : q.data === undefined ? "none" : String(q.data)}
    </div>
  );
}

/** A component that asks `useQuery(key, fetcher, options)` and shows the answer. */
function Probe<T>({ id, args }: { id: string; args: Parameters<typeof useQuery<T>> }) {
  return <Show id={id} q={useQuery(...args)} />;
}

describe("useQuery", () => {
  it("shows the answer for the current key only, whatever order the answers come in", async () => {
    const answers = { a: deferred<string>(), b: deferred<string>() };
    const fetcher = vi.fn((k: "a" | "b") => answers[k].promise);
    const view = (k: "a" | "b") => withClient(<Probe id="q" args={[["k", k], () => fetcher(k)]} />);
    const { rerender } = render(view("a"));
    expect(screen.getByTestId("q").getAttribute("data-loading")).toBe("true");
    rerender(view("b"));
    await act(async () => answers.b.resolve("B"));
    await waitFor(() => expect(screen.getByTestId("q").textContent).toBe("B"));
    await act(async () => answers.a.resolve("A")); // late, for the old key
    expect(screen.getByTestId("q").textContent).toBe("B");
    expect(fetcher.mock.calls.map((c) => c[0])).toEqual(["a", "b"]);
  });

  it("with keepPrevious, shows the previous key's answer while the new one loads", async () => {
    const next = deferred<string>();
    const fetcher = vi.fn((k: number) => (k === 1 ? Promise.resolve("one") : next.promise));
    const view = (k: number) => withClient(<Probe id="q" args={[["k", k], () => fetcher(k), { keepPrevious: true }]} />);
    const { rerender } = render(view(1));
    await waitFor(() => expect(screen.getByTestId("q").textContent).toBe("one"));
    rerender(view(2));
    expect(screen.getByTestId("q").textContent).toBe("one");
    expect(screen.getByTestId("q").getAttribute("data-loading")).toBe("true");
    await act(async () => next.resolve("two"));
    await waitFor(() => expect(screen.getByTestId("q").textContent).toBe("two"));
  });

  it("turns whatever the fetcher threw into the platform's {code, message}", async () => {
    const plain = () => Promise.reject({ code: "run.not_found", message: "no run abc" });
    const text = () => Promise.reject("boom");
    render(
      withClient(
        <>
          <Probe id="plain" args={[["plain"], plain]} />
          <Probe id="text" args={[["text"], text]} />
        </>,
      ),
    );
    await waitFor(() => expect(screen.getByTestId("plain").textContent).toBe("error: no run abc"));
    expect(screen.getByTestId("plain").getAttribute("data-code")).toBe("run.not_found");
    await waitFor(() => expect(screen.getByTestId("text").textContent).toBe("error: boom"));
    expect(screen.getByTestId("text").getAttribute("data-code")).toBe("ui.internal");
  });

  it("refresh asks again and clears the error once it succeeds; no retries on its own", async () => {
    let fail = true;
    const fetcher = vi.fn(async () => {
      if (fail) throw new PlatformError("config.read", "disk on fire");
      return "ok";
    });
    function Refreshable() {
      const q = useQuery(["r"], fetcher);
      return (
        <>
          <Show id="q" q={q} />
          <button onClick={() => void q.refresh()}>again</button>
        </>
      );
    }
    render(withClient(<Refreshable />));
    await waitFor(() => expect(screen.getByTestId("q").textContent).toBe("error: disk on fire"));
    await new Promise((r) => setTimeout(r, 20));
    expect(fetcher).toHaveBeenCalledTimes(1);
    fail = false;
    act(() => screen.getByText("again").click());
    await waitFor(() => expect(screen.getByTestId("q").textContent).toBe("ok"));
    expect(screen.getByTestId("q").getAttribute("data-code")).toBe("");
    expect(fetcher).toHaveBeenCalledTimes(2);
  });

  it("shares one answer between components asking with the same key; enabled: false asks nothing", async () => {
    const fetcher = vi.fn(async () => 42);
    const idle = vi.fn(async () => 0);
    render(
      withClient(
        <>
          <Probe id="a" args={[["shared"], fetcher]} />
          <Probe id="b" args={[["shared"], fetcher]} />
          <Probe id="c" args={[["idle"], idle, { enabled: false }]} />
        </>,
      ),
    );
    await waitFor(() => expect(screen.getByTestId("b").textContent).toBe("42"));
    expect(screen.getByTestId("a").textContent).toBe("42");
    expect(fetcher).toHaveBeenCalledTimes(1);
    expect(idle).not.toHaveBeenCalled();
    expect(screen.getByTestId("c").getAttribute("data-loading")).toBe("false");
  });

  it("refetchInterval asks again while the answer says so, and stops when it no longer does", async () => {
    let n = 0;
    const fetcher = vi.fn(async () => ++n);
    // a status that is "on" for its first three answers
    render(withClient(<Probe id="q" args={[["poll"], fetcher, { refetchInterval: (v: number | undefined) => (v === undefined || v < 3 ? 20 : false) }]} />));
    await waitFor(() => expect(screen.getByTestId("q").textContent).toBe("3"));
    await new Promise((r) => setTimeout(r, 80));
    expect(screen.getByTestId("q").textContent).toBe("3");
    expect(fetcher).toHaveBeenCalledTimes(3);
  });
});

// Two runs' transfer tables side by side, rows lined up by transfer number; rows that differ
// (another route, policy, diff counts or fact statuses) are marked.
import { Pin } from "lucide-react";
import { useQuery } from "../hooks/useQuery";
import { OutcomeBadge } from "../run/badges";
import { durationMs, formatDuration, formatTokens, formatWhen } from "../run/format";
import { num, type TransferBrief } from "../run/types";
import type { Platform } from "../platform/types";
import { Modal } from "./Modal";

function sameTransfer(a: TransferBrief | undefined, b: TransferBrief | undefined): boolean {
  if (!a || !b) return false;
  return (
    a.from === b.from &&
    a.to === b.to &&
    a.kind === b.kind &&
    a.policy === b.policy &&
    a.carried === b.carried &&
    a.transformed === b.transformed &&
    a.dropped === b.dropped &&
    a.added === b.added &&
    JSON.stringify(a.facts) === JSON.stringify(b.facts)
  );
}

export function CompareDialog({ platform, runs, onClose }: { platform: Platform; runs: [string, string]; onClose: () => void }) {
  const [a, b] = runs;
  const overviews = useQuery(["compare", a, b], () => Promise.all([platform.run_overview({ run_id: a }), platform.run_overview({ run_id: b })]));
  const data = overviews.data ?? null;
  const error = overviews.error;

  const rows = data ? Math.max(data[0].transfers.length, data[1].transfers.length) : 0;
  return (
    <Modal title="Compare runs" subtitle="Transfers side by side; differing rows are marked." onClose={onClose} width={1180} testId="compare-view">
      {error && (
        <div className="pane-empty text-error" role="alert" data-testid="compare-error" data-code={error.code}>
          Could not load the runs: {error.message}
        </div>
      )}
      {!data && !error && <div className="pane-empty">Loading…</div>}
      {data && (
        <div className="compare-grid">
          {data.map((o, side) => (
            <section key={o.summary.id} className="compare-col" data-testid="compare-run" data-run={o.summary.id}>
              <header className="compare-head">
                <OutcomeBadge status={o.summary.outcome.status} />
                <span className="compare-title">
                  {o.summary.scenario} · {formatWhen(o.summary.started_at)}
                </span>
                <span className="muted small">
                  {o.summary.steps} steps · {formatTokens(num(o.summary.input_tokens) + num(o.summary.output_tokens))} tokens ·{" "}
                  {formatDuration(durationMs(o.summary.started_at, o.summary.ended_at))}
                </span>
              </header>
              <div className="compare-reason" title={o.summary.outcome.reason}>
                {o.summary.outcome.reason}
              </div>
              <table className="transfer-table" data-testid="transfer-table">
                <thead>
                  <tr>
                    <th>#</th>
                    <th>Step</th>
                    <th>Transfer</th>
                    <th>Policy</th>
                    <th className="num" title="carried">C</th>
                    <th className="num" title="transformed">T</th>
                    <th className="num" title="dropped">D</th>
                    <th className="num" title="added">A</th>
                    <th>Facts</th>
                  </tr>
                </thead>
                <tbody>
                  {Array.from({ length: rows }, (_, i) => {
                    const t = o.transfers[i];
                    const other = data[1 - side]?.transfers[i];
                    const differs = !sameTransfer(t, other);
                    if (!t) {
                      return (
                        <tr key={i} className="is-missing">
                          <td colSpan={9} className="muted">
                            no transfer {i}
                          </td>
                        </tr>
                      );
                    }
                    return (
                      <tr key={i} className={differs ? "is-different" : undefined} data-testid="transfer-row" data-index={t.index}>
                        <td className="mono">T{t.index}</td>
                        <td className="mono">{t.step}</td>
                        <td>
                          <span className={`kind-dot kind-${t.kind}`} title={t.kind} /> {t.from} → {t.to}
                        </td>
                        <td className="mono small">{t.policy}</td>
                        <td className="num">{t.carried}</td>
                        <td className="num">{t.transformed}</td>
                        <td className="num">{t.dropped}</td>
                        <td className="num">{t.added}</td>
                        <td>
                          {t.facts.length === 0 && <span className="muted">—</span>}
                          {t.facts.map((f) => (
                            <span key={f.id} className={`fact-mini fact-${f.status}`} title={`${f.id}: ${f.status}`}>
                              <Pin size={10} /> {f.status}
                            </span>
                          ))}
                        </td>
                      </tr>
                    );
                  })}
                  {rows === 0 && (
                    <tr>
                      <td colSpan={9} className="muted">
                        No transfers in this run.
                      </td>
                    </tr>
                  )}
                </tbody>
              </table>
            </section>
          ))}
        </div>
      )}
    </Modal>
  );
}

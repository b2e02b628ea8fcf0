// The parts of a saved run's row that the Runs tab and the Runs home share: its outcome with the
// reason (truncated, whole in the tooltip), where an imported run came from, its lost facts, a
// person's good/bad mark.
import { GitFork, Pin, ThumbsDown, ThumbsUp } from "lucide-react";
import { whatDiffers } from "../run/differs";
import { shortRunId } from "../run/ids";
import { JUDGEMENT_LABELS } from "../run/runsQuery";
import { OutcomeBadge } from "../run/badges";
import { EndingBadge } from "../run/EndingBadge";
import { formatLabel, runSource } from "../run/source";
import type { RunSummary } from "../run/types";

export function RunOutcome({ run: r }: { run: RunSummary }) {
  return (
    <>
      <OutcomeBadge status={r.outcome.status} />
      {r.outcome.status === "running" && (
        <span className="live-badge" data-testid="run-live-badge" title="Still running: this row updates as the run goes">
          <span className="live-dot" aria-hidden="true" />
          live
        </span>
      )}
      <EndingBadge run={r} />
      <span className="run-reason" title={r.outcome.reason}>
        {r.outcome.reason}
      </span>
    </>
  );
}

/** The importer's format of an imported or captured run (nothing for Baton's own runs). */
export function RunSourceTag({ run: r }: { run: RunSummary }) {
  const src = runSource(r);
  if (!src) return null;
  return (
    <span className="run-imported" data-testid="run-imported" title={[`Imported from ${formatLabel(src.format)}`, src.file, ...src.notes].filter(Boolean).join("\n")}>
      {src.format}
    </span>
  );
}

export function LostFacts({ run: r }: { run: RunSummary }) {
  return (
    <span title={r.lost_facts > 0 ? `${r.lost_facts} pinned fact${r.lost_facts === 1 ? "" : "s"} lost at a transfer` : "No pinned fact lost"}>
      {r.lost_facts > 0 && <Pin size={11} />} {r.lost_facts}
    </span>
  );
}

/** A person's mark on the run (Good or Bad, why in the tooltip); a dash when it has none. */
export function RunMarkBadge({ run: r }: { run: RunSummary }) {
  const m = r.mark;
  if (!m) {
    return (
      <span className="muted" title="Not marked" data-testid="run-mark-badge" data-judgement="">
        –
      </span>
    );
  }
  const Icon = m.judgement === "good" ? ThumbsUp : ThumbsDown;
  return (
    <span className={`mark-badge is-${m.judgement}`} data-testid="run-mark-badge" data-judgement={m.judgement} title={`Marked ${m.judgement}${m.why ? `: ${m.why}` : ""} (${m.at})`}>
      <Icon size={11} /> {JUDGEMENT_LABELS[m.judgement]}
    </span>
  );
}

/**
 * The run's short id, and for a fork what it is a fork of and what it changed (the first change
 * in the row, all of them in the tooltip): rows of a run and its forks read differently. Given
 * the run saved before it in the list, any other run says what differs from that one.
 */
export function RunIdTag({ run: r, before }: { run: RunSummary; before?: RunSummary }) {
  const parent = r.parent ?? r.fork?.parent ?? "";
  const changes = r.fork?.changes ?? [];
  const isFork = Boolean(parent || r.fork);
  return (
    <>
      <span className="run-id mono muted" data-testid="run-id" title={`Run ${r.id}`}>
        {shortRunId(r.id)}
      </span>
      {(parent || r.fork) && (
        <span
          className="run-fork"
          data-testid="run-fork"
          title={[`Fork of run ${parent || "(a trace file)"} at step ${r.forked_at ?? r.fork?.at ?? "?"}`, ...changes].join("\n")}
        >
          <GitFork size={11} /> {parent ? shortRunId(parent) : "fork"}
          {changes[0] ? `: ${changes[0]}` : ""}
        </span>
      )}
      {!isFork && before && <RunDiffers run={r} before={before} />}
    </>
  );
}

/** What sets the run apart from `before` (the first difference; all of them in the tooltip). */
function RunDiffers({ run, before }: { run: RunSummary; before: RunSummary }) {
  const diffs = whatDiffers(run, before);
  const than = `run ${shortRunId(before.id)}, saved before it`;
  if (diffs.length === 0) {
    return (
      <span className="run-differs is-same muted" data-testid="run-differs" data-same="true" title={`Nothing this list shows differs from ${than}`}>
        same as {shortRunId(before.id)}
      </span>
    );
  }
  return (
    <span className="run-differs" data-testid="run-differs" data-same="false" title={[`Differs from ${than}:`, ...diffs].join("\n")}>
      {diffs[0]}
      {diffs.length > 1 ? ` +${diffs.length - 1}` : ""}
    </span>
  );
}

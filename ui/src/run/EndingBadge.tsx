// A run judged bad by its own evidence (a failed expect:, a mark, the judge, its structure), shown
// beside its outcome wherever a run is named, because "completed" alone can hide a wrong answer.
import { ThumbsDown } from "lucide-react";
import type { RunSummary } from "./types";

const JUDGED_BY: Record<string, string> = {
  expect: "a failed expect:",
  mark: "a person's mark",
  judge: "the judge model",
  signal: "the run's own structure",
};

export function EndingBadge({ run: r }: { run: RunSummary }) {
  const e = r.ending;
  if (e?.judgement !== "bad") return null;
  const at = e.at != null ? ` (step ${e.at})` : "";
  return (
    <span className="mark-badge is-bad ending-badge" data-testid="run-ending-badge" title={`Judged bad by ${JUDGED_BY[e.by] ?? e.by}${at}: ${e.reason}`}>
      <ThumbsDown size={11} /> bad ending
    </span>
  );
}


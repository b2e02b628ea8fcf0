// A person's judgement of the open run, beside its outcome: Good or Bad with an optional why, or
// cleared. It is saved in the store (`mark_run`), judges the run's ending for the verdict (the
// Suspects tab reads it again) and is what the Runs home filters by.
import { ThumbsDown, ThumbsUp, X } from "lucide-react";
import { useState } from "react";
import type { Judgement } from "../bindings/Judgement";
import type { SuspectCommands } from "../commands/suspects";
import { useDebugger } from "../store/debugger";
import "../styles/suspects.css";

export function MarkControl({ suspects }: { suspects: Pick<SuspectCommands, "mark"> }) {
  const summary = useDebugger((s) => s.overview?.summary);
  const mark = summary?.mark ?? null;
  const [why, setWhy] = useState(mark?.why ?? "");
  const [busy, setBusy] = useState(false);
  if (!summary) return null;
  const runId = summary.id;
  const saved = mark?.why ?? "";
  const edited = mark !== null && why.trim() !== saved;

  const set = async (judgement: Judgement | null) => {
    setBusy(true);
    try {
      const m = await suspects.mark(runId, judgement, judgement ? why : "");
      if (m === null) setWhy("");
    } finally {
      setBusy(false);
    }
  };
  const button = (j: Judgement) => {
    const on = mark?.judgement === j;
    const Icon = j === "good" ? ThumbsUp : ThumbsDown;
    const label = j === "good" ? "Good" : "Bad";
    return (
      <button
        type="button"
        className={`mark-btn is-${j}${on ? " is-on" : ""}`}
        aria-pressed={on}
        data-testid={`mark-${j}`}
        disabled={busy}
        onClick={() => void set(j)}
        title={on ? (edited ? `Save the why (still marked ${j})` : `Marked ${j}${saved ? `: ${saved}` : ""}`) : `Mark the run ${j}${why.trim() ? ` (why: ${why.trim()})` : ""}: its ending is judged ${j} by you`}
      >
        <Icon size={12} /> {label}
      </button>
    );
  };
  return (
    <div className="run-mark" data-testid="run-mark" data-judgement={mark?.judgement ?? ""}>
      <div className="run-mark-row">
        <span className="run-mark-label">Your mark</span>
        <div className="mark-group" role="group" aria-label="Mark the run good or bad">
          {button("good")}
          {button("bad")}
        </div>
        {mark && (
          <button type="button" className="icon-btn sm" data-testid="mark-clear" aria-label="Clear the mark" title="Clear the mark" disabled={busy} onClick={() => void set(null)}>
            <X size={12} />
          </button>
        )}
      </div>
      <input
        className="input input-sm run-mark-why"
        data-testid="mark-why"
        aria-label="Why (optional)"
        placeholder={mark ? "why (optional; Enter saves)" : "why (optional), then Good or Bad"}
        value={why}
        maxLength={2000}
        disabled={busy}
        onChange={(e) => setWhy(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && mark) {
            e.preventDefault();
            void set(mark.judgement);
          } else if (e.key === "Escape" && edited) {
            e.stopPropagation();
            setWhy(saved);
          }
        }}
      />
    </div>
  );
}

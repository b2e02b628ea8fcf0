// The timeline's search box and kind filters (model call, tool, handoff, delegation, guard,
// final), with how many steps each keeps; the debugger shows only the steps they keep.
import { Search, X } from "lucide-react";
import { useMemo } from "react";
import { isFiltering, KIND_FILTERS, kindCounts, type StepFilter } from "../run/stepfilter";
import type { Steps } from "../run/types";
import "../styles/charts.css";

export function TimelineFilter({
  steps,
  shown,
  filter,
  onChange,
}: {
  steps: Steps;
  shown: number;
  filter: StepFilter;
  onChange: (f: StepFilter) => void;
}) {
  const counts = useMemo(() => kindCounts(steps), [steps]);
  const toggle = (id: string) => {
    const kinds = new Set(filter.kinds);
    if (kinds.has(id)) kinds.delete(id);
    else kinds.add(id);
    onChange({ ...filter, kinds });
  };
  return (
    <div className="tl-filter" data-testid="timeline-filter">
      <label className="tl-search">
        <Search size={13} />
        <input
          className="input"
          type="search"
          placeholder="Search steps (text, agent, #index)"
          aria-label="Search the steps"
          data-testid="timeline-search"
          value={filter.query}
          onChange={(e) => onChange({ ...filter, query: e.target.value })}
          onKeyDown={(e) => {
            // the debugger's keys (arrows, N, Esc) are not for the search box
            e.stopPropagation();
            if (e.key === "Escape" && filter.query) onChange({ ...filter, query: "" });
          }}
        />
      </label>
      <div className="tl-chips" role="group" aria-label="Show only these kinds of step">
        {KIND_FILTERS.map((k) => {
          const n = counts.get(k.id) ?? 0;
          return (
            <button
              key={k.id}
              type="button"
              className="tl-chip"
              aria-pressed={filter.kinds.has(k.id)}
              data-testid={`timeline-kind-${k.id}`}
              disabled={n === 0 && !filter.kinds.has(k.id)}
              onClick={() => toggle(k.id)}
              title={`Show only ${k.label.toLowerCase()} steps (with the other kinds chosen)`}
            >
              {k.label} <span className="tl-chip-count">{n}</span>
            </button>
          );
        })}
        {isFiltering(filter) && (
          <>
            <span className="tl-filter-meta" data-testid="timeline-filter-meta">
              {shown} of {steps.length}
            </span>
            <button type="button" className="icon-btn" aria-label="Clear the filter" data-testid="timeline-filter-clear" onClick={() => onChange({ query: "", kinds: new Set() })}>
              <X size={13} />
            </button>
          </>
        )}
      </div>
    </div>
  );
}

// Arrowheads: filled for handoffs, hollow for delegations; one variant per state colour.
const COLORS = {
  "": null,
  "-selected": "var(--accent)",
  "-error": "var(--sev-error)",
  "-warning": "var(--sev-warning)",
  "-info": "var(--sev-info)",
} as const;

export function EdgeMarkers() {
  return (
    <svg className="edge-markers" aria-hidden="true" width="0" height="0" style={{ position: "absolute" }}>
      <defs>
        {Object.entries(COLORS).map(([suffix, color]) => (
          <g key={suffix}>
            <marker
              id={`baton-arrow-handoff${suffix}`}
              viewBox="0 0 12 12"
              refX="10"
              refY="6"
              markerWidth="13"
              markerHeight="13"
              markerUnits="userSpaceOnUse"
              orient="auto-start-reverse"
            >
              <path d="M 1 1.5 L 11 6 L 1 10.5 z" fill={color ?? "var(--handoff)"} stroke={color ?? "var(--handoff)"} strokeWidth="1" strokeLinejoin="round" />
            </marker>
            <marker
              id={`baton-arrow-delegation${suffix}`}
              viewBox="0 0 14 14"
              refX="12"
              refY="7"
              markerWidth="15"
              markerHeight="15"
              markerUnits="userSpaceOnUse"
              orient="auto-start-reverse"
            >
              <path d="M 1.5 1.8 L 12 7 L 1.5 12.2 z" fill="var(--canvas-bg)" stroke={color ?? "var(--delegation)"} strokeWidth="1.6" strokeLinejoin="round" />
            </marker>
          </g>
        ))}
      </defs>
    </svg>
  );
}

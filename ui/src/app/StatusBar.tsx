import { useDesigner } from "../store/designer";
import { useDebugger } from "../store/debugger";
import type { Commands } from "../commands/designer";

const HOST: Record<string, string> = { tauri: "Desktop", http: "Browser · baton serve", mock: "Mock backend" };

export function StatusBar({ commands }: { commands: Commands }) {
  const topology = useDesigner((s) => s.topology);
  const selection = useDesigner((s) => s.selection);
  const handoffs = topology?.edges.filter((e) => e.kind === "handoff").length ?? 0;
  const delegations = (topology?.edges.length ?? 0) - handoffs;
  const sel = selection.agents.length + selection.edges.length;
  const debug = useDebugger((s) => s.mode === "debug");
  const cursor = useDebugger((s) => s.cursor);
  const steps = useDebugger((s) => s.overview?.steps.length ?? 0);
  return (
    <footer className="statusbar" data-testid="statusbar">
      <span className="status-host">
        <span className={`status-dot host-${commands.platform.kind}`} /> {HOST[commands.platform.kind]}
      </span>
      <div className="spacer" />
      {debug && (
        <span className="status-debug" data-testid="status-debug">
          Debugging · step {cursor} of {steps.toLocaleString()} · read-only
        </span>
      )}
      {!debug && topology && (
        <>
          {sel > 0 && <span>{sel} selected</span>}
          <span>
            {topology.agents.length} {topology.agents.length === 1 ? "agent" : "agents"}
          </span>
          <span className="legend">
            <svg width="22" height="8" aria-hidden="true">
              <line x1="1" y1="4" x2="21" y2="4" className="legend-handoff" />
            </svg>
            {handoffs} {handoffs === 1 ? "handoff" : "handoffs"}
          </span>
          <span className="legend">
            <svg width="22" height="8" aria-hidden="true">
              <line x1="1" y1="4" x2="21" y2="4" className="legend-delegation" />
            </svg>
            {delegations} {delegations === 1 ? "delegation" : "delegations"}
          </span>
        </>
      )}
    </footer>
  );
}

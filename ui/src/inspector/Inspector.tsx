import { GitMerge, Trash2 } from "lucide-react";
import { useCommands } from "../commands/designer";
import { edgeId, orderChain } from "../model/topology";
import { useDesigner } from "../store/designer";
import { AgentInspector } from "./AgentInspector";
import { EdgeInspector } from "./EdgeInspector";
import { TopologyInspector } from "./TopologyInspector";

export function Inspector() {
  const topology = useDesigner((s) => s.topology);
  const selection = useDesigner((s) => s.selection);
  const commands = useCommands();
  if (!topology) return null;

  const count = selection.agents.length + selection.edges.length;
  let body;
  if (count === 0) {
    body = <TopologyInspector topology={topology} />;
  } else if (count === 1 && selection.agents.length === 1) {
    const agent = topology.agents.find((a) => a.id === selection.agents[0]);
    body = agent ? <AgentInspector key={agent.id} topology={topology} agent={agent} /> : null;
  } else if (count === 1) {
    const edge = topology.edges.find((e) => edgeId(e) === selection.edges[0]);
    body = edge ? <EdgeInspector key={edgeId(edge)} topology={topology} edge={edge} /> : null;
  } else {
    const chain = selection.agents.length === 0 ? orderChain(topology, selection.edges) : null;
    body = (
      <div className="insp-body" data-testid="inspector-multi">
        <div className="insp-title">
          <div className="insp-title-text">
            <div className="insp-title-name">{count} items selected</div>
            <div className="insp-title-sub">
              {selection.agents.length} agents · {selection.edges.length} edges
            </div>
          </div>
        </div>
        <div className="multi-actions">
          {chain && (
            <button className="btn btn-secondary" onClick={() => void commands.refactorSupervisor()}>
              <GitMerge size={14} /> Refactor this chain to a supervisor
            </button>
          )}
          <button className="btn btn-danger-ghost" onClick={() => commands.deleteSelection()}>
            <Trash2 size={14} /> Delete {count} items
          </button>
        </div>
      </div>
    );
  }
  return (
    <aside className="inspector" data-testid="inspector" aria-label="Inspector">
      {body}
    </aside>
  );
}

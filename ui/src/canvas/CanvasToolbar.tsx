import { Bot, Network, UserRound } from "lucide-react";
import { useCommands } from "../commands/designer";

/** The floating palette over the canvas: add agents of each kind. */
export function CanvasToolbar() {
  const commands = useCommands();
  return (
    <div className="canvas-toolbar" role="toolbar" aria-label="Add to canvas">
      <button className="tool-btn" data-testid="add-agent" title="Add agent (or double-click the canvas)" onClick={() => commands.addAgent("agent")}>
        <Bot size={15} />
        <span>Agent</span>
      </button>
      <button className="tool-btn" data-testid="add-supervisor" title="Add supervisor" onClick={() => commands.addAgent("supervisor")}>
        <Network size={15} />
        <span>Supervisor</span>
      </button>
      <button className="tool-btn" data-testid="add-human" title="Add human" onClick={() => commands.addAgent("human")}>
        <UserRound size={15} />
        <span>Human</span>
      </button>
    </div>
  );
}

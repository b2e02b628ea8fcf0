// The top bar's way to the Runs home (every run in the store), in the editor, the debugger and
// with nothing open; pressed while the home is shown, and a second press leaves it.
import { Rows3 } from "lucide-react";
import { useRunsHome } from "../store/runsHome";

export function RunsHomeButton() {
  const open = useRunsHome((s) => s.open);
  return (
    <button
      className={`btn btn-sm ${open ? "btn-primary" : "btn-ghost"} runs-home-btn`}
      data-testid="runs-home-toggle"
      aria-pressed={open}
      aria-label="Runs"
      onClick={() => useRunsHome.getState().toggle()}
      title={open ? "Close the list of runs (Esc)" : "Every run in the store: Baton's own, imported and captured"}
    >
      <Rows3 size={15} />
      <span className="runs-home-btn-label">Runs</span>
    </button>
  );
}

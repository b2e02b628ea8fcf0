// Pinned facts at the current step: status (from the latest transfer at or before it) and where
// each was lost, with a jump.
import { CornerDownRight, Pin } from "lucide-react";
import { useMemo } from "react";
import { FactStatusPill } from "../run/badges";
import { factsAtStep } from "../run/facts";
import { useDebugger } from "../store/debugger";
import type { AgentLookups } from "./lookups";

export function FactsPanel({ lookups, onJump }: { lookups: AgentLookups; onJump: (step: number) => void }) {
  const facts = useDebugger((s) => s.facts);
  const index = useDebugger((s) => s.factIndex);
  const cursor = useDebugger((s) => s.cursor);
  const at = useMemo(() => factsAtStep(facts, index, cursor), [facts, index, cursor]);
  const { agentName } = lookups;

  return (
    <section className="side-section" data-testid="facts-panel">
      <header className="side-head">
        <Pin size={13} className="fact-pin" />
        <h3>Pinned facts</h3>
        <span className="side-meta">at step {cursor}</span>
      </header>
      {at.length === 0 && <div className="pane-empty">This topology pins no facts.</div>}
      {at.map(({ fact, status, transfer, lostAt }) => {
        const holders = (fact.holders ?? []).map(agentName);
        const where = transfer
          ? `at T${transfer.index} (${agentName(transfer.from)} → ${agentName(transfer.to)})${
              status === "added"
                ? `: ${agentName(transfer.to)} holds it itself`
                : status === "absent"
                  ? ": nobody had it"
                  : transfer.kind === "delegation" && (status === "carried" || status === "transformed")
                    ? `: a delegation, so ${agentName(transfer.from)} stays the owner and keeps it (${agentName(transfer.to)} gets only the tool input)`
                    : ""
            }`
          : holders.length
            ? `held by ${holders.join(", ")}`
            : "held by nobody yet";
        return (
          <div key={fact.id} className={`fact-row fact-row-${status}`} data-testid="fact-status" data-fact={fact.id} data-status={status}>
            <div className="fact-row-head">
              <span className="fact-id mono">{fact.id}</span>
              <FactStatusPill status={status} />
            </div>
            {fact.text && <div className="fact-text">{fact.text}</div>}
            <div className="fact-where">{where}</div>
            {lostAt.length > 0 && (
              <div className="fact-lost-list">
                {lostAt.map((t) => (
                  <button
                    key={t.index}
                    type="button"
                    className="fact-jump"
                    data-testid="fact-jump-lost"
                    data-step={t.step}
                    onClick={() => onJump(t.step)}
                    title="Jump to the transfer where the fact was lost"
                  >
                    <CornerDownRight size={12} />
                    Lost at step {t.step} · {agentName(t.from)} → {agentName(t.to)}
                  </button>
                ))}
              </div>
            )}
          </div>
        );
      })}
    </section>
  );
}

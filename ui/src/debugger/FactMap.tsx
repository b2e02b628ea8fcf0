// The fact × transfer map: a row per pinned fact, a column per transfer, each cell its fate
// there (carried, transformed, lost, withheld, added, not held); a cell opens that transfer.
import { ArrowRightLeft, CornerDownRight, PinOff, UserRound } from "lucide-react";
import { useMemo } from "react";
import { FACT_CELL_LABELS, factMap, type FactCell } from "../run/charts";
import { lastTransferAtOrBefore } from "../run/facts";
import { useDebugger } from "../store/debugger";
import type { AgentLookups } from "./lookups";
import "../styles/charts.css";

const CELL_HELP: Record<FactCell, string> = {
  carried: "the receiver has the same item (or holds the fact itself)",
  transformed: "the receiver has it in another form (a summary, a field)",
  lost: "the sender had it and the new owner does not",
  withheld: "a delegation: the nested agent works without it, the caller keeps it",
  added: "the sender did not have it; the receiver holds it itself",
  not_held: "neither side had it",
  unchecked: "this transfer recorded no check of it",
};

export function FactMap({ lookups, onOpen }: { lookups: AgentLookups; onOpen: (step: number) => void }) {
  const facts = useDebugger((s) => s.facts);
  const transfers = useDebugger((s) => s.overview?.transfers);
  const cursor = useDebugger((s) => s.cursor);
  const map = useMemo(() => factMap(facts, transfers ?? []), [facts, transfers]);
  const { agentName } = lookups;
  const current = map.columns[lastTransferAtOrBefore(map.columns, cursor)];

  if (map.rows.length === 0 || map.columns.length === 0) {
    return (
      <div className="chart-pane" data-testid="fact-map" data-empty="true">
        <div className="pane-empty">
          {map.rows.length === 0 ? "This topology pins no facts, so there is nothing to follow across transfers." : "This run made no transfer, so no fact crossed one."}
        </div>
      </div>
    );
  }
  const lostTotal = map.rows.reduce((n, r) => n + r.lost, 0);
  return (
    <div className="chart-pane" data-testid="fact-map">
      <div className="chart-pane-head">
        <h4>Pinned facts × transfers</h4>
        <span>
          {map.rows.length} {map.rows.length === 1 ? "fact" : "facts"} · {map.columns.length} {map.columns.length === 1 ? "transfer" : "transfers"}
          {lostTotal > 0 && <span className="text-error"> · {lostTotal} lost</span>} · click a cell to open its transfer
        </span>
      </div>
      <table className="factmap">
        <thead>
          <tr>
            <th scope="col">fact</th>
            {map.columns.map((t) => (
              <th key={t.index} scope="col" className="factmap-col" data-testid="fact-map-col" data-transfer={t.index} title={`T${t.index} at step ${t.step}: ${t.kind}, policy ${t.policy}`}>
                <span className="factmap-col-agents">
                  {t.edge === "" ? <UserRound size={11} /> : t.kind === "delegation" ? <CornerDownRight size={11} /> : <ArrowRightLeft size={11} />} {agentName(t.from)} → {agentName(t.to)}
                </span>
                <span className="factmap-col-kind">
                  T{t.index} · {t.edge === "" ? "escalation" : t.policy}
                </span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {map.rows.map((r) => (
            <tr key={r.fact.id} data-testid="fact-map-row" data-fact={r.fact.id}>
              <th scope="row" className="factmap-row" title={r.fact.text || r.fact.id}>
                {r.fact.id}
              </th>
              {r.cells.map((c, i) => {
                const t = map.columns[i]!;
                return (
                  <td key={t.index}>
                    <button
                      type="button"
                      className={`factmap-cell st-${c}${current?.index === t.index ? " is-current" : ""}`}
                      data-testid="fact-map-cell"
                      data-fact={r.fact.id}
                      data-transfer={t.index}
                      data-from={t.from}
                      data-to={t.to}
                      data-status={c}
                      title={`${r.fact.id} at T${t.index} (${agentName(t.from)} → ${agentName(t.to)}, ${t.policy}): ${FACT_CELL_LABELS[c]}: ${CELL_HELP[c]}`}
                      onClick={() => onOpen(t.step)}
                    >
                      {c === "lost" && <PinOff size={11} />}
                      {FACT_CELL_LABELS[c]}
                    </button>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      <div className="factmap-legend" aria-label="What the cells mean">
        {(["carried", "transformed", "added", "lost", "withheld", "not_held"] as const).map((c) => (
          <span key={c} className={`factmap-cell st-${c}`} title={CELL_HELP[c]}>
            {FACT_CELL_LABELS[c]}
          </span>
        ))}
      </div>
    </div>
  );
}

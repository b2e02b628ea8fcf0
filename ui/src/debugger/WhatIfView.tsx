// The What-if tab at a handoff: every context policy applied to the recorded sender context (no
// model call), one row each with the receiver's items, tokens, carried/dropped counts and each
// pinned fact's fate; the run's own policy marked. A row shows what the receiver would get under
// it, and from there the policy can go to the designer's document or into a fork of the run.
import { ArrowRight, GitBranch, Info, Loader2, PencilRuler, Pin } from "lucide-react";
import { useMemo, useRef, useState } from "react";
import type { WhatIfRow } from "../bindings/WhatIfRow";
import { applyTarget, type ForkCommands } from "../commands/fork";
import { useQuery } from "../hooks/useQuery";
import { FactStatusPill } from "../run/badges";
import { policyFork } from "../run/fork";
import { formatTokens } from "../run/format";
import { toPlatformError, type PlatformError } from "../platform/types";
import type { Item, TransferView } from "../run/types";
import { useDebugger } from "../store/debugger";
import { useDesigner } from "../store/designer";
import { ItemCard } from "./ItemCard";
import type { AgentLookups } from "./lookups";
import { provenance } from "./provenance";
import "../styles/fork.css";

/** A receiver item's relation to the sender: the same item, one made from the sender's, or new. */
function itemStatus(item: Item, sender: ReadonlySet<string>): "carried" | "transformed" | "added" {
  if (sender.has(item.id)) return "carried";
  return item.derived_from && item.derived_from.length > 0 ? "transformed" : "added";
}

export function WhatIfView({ runId, view, lookups, fork }: { runId: string; view: TransferView; lookups: AgentLookups; fork: ForkCommands }) {
  const t = view.transfer;
  const { agentName, palette } = lookups;
  const q = useQuery(["what_if", runId, view.index], () => fork.whatIf(runId, view.index), { staleTime: Infinity });
  const [picked, setPicked] = useState<string | null>(null);
  const bodyRef = useRef<HTMLTableSectionElement>(null);
  const w = q.data;
  const rows = useMemo(() => w?.rows ?? [], [w]);
  const facts = useMemo(() => [...new Set(rows.flatMap((r) => r.facts.map((f) => f.id)))], [rows]);
  const selected = rows.find((r) => r.policy === picked) ?? rows.find((r) => r.recorded) ?? rows[0] ?? null;

  if (t.kind !== "handoff") {
    return (
      <div className="pane-empty" data-testid="whatif-delegation">
        What-if compares handoffs: a delegation passes only the tool input, whatever the policy.
      </div>
    );
  }
  if (q.error) {
    return (
      <div className="pane-empty text-error" role="alert" data-testid="whatif-error" data-code={q.error.code}>
        Could not compare the policies at T{view.index}: {q.error.message} ({q.error.code}){" "}
        <button className="btn btn-secondary btn-sm" onClick={() => void q.refresh()} disabled={q.loading}>
          Retry
        </button>
      </div>
    );
  }
  if (!w) {
    return (
      <div className="pane-empty" data-testid="whatif-loading">
        <Loader2 size={14} className="spin" /> Applying every policy to the recorded context…
      </div>
    );
  }

  const move = (d: 1 | -1) => {
    const i = selected ? rows.indexOf(selected) : -1;
    const next = rows[Math.max(0, Math.min(rows.length - 1, i + d))];
    if (!next) return;
    setPicked(next.policy);
    requestAnimationFrame(() => bodyRef.current?.querySelector<HTMLElement>(`tr[data-policy="${CSS.escape(next.policy)}"]`)?.focus());
  };

  return (
    <div className="whatif" data-testid="whatif" data-transfer={w.transfer} data-from={w.from} data-to={w.to}>
      <div className="whatif-head">
        <span className="whatif-title">What-if at T{view.index}</span>
        <span className="diff-route">
          <strong style={{ color: palette(w.from) }}>{agentName(w.from)}</strong>
          <ArrowRight size={13} className="muted" />
          <strong style={{ color: palette(w.to) }}>{agentName(w.to)}</strong>
        </span>
        <span className="muted" data-testid="whatif-sender">
          sender: {w.sender.length} items · ~{formatTokens(w.sender_tokens)} tok
        </span>
        <span className="whatif-zero muted" title="Each policy is applied to the context the sender had in the recording, as the engine applies it; no model is called">
          no model call
        </span>
      </div>
      {w.notes.length > 0 && (
        <ul className="whatif-notes" data-testid="whatif-notes" aria-label="What the comparison says">
          {w.notes.map((n, i) => (
            <Note key={i} text={n} />
          ))}
        </ul>
      )}
      <div className="whatif-scroll">
        <table className="whatif-table" role="grid" data-testid="whatif-table" aria-label={`Every policy at the handoff ${agentName(w.from)} → ${agentName(w.to)}`}>
          <thead>
            <tr>
              <th scope="col">Policy</th>
              <th scope="col" className="num" title={`Items ${agentName(w.to)} would see`}>
                Items
              </th>
              <th scope="col" className="num" title="Estimated tokens of the receiver's context (chars / 4)">
                ~Tok
              </th>
              <th scope="col" className="num" title="Items of the sender the receiver gets as they are">
                Carried
              </th>
              <th scope="col" className="num" title="Items the receiver gets in another form (a summary, the structured input)">
                Transf.
              </th>
              <th scope="col" className="num" title="Items of the sender the receiver gets in no form">
                Dropped
              </th>
              {facts.map((f) => (
                <th key={f} scope="col" className="whatif-fact-col" title={`The pinned fact ${f}: whether the receiver would get it`}>
                  <span className="whatif-fact-name">
                    <Pin size={11} /> <span className="mono">{f}</span>
                  </span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody
            ref={bodyRef}
            onKeyDown={(e) => {
              if (e.key === "ArrowDown" || e.key === "ArrowUp") {
                e.preventDefault();
                e.stopPropagation();
                move(e.key === "ArrowDown" ? 1 : -1);
              }
            }}
          >
            {rows.map((r) => (
              <tr
                key={r.policy}
                className={`whatif-row${r === selected ? " is-selected" : ""}${r.recorded ? " is-recorded" : ""}`}
                data-testid="whatif-row"
                data-policy={r.policy}
                data-recorded={r.recorded ? "true" : "false"}
                aria-selected={r === selected}
                tabIndex={r === selected ? 0 : -1}
                onClick={() => setPicked(r.policy)}
              >
                <td className="whatif-policy">
                  <span className="whatif-policy-in">
                    <span className="mono">{r.policy}</span>
                    {r.recorded && (
                      <span className="whatif-recorded" data-testid="whatif-recorded" title="The policy the run used">
                        recorded
                      </span>
                    )}
                  </span>
                </td>
                <td className="num">{r.items}</td>
                <td className="num">{formatTokens(r.tokens)}</td>
                <td className="num">{r.carried}</td>
                <td className="num">{r.transformed}</td>
                <td className="num">{r.dropped}</td>
                {facts.map((f) => {
                  const status = r.facts.find((x) => x.id === f)?.status ?? "absent";
                  return (
                    <td key={f} className="whatif-fact" data-testid="whatif-fact" data-fact={f} data-status={status}>
                      <FactStatusPill status={status} />
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
        {selected && <RowDetail key={selected.policy} runId={runId} view={view} row={selected} whatIfItems={w.items} sender={w.sender} lookups={lookups} fork={fork} />}
      </div>
    </div>
  );
}

function RowDetail({
  runId,
  view,
  row,
  whatIfItems,
  sender,
  lookups,
  fork,
}: {
  runId: string;
  view: TransferView;
  row: WhatIfRow;
  whatIfItems: Item[];
  sender: string[];
  lookups: AgentLookups;
  fork: ForkCommands;
}) {
  const { agentName, palette } = lookups;
  const t = view.transfer;
  const byId = useMemo(() => new Map([...view.items, ...whatIfItems].map((i) => [i.id, i])), [view.items, whatIfItems]);
  const senderSet = useMemo(() => new Set(sender), [sender]);
  const lookup = (id: string) => byId.get(id);
  const items = row.receiver.map((id) => byId.get(id)).filter((i): i is Item => !!i);
  const missing = row.receiver.length - items.length;
  const lost = row.facts.filter((f) => f.status === "lost").map((f) => f.id);
  const doc = useDesigner((s) => s.topology);
  const runTopology = useDebugger((s) => s.topology);
  const target = applyTarget(doc, runTopology, t.edge);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<PlatformError | null>(null);
  const to = agentName(t.to);

  const applyTitle =
    target.kind === "none"
      ? target.why
      : target.kind === "document"
        ? `Set ${row.policy} on this edge in the open document (${doc?.name}) and go to the editor`
        : `Open the run's topology (${runTopology?.name}) as an unsaved document with ${row.policy} on this edge`;
  const onFork = async () => {
    if (!t.edge) return;
    setBusy(true);
    setError(null);
    try {
      await fork.fork(runId, policyFork(t.step, t.edge, row.policy));
    } catch (e) {
      setError(toPlatformError(e));
      setBusy(false);
    }
  };

  return (
    <section className="whatif-detail" data-testid="whatif-detail" data-policy={row.policy} aria-label={`What ${to} would get under ${row.policy}`}>
      <div className="whatif-detail-head">
        <span>
          {to} would get under <span className="mono policy-chip">{row.policy}</span>{" "}
          <span className="muted">
            · {row.items} items · ~{formatTokens(row.tokens)} tok
          </span>
        </span>
        {lost.length > 0 && (
          <span className="whatif-lost" data-testid="whatif-detail-lost">
            <Pin size={11} /> {lost.join(", ")} lost
          </span>
        )}
        <div className="spacer" />
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          data-testid="whatif-apply"
          disabled={target.kind === "none" || busy}
          title={applyTitle}
          onClick={() => void fork.applyPolicy(t.edge as string, row.spec)}
        >
          <PencilRuler size={13} /> Apply to topology
        </button>
        <button
          type="button"
          className="btn btn-primary btn-sm"
          data-testid="whatif-fork"
          disabled={!t.edge || row.recorded || busy}
          title={
            row.recorded
              ? "This is the run's own policy: a fork with it would replay the recording unchanged"
              : `Re-run from step ${t.step} with ${row.policy} on this edge: recorded answers until the first call whose input changed, then the mock scripts. Saved as a new run.`
          }
          onClick={() => void onFork()}
        >
          {busy ? <Loader2 size={13} className="spin" /> : <GitBranch size={13} />} Fork with this policy
        </button>
      </div>
      {error && (
        <div className="whatif-fork-error text-error" role="alert" data-testid="whatif-fork-error" data-code={error.code}>
          Could not fork: {error.message} ({error.code})
        </div>
      )}
      <div className="whatif-items" data-testid="whatif-items">
        {items.map((item) => (
          <ItemCard
            key={item.id}
            item={item}
            color={palette(item.agent)}
            agent={agentName(item.agent)}
            title={provenance(item, agentName, lookup)}
            testId="whatif-item"
            status={itemStatus(item, senderSet)}
            side="receiver"
            clamp={2}
          />
        ))}
        {items.length === 0 && <div className="muted small">{to} would get nothing but what its own turn adds.</div>}
        {missing > 0 && <div className="muted small">{missing} more items the comparison did not send.</div>}
      </div>
    </section>
  );
}

/** One note of the comparison, two lines until opened. */
function Note({ text }: { text: string }) {
  const [open, setOpen] = useState(false);
  const long = text.length > 150;
  return (
    <li data-testid="whatif-note" data-open={open || undefined}>
      <Info size={13} />
      <span className={long && !open ? "whatif-note-text is-clamped" : "whatif-note-text"}>{text}</span>
      {long && (
        <button type="button" className="whatif-note-more" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? "less" : "more"}
        </button>
      )}
    </li>
  );
}

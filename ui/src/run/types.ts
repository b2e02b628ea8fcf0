// Re-exports of the run and trace bindings, and the few helpers every run view needs.
export type { EdgeKind } from "../bindings/EdgeKind";
export type { FactCheck } from "../bindings/FactCheck";
export type { FactStatus } from "../bindings/FactStatus";
export type { Item } from "../bindings/Item";
export type { ItemKind } from "../bindings/ItemKind";
export type { LiveEvent } from "../bindings/LiveEvent";
export type { Outcome } from "../bindings/Outcome";
export type { OutcomeStatus } from "../bindings/OutcomeStatus";
export type { RunSummary } from "../bindings/RunSummary";
export type { Step } from "../bindings/Step";
export type { StepBrief } from "../bindings/StepBrief";
export type { StepKind } from "../bindings/StepKind";
export type { StepView } from "../bindings/StepView";
export type { Transfer } from "../bindings/Transfer";
export type { TransferBrief } from "../bindings/TransferBrief";
export type { TransferView } from "../bindings/TransferView";
export type { Usage } from "../bindings/Usage";

import type { Item } from "../bindings/Item";
import type { RunOverview as WireOverview } from "../bindings/RunOverview";
import type { RunTail as WireTail } from "../bindings/RunTail";
import { Steps } from "./steps";

export { Steps, type StepList } from "./steps";

/** A run's overview as the UI holds it: the backend's, its steps decoded into typed columns. */
export type RunOverview = Omit<WireOverview, "steps"> & { steps: Steps };
/** The end of a run still growing, decoded likewise. */
export type RunTail = Omit<WireTail, "steps"> & { steps: Steps };

export const decodeOverview = (o: WireOverview): RunOverview => ({ ...o, steps: Steps.from(o.steps) });
export const decodeTail = (t: WireTail): RunTail => ({ ...t, steps: Steps.from(t.steps) });

/** Counters from the backend (JSON numbers; older bindings typed them `bigint`), as numbers. */
export function num(v: bigint | number | null | undefined): number {
  return v == null ? 0 : Number(v);
}

/** Baton's token estimate for text: one token per four characters, rounded up. */
export function estimateTokens(chars: number): number {
  return Math.ceil(chars / 4);
}

/** What an item shows: its text, or a call's name and arguments. */
export function itemText(i: Item): string {
  if (i.kind === "tool_call" || i.kind === "transfer_call") {
    const args = i.arguments && i.arguments !== "{}" ? i.arguments : "";
    return `${i.name ?? "call"}(${args})`;
  }
  return i.text ?? "";
}

/** Token estimate of one item (text, name and arguments). */
export function itemTokens(i: Item): number {
  const chars = (i.text?.length ?? 0) + (i.name?.length ?? 0) + (i.arguments?.length ?? 0);
  return estimateTokens(chars);
}

export function contextTokens(items: readonly Item[]): number {
  let n = 0;
  for (const i of items) n += itemTokens(i);
  return n;
}

// Icons and badges the run views share: step kinds, item kinds, outcomes, fact statuses.
import {
  AlertOctagon,
  ArrowRightLeft,
  Ban,
  BookText,
  Brain,
  CheckCircle2,
  CircleSlash,
  CornerDownRight,
  CornerUpLeft,
  Flag,
  Hourglass,
  Loader2,
  MessageSquare,
  Pin,
  PlugZap,
  ShieldAlert,
  ShieldCheck,
  Sparkles,
  SquareTerminal,
  UserRound,
  Wrench,
} from "lucide-react";
import type { ReactNode } from "react";
import type { FactAtStep } from "./facts";
import { ITEM_LABELS, OUTCOME_LABELS, STEP_LABELS } from "./format";
import type { ItemKind, OutcomeStatus, StepKind } from "./types";

const STEP_ICONS: Record<StepKind, (size: number) => ReactNode> = {
  model_call: (s) => <Sparkles size={s} />,
  tool_call: (s) => <Wrench size={s} />,
  handoff: (s) => <ArrowRightLeft size={s} />,
  delegation: (s) => <CornerDownRight size={s} />,
  delegation_return: (s) => <CornerUpLeft size={s} />,
  guard: (s) => <ShieldAlert size={s} />,
  guardrail: (s) => <ShieldCheck size={s} />,
  final: (s) => <Flag size={s} />,
};

export function StepKindIcon({ kind, size = 13 }: { kind: StepKind; size?: number }) {
  return (
    <span className={`step-icon step-${kind}`} title={STEP_LABELS[kind]} role="img" aria-label={STEP_LABELS[kind]}>
      {STEP_ICONS[kind](size)}
    </span>
  );
}

const ITEM_ICONS: Record<ItemKind, (size: number) => ReactNode> = {
  instructions: (s) => <BookText size={s} />,
  pinned_fact: (s) => <Pin size={s} />,
  user_message: (s) => <UserRound size={s} />,
  assistant_message: (s) => <MessageSquare size={s} />,
  reasoning: (s) => <Brain size={s} />,
  tool_call: (s) => <Wrench size={s} />,
  tool_result: (s) => <SquareTerminal size={s} />,
  transfer_call: (s) => <ArrowRightLeft size={s} />,
  transfer_output: (s) => <PlugZap size={s} />,
};

export function ItemKindBadge({ kind }: { kind: ItemKind }) {
  return (
    <span className={`item-kind item-kind-${kind}`}>
      {ITEM_ICONS[kind](11)}
      {ITEM_LABELS[kind]}
    </span>
  );
}

const OUTCOME_ICONS: Record<OutcomeStatus, ReactNode> = {
  completed: <CheckCircle2 size={12} />,
  stopped: <CircleSlash size={12} />,
  escalated: <UserRound size={12} />,
  failed: <AlertOctagon size={12} />,
  cancelled: <Ban size={12} />,
  interrupted: <Hourglass size={12} />,
  running: <Loader2 size={12} className="spin" />,
};

export function OutcomeBadge({ status, testId }: { status: OutcomeStatus; testId?: string }) {
  return (
    <span className={`outcome-badge outcome-${status}`} data-testid={testId} data-status={status}>
      {OUTCOME_ICONS[status]}
      {OUTCOME_LABELS[status]}
    </span>
  );
}

const FACT_LABELS: Record<FactAtStep["status"], string> = {
  carried: "carried",
  transformed: "transformed",
  lost: "lost",
  added: "added",
  absent: "absent",
  held: "held",
};

export function FactStatusPill({ status }: { status: FactAtStep["status"] }) {
  return <span className={`fact-pill fact-${status}`}>{FACT_LABELS[status]}</span>;
}

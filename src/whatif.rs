//! What-if at a handoff, zero tokens: the recorded sender context at that transfer, passed
//! through each context policy exactly as the engine would (`apply_policy`, the receiver's own
//! items first), with what the receiver would get, its size, and each pinned fact's status.
//! Everything follows from the recording: no model is called.

use crate::context::{History, ItemId, ItemKind, ItemStore, TransferCtx, apply_policy, diff_transfer, fact_status};
use crate::providers::estimate_tokens;
use crate::topology::{ContextPolicy, EdgeKind, FieldSpec, PinnedFact};
use crate::trace::{FactCheck, StepKind, Trace, Transfer};
use serde::{Deserialize, Serialize};

#[derive(Debug, thiserror::Error)]
pub enum WhatIfError {
    #[error("the run has no transfer {index} (it has {count}); transfers are numbered from 0")]
    NoTransfer { index: u32, count: usize },
    #[error(
        "transfer {0} is a delegation: the worker gets the tool input whatever the policy, and the caller keeps its context; what-if compares handoffs"
    )]
    Delegation(u32),
}

impl crate::error::Coded for WhatIfError {
    fn code(&self) -> crate::error::ErrorCode {
        use crate::error::ErrorCode as C;
        match self {
            WhatIfError::NoTransfer { .. } => C::StoreNoStep,
            WhatIfError::Delegation(_) => C::ApiArgs,
        }
    }
}

/// The receiver's side under one policy.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct WhatIfRow {
    /// The policy, as the topology file writes it (`full`, `last_n(3)`, `fields(ticket,status)`…).
    pub policy: String,
    #[ts(as = "crate::topology::policy::Repr")]
    pub spec: ContextPolicy,
    /// The policy the run used.
    pub recorded: bool,
    /// What the receiver would see, in order.
    #[ts(as = "Vec<String>")]
    pub receiver: Vec<ItemId>,
    pub items: u32,
    /// Estimated tokens of the receiver's context (chars / 4, as the mock counts).
    #[ts(type = "number")]
    pub tokens: u64,
    pub carried: u32,
    pub transformed: u32,
    pub dropped: u32,
    pub facts: Vec<FactCheck>,
}

/// Every policy at one handoff.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct WhatIf {
    pub transfer: u32,
    pub from: String,
    pub to: String,
    /// The sender's visible context at the transfer.
    #[ts(as = "Vec<String>")]
    pub sender: Vec<ItemId>,
    #[ts(type = "number")]
    pub sender_tokens: u64,
    pub rows: Vec<WhatIfRow>,
    /// Every item any row names (policies like `fields` and `nest_summary` make new ones).
    pub items: Vec<crate::context::Item>,
    /// What the answer rests on (a fact in the sender's own context crosses under no policy…).
    pub notes: Vec<String>,
}

/// The policies compared: every kind, `fields` with the edge's own fields (or the recorded
/// one's), `last_n` at 3 and at the recorded N.
fn candidates(recorded: &ContextPolicy, fields: Option<&[FieldSpec]>) -> Vec<ContextPolicy> {
    let mut out =
        vec![ContextPolicy::Full, ContextPolicy::RemoveTools, ContextPolicy::NestSummary, ContextPolicy::LastN(3)];
    if let ContextPolicy::LastN(n) = recorded
        && *n != 3
    {
        out.push(ContextPolicy::LastN(*n));
    }
    let fields = match recorded {
        ContextPolicy::Fields(f) => Some(f.clone()),
        _ => fields.map(<[FieldSpec]>::to_vec),
    };
    if let Some(f) = fields.filter(|f| !f.is_empty()) {
        out.push(ContextPolicy::Fields(f));
    }
    out.push(ContextPolicy::None);
    if let ContextPolicy::Custom(_) = recorded {
        out.push(recorded.clone());
    }
    out
}

/// Leading items of `ctx` that are `agent`'s own (instructions, pinned facts it holds): the part
/// of a context no policy passes.
fn own_len(store: &ItemStore, ctx: &[ItemId], agent: &str) -> usize {
    ctx.iter()
        .take_while(|id| {
            let it = store.get(**id);
            matches!(it.kind, ItemKind::Instructions | ItemKind::PinnedFact) && it.agent == agent
        })
        .count()
}

/// How much of the sender's history at transfer `index` is "input" (what the run began with, or
/// what a filtering handoff left), following the engine: a run starts with its input; `full` and
/// custom filters keep the split, `remove_tools` keeps the input's non-tool items, every other
/// policy makes the whole new history input.
fn input_len_at(trace: &Trace, store: &ItemStore, index: u32) -> usize {
    let Some(first) = trace.steps.iter().find(|s| s.kind == StepKind::ModelCall && s.depth == 0) else { return 0 };
    let mut len = first.context.len() - own_len(store, &first.context, &first.agent);
    for tr in trace.transfers.iter().take(index as usize) {
        let depth = trace.steps.get(tr.step as usize).map(|s| s.depth).unwrap_or(0);
        if tr.kind != EdgeKind::Handoff || depth != 0 {
            continue;
        }
        let own = own_len(store, &tr.sender, &tr.from);
        let hist = &tr.sender[own..];
        let received = tr.receiver.len() - own_len(store, &tr.receiver, &tr.to);
        len = match ContextPolicy::parse_label(&tr.policy) {
            Some(ContextPolicy::Full | ContextPolicy::Custom(_)) | None => len,
            Some(ContextPolicy::RemoveTools) => hist[..len.min(hist.len())]
                .iter()
                .filter(|id| {
                    !matches!(
                        store.get(**id).kind,
                        ItemKind::ToolCall
                            | ItemKind::ToolResult
                            | ItemKind::TransferCall
                            | ItemKind::TransferOutput
                            | ItemKind::Reasoning
                    )
                })
                .count(),
            Some(_) => received,
        };
    }
    len
}

fn tokens(store: &ItemStore, ids: &[ItemId]) -> u64 {
    ids.iter().map(|id| estimate_tokens(&store.get(*id).searchable())).sum()
}

/// What-if at transfer `index` of `trace`; `facts` are the pinned facts to check (the run's).
pub fn what_if(trace: &Trace, index: u32, facts: &[PinnedFact]) -> Result<WhatIf, WhatIfError> {
    let tr: &Transfer =
        trace.transfers.get(index as usize).ok_or(WhatIfError::NoTransfer { index, count: trace.transfers.len() })?;
    if tr.kind == EdgeKind::Delegation {
        return Err(WhatIfError::Delegation(index));
    }
    let mut store = trace.items.clone();
    let own = own_len(&store, &tr.sender, &tr.from);
    let hist_items: Vec<ItemId> = tr.sender[own..].to_vec();
    let receiver_own: Vec<ItemId> = tr.receiver[..own_len(&store, &tr.receiver, &tr.to)].to_vec();
    // The transfer call and where the step that made it begins (for nest_summary).
    let call = hist_items.iter().rev().copied().find(|id| store.get(*id).kind == ItemKind::TransferCall);
    let new_start = trace
        .steps
        .iter()
        .filter(|s| s.kind == StepKind::ModelCall && s.index < tr.step)
        .rev()
        .find(|s| call.is_some_and(|c| s.output.contains(&c)))
        .and_then(|s| s.output.first())
        .and_then(|first| hist_items.iter().position(|id| id == first))
        .unwrap_or(hist_items.len());
    let hist =
        History { items: hist_items.clone(), input_len: input_len_at(trace, &store, index).min(hist_items.len()) };
    let recorded = crate::topology::ContextPolicy::parse_label(&tr.policy);
    let edge_fields = trace.definition.as_ref().and_then(|t| t.edges.iter().find(|e| e.id == tr.edge)).and_then(|e| {
        match &e.policy {
            ContextPolicy::Fields(f) => Some(f.clone()),
            _ => None,
        }
    });
    let sender_name = trace
        .definition
        .as_ref()
        .and_then(|t| t.agent(&tr.from))
        .map(|a| a.name.clone())
        .unwrap_or_else(|| tr.from.clone());
    let mut notes = vec![];
    let mut rows = vec![];
    for spec in candidates(recorded.as_ref().unwrap_or(&ContextPolicy::Full), edge_fields.as_deref()) {
        let receiver: Vec<ItemId> = match (&spec, call) {
            (ContextPolicy::Fields(_), None) => {
                notes.push("the sender's transfer call is not in the recording: fields cannot be filled".into());
                continue;
            }
            (_, call) => {
                let ctx = TransferCtx {
                    sender_id: &tr.from,
                    sender_name: &sender_name,
                    call: call.unwrap_or(ItemId([0; 16])),
                    // Items made at the transfer belong to the turn of the call that asked for it.
                    turn: call.map(|c| store.get(c).turn).unwrap_or(0),
                };
                let h = apply_policy(&mut store, &spec, &hist, new_start, &ctx);
                receiver_own.iter().chain(h.items.iter()).copied().collect()
            }
        };
        let d = diff_transfer(&store, &tr.sender, &receiver);
        let checks = facts
            .iter()
            .map(|f| FactCheck { id: f.id.clone(), status: fact_status(&store, f, &tr.sender, &receiver) })
            .collect();
        let label = spec.label();
        rows.push(WhatIfRow {
            recorded: recorded.as_ref().is_some_and(|r| r.label() == label),
            policy: label,
            spec,
            items: receiver.len() as u32,
            tokens: tokens(&store, &receiver),
            carried: d.carried.len() as u32,
            transformed: d.transformed.len() as u32,
            dropped: d.dropped.len() as u32,
            receiver,
            facts: checks,
        });
    }
    let put_back = outside_the_policy(trace, tr, &rows, &mut notes);
    for f in facts.iter().filter(|f| !put_back.contains(&f.id)) {
        let in_own = tr.sender[..own].iter().any(|id| store.get(*id).fact.as_deref() == Some(f.id.as_str()));
        let stated = hist_items.iter().any(|id| {
            let needle = crate::context::normalize(&f.text);
            !needle.is_empty() && crate::context::normalize(&store.get(*id).searchable()).contains(&needle)
        });
        if in_own && !stated {
            notes.push(format!(
                "'{}' sits in {sender_name}'s own context (beside its instructions), which no policy passes, and \
                 {sender_name} never stated it in the conversation: it is lost under every policy. Fork with the \
                 item restored for the receiver, make the receiver a holder, or keep it with a supervisor",
                f.id
            ));
        }
    }
    // After what the facts need: why a summary can cost more than the history.
    if let (Some(full), Some(nest)) = (
        rows.iter().find(|r| r.spec == ContextPolicy::Full),
        rows.iter().find(|r| r.spec == ContextPolicy::NestSummary),
    ) && nest.tokens > full.tokens
    {
        notes.push(format!(
            "nest_summary is larger here than full (~{} vs ~{} tokens): it writes the earlier items out again as one \
             transcript message, each call with its arguments and each output in full inside the summary's frame, \
             as the Agents SDK's nest_handoff_history renders them",
            nest.tokens, full.tokens
        ));
    }
    let mut named: Vec<ItemId> = tr.sender.clone();
    for r in &rows {
        named.extend(r.receiver.iter().copied());
    }
    let mut seen = std::collections::HashSet::new();
    let items = named.into_iter().filter(|id| seen.insert(*id)).map(|id| store.get(id).clone()).collect();
    Ok(WhatIf {
        transfer: index,
        from: tr.from.clone(),
        to: tr.to.clone(),
        sender_tokens: tokens(&store, &tr.sender),
        sender: tr.sender.clone(),
        rows,
        items,
        notes,
    })
}

/// Facts this run's receiver had although the policy it ran with does not pass them (a fork put
/// them back, or the receiver was given them outside the policy): said in a note, so that the
/// table (what each policy passes) and the run's own fact statuses do not read as a contradiction.
fn outside_the_policy(trace: &Trace, tr: &Transfer, rows: &[WhatIfRow], notes: &mut Vec<String>) -> Vec<String> {
    use crate::context::FactStatus as S;
    let reached = |s: S| matches!(s, S::Carried | S::Transformed | S::Added);
    let Some(row) = rows.iter().find(|r| r.recorded) else { return vec![] };
    let mut out = vec![];
    for ran in &tr.facts {
        let Some(by_policy) = row.facts.iter().find(|c| c.id == ran.id).map(|c| c.status) else { continue };
        if !reached(ran.status) || reached(by_policy) {
            continue;
        }
        let why = match &trace.fork {
            Some(fork) if fork.at <= tr.step => {
                format!("the fork put it back at step {} ({})", fork.at, fork.changes.join("; "))
            }
            _ => "it was placed there outside the policy".to_owned(),
        };
        notes.push(format!(
            "'{}': this run's receiver had it ({}) although {} does not pass it ({} in the table): {why}. The table \
             shows what each policy passes from the sender's context; the run's facts show what the receiver had",
            ran.id,
            ran.status.as_str(),
            row.policy,
            by_policy.as_str()
        ));
        out.push(ran.id.clone());
    }
    out
}

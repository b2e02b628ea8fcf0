//! Light views of steps and transfers (no contexts, no items) for timelines, run tables and
//! live event streams; the debugger fetches a step's items on demand.

use super::{FactCheck, Step, StepKind, Transfer};
use crate::topology::EdgeKind;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct StepBrief {
    pub index: u32,
    pub kind: StepKind,
    pub agent: String,
    pub owner: String,
    pub depth: u32,
    pub transfer: Option<u32>,
    pub detail: String,
    /// Tokens of the model call, if the step is one.
    #[ts(type = "number | null")]
    pub tokens: Option<u64>,
    /// How many items the acting agent sees (null in stores written before it was kept).
    pub context_len: Option<u32>,
    /// Milliseconds from the run's start, where the step's time was recorded.
    pub start_ms: Option<f64>,
    pub duration_ms: Option<f64>,
}

impl From<&Step> for StepBrief {
    fn from(s: &Step) -> StepBrief {
        StepBrief {
            index: s.index,
            kind: s.kind,
            agent: s.agent.clone(),
            owner: s.owner.clone(),
            depth: s.depth,
            transfer: s.transfer,
            detail: s.detail.clone(),
            tokens: s.usage.map(|u| u.input_tokens + u.output_tokens),
            context_len: Some(s.context.len() as u32),
            start_ms: s.timing.map(|t| t.start_ms),
            duration_ms: s.timing.map(|t| t.duration_ms),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct TransferBrief {
    pub index: u32,
    pub step: u32,
    pub kind: EdgeKind,
    pub from: String,
    pub to: String,
    pub edge: String,
    pub policy: String,
    pub carried: u32,
    pub transformed: u32,
    pub dropped: u32,
    pub added: u32,
    pub facts: Vec<FactCheck>,
}

impl TransferBrief {
    pub fn new(index: u32, t: &Transfer) -> TransferBrief {
        TransferBrief {
            index,
            step: t.step,
            kind: t.kind,
            from: t.from.clone(),
            to: t.to.clone(),
            edge: t.edge.clone(),
            policy: t.policy.clone(),
            carried: t.carried.len() as u32,
            transformed: t.transformed.len() as u32,
            dropped: t.dropped.len() as u32,
            added: t.added.len() as u32,
            facts: t.facts.clone(),
        }
    }
}

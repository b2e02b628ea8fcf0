//! A run's step briefs by column (issue #32): what the debugger's overview carries for a long run.
//! One array per field, agent ids, step kinds and details stored once and pointed at, so a
//! 100,000-step run's timeline crosses the IPC bridge as a few flat arrays the UI turns into typed
//! arrays, not as 100,000 objects repeating every field's name (a long run is mostly a loop, whose
//! steps say the same few things again).

use super::{StepBrief, StepKind};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// Step briefs `first..first + len` as columns: entry `i` of each column is step `first + i`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct StepColumns {
    /// The index of the first step (steps are numbered one after another from it).
    pub first: u32,
    /// The agent ids `agent` and `owner` point into, each once.
    pub names: Vec<String>,
    /// The step kinds `kind` points into, each once.
    pub kinds: Vec<StepKind>,
    pub kind: Vec<u8>,
    pub agent: Vec<u32>,
    pub owner: Vec<u32>,
    pub depth: Vec<u32>,
    pub transfer: Vec<Option<u32>>,
    /// The step details `detail` points into, each once.
    pub details: Vec<String>,
    pub detail: Vec<u32>,
    /// Tokens of the model call, if the step is one.
    #[ts(type = "Array<number | null>")]
    pub tokens: Vec<Option<u64>>,
    /// How many items the acting agent sees (null in stores written before it was kept).
    pub context_len: Vec<Option<u32>>,
    /// Milliseconds from the run's start, where the step's time was recorded.
    pub start_ms: Vec<Option<f64>>,
    pub duration_ms: Vec<Option<f64>>,
}

/// Interns strings (or kinds) to their first position in a table.
struct Interner<T> {
    table: Vec<T>,
    at: HashMap<T, u32>,
}

impl<T: Clone + Eq + std::hash::Hash> Interner<T> {
    fn new() -> Self {
        Interner { table: Vec::new(), at: HashMap::new() }
    }
    fn get(&mut self, v: &T) -> u32 {
        if let Some(&i) = self.at.get(v) {
            return i;
        }
        self.add(v.clone())
    }
    /// `get` for a value the caller gives up (cloned only when it is new).
    fn take(&mut self, v: T) -> u32 {
        if let Some(&i) = self.at.get(&v) {
            return i;
        }
        self.add(v)
    }
    fn add(&mut self, v: T) -> u32 {
        let i = self.table.len() as u32;
        self.table.push(v.clone());
        self.at.insert(v, i);
        i
    }
}

impl StepColumns {
    /// How many steps the columns hold.
    pub fn len(&self) -> usize {
        self.kind.len()
    }

    pub fn is_empty(&self) -> bool {
        self.kind.is_empty()
    }

    /// Columns of briefs in step order; `first` is the first brief's index (0 when there is none).
    /// Briefs must be numbered one after another (a store's steps are); the caller checks.
    pub fn from_briefs(briefs: impl IntoIterator<Item = StepBrief>) -> StepColumns {
        let mut c = StepColumns::default();
        let mut names = Interner::new();
        let mut kinds = Interner::new();
        let mut details = Interner::new();
        for (n, b) in briefs.into_iter().enumerate() {
            if n == 0 {
                c.first = b.index;
            }
            c.kind.push(kinds.get(&b.kind) as u8);
            c.agent.push(names.get(&b.agent));
            c.owner.push(names.get(&b.owner));
            c.depth.push(b.depth);
            c.transfer.push(b.transfer);
            c.detail.push(details.take(b.detail));
            c.tokens.push(b.tokens);
            c.context_len.push(b.context_len);
            c.start_ms.push(b.start_ms);
            c.duration_ms.push(b.duration_ms);
        }
        c.names = names.table;
        c.kinds = kinds.table;
        c.details = details.table;
        c
    }

    /// Step `first + i` as a brief; None past the end.
    pub fn brief(&self, i: usize) -> Option<StepBrief> {
        Some(StepBrief {
            index: self.first + i as u32,
            kind: *self.kinds.get(*self.kind.get(i)? as usize)?,
            agent: self.names.get(*self.agent.get(i)? as usize)?.clone(),
            owner: self.names.get(*self.owner.get(i)? as usize)?.clone(),
            depth: *self.depth.get(i)?,
            transfer: *self.transfer.get(i)?,
            detail: self.details.get(*self.detail.get(i)? as usize)?.clone(),
            tokens: *self.tokens.get(i)?,
            context_len: *self.context_len.get(i)?,
            start_ms: *self.start_ms.get(i)?,
            duration_ms: *self.duration_ms.get(i)?,
        })
    }

    /// Every step as a brief, in order.
    pub fn briefs(&self) -> Vec<StepBrief> {
        (0..self.len()).map_while(|i| self.brief(i)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brief(index: u32, kind: StepKind, agent: &str, detail: &str) -> StepBrief {
        StepBrief {
            index,
            kind,
            agent: agent.into(),
            owner: "triage".into(),
            depth: 0,
            transfer: (kind == StepKind::Handoff).then_some(0),
            detail: detail.into(),
            tokens: None,
            context_len: Some(index),
            start_ms: Some(f64::from(index) * 1.5),
            duration_ms: None,
        }
    }

    #[test]
    fn columns_give_back_the_briefs_with_names_kinds_and_details_once() {
        let briefs = vec![
            brief(3, StepKind::ModelCall, "triage", "poll"),
            brief(4, StepKind::Handoff, "triage", "transfer_to_billing"),
            brief(5, StepKind::ModelCall, "billing", "poll"),
        ];
        let c = StepColumns::from_briefs(briefs.clone());
        assert_eq!(c.first, 3);
        assert_eq!(c.names, ["triage", "billing"]);
        assert_eq!(c.kinds, [StepKind::ModelCall, StepKind::Handoff]);
        assert_eq!(c.kind, [0, 1, 0]);
        assert_eq!(c.details, ["poll", "transfer_to_billing"]);
        assert_eq!(c.detail, [0, 1, 0]);
        assert_eq!(c.briefs(), briefs);
        assert_eq!(c.brief(3), None);
    }
}

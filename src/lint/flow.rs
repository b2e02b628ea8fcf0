//! The design-time fact flow: before any run, which pinned facts can reach each agent and what
//! each edge does with them. A fact lives in its holders' own context, beside their
//! instructions, and like them it never crosses a transfer by itself (the Agents SDK passes
//! history, never the sender's instructions): it reaches the receiver only if the sender writes
//! it into the conversation and the edge's policy passes that history. `none` and `fields`
//! pass no history at all, so nothing the sender wrote can carry it.

use crate::topology::{ContextPolicy, EdgeKind, Topology};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// What an edge does with one fact its sender may have.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum FactCrossing {
    /// The receiver holds the fact itself.
    Held,
    /// It can cross in the history, but only if the sender states it there (nothing makes it).
    IfStated,
    /// The policy passes no history (`none`, `fields`): it cannot cross.
    Blocked,
    /// A delegation that does not pass it: the caller keeps it (and ownership).
    Withheld,
}

/// One fact at one edge.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct EdgeFact {
    pub fact: String,
    pub crossing: FactCrossing,
}

/// The facts an edge's sender may have, and what the edge does with each.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct EdgeFlow {
    pub edge: String,
    pub facts: Vec<EdgeFact>,
}

/// True when the policy can pass anything the sender wrote.
pub fn passes_history(p: &ContextPolicy) -> bool {
    !matches!(p, ContextPolicy::None | ContextPolicy::Fields(_))
}

/// The facts each agent may have (held, or passed along history-carrying edges from an agent
/// that may have them), by agent id.
pub fn reach(t: &Topology) -> BTreeMap<String, BTreeSet<String>> {
    let mut may: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut queue = VecDeque::new();
    for f in &t.facts {
        for h in &f.holders {
            if may.entry(h.clone()).or_default().insert(f.id.clone()) {
                queue.push_back((h.clone(), f.id.clone()));
            }
        }
    }
    // The history-passing edges out of each agent, indexed once (a 1,000-agent canvas lints on
    // every edit).
    let mut out: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for e in t.edges.iter().filter(|e| passes_history(&e.policy)) {
        out.entry(e.from.as_str()).or_default().push(e.to.as_str());
    }
    while let Some((agent, fact)) = queue.pop_front() {
        for to in out.get(agent.as_str()).into_iter().flatten() {
            if may.entry((*to).to_owned()).or_default().insert(fact.clone()) {
                queue.push_back(((*to).to_owned(), fact.clone()));
            }
        }
    }
    may
}

/// Every edge whose sender may have a fact, with what the edge does with it.
pub fn fact_flow(t: &Topology) -> Vec<EdgeFlow> {
    let may = reach(t);
    let holds = |agent: &str, fact: &str| t.facts.iter().any(|f| f.id == fact && f.holders.iter().any(|h| h == agent));
    t.edges
        .iter()
        .filter_map(|e| {
            let facts: Vec<EdgeFact> = may
                .get(&e.from)?
                .iter()
                .map(|fact| {
                    let crossing = if holds(&e.to, fact) {
                        FactCrossing::Held
                    } else if passes_history(&e.policy) {
                        FactCrossing::IfStated
                    } else if e.kind == EdgeKind::Delegation {
                        FactCrossing::Withheld
                    } else {
                        FactCrossing::Blocked
                    };
                    EdgeFact { fact: fact.clone(), crossing }
                })
                .collect();
            (!facts.is_empty()).then(|| EdgeFlow { edge: e.id.clone(), facts })
        })
        .collect()
}

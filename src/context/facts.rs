//! Pinned-fact checks: is a fact present in a context, and what happened to it across a
//! transfer. Present means the fact's own item, an item derived from it (lineage), or an item
//! that contains its text after normalization.

use super::{ItemId, ItemKind, ItemStore, normalize};
use crate::topology::PinnedFact;
use serde::{Deserialize, Serialize};

/// How a fact is present in a context.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Presence {
    Absent,
    /// The pinned-fact item itself.
    Pinned(ItemId),
    /// An item derived from the pinned-fact item.
    Derived(ItemId),
    /// An item whose text contains the fact's text.
    Text(ItemId),
}

impl Presence {
    pub fn item(self) -> Option<ItemId> {
        match self {
            Presence::Absent => None,
            Presence::Pinned(i) | Presence::Derived(i) | Presence::Text(i) => Some(i),
        }
    }
}

/// A fact's fate at a transfer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum FactStatus {
    /// The sender had it and the new owner has the same item (or holds the fact itself).
    Carried,
    /// The sender had it and the new owner has it in another form (a summary, a field).
    Transformed,
    /// The sender had it and the new owner does not.
    Lost,
    /// The sender did not have it; the new owner does (it holds the fact itself).
    Added,
    /// Neither side had it.
    Absent,
}

impl FactStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            FactStatus::Carried => "carried",
            FactStatus::Transformed => "transformed",
            FactStatus::Lost => "lost",
            FactStatus::Added => "added",
            FactStatus::Absent => "absent",
        }
    }
}

/// Where `fact` is present in `ctx`, preferring the fact's own item, then lineage, then text.
pub fn fact_presence(store: &ItemStore, fact: &PinnedFact, ctx: &[ItemId]) -> Presence {
    let mut derived = None;
    let mut text = None;
    let needle = normalize(&fact.text);
    for &id in ctx {
        let item = store.get(id);
        if item.kind == ItemKind::PinnedFact && item.fact.as_deref() == Some(&fact.id) {
            return Presence::Pinned(id);
        }
        if derived.is_none() && !item.derived_from.is_empty() && derives_from_fact(store, id, &fact.id) {
            derived = Some(id);
        }
        if text.is_none() && !needle.is_empty() && normalize(&item.searchable()).contains(&needle) {
            text = Some(id);
        }
    }
    match (derived, text) {
        (Some(d), _) => Presence::Derived(d),
        (None, Some(t)) => Presence::Text(t),
        _ => Presence::Absent,
    }
}

fn derives_from_fact(store: &ItemStore, id: ItemId, fact: &str) -> bool {
    let mut stack: Vec<ItemId> = store.get(id).derived_from.clone();
    let mut seen = std::collections::HashSet::new();
    while let Some(x) = stack.pop() {
        if !seen.insert(x) {
            continue;
        }
        let Some(item) = store.try_get(x) else {
            continue;
        };
        if item.kind == ItemKind::PinnedFact && item.fact.as_deref() == Some(fact) {
            return true;
        }
        stack.extend(item.derived_from.iter().copied());
    }
    false
}

/// The fact's status across a transfer from the sender's context to the new owner's.
pub fn fact_status(store: &ItemStore, fact: &PinnedFact, sender: &[ItemId], after: &[ItemId]) -> FactStatus {
    let before = fact_presence(store, fact, sender);
    let now = fact_presence(store, fact, after);
    match (before, now) {
        (Presence::Absent, Presence::Absent) => FactStatus::Absent,
        (Presence::Absent, _) => FactStatus::Added,
        (_, Presence::Absent) => FactStatus::Lost,
        (_, Presence::Pinned(_)) => FactStatus::Carried,
        (_, p) if p.item().is_some_and(|i| sender.contains(&i)) => FactStatus::Carried,
        _ => FactStatus::Transformed,
    }
}

//! The transfer diff: the sender's visible context against the receiver's input, partitioned
//! into carried, transformed (derived from sender items), dropped and added items.

use super::{ItemId, ItemStore};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TransferDiff {
    /// In both contexts, the same item.
    pub carried: Vec<ItemId>,
    /// Receiver items derived from sender items (their sources are in `derived_from`).
    pub transformed: Vec<ItemId>,
    /// Sender items the receiver gets in no form.
    pub dropped: Vec<ItemId>,
    /// Receiver items with no source in the sender's context (its instructions, the transfer
    /// output, facts it holds itself).
    pub added: Vec<ItemId>,
}

/// Partitions `sender` and `receiver` (both in display order).
pub fn diff_transfer(store: &ItemStore, sender: &[ItemId], receiver: &[ItemId]) -> TransferDiff {
    let s: HashSet<ItemId> = sender.iter().copied().collect();
    let mut d = TransferDiff::default();
    let mut used_sources: HashSet<ItemId> = HashSet::new();
    for &r in receiver {
        if s.contains(&r) {
            d.carried.push(r);
            continue;
        }
        let sources = sources_in(store, r, &s);
        if sources.is_empty() {
            d.added.push(r);
        } else {
            used_sources.extend(sources);
            d.transformed.push(r);
        }
    }
    let carried: HashSet<ItemId> = d.carried.iter().copied().collect();
    d.dropped = sender.iter().copied().filter(|x| !carried.contains(x) && !used_sources.contains(x)).collect();
    d
}

/// The sender items `id` derives from, following lineage through items outside the sender.
fn sources_in(store: &ItemStore, id: ItemId, sender: &HashSet<ItemId>) -> Vec<ItemId> {
    let Some(item) = store.try_get(id) else {
        return vec![];
    };
    if item.derived_from.is_empty() {
        return vec![];
    }
    let mut out = vec![];
    let mut stack = item.derived_from.clone();
    let mut seen = HashSet::new();
    while let Some(x) = stack.pop() {
        if !seen.insert(x) {
            continue;
        }
        if sender.contains(&x) {
            out.push(x);
        } else if let Some(i) = store.try_get(x) {
            stack.extend(i.derived_from.iter().copied());
        }
    }
    out
}

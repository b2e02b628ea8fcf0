//! Two runs compared by transfer identity, not by index: each transfer is known by (from, to,
//! occurrence), so a run that took another route lines up where the routes meet; the first
//! pair that differs (missing on one side, another policy, other diff counts or fact statuses)
//! is the first divergence. `baton diff` prints it; the hosts' compare uses the same rows.

use super::{Trace, Transfer};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// One aligned row: the transfer index in each run (None where that run has no such transfer).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct AlignedTransfer {
    pub from: String,
    pub to: String,
    /// 1 for the first transfer from `from` to `to`, 2 for the second…
    pub occurrence: u32,
    pub a: Option<u32>,
    pub b: Option<u32>,
    /// What differs, in words (empty: the same).
    pub differences: Vec<String>,
}

/// Two runs side by side.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct RunDiff {
    pub rows: Vec<AlignedTransfer>,
    /// Index into `rows` of the first row that differs.
    pub first_divergence: Option<u32>,
    pub outcome_a: String,
    pub outcome_b: String,
}

fn keyed(t: &Trace) -> Vec<((String, String, u32), u32)> {
    let mut seen: HashMap<(String, String), u32> = HashMap::new();
    t.transfers
        .iter()
        .enumerate()
        .map(|(i, tr)| {
            let n = seen.entry((tr.from.clone(), tr.to.clone())).or_default();
            *n += 1;
            ((tr.from.clone(), tr.to.clone(), *n), i as u32)
        })
        .collect()
}

fn differences(a: &Transfer, b: &Transfer) -> Vec<String> {
    let mut out = vec![];
    if a.policy != b.policy {
        out.push(format!("policy {} → {}", a.policy, b.policy));
    }
    let counts = |t: &Transfer| (t.carried.len(), t.transformed.len(), t.dropped.len(), t.added.len());
    if counts(a) != counts(b) {
        let (x, y) = (counts(a), counts(b));
        out.push(format!(
            "carried/transformed/dropped/added {}/{}/{}/{} → {}/{}/{}/{}",
            x.0, x.1, x.2, x.3, y.0, y.1, y.2, y.3
        ));
    }
    for f in &a.facts {
        match b.facts.iter().find(|g| g.id == f.id) {
            Some(g) if g.status != f.status => {
                out.push(format!("fact {}: {} → {}", f.id, f.status.as_str(), g.status.as_str()))
            }
            _ => {}
        }
    }
    out
}

/// The rows of `a` in its order, with `b`'s transfers matched by identity; `b`'s others follow
/// the row they came after in `b`.
pub fn diff_runs(a: &Trace, b: &Trace) -> RunDiff {
    let ka = keyed(a);
    let kb = keyed(b);
    let in_b: HashMap<&(String, String, u32), u32> = kb.iter().map(|(k, i)| (k, *i)).collect();
    let in_a: HashMap<&(String, String, u32), u32> = ka.iter().map(|(k, i)| (k, *i)).collect();
    let mut rows: Vec<AlignedTransfer> = vec![];
    let mut bi = 0usize;
    let row = |k: &(String, String, u32), ia: Option<u32>, ib: Option<u32>| {
        let differences = match (ia, ib) {
            (Some(x), Some(y)) => differences(&a.transfers[x as usize], &b.transfers[y as usize]),
            (Some(_), None) => vec!["only in A".into()],
            _ => vec!["only in B".into()],
        };
        AlignedTransfer { from: k.0.clone(), to: k.1.clone(), occurrence: k.2, a: ia, b: ib, differences }
    };
    for (k, ia) in &ka {
        let matched = in_b.get(k).copied();
        // B's unmatched transfers before this match come first, in B's order.
        if let Some(m) = matched {
            while bi < kb.len() && kb[bi].1 < m {
                if !in_a.contains_key(&kb[bi].0) {
                    rows.push(row(&kb[bi].0, None, Some(kb[bi].1)));
                }
                bi += 1;
            }
            bi = bi.max(m as usize + 1);
        }
        rows.push(row(k, Some(*ia), matched));
    }
    for (k, ib) in kb.iter().skip(bi) {
        if !in_a.contains_key(k) {
            rows.push(row(k, None, Some(*ib)));
        }
    }
    let first_divergence = rows.iter().position(|r| !r.differences.is_empty()).map(|i| i as u32);
    let outcome =
        |t: &Trace| format!("{} — {}", t.outcome.status.as_str(), t.outcome.final_output.clone().unwrap_or_default());
    RunDiff { rows, first_divergence, outcome_a: outcome(a), outcome_b: outcome(b) }
}

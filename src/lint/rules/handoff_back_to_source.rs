//! `handoff-back-to-source` (warning): A hands off to B and B can hand straight back.
//! Fix: remove one direction, or let `guards.on_revisit` catch the return.

use super::prelude::*;
use std::collections::HashSet;

pub const SEVERITY: Severity = Severity::Warning;

pub fn check(cx: &Cx, out: &mut Vec<Finding>) {
    let t = cx.t;
    let handoffs: Vec<_> = t.edges.iter().filter(|e| e.kind == EdgeKind::Handoff).collect();
    let mut first_back: std::collections::HashMap<(&str, &str), &str> = Default::default();
    for e in &handoffs {
        first_back.entry((e.from.as_str(), e.to.as_str())).or_insert(e.id.as_str());
    }
    let mut seen = HashSet::new();
    for e in handoffs.iter().filter(|e| e.from < e.to) {
        let Some(back) = first_back.get(&(e.to.as_str(), e.from.as_str())) else { continue };
        if !seen.insert((e.from.as_str(), e.to.as_str())) {
            continue;
        }
        out.push(finding(
            LintCode::HandoffBackToSource,
            format!(
                "{} hands off to {} and {} can hand straight back: remove one direction, or let \
                 handoff-history tracking (guards.on_revisit) catch the return",
                cx.name(&e.from),
                cx.name(&e.to),
                cx.name(&e.to)
            ),
            vec![e.from.clone(), e.to.clone()],
            vec![e.id.clone(), (*back).to_owned()],
        ));
    }
}

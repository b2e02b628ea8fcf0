//! `fact-cannot-cross` (warning): a pinned fact its sender may have cannot cross a handoff,
//! because the handoff's policy (`none`, `fields`) passes no history, so the receiver (which does
//! not hold the fact) and the agents after it never see it, while the sender steps out. Known
//! before any run: ticket-reopen's `resolved-meaning` at resolution → verification. Fix: a
//! policy that passes the history, a field that carries the fact, the receiver as a holder, or
//! the supervisor refactor (the supervisor keeps the fact and never hands off).

use super::prelude::*;
use crate::lint::flow::{FactCrossing, fact_flow};

pub const SEVERITY: Severity = Severity::Warning;

pub fn check(cx: &Cx, out: &mut Vec<Finding>) {
    let t = cx.t;
    for flow in fact_flow(t) {
        let Some(e) = t.edges.iter().find(|e| e.id == flow.edge) else { continue };
        if e.kind != EdgeKind::Handoff {
            continue;
        }
        for f in flow.facts.iter().filter(|f| f.crossing == FactCrossing::Blocked) {
            // Agents the conversation can go on to after the receiver, none of which holds it.
            let after: Vec<String> = cx
                .graph
                .reachable_from(&e.to)
                .into_iter()
                .filter(|a| a != &e.to && a != &e.from)
                .filter(|a| !t.facts.iter().any(|g| g.id == f.fact && g.holders.contains(a)))
                .collect();
            let then = if after.is_empty() { String::new() } else { format!(", nor do {}", cx.path(&after).replace(" → ", ", ")) };
            out.push(finding(
                LintCode::FactCannotCross,
                format!(
                    "pinned fact '{}' cannot cross the handoff {} → {}: its policy {} passes no history, so {} never \
                     sees it{then}, and {} steps out. Pass it in a field, use a policy that keeps the history, make {} \
                     a holder, or refactor to a supervisor that keeps it",
                    f.fact,
                    cx.name(&e.from),
                    cx.name(&e.to),
                    e.policy.label(),
                    cx.name(&e.to),
                    cx.name(&e.from),
                    cx.name(&e.to),
                ),
                vec![e.from.clone(), e.to.clone()],
                vec![e.id.clone()],
            ));
        }
    }
}

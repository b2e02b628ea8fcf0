//! `unreachable-agent` (warning): no edge leads from the entry agent to this agent (the
//! escalation target of `on_revisit: escalate` counts as reached). Fix: connect it or delete it.

use super::prelude::*;
use std::collections::HashSet;

pub const SEVERITY: Severity = Severity::Warning;

pub fn check(cx: &Cx, out: &mut Vec<Finding>) {
    let t = cx.t;
    if cx.agent(&t.entry).is_none() {
        return;
    }
    let mut reach: HashSet<String> = cx.graph.reachable_from(&t.entry).into_iter().collect();
    if let (OnRevisit::Escalate, Some(h)) = (t.guards.on_revisit, t.escalation_target()) {
        reach.extend(cx.graph.reachable_from(&h.id));
    }
    for a in t.agents.iter().filter(|a| !reach.contains(&a.id)) {
        out.push(finding(
            LintCode::UnreachableAgent,
            format!(
                "{} cannot be reached from the entry agent {}; connect it with an edge or delete it",
                a.name,
                cx.name(&t.entry)
            ),
            vec![a.id.clone()],
            vec![],
        ));
    }
}

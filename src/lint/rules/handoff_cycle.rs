//! `handoff-cycle` (warning): handoffs form a cycle, so the conversation can bounce between
//! agents with nobody owning it. Fix: cap it with `guards.max_handoffs`, or set
//! `guards.on_revisit` to stop or escalate.

use super::prelude::*;

pub const SEVERITY: Severity = Severity::Warning;

pub fn check(cx: &Cx, out: &mut Vec<Finding>) {
    for (agents, edges) in cx.graph.cycles(EdgeKind::Handoff) {
        let path = cx.path(&agents);
        out.push(finding(
            LintCode::HandoffCycle,
            format!(
                "handoff cycle among {path}: the conversation can bounce between them with nobody \
                 owning it; cap it with guards.max_handoffs or set guards.on_revisit to stop or escalate"
            ),
            agents,
            edges,
        ));
    }
}

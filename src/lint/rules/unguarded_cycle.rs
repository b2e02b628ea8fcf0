//! `unguarded-cycle` (warning): a handoff cycle that only `max_turns` ends. Fix: set
//! `guards.max_handoffs`, or `guards.on_revisit: stop | escalate`.

use super::prelude::*;

pub const SEVERITY: Severity = Severity::Warning;

pub fn check(cx: &Cx, out: &mut Vec<Finding>) {
    let g = &cx.t.guards;
    if g.max_handoffs.is_some() || g.on_revisit != OnRevisit::Allow {
        return;
    }
    for (agents, edges) in cx.graph.cycles(EdgeKind::Handoff) {
        let path = cx.path(&agents);
        out.push(finding(
            LintCode::UnguardedCycle,
            format!(
                "the handoff cycle among {path} has no guard: only max_turns ({}) ends it; set \
                 guards.max_handoffs or guards.on_revisit: stop | escalate",
                g.max_turns
            ),
            agents,
            edges,
        ));
    }
}

//! `zero-limit` (warning): a limit set to zero makes part of the topology do nothing:
//! `guards.max_turns: 0` (no model call can run), `guards.max_handoffs: 0` (every handoff
//! ends the run), `last_n: 0` on an edge (the receiver gets no history at all; say `none` if
//! that is meant). Fix: raise the limit, or use the policy that says what you mean.

use super::prelude::*;

pub const SEVERITY: Severity = Severity::Warning;

pub fn check(cx: &Cx, out: &mut Vec<Finding>) {
    let g = &cx.t.guards;
    if g.max_turns == 0 {
        out.push(finding(
            LintCode::ZeroLimit,
            "guards.max_turns is 0: no model call can run, every run stops at once; set it to the number of model calls a run may make".into(),
            vec![],
            vec![],
        ));
    }
    if g.max_handoffs == Some(0) {
        out.push(finding(
            LintCode::ZeroLimit,
            "guards.max_handoffs is 0: the first handoff stops the run; remove it or allow at least one".into(),
            vec![],
            vec![],
        ));
    }
    for e in cx.t.edges.iter().filter(|e| matches!(e.policy, ContextPolicy::LastN(0))) {
        out.push(finding(
            LintCode::ZeroLimit,
            format!(
                "the {} {} → {} keeps the last 0 items: its receiver gets no history; use `none` if that is meant, or keep at least one item",
                e.kind.as_str(),
                cx.name(&e.from),
                cx.name(&e.to)
            ),
            vec![e.from.clone(), e.to.clone()],
            vec![e.id.clone()],
        ));
    }
}

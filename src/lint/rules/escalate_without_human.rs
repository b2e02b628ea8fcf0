//! `escalate-without-human` (error): `guards.on_revisit: escalate` with no human to escalate to.
//! Fix: add an agent with `kind: human`, or point `guards.escalate_to` at one.

use super::prelude::*;

pub const SEVERITY: Severity = Severity::Error;

pub fn check(cx: &Cx, out: &mut Vec<Finding>) {
    let t = cx.t;
    let human_ok = t.escalation_target().is_some_and(|a| a.kind == AgentKind::Human);
    if t.guards.on_revisit == OnRevisit::Escalate && !human_ok {
        out.push(finding(
            LintCode::EscalateWithoutHuman,
            "guards.on_revisit is escalate but there is no human agent to escalate to; add an agent \
             with `kind: human` (or set guards.escalate_to to one)"
                .into(),
            t.guards.escalate_to.iter().cloned().collect(),
            vec![],
        ));
    }
}

//! `delegation-to-human` (warning): a delegation to a human, who cannot return a result to a
//! waiting agent. Fix: use a handoff to escalate.

use super::prelude::*;

pub const SEVERITY: Severity = Severity::Warning;

pub fn check(cx: &Cx, out: &mut Vec<Finding>) {
    let t = cx.t;
    for e in t.edges.iter().filter(|e| e.kind == EdgeKind::Delegation) {
        if cx.agent(&e.to).is_some_and(|a| a.kind == AgentKind::Human) {
            out.push(finding(
                LintCode::DelegationToHuman,
                format!(
                    "{} delegates to the human {}, who cannot return a result to a waiting agent; \
                     use a handoff to escalate",
                    cx.name(&e.from),
                    cx.name(&e.to)
                ),
                vec![e.from.clone(), e.to.clone()],
                vec![e.id.clone()],
            ));
        }
    }
}

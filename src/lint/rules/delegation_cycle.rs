//! `delegation-cycle` (error): delegations form a cycle: each caller waits for the other, an
//! unbounded recursion (the engine also stops it at `guards.max_depth`). Fix: remove one of
//! the delegations.

use super::prelude::*;

pub const SEVERITY: Severity = Severity::Error;

pub fn check(cx: &Cx, out: &mut Vec<Finding>) {
    for (agents, edges) in cx.graph.cycles(EdgeKind::Delegation) {
        let path = cx.path(&agents);
        out.push(finding(
            LintCode::DelegationCycle,
            format!(
                "delegation cycle among {path}: each waits for the other, an unbounded recursion; \
                 remove one of the delegations"
            ),
            agents,
            edges,
        ));
    }
}

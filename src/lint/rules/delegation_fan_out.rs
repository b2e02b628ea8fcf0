//! `delegation-fan-out` (warning): delegations nest and branch so that one run can start more
//! nested runs than its model-call budget: each nested run has its own `max_turns`, so only
//! `guards.max_model_calls` (run-wide) and `guards.max_depth` bound it. Fix: flatten the
//! delegations, or lower the limits.

use super::prelude::*;
use petgraph::visit::EdgeFiltered;

pub const SEVERITY: Severity = Severity::Warning;

pub fn check(cx: &Cx, out: &mut Vec<Finding>) {
    let g = &cx.graph.graph;
    let delegations = EdgeFiltered::from_fn(g, |e| e.weight().1 == EdgeKind::Delegation);
    // Cycles are the delegation-cycle rule's; a DAG's nested-run count is a sum over children.
    let Ok(order) = petgraph::algo::toposort(&delegations, None) else { return };
    let budget = u64::from(cx.t.guards.max_model_calls);
    let per_run = u64::from(cx.t.guards.max_turns.max(1));
    let mut runs = vec![1u64; g.node_count()];
    for &n in order.iter().rev() {
        let mut total = 1u64;
        let out: Vec<_> = g.edges(n).filter(|e| e.weight().1 == EdgeKind::Delegation).collect();
        // A model may call several tools in one turn: at least two delegations per turn.
        let per_turn = (out.len() as u64).max(2);
        for e in &out {
            let child = runs[petgraph::visit::EdgeRef::target(e).index()];
            total = total.saturating_add(per_run.saturating_mul(per_turn).saturating_mul(child) / out.len() as u64);
        }
        runs[n.index()] = total.min(u64::MAX / 4);
    }
    for &n in &order {
        let nested = runs[n.index()].saturating_sub(1);
        let depth_two = g
            .edges(n)
            .filter(|e| e.weight().1 == EdgeKind::Delegation)
            .any(|e| g.edges(petgraph::visit::EdgeRef::target(&e)).any(|d| d.weight().1 == EdgeKind::Delegation));
        if depth_two && nested > budget {
            let id = &g[n];
            out.push(finding(
                LintCode::DelegationFanOut,
                format!(
                    "{}'s delegations nest and branch: one run can start up to {} nested runs (two delegation calls a turn), past the run's budget of {budget} model calls (guards.max_model_calls); flatten the delegations or lower max_turns",
                    cx.name(id),
                    if nested > 1_000_000 { "millions of".to_string() } else { nested.to_string() }
                ),
                vec![id.clone()],
                vec![],
            ));
        }
    }
}

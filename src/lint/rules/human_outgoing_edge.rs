//! `human-outgoing-edge` (info): an edge leaves a human agent, but a run ends when it reaches
//! a human, so the edge never runs. Fix: delete it, or make the agent an agent.

use super::prelude::*;

pub const SEVERITY: Severity = Severity::Info;

pub fn check(cx: &Cx, out: &mut Vec<Finding>) {
    let t = cx.t;
    for a in t.agents.iter().filter(|a| a.kind == AgentKind::Human) {
        for e in cx.edges_from(&a.id) {
            out.push(finding(
                LintCode::HumanOutgoingEdge,
                format!(
                    "{} is a human: a run ends when it reaches them, so the {} to {} never runs",
                    a.name,
                    e.kind.as_str(),
                    cx.name(&e.to)
                ),
                vec![a.id.clone()],
                vec![e.id.clone()],
            ));
        }
    }
}

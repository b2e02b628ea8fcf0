//! `missing-agent` (error): an edge names an agent that does not exist.
//! Fix: add the agent, or delete the edge.

use super::prelude::*;

pub const SEVERITY: Severity = Severity::Error;

pub fn check(cx: &Cx, out: &mut Vec<Finding>) {
    let t = cx.t;
    for e in &t.edges {
        let missing: Vec<String> = [&e.from, &e.to].into_iter().filter(|id| cx.agent(id).is_none()).cloned().collect();
        if !missing.is_empty() {
            out.push(finding(
                LintCode::MissingAgent,
                format!(
                    "the {} {} → {} names agent(s) that do not exist: {}; add them or delete the edge",
                    e.kind.as_str(),
                    e.from,
                    e.to,
                    missing.join(", ")
                ),
                missing,
                vec![e.id.clone()],
            ));
        }
    }
}

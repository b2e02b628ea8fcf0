//! `expect-unknown` (error): a scenario's `expect:` names a fact, an agent or an edge the
//! topology does not have, or a status no run ends with, so `baton test` could never pass it (or
//! would pass it for the wrong reason). Fix: name one the topology has.

use super::prelude::*;

pub const SEVERITY: Severity = Severity::Error;

const STATUSES: [&str; 6] = ["completed", "stopped", "escalated", "failed", "cancelled", "interrupted"];

pub fn check(cx: &Cx, out: &mut Vec<Finding>) {
    let t = cx.t;
    let known_agents = || t.agents.iter().map(|a| a.id.as_str()).collect::<Vec<_>>().join(", ");
    let known_facts = || t.facts.iter().map(|f| f.id.as_str()).collect::<Vec<_>>().join(", ");
    for s in &t.scenarios {
        let e = &s.expect;
        let mut say = |what: String, agents: Vec<String>| {
            out.push(finding(LintCode::ExpectUnknown, format!("scenario '{}' expects {what}", s.name), agents, vec![]));
        };
        if let Some(st) = e.status.as_deref().filter(|st| !STATUSES.contains(st)) {
            say(format!("status '{st}', which no run ends with (one of {})", STATUSES.join(", ")), vec![]);
        }
        for f in e.facts_kept.iter().chain(e.fact_lost_at.keys()) {
            if !t.facts.iter().any(|x| &x.id == f) {
                say(format!("fact '{f}', which is not pinned (pinned: {})", known_facts()), vec![]);
            }
        }
        for edge in e.fact_lost_at.values() {
            let named = t.edges.iter().any(|x| &x.id == edge || format!("{}->{}", x.from, x.to) == *edge);
            if !named {
                say(format!("a loss at '{edge}', which is not an edge (write FROM->TO of one)"), vec![]);
            }
        }
        for a in e.visits.iter().chain(&e.not_visits).chain(e.owner.iter()) {
            if cx.agent(a).is_none() {
                say(format!("agent '{a}', which does not exist (agents: {})", known_agents()), vec![a.clone()]);
            }
        }
        if let Some(re) = &e.output_matches
            && let Err(err) = regex::Regex::new(re)
        {
            say(format!("output to match /{re}/, which is not a regular expression: {err}"), vec![]);
        }
    }
}

//! Static checks on a topology: the loop risks, unreachable and missing agents, tool name
//! clashes, and the trust-versus-verify rule. Each finding says how to fix it.

use crate::topology::{Acceptance, AgentKind, EdgeKind, OnRevisit, Topology, TopologyGraph};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    Error,
    Warning,
    Info,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

/// One problem found in a topology.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ts_rs::TS)]
pub struct Finding {
    /// Stable code, e.g. `handoff-cycle`.
    pub code: String,
    pub severity: Severity,
    /// What is wrong and how to fix it.
    pub message: String,
    /// Agent ids involved.
    pub agents: Vec<String>,
    /// Edge ids involved.
    pub edges: Vec<String>,
}

/// Every stable lint code, with its severity.
pub const CODES: &[(&str, Severity)] = &[
    ("missing-entry", Severity::Error),
    ("missing-agent", Severity::Error),
    ("duplicate-agent", Severity::Error),
    ("delegation-cycle", Severity::Error),
    ("duplicate-tool", Severity::Error),
    ("escalate-without-human", Severity::Error),
    ("handoff-cycle", Severity::Warning),
    ("handoff-back-to-source", Severity::Warning),
    ("unguarded-cycle", Severity::Warning),
    ("verify-handoff", Severity::Warning),
    ("unreachable-agent", Severity::Warning),
    ("missing-model", Severity::Warning),
    ("delegation-to-human", Severity::Warning),
    ("human-outgoing-edge", Severity::Info),
];

fn finding(code: &str, message: String, agents: Vec<String>, edges: Vec<String>) -> Finding {
    let severity = CODES.iter().find(|(c, _)| *c == code).map(|(_, s)| *s).unwrap_or(Severity::Error);
    Finding { code: code.into(), severity, message, agents, edges }
}

/// True when any finding is an error.
pub fn has_errors(findings: &[Finding]) -> bool {
    findings.iter().any(|f| f.severity == Severity::Error)
}

/// Runs every rule. Findings are sorted by severity, then code, then ids.
pub fn lint(t: &Topology) -> Vec<Finding> {
    let mut out = vec![];
    let name = |id: &str| t.agent(id).map(|a| a.name.clone()).unwrap_or_else(|| id.to_owned());

    if t.agent(&t.entry).is_none() {
        out.push(finding(
            "missing-entry",
            format!("the entry agent '{}' does not exist; set `entry` to one of the agents' ids", t.entry),
            vec![t.entry.clone()],
            vec![],
        ));
    }
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for a in &t.agents {
        *counts.entry(a.id.as_str()).or_default() += 1;
    }
    for (id, n) in counts.iter().filter(|(_, n)| **n > 1) {
        out.push(finding(
            "duplicate-agent",
            format!("{n} agents share the id '{id}'; give each agent its own id"),
            vec![(*id).into()],
            vec![],
        ));
    }
    for e in &t.edges {
        let missing: Vec<String> = [&e.from, &e.to].into_iter().filter(|id| t.agent(id).is_none()).cloned().collect();
        if !missing.is_empty() {
            out.push(finding(
                "missing-agent",
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

    let g = TopologyGraph::build(t);
    for (agents, edges) in g.cycles(EdgeKind::Handoff) {
        let path = agents.iter().map(|a| name(a)).collect::<Vec<_>>().join(" → ");
        out.push(finding(
            "handoff-cycle",
            format!(
                "handoff cycle among {path}: the conversation can bounce between them with nobody \
                 owning it; cap it with guards.max_handoffs or set guards.on_revisit to stop or escalate"
            ),
            agents.clone(),
            edges.clone(),
        ));
        if t.guards.max_handoffs.is_none() && t.guards.on_revisit == OnRevisit::Allow {
            out.push(finding(
                "unguarded-cycle",
                format!(
                    "the handoff cycle among {path} has no guard: only max_turns ({}) ends it; set \
                     guards.max_handoffs or guards.on_revisit: stop | escalate",
                    t.guards.max_turns
                ),
                agents,
                edges,
            ));
        }
    }
    for e in t.edges.iter().filter(|e| e.kind == EdgeKind::Handoff && e.from < e.to) {
        if let Some(back) = t.edges.iter().find(|b| b.kind == EdgeKind::Handoff && b.from == e.to && b.to == e.from) {
            out.push(finding(
                "handoff-back-to-source",
                format!(
                    "{} hands off to {} and {} can hand straight back: remove one direction, or let \
                     handoff-history tracking (guards.on_revisit) catch the return",
                    name(&e.from),
                    name(&e.to),
                    name(&e.to)
                ),
                vec![e.from.clone(), e.to.clone()],
                vec![e.id.clone(), back.id.clone()],
            ));
        }
    }
    for (agents, edges) in g.cycles(EdgeKind::Delegation) {
        let path = agents.iter().map(|a| name(a)).collect::<Vec<_>>().join(" → ");
        out.push(finding(
            "delegation-cycle",
            format!(
                "delegation cycle among {path}: each waits for the other, an unbounded recursion; \
                 remove one of the delegations"
            ),
            agents,
            edges,
        ));
    }
    if t.agent(&t.entry).is_some() {
        let mut reach = g.reachable_from(&t.entry);
        // The escalation target is reached by the revisit guard, not by an edge.
        if let (OnRevisit::Escalate, Some(h)) = (t.guards.on_revisit, t.escalation_target()) {
            reach.extend(g.reachable_from(&h.id));
        }
        for a in t.agents.iter().filter(|a| !reach.contains(&a.id)) {
            out.push(finding(
                "unreachable-agent",
                format!(
                    "{} cannot be reached from the entry agent {}; connect it with an edge or delete it",
                    a.name,
                    name(&t.entry)
                ),
                vec![a.id.clone()],
                vec![],
            ));
        }
    }
    for a in &t.agents {
        let mut seen: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for tool in &a.tools {
            seen.entry(tool.name.clone()).or_default().push(format!("tool {}", tool.name));
        }
        let mut edge_ids: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for e in t.edges_from(&a.id) {
            let tn = t.tool_name(e);
            seen.entry(tn.clone()).or_default().push(format!("{} to {}", e.kind.as_str(), e.to));
            edge_ids.entry(tn).or_default().push(e.id.clone());
        }
        for (tool, users) in seen.iter().filter(|(_, u)| u.len() > 1) {
            out.push(finding(
                "duplicate-tool",
                format!(
                    "{} sees the tool name '{tool}' {} times ({}); the model cannot tell them apart — \
                     rename a tool or set the edge's `tool`",
                    a.name,
                    users.len(),
                    users.join(", ")
                ),
                vec![a.id.clone()],
                edge_ids.get(tool).cloned().unwrap_or_default(),
            ));
        }
        if a.kind != AgentKind::Human && a.model.is_none() {
            out.push(finding(
                "missing-model",
                format!("{} has no model; runs use the mock provider for it. Set `model: {{provider, name}}`", a.name),
                vec![a.id.clone()],
                vec![],
            ));
        }
        if a.kind == AgentKind::Human {
            for e in t.edges_from(&a.id) {
                out.push(finding(
                    "human-outgoing-edge",
                    format!(
                        "{} is a human: a run ends when it reaches them, so the {} to {} never runs",
                        a.name,
                        e.kind.as_str(),
                        name(&e.to)
                    ),
                    vec![a.id.clone()],
                    vec![e.id.clone()],
                ));
            }
        }
    }
    for e in &t.edges {
        let target = t.agent(&e.to);
        if e.kind == EdgeKind::Handoff && e.acceptance == Acceptance::Verify {
            out.push(finding(
                "verify-handoff",
                format!(
                    "{}'s \"done\" must be verified, but {} hands off and steps out: nobody is left to \
                     verify it. Apply the supervisor refactor (`baton refactor supervisor`), so a \
                     supervisor delegates and checks the claim against context it never let go of",
                    name(&e.to),
                    name(&e.from)
                ),
                vec![e.from.clone(), e.to.clone()],
                vec![e.id.clone()],
            ));
        }
        if e.kind == EdgeKind::Delegation && target.is_some_and(|a| a.kind == AgentKind::Human) {
            out.push(finding(
                "delegation-to-human",
                format!(
                    "{} delegates to the human {}, who cannot return a result to a waiting agent; \
                     use a handoff to escalate",
                    name(&e.from),
                    name(&e.to)
                ),
                vec![e.from.clone(), e.to.clone()],
                vec![e.id.clone()],
            ));
        }
    }
    let escalates = t.guards.on_revisit == OnRevisit::Escalate;
    let human_ok = t.escalation_target().is_some_and(|a| a.kind == AgentKind::Human);
    if escalates && !human_ok {
        out.push(finding(
            "escalate-without-human",
            "guards.on_revisit is escalate but there is no human agent to escalate to; add an agent \
             with `kind: human` (or set guards.escalate_to to one)"
                .into(),
            t.guards.escalate_to.iter().cloned().collect(),
            vec![],
        ));
    }
    out.sort_by(|a, b| (a.severity, &a.code, &a.agents, &a.edges).cmp(&(b.severity, &b.code, &b.agents, &b.edges)));
    out
}

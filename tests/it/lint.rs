//! Lint rules: each rule fires on a topology built to trigger it, names the agents and edges
//! involved, and stays quiet on the clean examples.

use crate::common;

use baton::config::{self, Format};
use baton::lint::{Severity, lint};

fn findings(yaml: &str) -> Vec<baton::lint::Finding> {
    lint(&config::parse(yaml, Format::Yaml, "<t>").unwrap())
}

fn codes(yaml: &str) -> Vec<String> {
    findings(yaml).into_iter().map(|f| f.code.to_string()).collect()
}

const HEAD: &str = "version: 1\nname: t\nentry: a\n";

#[test]
fn handoff_cycle_names_every_agent_and_needs_a_guard() {
    let y = format!(
        "{HEAD}agents:\n  - {{id: a, name: A, model: {{provider: mock, name: m}}}}\n  - {{id: b, name: B, model: {{provider: mock, name: m}}}}\n  - {{id: c, name: C, model: {{provider: mock, name: m}}}}\nedges:\n  - {{kind: handoff, from: a, to: b}}\n  - {{kind: handoff, from: b, to: c}}\n  - {{kind: handoff, from: c, to: a}}\n"
    );
    let f = findings(&y);
    let cycle = f.iter().find(|f| f.code == "handoff-cycle").expect("cycle found");
    assert_eq!(cycle.agents, ["a", "b", "c"]);
    assert_eq!(cycle.edges.len(), 3);
    assert!(cycle.message.contains("A → B → C"), "{}", cycle.message);
    assert!(f.iter().any(|f| f.code == "unguarded-cycle"));
    assert!(!f.iter().any(|f| f.code == "handoff-back-to-source"), "no direct return in a 3-cycle");
    // A guard silences the unguarded finding but not the cycle.
    let guarded = y + "guards: {max_handoffs: 3}\n";
    let c = codes(&guarded);
    assert!(c.contains(&"handoff-cycle".to_string()) && !c.contains(&"unguarded-cycle".to_string()));
}

#[test]
fn direct_return_and_delegation_cycle() {
    let y = format!(
        "{HEAD}agents: [{{id: a, name: A, model: {{provider: mock, name: m}}}}, {{id: b, name: B, model: {{provider: mock, name: m}}}}]\nedges:\n  - {{kind: handoff, from: a, to: b}}\n  - {{kind: handoff, from: b, to: a}}\n  - {{kind: delegation, from: a, to: b}}\n  - {{kind: delegation, from: b, to: a, tool: ask_a}}\n"
    );
    let f = findings(&y);
    let back = f.iter().find(|f| f.code == "handoff-back-to-source").unwrap();
    assert_eq!(back.edges, ["a->b", "b->a"]);
    let del = f.iter().find(|f| f.code == "delegation-cycle").unwrap();
    assert_eq!(del.severity, Severity::Error);
    assert_eq!(del.agents, ["a", "b"]);
    assert_eq!(del.edges, ["a->b#2", "b->a#2"]);
}

#[test]
fn unreachable_missing_model_and_missing_agents() {
    let y = format!(
        "{HEAD}agents: [{{id: a, name: A}}, {{id: lonely, name: Lonely, model: {{provider: mock, name: m}}}}]\nedges:\n  - {{kind: handoff, from: a, to: ghost}}\n"
    );
    let f = findings(&y);
    let by = |c: &str| f.iter().find(|f| f.code == c).unwrap_or_else(|| panic!("no {c} in {f:?}"));
    assert_eq!(by("unreachable-agent").agents, ["lonely"]);
    assert_eq!(by("missing-model").agents, ["a"]);
    let missing = by("missing-agent");
    assert_eq!((missing.agents.as_slice(), missing.severity), (&["ghost".to_string()][..], Severity::Error));
    assert!(missing.message.contains("ghost"));
    let y = "version: 1\nname: t\nentry: nobody\nagents: [{id: a, name: A, model: {provider: mock, name: m}}]\n";
    assert!(codes(y).contains(&"missing-entry".to_string()));
}

#[test]
fn duplicate_tool_names_seen_by_one_agent() {
    // The own tool `transfer_to_b` clashes with the handoff's derived tool name.
    let y = format!(
        "{HEAD}agents:\n  - {{id: a, name: A, model: {{provider: mock, name: m}}, tools: [{{name: transfer_to_b}}]}}\n  - {{id: b, name: B, model: {{provider: mock, name: m}}}}\nedges: [{{kind: handoff, from: a, to: b}}]\n"
    );
    let f = findings(&y);
    let d = f.iter().find(|f| f.code == "duplicate-tool").unwrap();
    assert_eq!((d.agents.as_slice(), d.edges.as_slice()), (&["a".to_string()][..], &["a->b".to_string()][..]));
    assert!(d.message.contains("transfer_to_b"));
}

#[test]
fn verify_on_a_handoff_suggests_the_supervisor_refactor() {
    let f = lint(&config::load(&common::example("ticket-reopen.yaml")).unwrap());
    let v = f.iter().find(|f| f.code == "verify-handoff").unwrap();
    assert_eq!(v.edges, ["resolution->verification"]);
    assert!(v.message.contains("supervisor refactor"));
}

#[test]
fn escalation_needs_a_human() {
    let y = format!(
        "{HEAD}agents: [{{id: a, name: A, model: {{provider: mock, name: m}}}}]\nguards: {{on_revisit: escalate}}\n"
    );
    assert!(codes(&y).contains(&"escalate-without-human".to_string()));
}

#[test]
fn examples_lint_as_the_stories_need() {
    for ex in common::examples() {
        let f = lint(&config::load(&ex).unwrap());
        assert!(f.iter().all(|f| f.severity != Severity::Error), "{}: {f:?}", ex.display());
        let name = ex.file_name().unwrap().to_str().unwrap();
        let cycle = f.iter().any(|f| f.code == "handoff-cycle");
        assert_eq!(cycle, name == "handoff-loop.yaml", "{name}: {f:?}");
    }
}

/// ticket-reopen.yaml: `resolved-meaning` is held by Resolution only, and Resolution hands off
/// to Verification with fields(ticket, status), which passes no history: the fact cannot reach
/// Verification, whatever Resolution writes. The supervisor version keeps the fact with the
/// supervisor, which never hands off: no warning.
#[test]
fn a_fact_that_cannot_cross_a_handoff_is_known_before_any_run() {
    let reopen = config::load(&common::example("ticket-reopen.yaml")).unwrap();
    let f: Vec<_> = lint(&reopen).into_iter().filter(|f| f.code == "fact-cannot-cross").collect();
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!(f[0].edges, ["resolution->verification"]);
    assert!(
        f[0].message.contains("'resolved-meaning'") && f[0].message.contains("fields(ticket,status)"),
        "{}",
        f[0].message
    );
    let supervisor = config::load(&common::example("ticket-supervisor.yaml")).unwrap();
    assert!(lint(&supervisor).iter().all(|f| f.code != "fact-cannot-cross"));

    use baton::lint::{FactCrossing, fact_flow};
    let flow = fact_flow(&reopen);
    let at = |edge: &str| flow.iter().find(|e| e.edge == edge).map(|e| e.facts[0].crossing);
    assert_eq!(at("resolution->verification"), Some(FactCrossing::Blocked));
    // Triage does not hold the fact and nothing passes it to Triage: its edge carries none.
    assert_eq!(at("triage->resolution"), None);
}

/// A holder's handoff with `none` blocks the fact for the receiver and every agent after it; a
/// history-passing policy lets it cross only if stated; a delegation keeps it with the caller.
#[test]
fn the_fact_flow_follows_policies_and_names_the_agents_after() {
    let y = format!(
        "{HEAD}agents:\n  - {{id: a, name: A, model: {{provider: mock, name: m}}}}\n  - {{id: b, name: B, model: {{provider: mock, name: m}}}}\n  - {{id: c, name: C, model: {{provider: mock, name: m}}}}\n  - {{id: w, name: W, model: {{provider: mock, name: m}}}}\nedges:\n  - {{kind: handoff, from: a, to: b, policy: none}}\n  - {{kind: handoff, from: b, to: c}}\n  - {{kind: delegation, from: a, to: w, policy: none}}\nfacts:\n  - {{id: k, text: The key fact., holders: [a]}}\n"
    );
    let t = config::parse(&y, Format::Yaml, "<t>").unwrap();
    let f: Vec<_> = lint(&t).into_iter().filter(|f| f.code == "fact-cannot-cross").collect();
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!(f[0].edges, ["a->b"]);
    assert!(f[0].message.contains("so B never sees it, nor do C"), "{}", f[0].message);
    use baton::lint::{FactCrossing, fact_flow};
    let flow = fact_flow(&t);
    let at = |edge: &str| flow.iter().find(|e| e.edge == edge).map(|e| e.facts[0].crossing);
    assert_eq!(at("a->b"), Some(FactCrossing::Blocked));
    assert_eq!(at("a->w"), Some(FactCrossing::Withheld));
    assert_eq!(at("b->c"), None, "B cannot have it, so its edge has nothing to pass");
}

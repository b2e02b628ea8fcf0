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

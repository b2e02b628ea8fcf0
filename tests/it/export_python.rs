//! The `openai-agents-py` export, imported by the real OpenAI Agents SDK (pinned in
//! tests/fidelity/requirements.txt): agents, handoffs and tools must be exactly the topology's.

use crate::common;

use baton::topology::{ContextPolicy, EdgeKind, Topology};
use common::*;
use std::process::Command;

fn inspect(t: &Topology) -> serde_json::Value {
    let dir = tempfile::tempdir().unwrap();
    let module = dir.path().join("exported.py");
    std::fs::write(&module, baton::export::to_openai_agents_py(t)).unwrap();
    let out = Command::new(python())
        .arg(root().join("tests/fidelity/inspect_export.py"))
        .arg(&module)
        .env_remove("OPENAI_API_KEY")
        .output()
        .unwrap();
    assert!(out.status.success(), "import failed for {}:\n{}", t.name, stderr(&out));
    serde_json::from_slice(&out.stdout).unwrap()
}

fn check(t: &Topology) {
    let v = inspect(t);
    assert_eq!(v["entry"], t.agent(&t.entry).unwrap().name);
    assert_eq!(v["max_turns"], t.guards.max_turns);
    let agents = v["agents"].as_array().unwrap();
    assert_eq!(agents.len(), t.agents.len());
    for (a, py) in t.agents.iter().zip(agents) {
        assert_eq!(py["name"], a.name);
        let want_handoffs: Vec<(String, String)> = t
            .edges_from(&a.id)
            .filter(|e| e.kind == EdgeKind::Handoff)
            .map(|e| (t.tool_name(e), t.agent(&e.to).unwrap().name.clone()))
            .collect();
        let got_handoffs: Vec<(String, String)> = py["handoffs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| (h["tool"].as_str().unwrap().to_owned(), h["target"].as_str().unwrap().to_owned()))
            .collect();
        assert_eq!(got_handoffs, want_handoffs, "handoffs of {}", a.name);
        let mut want_tools: Vec<String> = a.tools.iter().map(|t| t.name.clone()).collect();
        want_tools.extend(t.edges_from(&a.id).filter(|e| e.kind == EdgeKind::Delegation).map(|e| t.tool_name(e)));
        let got_tools: Vec<String> =
            py["tools"].as_array().unwrap().iter().map(|t| t.as_str().unwrap().to_owned()).collect();
        assert_eq!(got_tools, want_tools, "tools of {}", a.name);
        for tool in &a.tools {
            assert_eq!(py["tool_schemas"][&tool.name], tool.parameters, "schema of {}", tool.name);
        }
        for (e, h) in
            t.edges_from(&a.id).filter(|e| e.kind == EdgeKind::Handoff).zip(py["handoffs"].as_array().unwrap())
        {
            let filtered = matches!(
                e.policy,
                ContextPolicy::RemoveTools | ContextPolicy::LastN(_) | ContextPolicy::None | ContextPolicy::Fields(_)
            );
            assert_eq!(h["filtered"], filtered, "filter on {}", e.id);
            assert_eq!(h["nested"], e.policy == ContextPolicy::NestSummary, "nesting on {}", e.id);
            assert_eq!(h["structured"], matches!(e.policy, ContextPolicy::Fields(_)), "input type on {}", e.id);
        }
    }
}

#[test]
fn every_example_imports_into_the_real_sdk() {
    for ex in examples() {
        check(&baton::config::load(&ex).unwrap());
    }
}

#[test]
fn every_policy_maps_to_the_sdk() {
    let t = baton::config::load(&root().join("tests/data/all-policies.yaml")).unwrap();
    check(&t);
    let v = inspect(&t);
    let models: Vec<&str> = v["agents"].as_array().unwrap().iter().filter_map(|a| a["model"].as_str()).collect();
    assert!(models.contains(&"litellm/anthropic/claude-sonnet-4-5"), "{models:?}");
    assert!(models.contains(&"litellm/gemini/gemini-2.5-flash"), "{models:?}");
}

#[test]
fn the_refactored_supervisor_imports_too() {
    let t = baton::config::load(&example("ticket-reopen.yaml")).unwrap();
    let (sup, _) = baton::refactor::supervisor_refactor(&t, None).unwrap();
    check(&sup);
}

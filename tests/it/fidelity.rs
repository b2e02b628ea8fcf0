//! Fidelity to the real OpenAI Agents SDK: the same scenarios run in the SDK (pinned in
//! tests/fidelity/requirements.txt, with a fake model that records every input) and in Baton;
//! every agent's model input must match item for item (kind, role, content, order), along with
//! its instructions, the final output and the last agent.

use crate::common;

use baton::context::ItemKind;
use baton::trace::{StepKind, Trace};
use common::*;
use serde_json::{Value, json};
use std::process::Command;
use std::sync::OnceLock;

fn sdk() -> &'static Value {
    static OUT: OnceLock<Value> = OnceLock::new();
    OUT.get_or_init(|| {
        let out = Command::new(python()).arg(root().join("tests/fidelity/sdk_harness.py")).output().unwrap();
        assert!(out.status.success(), "harness failed: {}", stderr(&out));
        serde_json::from_slice(&out.stdout).unwrap()
    })
}

fn baton_run(name: &str) -> Trace {
    let t = baton::config::load(&root().join(format!("tests/fidelity/{name}.yaml"))).unwrap();
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    rt.block_on(baton::engine::run_mock(&t, Default::default())).unwrap()
}

/// Baton's model calls in the harness's normalized form.
pub(crate) fn calls(trace: &Trace) -> Vec<Value> {
    let def = trace.definition.as_ref().unwrap();
    trace
        .steps
        .iter()
        .filter(|s| s.kind == StepKind::ModelCall)
        .map(|s| {
            let agent = def.agent(&s.agent).unwrap();
            let input: Vec<Value> = s
                .context
                .iter()
                .map(|id| trace.item(*id).unwrap())
                .filter(|i| !i.kind.is_own())
                .map(|i| match i.kind {
                    ItemKind::UserMessage => json!({"type": "message", "role": "user", "content": i.text}),
                    ItemKind::AssistantMessage => json!({"type": "message", "role": "assistant", "content": i.text}),
                    ItemKind::Reasoning => json!({"type": "reasoning", "content": i.text}),
                    ItemKind::ToolCall | ItemKind::TransferCall => json!({
                        "type": "function_call", "name": i.name, "arguments": i.arguments, "call_id": i.call_id
                    }),
                    ItemKind::ToolResult | ItemKind::TransferOutput => {
                        json!({"type": "function_call_output", "call_id": i.call_id, "output": i.text})
                    }
                    ItemKind::Instructions | ItemKind::PinnedFact => unreachable!(),
                })
                .collect();
            // The system prompt the engine actually sends, not the configured instructions.
            json!({"agent": agent.name, "instructions": baton::engine::system_prompt(def, &s.agent), "input": input})
        })
        .collect()
}

fn check(name: &str) {
    let expected = &sdk()[name];
    assert!(expected.is_object(), "the harness has no scenario {name}");
    let trace = baton_run(name);
    let got = calls(&trace);
    let want = expected["calls"].as_array().unwrap();
    assert_eq!(got.len(), want.len(), "{name}: number of model calls");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert_eq!(g, w, "{name}: model call {i} differs\n baton: {g:#}\n   sdk: {w:#}");
    }
    assert_eq!(trace.outcome.final_output.as_deref(), expected["final_output"].as_str(), "{name}: final output");
    let last = trace.definition.as_ref().unwrap().agent(&trace.outcome.owner).unwrap().name.clone();
    assert_eq!(last, expected["last_agent"].as_str().unwrap(), "{name}: last agent");
}

#[test]
fn full_history_crosses_a_plain_handoff() {
    check("full");
}

#[test]
fn remove_tools_matches_remove_all_tools() {
    check("remove_tools");
}

#[test]
fn nest_summary_matches_nested_handoff_history() {
    check("nest_summary");
}

#[test]
fn delegation_matches_as_tool() {
    check("as_tool");
}

#[test]
fn only_the_first_of_two_handoffs_runs() {
    check("two_handoffs");
}

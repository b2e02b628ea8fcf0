//! Multi-agent traces of LangGraph, CrewAI, Strands, LlamaIndex and smolagents, each made by the
//! real package with scripted in-process models that recorded what every call received
//! (`scripts/fixtures/*_fixtures.py`, `tests/import/fixtures/otlp_<framework>_*.expected.json`).
//! Baton's import must match that record: the agents and who made each model call, every
//! transfer's kind and ends, what each receiver's model got (nothing missing, nothing invented)
//! and, at a delegation's return, what the worker left behind. Where the file holds no content,
//! the receiver side stays empty and a note says so.

use crate::common::root;
use baton::context::ItemKind;
use baton::import::import_file;
use baton::topology::snake_case;
use baton::trace::{StepKind, Trace};
use serde_json::Value;

fn fixture(name: &str) -> std::path::PathBuf {
    root().join("tests/import/fixtures").join(name)
}

fn import(name: &str) -> Trace {
    let mut out = vec![];
    import_file(&fixture(name), None, None, None, &mut |t, _| {
        out.push(t);
        Ok(())
    })
    .unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(out.len(), 1, "{name}: one run");
    out.remove(0)
}

fn expected(name: &str) -> Value {
    let p = fixture(&name.replace(".json", ".expected.json"));
    serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap()
}

fn norm(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase()
}

/// The texts of an expected message list (text parts, tool results), and its calls by id.
fn expected_parts(messages: &Value) -> (Vec<String>, Vec<(String, String)>) {
    let mut texts = vec![];
    let mut calls = vec![];
    for m in messages.as_array().into_iter().flatten() {
        for p in m["parts"].as_array().into_iter().flatten() {
            match p["type"].as_str() {
                Some("text") => texts.push(norm(p["text"].as_str().unwrap_or_default())),
                Some("tool_call") => calls
                    .push((p["name"].as_str().unwrap_or_default().into(), p["id"].as_str().unwrap_or_default().into())),
                Some("tool_result") => {
                    let r = match &p["result"] {
                        Value::String(s) => s.clone(),
                        Value::Array(parts) => {
                            parts.iter().filter_map(|x| x["text"].as_str()).collect::<Vec<_>>().join("\n")
                        }
                        other => other.to_string(),
                    };
                    texts.push(norm(&r));
                }
                _ => {}
            }
        }
    }
    (texts.into_iter().filter(|t| !t.is_empty()).collect(), calls)
}

fn check(name: &str) {
    check_with(name, true);
}

/// `complete`: the file records everything each receiver's model got; else only part of it
/// (what Baton shows must still all have been sent).
fn check_with(name: &str, complete: bool) {
    let t = import(name);
    let e = expected(name);
    let notes = t.source.as_ref().unwrap()["notes"].to_string();
    // Agents by name (a framework may give them ids of its own: Agent Framework's uuids).
    let def = t.definition.as_ref().unwrap();
    let who = |id: &str| snake_case(&def.agent(id).map(|a| a.name.clone()).unwrap_or_else(|| id.to_owned()));
    // Transfers: kind, from, to.
    let got: Vec<(String, String, String)> =
        t.transfers.iter().map(|x| (x.kind.as_str().into(), who(&x.from), who(&x.to))).collect();
    let want: Vec<(String, String, String)> = e["transfers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| {
            let s = |k: &str| snake_case(x[k].as_str().unwrap());
            (x["kind"].as_str().unwrap().into(), s("from"), s("to"))
        })
        .collect();
    assert_eq!(got, want, "{name}: transfers");
    // Who made each model call, in order.
    let calls: Vec<String> = t.steps.iter().filter(|s| s.kind == StepKind::ModelCall).map(|s| who(&s.agent)).collect();
    let want_calls: Vec<String> =
        e["model_calls"].as_array().unwrap().iter().map(|m| snake_case(m["agent"].as_str().unwrap())).collect();
    // A file that records no model calls (a task-level trace) shows none, and says what it saw.
    if calls.is_empty() {
        assert!(
            notes.contains("saw the attribute families") || notes.contains("no message content"),
            "{name}: {notes}"
        );
        return;
    }
    assert_eq!(calls, want_calls, "{name}: model call owners");
    let content = !name.contains("nocontent");
    for (i, x) in e["transfers"].as_array().unwrap().iter().enumerate() {
        let tr = &t.transfers[i];
        let history: Vec<_> =
            tr.receiver.iter().map(|id| t.item(*id).unwrap()).filter(|it| !it.kind.is_own()).collect();
        if !content {
            assert!(history.is_empty(), "{name}: transfer {i} invents a receiver input");
            assert!(notes.contains("not recorded") || notes.contains("content capture was off"), "{name}: {notes}");
            continue;
        }
        let (texts, calls) = expected_parts(&x["receiver_first_call"]["messages"]);
        let seen: Vec<String> = history.iter().map(|it| norm(&it.text)).filter(|s| !s.is_empty()).collect();
        // Nothing missing: every text the receiver's model got is an item of its input.
        for want in texts.iter().filter(|_| complete) {
            assert!(
                seen.iter().any(|s| s.contains(want.as_str()) || want.contains(s.as_str())),
                "{name}: transfer {i}: '{want}' not in the receiver's input\n{seen:#?}"
            );
        }
        for (tool, id) in calls.iter().filter(|_| complete) {
            assert!(
                history.iter().any(|it| it.kind.is_call()
                    && it.name.as_deref() == Some(tool)
                    && it.call_id.as_deref() == Some(id.as_str())),
                "{name}: transfer {i}: call {tool} {id} not in the receiver's input"
            );
        }
        // Nothing invented: every text item of the input was sent (a message's text blocks are
        // one item).
        let all = texts.join(" ");
        for s in &seen {
            let parts_sent = texts.iter().filter(|t| s.contains(t.as_str())).map(|t| t.len()).sum::<usize>();
            assert!(
                all.contains(s.as_str()) || parts_sent + 8 * texts.len() >= s.len(),
                "{name}: transfer {i}: '{s}' was never sent\n{texts:#?}"
            );
        }
        // At a delegation's return: the worker's tool calls that did not come back are left behind.
        if let Some(lb) = x["returns"]["left_behind"].as_array() {
            let (_, left_calls) = expected_parts(&Value::Array(lb.clone()));
            let back = tr.back.as_ref().unwrap_or_else(|| panic!("{name}: transfer {i} records no return"));
            for (tool, id) in &left_calls {
                // As a call, or as the text a framework that sends calls as text wrote (smolagents).
                assert!(
                    back.left_behind.iter().map(|id| t.item(*id).unwrap()).any(|it| (it.kind == ItemKind::ToolCall
                        && it.name.as_deref() == Some(tool)
                        && it.call_id.as_deref() == Some(id.as_str()))
                        || (it.text.contains(id.as_str()) && it.text.contains(tool.as_str()))),
                    "{name}: transfer {i}: {tool} {id} is not shown as left behind"
                );
            }
            if lb.is_empty() {
                let kept: Vec<_> = back
                    .left_behind
                    .iter()
                    .map(|id| t.item(*id).unwrap())
                    .filter(|it| matches!(it.kind, ItemKind::ToolCall | ItemKind::ToolResult))
                    .collect();
                assert!(kept.is_empty(), "{name}: transfer {i}: nothing was left behind, Baton shows {kept:?}");
            }
        }
    }
}

#[test]
fn langgraph_swarm_supervisor_command_and_agent_as_tool_match_what_langgraph_did() {
    for f in [
        "otlp_langgraph_swarm.json",
        "otlp_langgraph_swarm_genai.json",
        "otlp_langgraph_swarm_langsmith.json",
        "otlp_langgraph_swarm_nocontent.json",
        "otlp_langgraph_supervisor_last.json",
        "otlp_langgraph_supervisor_full.json",
        "otlp_langgraph_command_parent.json",
        "otlp_langgraph_agent_as_tool.json",
    ] {
        check(f);
    }
}

#[test]
fn strands_swarm_graph_and_agent_as_tool_match_what_strands_did() {
    for f in [
        "otlp_strands_swarm.json",
        "otlp_strands_swarm_latest.json",
        "otlp_strands_swarm_latest_attrs.json",
        "otlp_strands_swarm_nocontent.json",
        "otlp_strands_graph.json",
        "otlp_strands_graph_latest.json",
        "otlp_strands_as_tool.json",
        "otlp_strands_as_tool_latest.json",
    ] {
        check(f);
    }
}

#[test]
fn llama_index_smolagents_and_crewai_match_what_they_did() {
    for f in [
        "otlp_llama_index_handoff.json",
        "otlp_smolagents_managed.json",
        "otlp_smolagents_managed_nocontent.json",
        "otlp_crewai_sequential_events.json",
        "otlp_crewai_sequential_events_nocontent.json",
        "otlp_crewai_hierarchical_events.json",
        "otlp_crewai_hierarchical_events_nocontent.json",
        "otlp_crewai_sequential.json",
    ] {
        check(f);
    }
}

#[test]
fn agent_framework_handoff_group_chat_magentic_and_agent_as_tool_match_what_it_did() {
    for f in [
        "otlp_agent_framework_handoff.json",
        "otlp_agent_framework_handoff_nocontent.json",
        "otlp_agent_framework_groupchat.json",
        "otlp_agent_framework_groupchat_nocontent.json",
        "otlp_agent_framework_magentic.json",
        "otlp_agent_framework_magentic_nocontent.json",
        "otlp_agent_framework_as_tool.json",
        "otlp_agent_framework_as_tool_nocontent.json",
    ] {
        check(f);
    }
}

/// Semantic Kernel writes each model call's input to OTel logs, not spans, and starts a trace at
/// every runtime send: the traces of one orchestration are one run (by the runtime's topic), the
/// handoff is read from `Handoff-transfer_to_<agent>`, and each receiver shows what its agent
/// span says it was given — all of it sent.
#[test]
fn semantic_kernel_handoff_and_group_chat_match_what_it_did() {
    for f in [
        "otlp_semantic_kernel_handoff.json",
        "otlp_semantic_kernel_handoff_nocontent.json",
        "otlp_semantic_kernel_groupchat.json",
        "otlp_semantic_kernel_groupchat_nocontent.json",
    ] {
        check_with(f, false);
    }
}

/// No agent is ever a router or wrapper node: the agents are the ones the framework defines.
#[test]
fn agents_are_the_frameworks_own_never_router_nodes() {
    for f in ["otlp_langgraph_swarm.json", "otlp_langgraph_supervisor_last.json", "otlp_langgraph_swarm_genai.json"] {
        let t = import(f);
        let agents: Vec<&str> = t.definition.as_ref().unwrap().agents.iter().map(|a| a.id.as_str()).collect();
        let e = expected(f);
        let mut want: Vec<String> =
            e["agents"].as_array().unwrap().iter().map(|a| snake_case(a.as_str().unwrap())).collect();
        let mut got: Vec<String> = agents.iter().map(|a| a.to_string()).collect();
        want.sort();
        got.sort();
        assert_eq!(got, want, "{f}");
    }
}

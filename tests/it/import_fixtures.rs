//! Importing traces written by the real frameworks (tests/import/fixtures, made by
//! scripts/make_fixtures.py with openai-agents, google-adk, the OpenTelemetry SDK and the
//! OpenInference instrumentor): the transfers and each receiver's input must match what the
//! producing framework actually passed (the `.expected.json` ground truth); where the format
//! does not record it, the importer must say so instead of inventing a diff.

use crate::common;

use baton::context::ItemKind;
use baton::import::import_file;
use baton::topology::snake_case;
use baton::trace::Trace;
use common::*;
use serde_json::Value;
use std::path::PathBuf;

fn fixture(name: &str) -> PathBuf {
    root().join("tests/import/fixtures").join(name)
}

fn import(name: &str) -> Vec<Trace> {
    let mut out = vec![];
    import_file(&fixture(name), None, None, None, &mut |t, _| {
        out.push(t);
        Ok(())
    })
    .unwrap_or_else(|e| panic!("{name}: {e}"));
    out
}

fn expected(name: &str) -> Value {
    let stem = name.strip_suffix(".json").unwrap_or(name);
    let p = fixture(&format!("{stem}.expected.json"));
    serde_json::from_str(&std::fs::read_to_string(&p).unwrap_or_else(|_| panic!("{}", p.display()))).unwrap()
}

/// A message list as comparable atoms: (role, text) per message, calls by name and id,
/// results by id and text.
fn atoms_of_expected(messages: &Value) -> Vec<String> {
    let mut out = vec![];
    for m in messages.as_array().unwrap() {
        let role = m["role"].as_str().unwrap();
        let texts: Vec<&str> = m["parts"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["type"] == "text")
            .filter_map(|p| p["text"].as_str())
            .collect();
        if !texts.is_empty() {
            out.push(format!("{role}: {}", texts.join("\n")));
        }
        for p in m["parts"].as_array().unwrap() {
            match p["type"].as_str() {
                Some("tool_call") => out.push(format!(
                    "call {} {} {}",
                    p["name"].as_str().unwrap(),
                    p["id"].as_str().unwrap_or(""),
                    canonical_args(&p["arguments"])
                )),
                Some("tool_result") => out.push(format!(
                    "result {} {}",
                    p["id"].as_str().unwrap_or(""),
                    p["result"].as_str().map(str::to_owned).unwrap_or_else(|| p["result"].to_string())
                )),
                _ => {}
            }
        }
    }
    out
}

/// Tool-call arguments in one canonical JSON form (keys sorted, no spaces), from an object or
/// from the JSON text a model wrote; no arguments and `{}` are the same.
fn canonical_args(v: &Value) -> String {
    let parsed = match v {
        Value::String(s) if s.trim().is_empty() => Value::Object(Default::default()),
        Value::String(s) => serde_json::from_str(s).unwrap_or_else(|_| v.clone()),
        Value::Null => Value::Object(Default::default()),
        other => other.clone(),
    };
    parsed.to_string()
}

fn atoms_of_receiver(t: &Trace, idx: usize) -> Vec<String> {
    t.transfers[idx]
        .receiver
        .iter()
        .map(|id| t.item(*id).unwrap())
        .filter_map(|i| match i.kind {
            ItemKind::Instructions => Some(format!("system: {}", i.text)),
            ItemKind::UserMessage => Some(format!("user: {}", i.text)),
            ItemKind::AssistantMessage => Some(format!("assistant: {}", i.text)),
            ItemKind::ToolCall | ItemKind::TransferCall => Some(format!(
                "call {} {} {}",
                i.name.as_deref().unwrap_or(""),
                i.call_id.as_deref().unwrap_or(""),
                canonical_args(&Value::String(i.arguments.clone().unwrap_or_default()))
            )),
            ItemKind::ToolResult | ItemKind::TransferOutput => {
                Some(format!("result {} {}", i.call_id.as_deref().unwrap_or(""), i.text))
            }
            _ => None,
        })
        .collect()
}

/// What a fixture's receiver inputs are compared with.
#[derive(Clone, Copy, PartialEq)]
enum Truth {
    /// What the file says it recorded (`file_view`), or "not recorded".
    FileView,
    /// Exactly what the framework's fake model received.
    Exact,
    /// A lossy instrumentation: every item Baton shows was really sent, none invented.
    Subset,
}

/// Transfers, final output and (when the file records it) each receiver's input.
fn check(name: &str, mode: Truth) {
    let runs = import(name);
    let e = expected(name);
    assert_eq!(runs.len(), 1, "{name}: one run");
    let t = &runs[0];
    let got: Vec<(String, String, String)> =
        t.transfers.iter().map(|x| (x.kind.as_str().to_owned(), x.from.clone(), x.to.clone())).collect();
    let want: Vec<(String, String, String)> = e["transfers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| {
            (
                x["kind"].as_str().unwrap().to_owned(),
                snake_case(x["from"].as_str().unwrap()),
                snake_case(x["to"].as_str().unwrap()),
            )
        })
        .collect();
    assert_eq!(got, want, "{name}: transfers");
    if e["final_output"].is_string() && t.outcome.final_output.is_some() {
        assert_eq!(t.outcome.final_output.as_deref(), e["final_output"].as_str(), "{name}: final output");
    }
    let notes = t.source.as_ref().unwrap()["notes"].to_string();
    let transfers = e["transfers"].as_array().unwrap();
    for (i, x) in transfers.iter().enumerate() {
        let view = &x["file_view"];
        // A receiver with no model call of its own (an ADK workflow agent) passes the turn on at
        // once: what it received is what the agent it passes to received.
        let first_call = match transfers.get(i + 1) {
            Some(next) if x["receiver_first_call"].is_null() && next["from"] == x["to"] => &next["receiver_first_call"],
            _ => &x["receiver_first_call"],
        };
        let truth = (mode != Truth::FileView).then(|| &first_call["messages"]);
        let messages = match (view["available"].as_bool(), view["matches_ground_truth"].as_bool(), truth) {
            (_, _, Some(m)) => m,
            (Some(true), Some(true), _) => &view["messages"],
            (Some(true), _, _) => &view["messages"],
            _ => {
                // Not recorded: no invented receiver side, and a note that says so.
                let receiver_history =
                    t.transfers[i].receiver.iter().filter(|id| !t.item(**id).unwrap().kind.is_own()).count();
                assert_eq!(receiver_history, 0, "{name}: transfer {i} must not invent a receiver input");
                assert!(notes.contains("not recorded") || notes.contains("no message content"), "{name}: {notes}");
                continue;
            }
        };
        let (mut got, mut want) = (atoms_of_receiver(t, i), atoms_of_expected(messages));
        // Instructions are compared where the framework passed them as messages too (pydantic-ai:
        // a history's system prompt part, beside the agent's own `instructions`, which come
        // first); elsewhere they travel beside the messages, and sessions do not record them.
        if want.iter().any(|a| a.starts_with("system: ")) {
            if let Some(sys) = first_call["system"].as_str().filter(|s| !s.is_empty()) {
                want.insert(0, format!("system: {sys}"));
            }
        } else {
            got.retain(|a| !a.starts_with("system: "));
        }
        if mode == Truth::Subset {
            assert!(!got.is_empty(), "{name}: transfer {i}: the file records part of the input");
            for atom in &got {
                assert!(want.contains(atom), "{name}: transfer {i}: '{atom}' was never sent\n{want:#?}");
            }
            assert!(
                notes.to_lowercase().contains("lossy") || notes.contains("drops") || notes.contains("no user message"),
                "{name}: {notes}"
            );
            continue;
        }
        if name.contains("_none") {
            // The session does not record include_contents='none': the importer rebuilds the
            // default (and says so); what the 'none' agent saw is the current turn, its tail.
            assert!(notes.contains("include_contents"), "{name}: {notes}");
            assert!(
                got.ends_with(&want),
                "{name}: the current turn is the tail of the rebuilt input\n{got:#?}\n{want:#?}"
            );
            continue;
        }
        assert_eq!(got, want, "{name}: receiver input of transfer {i}");
    }
}

#[test]
fn openai_agents_responses_model_exports_say_what_they_lack() {
    for f in [
        "openai_agents_handoff.json",
        "openai_agents_handoff.ingest.json",
        "openai_agents_handoff.jsonl",
        "openai_agents_astool.jsonl",
    ] {
        check(f, Truth::FileView);
    }
}

#[test]
fn openai_agents_chat_completions_exports_match_what_the_sdk_passed() {
    for f in ["openai_agents_handoff_chatcmpl.jsonl", "openai_agents_astool_chatcmpl.jsonl"] {
        check(f, Truth::FileView);
    }
}

#[test]
fn otlp_genai_files_match_what_the_app_passed() {
    for f in ["otlp_genai.json", "otlp_genai.jsonl", "otlp_genai_legacy.json", "otlp_adk_genai.json"] {
        check(f, Truth::FileView);
    }
}

#[test]
fn openinference_and_contrib_instrumentations_are_read() {
    check("otlp_openinference.json", Truth::Exact);
    check("otlp_genai_openai_agents.json", Truth::Subset);
}

#[test]
fn adk_sessions_rebuild_what_adk_sent_the_model() {
    for f in ["adk_session.json", "adk_session.camel.json", "adk_session_none.json", "adk_session_v1.json"] {
        check(f, Truth::Exact);
    }
}

/// An ADK workflow (a SequentialAgent reached by `transfer_to_agent`) and an `AgentTool`
/// delegation, from the session file and from ADK's own telemetry.
#[test]
fn adk_workflows_and_agent_tools_are_read_as_transfers() {
    check("adk_workflow.session.json", Truth::Exact);
    check("otlp_adk_workflow.json", Truth::Exact);
}

/// ADK transfers down to a sub-agent, across to a peer and back up to the parent: each
/// receiver's first request (the parent's second one, its own turn kept as its own) is rebuilt
/// exactly as google-adk 2.13 sent it.
#[test]
fn adk_transfers_to_peers_and_parents_rebuild_what_adk_sent() {
    check("adk_peers.session.json", Truth::Exact);
}

/// pydantic-ai's own spans: a delegation through a tool (`billing.run` inside `ask_billing`) and an
/// application-level hand-over (`refunds` run on support's `all_messages()`).
#[test]
fn pydantic_ai_delegation_and_hand_over_are_read() {
    check("otlp_pydantic_ai.json", Truth::Exact);
}

#[test]
fn edge_case_files_get_clear_errors_or_notes() {
    let run = |name: &str| {
        let mut n = 0;
        let r = import_file(&fixture(name), None, None, None, &mut |_, _| {
            n += 1;
            Ok(())
        });
        (r.map_err(|e| e.to_string()), n)
    };
    let (r, _) = run("edge_empty_array.json");
    assert!(r.unwrap_err().contains("empty JSON array"));
    let (r, _) = run("edge_truncated.jsonl");
    let e = r.unwrap_err();
    assert!(e.contains("line 4") && e.contains("truncated"), "{e}");
    let (r, _) = run("edge_mixed_formats.jsonl");
    let e = r.unwrap_err();
    assert!(e.contains("line 3") && e.contains("otlp"), "{e}");
    let (r, _) = run("edge_non_utf8.jsonl");
    let e = r.unwrap_err();
    assert!(e.contains("line 2"), "{e}");
    let (r, _) = run("edge_deep_nesting.json");
    let e = r.unwrap_err();
    assert!(e.contains("recursion limit") || e.contains("line 1"), "{e}");
    let (r, n) = run("edge_missing_parent.json");
    assert!(r.is_ok() && n >= 1, "{r:?}");
    let (r, n) = run("edge_no_content.json");
    assert!(r.is_ok() && n >= 1, "{r:?}");
    let (r, n) = run("edge_adk_unknown_fields.json");
    assert!(r.is_ok() && n == 1, "{r:?}");
}

/// What `adk api_server` answers (`/run`: a bare array of events; `/run_sse`: `data:` lines),
/// recorded from the real server with a fake model. The answer holds only the events the run
/// produced, not the user's message: every item Baton shows was sent, and it says what is missing.
#[test]
fn adk_api_server_responses_rebuild_what_adk_sent_the_model() {
    check("adk_api_run.json", Truth::Subset);
    check("adk_api_run_sse.txt", Truth::Subset);
}

/// ADK quotes another agent's turn in a "For context:" user message, tool results written the
/// way Python prints them (`{'result': None}`, per `contents.py`). The quote is tied to what it
/// quotes when it is built, so a `{"result": null}` answer is carried (transformed) into the
/// receiver's context, not reported dropped plus a new, unrelated message.
#[test]
fn an_adk_quote_is_linked_to_what_it_quotes() {
    let session = serde_json::json!({
        "id": "s1", "appName": "shop", "userId": "u", "state": {}, "lastUpdateTime": 3.0,
        "events": [
            {"invocationId": "i1", "author": "user", "timestamp": 1.0,
             "content": {"role": "user", "parts": [{"text": "Where is order 7?"}]}},
            {"invocationId": "i1", "author": "lookup", "timestamp": 1.1,
             "content": {"role": "model", "parts": [{"functionCall": {"id": "c1", "name": "find_order", "args": {"order": 7}}}]}},
            {"invocationId": "i1", "author": "lookup", "timestamp": 1.2,
             "content": {"role": "user", "parts": [{"functionResponse": {"id": "c1", "name": "find_order", "response": {"result": null}}}]}},
            {"invocationId": "i1", "author": "lookup", "timestamp": 1.3,
             "content": {"role": "model", "parts": [{"functionCall": {"id": "c2", "name": "transfer_to_agent", "args": {"agent_name": "support"}}}]}},
            {"invocationId": "i1", "author": "lookup", "timestamp": 1.4, "actions": {"transferToAgent": "support"},
             "content": {"role": "user", "parts": [{"functionResponse": {"id": "c2", "name": "transfer_to_agent", "response": {"result": null}}}]}},
            {"invocationId": "i1", "author": "support", "timestamp": 2.0,
             "content": {"role": "model", "parts": [{"text": "I could not find order 7; I have opened a ticket."}]}}
        ]
    });
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("shop.session.json");
    std::fs::write(&f, session.to_string()).unwrap();
    let mut runs = vec![];
    import_file(&f, None, None, None, &mut |t, _| {
        runs.push(t);
        Ok(())
    })
    .unwrap();
    let t = &runs[0];
    let x = t.transfers.iter().find(|x| x.to == "support").expect("a handoff to support");
    let result = *x
        .sender
        .iter()
        .find(|id| {
            let i = t.item(**id).unwrap();
            i.kind == ItemKind::ToolResult && i.call_id.as_deref() == Some("c1")
        })
        .expect("lookup holds the find_order result");
    assert!(!x.dropped.contains(&result), "the null result is not dropped");
    let quote = x.transformed.iter().map(|id| t.item(*id).unwrap()).find(|i| i.derived_from.contains(&result));
    let quote = quote.expect("a receiver item is made from the null result");
    assert!(
        quote.text.contains("`find_order` tool returned result:") && quote.text.contains("{'result': None}"),
        "{}",
        quote.text
    );
}

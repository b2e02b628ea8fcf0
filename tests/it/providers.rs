//! Real providers against loopback servers that speak their exact wire formats: request shapes
//! and headers, tool calls both ways, streaming, faults and retries, mixed providers in one
//! topology, and a canary key that must never leave the request headers.

use crate::common;
use crate::common::server;

use baton::engine::{RunOptions, run};
use baton::providers::anthropic::Anthropic;
use baton::providers::gemini::Gemini;
use baton::providers::http::{Endpoint, HttpPolicy, client};
use baton::providers::openai_chat::OpenAiChat;
use baton::providers::openai_responses::OpenAiResponses;
use baton::providers::{Model, ModelError, ModelSource};
use baton::topology::{Agent, Topology};
use baton::trace::{OutcomeStatus, Trace};
use common::*;
use serde_json::{Value, json};
use server::{MockServer, Reply};
use std::collections::HashMap;
use std::time::{Duration, Instant};
use tokio_util::sync::CancellationToken;

const KEY: &str = "sk-test-key-123";

fn topology() -> Topology {
    baton::config::parse(
        r#"
version: 1
name: wire
entry: triage
agents:
  - { id: triage, name: Triage, instructions: Route the request., model: { provider: openai, name: m } }
  - id: billing
    name: Billing
    instructions: Refund charges.
    model: { provider: openai, name: m }
    tools:
      - name: issue_refund
        description: Refund a charge.
        parameters: { type: object, properties: { charge_id: { type: string } }, required: [charge_id], additionalProperties: false }
        mock_result: refunded ch_1
edges: [{ kind: handoff, from: triage, to: billing }]
scenarios: [{ name: s, input: I was charged twice. }]
"#,
        baton::config::Format::Yaml,
        "<test>",
    )
    .unwrap()
}

fn policy() -> HttpPolicy {
    HttpPolicy {
        max_retries: 2,
        initial_backoff: Duration::from_millis(20),
        read_timeout: Duration::from_millis(800),
        ..HttpPolicy::default()
    }
}

struct Fixed(HashMap<String, Box<dyn Model>>);
impl ModelSource for Fixed {
    fn model_for(&self, agent: &Agent) -> Result<&dyn Model, ModelError> {
        Ok(self.0.get(&agent.id).unwrap().as_ref())
    }
}

async fn run_all(models: Vec<(&str, Box<dyn Model>)>) -> Trace {
    let t = topology();
    let src = Fixed(models.into_iter().map(|(a, m)| (a.to_string(), m)).collect());
    run(&t, &src, RunOptions::default()).await.unwrap()
}

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap()
}

/// An endpoint on the loopback server with the test key and the fast retry policy.
fn ep(label: &'static str, base: String, model: &str, stream: bool) -> Endpoint {
    Endpoint {
        label,
        base_url: base,
        key: Some(KEY.into()),
        model: model.into(),
        temperature: None,
        top_p: None,
        max_tokens: None,
        stream,
        policy: policy(),
        client: client(&policy()),
        cancel: CancellationToken::new(),
    }
}

fn chat(base: &str, stream: bool) -> Box<dyn Model> {
    let mut e = ep("openai", format!("{base}/v1"), "gpt-test", stream);
    e.temperature = Some(0.2);
    e.max_tokens = Some(99);
    Box::new(OpenAiChat { ep: e, compatible: false, tool_choice: None })
}

fn chat_msg(content: Option<&str>, calls: &[(&str, &str, &str)], usage: (u64, u64)) -> Value {
    let tc: Vec<Value> = calls
        .iter()
        .map(|(id, n, a)| json!({"id": id, "type": "function", "function": {"name": n, "arguments": a}}))
        .collect();
    let mut msg = json!({"role": "assistant", "content": content});
    if !tc.is_empty() {
        msg["tool_calls"] = json!(tc);
    }
    json!({
        "id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt-test",
        "choices": [{"index": 0, "message": msg, "finish_reason": if tc.is_empty() { "stop" } else { "tool_calls" }}],
        "usage": {"prompt_tokens": usage.0, "completion_tokens": usage.1, "total_tokens": usage.0 + usage.1}
    })
}

fn final_text(t: &Trace) -> &str {
    t.outcome.final_output.as_deref().unwrap_or("")
}

#[test]
fn openai_chat_round_trip_with_tool_calls() {
    rt().block_on(async {
        let s = MockServer::start().await;
        s.push(Reply::json(chat_msg(None, &[("call_t1", "transfer_to_billing", "{}")], (50, 7))))
            .push(Reply::json(chat_msg(None, &[("call_r1", "issue_refund", r#"{"charge_id":"ch_1"}"#)], (80, 9))))
            .push(Reply::json(chat_msg(Some("Refunded."), &[], (120, 3))));
        let trace = run_all(vec![("triage", chat(&s.base, false)), ("billing", chat(&s.base, false))]).await;
        assert_eq!(trace.outcome.status, OutcomeStatus::Completed, "{:?}", trace.outcome);
        assert_eq!(final_text(&trace), "Refunded.");
        assert_eq!((trace.usage.input_tokens, trace.usage.output_tokens), (250, 19), "the provider's own figures");
        let reqs = s.requests();
        assert_eq!(reqs.len(), 3);
        assert_eq!(reqs[0].path, "/v1/chat/completions");
        assert_eq!(reqs[0].headers["authorization"], format!("Bearer {KEY}"));
        let b0 = &reqs[0].body;
        assert_eq!(b0["model"], "gpt-test");
        assert_eq!(b0["temperature"], 0.2);
        assert_eq!(b0["max_tokens"], 99);
        assert_eq!(b0["messages"][0], json!({"role": "system", "content": "Route the request."}));
        assert_eq!(b0["messages"][1], json!({"role": "user", "content": "I was charged twice."}));
        assert_eq!(b0["tools"][0]["type"], "function");
        assert_eq!(b0["tools"][0]["function"]["name"], "transfer_to_billing");
        assert_eq!(b0["tools"][0]["function"]["parameters"]["type"], "object");
        // Billing's second call sees the handoff and its own tool round trip.
        let m = reqs[2].body["messages"].as_array().unwrap();
        assert_eq!(m[0], json!({"role": "system", "content": "Refund charges."}));
        assert_eq!(m[2]["tool_calls"][0]["function"]["name"], "transfer_to_billing");
        assert_eq!(m[3], json!({"role": "tool", "tool_call_id": "call_t1", "content": "{\"assistant\": \"Billing\"}"}));
        assert_eq!(m[4]["tool_calls"][0]["id"], "call_r1");
        assert_eq!(m[5], json!({"role": "tool", "tool_call_id": "call_r1", "content": "refunded ch_1"}));
        assert_eq!(reqs[1].body["tools"][0]["function"]["parameters"]["required"], json!(["charge_id"]));
        // Bodies are in the trace; the key is not.
        let text = serde_json::to_string(&trace).unwrap();
        assert!(text.contains("chatcmpl-1") && !text.contains(KEY));
        // Items carry what the SDK's Chat Completions converter gives the items it builds
        // (chatcmpl_converter.py: FAKE_RESPONSES_ID; messages "completed", calls no status),
        // which its nested handoff history prints.
        let answer = trace.items.iter().find(|i| i.text == "Refunded.").unwrap();
        assert_eq!((answer.provider_id.as_deref(), answer.status.as_deref()), (Some("__fake_id__"), Some("completed")));
        let call = trace.items.iter().find(|i| i.call_id.as_deref() == Some("call_r1") && i.name.is_some()).unwrap();
        assert_eq!((call.provider_id.as_deref(), call.status.as_deref()), (Some("__fake_id__"), None));
    });
}

fn chunk(delta: Value) -> String {
    json!({"id": "c", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": delta, "finish_reason": null}]}).to_string()
}

#[test]
fn openai_chat_streaming_joins_tool_call_deltas_by_index() {
    rt().block_on(async {
        let s = MockServer::start().await;
        s.push(Reply::sse(&[
            ("", chunk(json!({"role": "assistant", "content": null, "tool_calls": [{"index": 0, "id": "call_s1", "type": "function", "function": {"name": "transfer_to_billing", "arguments": ""}}]}))),
            ("", chunk(json!({"tool_calls": [{"index": 0, "function": {"arguments": "{}"}}]}))),
            ("", json!({"choices": [], "usage": {"prompt_tokens": 10, "completion_tokens": 3}}).to_string()),
            ("", "[DONE]".into()),
        ]))
        .push(Reply::sse(&[
            ("", chunk(json!({"tool_calls": [{"index": 0, "id": "call_s2", "type": "function", "function": {"name": "issue_refund", "arguments": "{\"charge"}}]}))),
            ("", chunk(json!({"tool_calls": [{"index": 0, "function": {"arguments": "_id\":\"ch_1\"}"}}]}))),
            ("", "[DONE]".into()),
        ]))
        .push(Reply::sse(&[("", chunk(json!({"content": "Refun"}))), ("", chunk(json!({"content": "ded."}))), ("", "[DONE]".into())]));
        let trace = run_all(vec![("triage", chat(&s.base, true)), ("billing", chat(&s.base, true))]).await;
        assert_eq!(final_text(&trace), "Refunded.", "{:?}", trace.outcome);
        let call = trace.items.iter().find(|i| i.name.as_deref() == Some("issue_refund")).unwrap();
        assert_eq!(call.arguments.as_deref(), Some(r#"{"charge_id":"ch_1"}"#));
        assert_eq!(call.call_id.as_deref(), Some("call_s2"));
        assert_eq!(trace.usage.input_tokens, 10);
        let b = &s.requests()[0].body;
        assert_eq!((b["stream"].clone(), b["stream_options"]["include_usage"].clone()), (json!(true), json!(true)));
    });
}

fn responses(base: &str, stream: bool) -> Box<dyn Model> {
    let mut e = ep("openai-responses", format!("{base}/v1"), "gpt-r", stream);
    e.max_tokens = Some(64);
    Box::new(OpenAiResponses { ep: e })
}

fn resp_body(output: Value) -> Value {
    json!({"id": "resp_1", "object": "response", "status": "completed", "output": output, "usage": {"input_tokens": 11, "output_tokens": 4}})
}

#[test]
fn openai_responses_round_trip_and_streaming() {
    rt().block_on(async {
        let s = MockServer::start().await;
        s.push(Reply::json(resp_body(json!([
            {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "billing issue"}]},
            {"type": "function_call", "id": "fc_1", "call_id": "call_h", "name": "transfer_to_billing", "arguments": "{}"}
        ]))));
        // Billing streams: a function call built from argument deltas, then a text answer.
        s.push(Reply::sse(&[
            ("response.created", json!({"type": "response.created", "response": {"id": "resp_2"}}).to_string()),
            ("response.output_item.added", json!({"type": "response.output_item.added", "output_index": 0, "item": {"type": "function_call", "id": "fc_2", "call_id": "call_r", "name": "issue_refund", "arguments": ""}}).to_string()),
            ("response.function_call_arguments.delta", json!({"type": "response.function_call_arguments.delta", "output_index": 0, "item_id": "fc_2", "delta": "{\"charge_id\":"}).to_string()),
            ("response.function_call_arguments.delta", json!({"type": "response.function_call_arguments.delta", "output_index": 0, "item_id": "fc_2", "delta": "\"ch_1\"}"}).to_string()),
            ("response.function_call_arguments.done", json!({"type": "response.function_call_arguments.done", "output_index": 0, "item_id": "fc_2", "arguments": "{\"charge_id\":\"ch_1\"}"}).to_string()),
            ("response.completed", json!({"type": "response.completed", "response": {"id": "resp_2", "status": "completed", "output": [], "usage": {"input_tokens": 20, "output_tokens": 5}}}).to_string()),
        ]));
        s.push(Reply::sse(&[
            ("response.output_item.added", json!({"type": "response.output_item.added", "output_index": 0, "item": {"type": "message", "id": "m", "role": "assistant", "content": []}}).to_string()),
            ("response.output_text.delta", json!({"type": "response.output_text.delta", "output_index": 0, "delta": "Refunded"}).to_string()),
            ("response.output_text.delta", json!({"type": "response.output_text.delta", "output_index": 0, "delta": "."}).to_string()),
            ("response.completed", json!({"type": "response.completed", "response": {"id": "resp_3", "status": "completed", "output": [], "usage": {"input_tokens": 30, "output_tokens": 2}}}).to_string()),
        ]));
        let trace = run_all(vec![("triage", responses(&s.base, false)), ("billing", responses(&s.base, true))]).await;
        assert_eq!(final_text(&trace), "Refunded.", "{:?}", trace.outcome);
        assert!(trace.items.iter().any(|i| i.text == "billing issue"), "reasoning summaries become items");
        let reqs = s.requests();
        assert_eq!(reqs[0].path, "/v1/responses");
        let b0 = &reqs[0].body;
        assert_eq!(b0["instructions"], "Route the request.");
        assert_eq!(b0["input"][0], json!({"role": "user", "content": "I was charged twice."}));
        assert_eq!(b0["tools"][0]["type"], "function");
        assert_eq!(b0["tools"][0]["name"], "transfer_to_billing");
        assert_eq!(b0["max_output_tokens"], 64);
        let input = reqs[2].body["input"].as_array().unwrap();
        assert!(input.contains(&json!({"type": "function_call", "call_id": "call_r", "name": "issue_refund", "arguments": "{\"charge_id\":\"ch_1\"}"})));
        assert!(input.contains(&json!({"type": "function_call_output", "call_id": "call_r", "output": "refunded ch_1"})));
        assert_eq!(trace.usage.input_tokens, 61);
        // The ids the Responses API gave the items stay with them (the SDK prints them in
        // nested handoff history).
        let reasoning = trace.items.iter().find(|i| i.text == "billing issue").unwrap();
        assert_eq!(reasoning.provider_id.as_deref(), Some("rs_1"));
        let call = trace.items.iter().find(|i| i.call_id.as_deref() == Some("call_h") && i.name.is_some()).unwrap();
        assert_eq!(call.provider_id.as_deref(), Some("fc_1"));
    });
}

fn anthropic(base: &str, stream: bool) -> Box<dyn Model> {
    let mut e = ep("anthropic", base.into(), "claude-test", stream);
    e.max_tokens = Some(256);
    Box::new(Anthropic { ep: e })
}

fn msg(content: Value, stop: &str) -> Value {
    json!({"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-test", "content": content,
           "stop_reason": stop, "stop_sequence": null, "usage": {"input_tokens": 40, "output_tokens": 6}})
}

#[test]
fn anthropic_round_trip_and_streaming() {
    rt().block_on(async {
        let s = MockServer::start().await;
        s.push(Reply::json(msg(json!([{"type": "text", "text": "Routing."}, {"type": "tool_use", "id": "toolu_1", "name": "transfer_to_billing", "input": {}}]), "tool_use")));
        let ev = |v: Value| (v["type"].as_str().unwrap().to_owned(), v.to_string());
        let events: Vec<(String, String)> = vec![
            ev(json!({"type": "message_start", "message": {"id": "msg_2", "type": "message", "role": "assistant", "content": [], "usage": {"input_tokens": 55, "output_tokens": 1}}})),
            ev(json!({"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "id": "toolu_2", "name": "issue_refund", "input": {}}})),
            ev(json!({"type": "ping"})),
            ev(json!({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": "{\"charge_id\": "}})),
            ev(json!({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": "\"ch_1\"}"}})),
            ev(json!({"type": "content_block_stop", "index": 0})),
            ev(json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 12}})),
            ev(json!({"type": "message_stop"})),
        ];
        let refs: Vec<(&str, String)> = events.iter().map(|(a, b)| (a.as_str(), b.clone())).collect();
        s.push(Reply::sse(&refs));
        let text: Vec<(String, String)> = vec![
            ev(json!({"type": "message_start", "message": {"id": "msg_3", "type": "message", "role": "assistant", "content": [], "usage": {"input_tokens": 70, "output_tokens": 1}}})),
            ev(json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}})),
            ev(json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Refun"}})),
            ev(json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "ded."}})),
            ev(json!({"type": "content_block_stop", "index": 0})),
            ev(json!({"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 6}})),
            ev(json!({"type": "message_stop"})),
        ];
        let refs: Vec<(&str, String)> = text.iter().map(|(a, b)| (a.as_str(), b.clone())).collect();
        s.push(Reply::sse(&refs));
        let trace = run_all(vec![("triage", anthropic(&s.base, false)), ("billing", anthropic(&s.base, true))]).await;
        assert_eq!(final_text(&trace), "Refunded.", "{:?}", trace.outcome);
        let call = trace.items.iter().find(|i| i.name.as_deref() == Some("issue_refund")).unwrap();
        assert_eq!(serde_json::from_str::<Value>(call.arguments.as_deref().unwrap()).unwrap(), json!({"charge_id": "ch_1"}));
        let reqs = s.requests();
        assert_eq!(reqs[0].path, "/v1/messages");
        assert_eq!(reqs[0].headers["x-api-key"], KEY);
        assert_eq!(reqs[0].headers["anthropic-version"], "2023-06-01");
        assert!(reqs[0].headers.get("authorization").is_none());
        let b0 = &reqs[0].body;
        assert_eq!(b0["system"], "Route the request.");
        assert_eq!(b0["max_tokens"], 256);
        assert_eq!(b0["messages"][0], json!({"role": "user", "content": [{"type": "text", "text": "I was charged twice."}]}));
        assert_eq!(b0["tools"][0]["input_schema"]["type"], "object");
        // Roles alternate; tool results are user blocks right after the tool_use.
        let m = reqs[2].body["messages"].as_array().unwrap();
        let roles: Vec<&str> = m.iter().map(|x| x["role"].as_str().unwrap()).collect();
        assert!(roles.windows(2).all(|w| w[0] != w[1]), "{roles:?}");
        let last_user = m.last().unwrap();
        assert_eq!(last_user["content"][0], json!({"type": "tool_result", "tool_use_id": "toolu_2", "content": "refunded ch_1"}));
        assert_eq!(trace.usage.output_tokens, 6 + 12 + 6);
    });
}

fn gemini(base: &str, stream: bool) -> Box<dyn Model> {
    let mut e = ep("gemini", base.into(), "gemini-test", stream);
    e.temperature = Some(0.0);
    Box::new(Gemini { ep: e })
}

fn cand(parts: Value) -> Value {
    json!({"candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}],
           "usageMetadata": {"promptTokenCount": 21, "candidatesTokenCount": 4, "totalTokenCount": 25}})
}

#[test]
fn gemini_round_trip_and_streaming() {
    rt().block_on(async {
        let s = MockServer::start().await;
        s.push(Reply::json(cand(json!([{"functionCall": {"name": "transfer_to_billing", "args": {}}}]))));
        s.push(Reply::sse(&[(
            "",
            cand(json!([{"functionCall": {"name": "issue_refund", "args": {"charge_id": "ch_1"}}}])).to_string(),
        )]));
        s.push(Reply::sse(&[
            ("", json!({"candidates": [{"content": {"role": "model", "parts": [{"text": "Refun"}]}}]}).to_string()),
            ("", cand(json!([{"text": "ded."}])).to_string()),
        ]));
        let trace = run_all(vec![("triage", gemini(&s.base, false)), ("billing", gemini(&s.base, true))]).await;
        assert_eq!(final_text(&trace), "Refunded.", "{:?}", trace.outcome);
        let reqs = s.requests();
        assert_eq!(reqs[0].path, "/v1beta/models/gemini-test:generateContent");
        assert_eq!(reqs[1].path, "/v1beta/models/gemini-test:streamGenerateContent?alt=sse");
        assert_eq!(reqs[0].headers["x-goog-api-key"], KEY);
        let b0 = &reqs[0].body;
        assert_eq!(b0["systemInstruction"], json!({"parts": [{"text": "Route the request."}]}));
        assert_eq!(b0["contents"][0], json!({"role": "user", "parts": [{"text": "I was charged twice."}]}));
        assert_eq!(b0["generationConfig"]["temperature"], 0.0);
        let decl = &reqs[1].body["tools"][0]["functionDeclarations"][0];
        assert_eq!(decl["name"], "issue_refund");
        assert!(decl["parameters"].get("additionalProperties").is_none(), "Gemini's schema subset: {decl}");
        let contents = reqs[2].body["contents"].as_array().unwrap();
        let last = contents.last().unwrap();
        assert_eq!(
            last["parts"][0],
            json!({"functionResponse": {"name": "issue_refund", "response": {"result": "refunded ch_1"}}})
        );
        assert_eq!(contents[contents.len() - 2]["role"], "model");
    });
}

/// Runs the topology with chat models on both agents, with `replies` scripted for the triage
/// call; returns the trace, the requests and the time taken.
fn fault(replies: Vec<Reply>) -> (Trace, usize, Duration) {
    rt().block_on(async {
        let s = MockServer::start().await;
        for r in replies {
            s.push(r);
        }
        let t0 = Instant::now();
        let trace = run_all(vec![("triage", chat(&s.base, false)), ("billing", chat(&s.base, false))]).await;
        (trace, s.requests().len(), t0.elapsed())
    })
}

fn ok_then_done() -> Vec<Reply> {
    vec![
        Reply::json(chat_msg(None, &[("c1", "transfer_to_billing", "{}")], (1, 1))),
        Reply::json(chat_msg(Some("Refunded."), &[], (1, 1))),
    ]
}

#[test]
fn retries_honour_every_retry_after_form() {
    for (header, value, at_least) in [
        ("retry-after-ms", "300".to_string(), Duration::from_millis(300)),
        ("retry-after", "1".to_string(), Duration::from_secs(1)),
        ("retry-after", String::new(), Duration::from_millis(1000)),
    ] {
        // An HTTP date has whole seconds: three seconds ahead waits at least one.
        let value = if value.is_empty() {
            httpdate::fmt_http_date(std::time::SystemTime::now() + Duration::from_secs(3))
        } else {
            value
        };
        let mut replies =
            vec![Reply::status(429, r#"{"error":{"message":"slow down","type":"rate_limit"}}"#).header(header, &value)];
        replies.extend(ok_then_done());
        let (trace, n, took) = fault(replies);
        assert_eq!(trace.outcome.status, OutcomeStatus::Completed, "{header}: {:?}", trace.outcome);
        assert_eq!(n, 3, "{header}: one retry");
        assert!(took >= at_least, "{header}={value}: waited {took:?}");
    }
}

#[test]
fn server_errors_retry_and_client_errors_do_not() {
    for status in [500, 503, 408, 409] {
        let mut replies = vec![Reply::status(status, r#"{"error":{"message":"boom"}}"#)];
        replies.extend(ok_then_done());
        let (trace, n, _) = fault(replies);
        assert_eq!((trace.outcome.status, n), (OutcomeStatus::Completed, 3), "{status}");
    }
    let (trace, n, _) = fault(vec![Reply::status(
        400,
        r#"{"error":{"message":"Invalid 'messages': bad role","type":"invalid_request_error"}}"#,
    )]);
    assert_eq!((trace.outcome.status, n), (OutcomeStatus::Failed, 1));
    assert!(
        trace.outcome.reason.contains("HTTP 400") && trace.outcome.reason.contains("Invalid 'messages': bad role"),
        "{}",
        trace.outcome.reason
    );
    let (trace, n, _) = fault(vec![Reply::status(
        429,
        r#"{"error":{"message":"You exceeded your current quota","code":"insufficient_quota"}}"#,
    )]);
    assert_eq!((trace.outcome.status, n), (OutcomeStatus::Failed, 1), "a quota-exhausted 429 is not retried");
    // Retries give up after max_retries and report the last error.
    let (trace, n, _) = fault(vec![
        Reply::status(500, "{}"),
        Reply::status(502, "{}"),
        Reply::status(503, r#"{"error":{"message":"still down"}}"#),
    ]);
    assert_eq!((trace.outcome.status, n), (OutcomeStatus::Failed, 3));
    assert!(trace.outcome.reason.contains("HTTP 503") && trace.outcome.reason.contains("still down"));
}

#[test]
fn anthropic_overloaded_529_is_retried() {
    rt().block_on(async {
        let s = MockServer::start().await;
        s.push(Reply::status(529, r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#));
        s.push(Reply::json(msg(
            json!([{"type": "tool_use", "id": "t", "name": "transfer_to_billing", "input": {}}]),
            "tool_use",
        )));
        s.push(Reply::json(msg(json!([{"type": "text", "text": "Refunded."}]), "end_turn")));
        let trace = run_all(vec![("triage", anthropic(&s.base, false)), ("billing", anthropic(&s.base, false))]).await;
        assert_eq!(final_text(&trace), "Refunded.");
        assert_eq!(s.requests().len(), 3);
    });
}

#[test]
fn timeouts_malformed_bodies_and_cut_streams_fail_with_a_reason_and_keep_the_trace() {
    // Read timeout (800 ms) on every attempt.
    let slow = || Reply::json(chat_msg(Some("late"), &[], (1, 1))).delay(Duration::from_secs(3));
    let (trace, n, _) = fault(vec![slow(), slow(), slow()]);
    assert_eq!((trace.outcome.status, n), (OutcomeStatus::Failed, 3));
    assert!(trace.outcome.reason.contains("timed out"), "{}", trace.outcome.reason);

    let (trace, _, _) = fault(vec![Reply::status(200, "{\"choices\": [ {not json")]);
    assert_eq!(trace.outcome.status, OutcomeStatus::Failed);
    assert!(trace.outcome.reason.contains("not JSON"), "{}", trace.outcome.reason);

    // Billing's streamed answer is cut mid-way: the handoff before it stays in the trace.
    rt().block_on(async {
        let s = MockServer::start().await;
        s.push(Reply::json(chat_msg(None, &[("c1", "transfer_to_billing", "{}")], (1, 1))));
        let full = Reply::sse(&[
            ("", chunk(json!({"content": "Refun"}))),
            ("", chunk(json!({"content": "ded."}))),
            ("", "[DONE]".into()),
        ]);
        let cut_at = full.body.find("ded.").unwrap();
        for _ in 0..3 {
            s.push(full.clone().cut(cut_at));
        }
        let trace = run_all(vec![("triage", chat(&s.base, false)), ("billing", chat(&s.base, true))]).await;
        assert_eq!(trace.outcome.status, OutcomeStatus::Failed, "{:?}", trace.outcome);
        assert!(trace.outcome.reason.contains("stream"), "{}", trace.outcome.reason);
        assert_eq!(trace.transfers.len(), 1, "the partial trace is kept");
        assert_eq!(trace.outcome.owner, "billing");
    });
}

#[test]
fn malformed_tool_arguments_are_a_protocol_error() {
    let (trace, _, _) = fault(vec![Reply::json(chat_msg(None, &[("c1", "transfer_to_billing", "{oops")], (1, 1)))]);
    assert_eq!(trace.outcome.status, OutcomeStatus::Failed);
    assert!(trace.outcome.reason.contains("not JSON"), "{}", trace.outcome.reason);
}

#[test]
fn cancelling_stops_a_waiting_request() {
    rt().block_on(async {
        let s = MockServer::start().await;
        s.push(Reply::json(chat_msg(Some("late"), &[], (1, 1))).delay(Duration::from_secs(20)));
        let cancel = CancellationToken::new();
        let mut e = ep("openai", format!("{}/v1", s.base), "m", false);
        e.policy = HttpPolicy::default();
        e.cancel = cancel.clone();
        let model = OpenAiChat { ep: e, compatible: false, tool_choice: None };
        let t = topology();
        let src = Fixed(HashMap::from([("triage".to_string(), Box::new(model) as Box<dyn Model>)]));
        let opts = RunOptions { cancel: cancel.clone(), ..Default::default() };
        let t0 = Instant::now();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(200)).await;
            cancel.cancel();
        });
        let trace = run(&t, &src, opts).await.unwrap();
        assert_eq!(trace.outcome.status, OutcomeStatus::Cancelled);
        assert!(t0.elapsed() < Duration::from_secs(5));
    });
}

/// Mixed providers through the CLI, with canary keys: the run works, and no output, trace,
/// store file, export or log ever contains a key.
#[test]
fn mixed_providers_live_and_keys_never_leak() {
    let canary = ["sk-canary-openai-5f1b2c", "sk-ant-canary-77d0e1", "AIza-canary-9a8b7c"];
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("store.db");
    let out = dir.path().join("trace.json");
    let topo = dir.path().join("mixed.yaml");
    let runtime = rt();
    let (oa, an, ge) =
        runtime.block_on(async { (MockServer::start().await, MockServer::start().await, MockServer::start().await) });
    oa.push(Reply::json(chat_msg(None, &[("c1", "transfer_to_billing", "{}")], (5, 1))));
    an.push(Reply::json(msg(
        json!([{"type": "tool_use", "id": "toolu_9", "name": "transfer_to_technical_support", "input": {}}]),
        "tool_use",
    )));
    ge.push(Reply::json(cand(json!([{"text": "Fixed on Gemini."}]))));
    std::fs::write(
        &topo,
        "version: 1\nname: mixed\nentry: triage\nagents:\n  - {id: triage, name: Triage, model: {provider: openai, name: gpt-4o-mini}}\n  - {id: billing, name: Billing, model: {provider: anthropic, name: claude-sonnet-4-5}}\n  - {id: technical, name: Technical Support, model: {provider: gemini, name: gemini-2.5-flash}}\nedges:\n  - {kind: handoff, from: triage, to: billing}\n  - {kind: handoff, from: billing, to: technical}\nscenarios: [{name: s, input: help}]\n",
    )
    .unwrap();
    let o = runtime.block_on(async {
        let (t, d, p) = (topo.clone(), db.clone(), out.clone());
        let env = [
            ("OPENAI_API_KEY", canary[0].to_string()),
            ("ANTHROPIC_API_KEY", canary[1].to_string()),
            ("GEMINI_API_KEY", canary[2].to_string()),
            ("OPENAI_BASE_URL", format!("{}/v1", oa.base)),
            ("ANTHROPIC_BASE_URL", an.base.clone()),
            ("GEMINI_BASE_URL", ge.base.clone()),
            ("BATON_NO_KEYRING", "1".into()),
        ];
        tokio::task::spawn_blocking(move || {
            std::process::Command::new(env!("CARGO_BIN_EXE_baton"))
                .args([
                    "run",
                    t.to_str().unwrap(),
                    "--live",
                    "--save",
                    "--db",
                    d.to_str().unwrap(),
                    "--out",
                    p.to_str().unwrap(),
                ])
                .envs(env)
                .output()
                .unwrap()
        })
        .await
        .unwrap()
    });
    let text = stdout(&o);
    assert!(o.status.success(), "{}\n{text}", stderr(&o));
    assert!(text.contains("final output: Fixed on Gemini."), "{text}");
    let trace = Trace::from_file(&out).unwrap();
    assert_eq!(trace.transfers.len(), 2);
    assert_eq!(trace.providers["billing"], "anthropic:claude-sonnet-4-5");
    assert_eq!(oa.requests()[0].headers["authorization"], format!("Bearer {}", canary[0]));
    assert_eq!(an.requests()[0].headers["x-api-key"], canary[1]);
    assert_eq!(ge.requests()[0].headers["x-goog-api-key"], canary[2]);
    // Every place a key could leak to.
    let id = text.lines().last().unwrap().strip_prefix("run id: ").unwrap().to_owned();
    let exported = baton(&["trace", "export", &id, "--to", "json", "--db", db.to_str().unwrap()]);
    let listed = baton(&["runs", "list", "--format", "json", "--db", db.to_str().unwrap()]);
    let py = baton(&["export", topo.to_str().unwrap(), "--to", "openai-agents-py"]);
    let haystacks: Vec<(String, Vec<u8>)> = vec![
        ("stdout".into(), o.stdout.clone()),
        ("stderr".into(), o.stderr.clone()),
        ("trace file".into(), std::fs::read(&out).unwrap()),
        ("trace export".into(), exported.stdout),
        ("runs list".into(), listed.stdout),
        ("python export".into(), py.stdout),
        ("topology".into(), std::fs::read(&topo).unwrap()),
    ];
    let haystacks = with_store_files(dir.path(), haystacks);
    assert!(haystacks.iter().any(|(_, h)| h.windows(7).any(|w| w == b"request")), "bodies are recorded somewhere");
    assert_no_key(&haystacks, &canary);
}

#[test]
fn providers_check_reports_configured_and_reachable() {
    let runtime = rt();
    let (oa, an, co) =
        runtime.block_on(async { (MockServer::start().await, MockServer::start().await, MockServer::start().await) });
    // OpenAI Chat and Responses share the OpenAI endpoint.
    oa.push(Reply::json(json!({"data": [{"id": "gpt-4o"}]})));
    oa.push(Reply::json(json!({"data": [{"id": "gpt-4o"}]})));
    an.push(Reply::status(
        401,
        r#"{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}"#,
    ));
    co.push(Reply::json(json!({"data": []})));
    let o = runtime.block_on(async {
        let (oa, an, co) = (oa.base.clone(), an.base.clone(), co.base.clone());
        tokio::task::spawn_blocking(move || {
            std::process::Command::new(env!("CARGO_BIN_EXE_baton"))
                .args(["providers", "check", "--format", "json"])
                .env_clear()
                .env("PATH", std::env::var("PATH").unwrap())
                .env("BATON_NO_KEYRING", "1")
                .env("OPENAI_API_KEY", "sk-x")
                .env("OPENAI_BASE_URL", format!("{oa}/v1"))
                .env("ANTHROPIC_API_KEY", "bad")
                .env("ANTHROPIC_BASE_URL", &an)
                .env("OPENAI_COMPATIBLE_BASE_URL", format!("{co}/v1"))
                .output()
                .unwrap()
        })
        .await
        .unwrap()
    });
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Vec<Value> = serde_json::from_slice(&o.stdout).unwrap();
    let by = |p: &str| v.iter().find(|x| x["provider"] == p).unwrap().clone();
    assert_eq!(
        (by("openai")["key"].clone(), by("openai")["reachable"].clone()),
        (json!("$OPENAI_API_KEY"), json!(true))
    );
    assert_eq!(by("openai-responses")["reachable"], true);
    assert_eq!(by("gemini")["reachable"], false);
    assert!(by("gemini")["detail"].as_str().unwrap().contains("not configured"));
    let anthropic = by("anthropic");
    assert_eq!(anthropic["reachable"], false);
    assert!(anthropic["detail"].as_str().unwrap().contains("401"), "{anthropic}");
    assert_eq!(
        (by("openai-compatible")["key"].clone(), by("openai-compatible")["reachable"].clone()),
        (Value::Null, json!(true))
    );
    assert_eq!(an.requests()[0].headers["x-api-key"], "bad");
    assert_eq!(oa.requests()[0].headers["authorization"], "Bearer sk-x");
}

/// A provider that redirects to another host, and one that echoes the key in its error body:
/// the key reaches neither the other host nor anything Baton prints or stores.
#[test]
fn keys_follow_no_redirect_to_another_host_and_echoes_are_redacted() {
    let canary = ["sk-ant-canary-redirect-0a1b2c3d", "AIza-canary-echo-4e5f6a7b8c9d"];
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("store.db");
    let out = dir.path().join("trace.json");
    let topo = dir.path().join("t.yaml");
    let runtime = rt();
    // "localhost" and "127.0.0.1" are different hosts to an HTTP client.
    let (an, evil, ge) =
        runtime.block_on(async { (MockServer::start().await, MockServer::start().await, MockServer::start().await) });
    let evil_url = evil.base.replace("127.0.0.1", "localhost");
    an.push(Reply::status(307, "").header("location", &format!("{evil_url}/v1/messages")));
    ge.push(Reply::status(401, &format!("{{\"error\": {{\"message\": \"API key {} is not valid\"}}}}", canary[1])));
    std::fs::write(
        &topo,
        "version: 1\nname: keys\nentry: a\nagents:\n  - {id: a, name: A, model: {provider: anthropic, name: claude-sonnet-4-5}}\n  - {id: g, name: G, model: {provider: gemini, name: gemini-2.5-flash}}\nedges: [{kind: handoff, from: a, to: g}]\nscenarios: [{name: s, input: help}]\n",
    )
    .unwrap();
    let (t, d, p) = (topo.clone(), db.clone(), out.clone());
    let run = move |base_an: String, base_ge: String| {
        std::process::Command::new(env!("CARGO_BIN_EXE_baton"))
            .args([
                "run",
                t.to_str().unwrap(),
                "--live",
                "--save",
                "--db",
                d.to_str().unwrap(),
                "--out",
                p.to_str().unwrap(),
            ])
            .envs([
                ("ANTHROPIC_API_KEY", canary[0].to_string()),
                ("GEMINI_API_KEY", canary[1].to_string()),
                ("ANTHROPIC_BASE_URL", base_an),
                ("GEMINI_BASE_URL", base_ge),
                ("BATON_NO_KEYRING", "1".into()),
                ("BATON_HTTP_MAX_RETRIES", "0".into()),
            ])
            .output()
            .unwrap()
    };
    let (a_base, g_base) = (an.base.clone(), ge.base.clone());
    let run2 = run.clone();
    let o = runtime.block_on(async move { tokio::task::spawn_blocking(move || run(a_base, g_base)).await.unwrap() });
    let text = stdout(&o);
    assert!(evil.requests().is_empty(), "the redirect target was called: {:?}", evil.requests().len());
    assert!(text.contains("redirected"), "{text}");
    // Second run: the first agent answers, then Gemini echoes its key in a 401.
    an.push(Reply::json(msg(
        json!([{"type": "tool_use", "id": "toolu_1", "name": "transfer_to_g", "input": {}}]),
        "tool_use",
    )));
    ge.push(Reply::status(401, &format!("{{\"error\": {{\"message\": \"API key {} is not valid\"}}}}", canary[1])));
    let (a_base, g_base) = (an.base.clone(), ge.base.clone());
    let o2 = runtime.block_on(async move { tokio::task::spawn_blocking(move || run2(a_base, g_base)).await.unwrap() });
    let text2 = stdout(&o2);
    assert!(text2.contains("is not valid") && text2.contains("[redacted]"), "{text2}");
    let id = text2.lines().last().unwrap().strip_prefix("run id: ").unwrap().to_owned();
    let exported = baton(&["trace", "export", &id, "--to", "otlp", "--db", db.to_str().unwrap()]);
    let haystacks: Vec<(String, Vec<u8>)> = vec![
        ("stdout 1".into(), o.stdout.clone()),
        ("stderr 1".into(), o.stderr.clone()),
        ("stdout 2".into(), o2.stdout.clone()),
        ("stderr 2".into(), o2.stderr.clone()),
        ("trace file".into(), std::fs::read(&out).unwrap()),
        ("otlp export".into(), exported.stdout),
    ];
    assert_no_key(&with_store_files(dir.path(), haystacks), &canary);
}

/// The outputs to search, plus the store's files (`store.db`, its WAL and shared memory).
fn with_store_files(dir: &std::path::Path, mut haystacks: Vec<(String, Vec<u8>)>) -> Vec<(String, Vec<u8>)> {
    for entry in std::fs::read_dir(dir).unwrap() {
        let p = entry.unwrap().path();
        if p.file_name().unwrap().to_string_lossy().starts_with("store.db") {
            haystacks.push((p.display().to_string(), std::fs::read(&p).unwrap()));
        }
    }
    haystacks
}

/// No canary key appears anywhere in the haystacks.
fn assert_no_key(haystacks: &[(String, Vec<u8>)], canary: &[&str]) {
    for (name, hay) in haystacks {
        for k in canary {
            assert!(!hay.windows(k.len()).any(|w| w == k.as_bytes()), "{k} leaked into {name}");
        }
    }
}

/// A stream whose one event is 8 MB is refused as it arrives (not buffered and rescanned),
/// and the run ends with the reason.
#[test]
fn an_oversized_stream_event_ends_the_call_with_a_reason() {
    rt().block_on(async {
        let s = MockServer::start().await;
        let huge = chunk(json!({"content": "x".repeat(8 << 20)}));
        s.push(Reply::sse(&[("", huge), ("", "[DONE]".into())]));
        let t0 = std::time::Instant::now();
        let trace = run_all(vec![("triage", chat(&s.base, true))]).await;
        assert_eq!(trace.outcome.status, OutcomeStatus::Failed);
        assert!(trace.outcome.reason.contains("larger than 2 MB"), "{}", trace.outcome.reason);
        assert!(t0.elapsed() < Duration::from_secs(5), "took {:?}", t0.elapsed());
    });
}

/// A stream that only ever sends keep-alives ends at the per-call deadline, saying so.
#[test]
fn a_stream_of_keep_alives_times_out_at_the_call_deadline() {
    let runtime = rt();
    let s = runtime.block_on(MockServer::start());
    s.push(Reply::sse(&[("", chunk(json!({"role": "assistant", "content": "Thinking"})))]).keep_alive());
    let dir = tempfile::tempdir().unwrap();
    let topo = dir.path().join("t.yaml");
    std::fs::write(
        &topo,
        format!(
            "version: 1\nname: slow\nentry: a\nagents:\n  - {{id: a, name: A, model: {{provider: openai-compatible, name: m, stream: true, base_url: '{}/v1'}}}}\nscenarios: [{{name: s, input: hi}}]\n",
            s.base
        ),
    )
    .unwrap();
    let t0 = std::time::Instant::now();
    let t = topo.clone();
    let o = runtime.block_on(async move {
        tokio::task::spawn_blocking(move || {
            std::process::Command::new(env!("CARGO_BIN_EXE_baton"))
                .args(["run", t.to_str().unwrap(), "--live"])
                .envs([("BATON_HTTP_DEADLINE_MS", "700"), ("BATON_NO_KEYRING", "1"), ("BATON_HTTP_MAX_RETRIES", "0")])
                .output()
                .unwrap()
        })
        .await
        .unwrap()
    });
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "a failed run: {text}{}", stderr(&o));
    assert!(text.contains("timed out"), "{text}");
    assert!(t0.elapsed() < Duration::from_secs(20), "took {:?}", t0.elapsed());
}

/// Every command that calls a model, against a server that echoes two canaries (the configured
/// key, and one shaped like a key) in every field it answers: agent messages, tool-call
/// arguments, guardrail-agent reasons, claim verdicts, the judge, a live fork, matrix cells and
/// a proof. No output, export or store file holds either.
#[test]
fn every_command_that_calls_a_model_redacts_echoed_keys() {
    let canary = ["canary-compat-key-0123456789", "sk-canary-shaped-abcdef0123456789"];
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("store.db");
    let db = db.to_str().unwrap().to_owned();
    let runtime = rt();
    let s = runtime.block_on(MockServer::start());
    let said = format!(
        "Your key is {} and {}. {{\"tripwire_triggered\": false, \"accept\": true, \"ending\": \"bad\", \"reason\": \
         \"I saw {} {}\"}}",
        canary[0], canary[1], canary[0], canary[1]
    );
    // The moderator screens first, the lead then delegates (its arguments echo the keys), and
    // everything after answers `said`.
    s.push(Reply::json(chat_msg(Some(&said), &[], (5, 1))));
    s.push(Reply::json(chat_msg(
        None,
        &[("c1", "ask_worker", &format!("{{\"input\": \"{} {}\"}}", canary[0], canary[1]))],
        (5, 1),
    )));
    s.otherwise(Reply::json(chat_msg(Some(&said), &[], (5, 1))));
    let url = format!("{}/v1", s.base);
    let model = format!("{{provider: openai-compatible, name: echo, base_url: '{url}'}}");
    let topo = dir.path().join("sweep.yaml");
    std::fs::write(
        &topo,
        format!(
            "version: 1\nname: sweep\nentry: lead\nagents:\n  - {{id: lead, name: Lead, model: {model}}}\n  - {{id: \
             worker, name: Worker}}\n  - {{id: moderator, name: Moderator, model: {model}}}\nedges:\n  - {{kind: \
             delegation, from: lead, to: worker, tool: ask_worker, acceptance: verify, criteria: [it is done]}}\n\
             guardrails:\n  - {{name: screen, agent: lead, on: input, check: {{agent: moderator}}, run_in_parallel: false}}\nscenarios:\n  - \
             name: s\n    input: help me\n    scripts:\n      worker: [{{say: Done.}}]\n"
        ),
    )
    .unwrap();
    let env = [("OPENAI_COMPATIBLE_API_KEY", canary[0]), ("BATON_NO_KEYRING", "1")];
    let cli = |args: &[&str]| {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_baton")).args(args).envs(env).output().unwrap();
        (args.join(" "), o)
    };
    let t = topo.to_str().unwrap();
    let (name, ran) = cli(&["run", t, "--live", "--save", "--db", &db]);
    assert!(ran.status.success(), "{name}: {}\n{}", stderr(&ran), stdout(&ran));
    assert!(stdout(&ran).contains("[redacted]"), "{}", stdout(&ran));
    let id = stdout(&ran).lines().last().unwrap().strip_prefix("run id: ").unwrap().to_owned();
    let judge = format!("openai-compatible:echo@{url}");
    let every = format!("*=openai-compatible:echo@{url}");
    let vary = format!("lead=openai-compatible:echo@{url}");
    let mut outputs = vec![(name, ran)];
    for args in [
        vec!["suspects", &id, "--judge", &judge, "--db", &db],
        vec!["suspects", &id, "--judge", &judge, "--format", "json", "--db", &db],
        vec!["fork", &id, "--at", "1", "--then", "live", "--save", "--format", "json", "--db", &db],
        vec!["matrix", t, "--vary", &vary, "--mock-rest", "--format", "json"],
        vec![
            "suspects",
            &id,
            "--prove",
            "--model",
            &every,
            "--samples",
            "1",
            "--save",
            "--format",
            "json",
            "--db",
            &db,
        ],
        vec!["trace", "export", &id, "--to", "json", "--db", &db],
    ] {
        outputs.push(cli(&args));
    }
    let calls = s.requests().len();
    assert!(calls >= 8, "the commands called the echoing model ({calls} calls)");
    let mut haystacks = vec![];
    for (name, o) in outputs {
        assert!(!stdout(&o).is_empty() || !stderr(&o).is_empty(), "{name} said nothing");
        haystacks.push((format!("{name} (stdout)"), o.stdout));
        haystacks.push((format!("{name} (stderr)"), o.stderr));
    }
    assert_no_key(&with_store_files(dir.path(), haystacks), &canary);
}

//! OTLP traffic for the capture benches: one GenAI handoff trace of five spans per number, as
//! protobuf spans (`collect.rs` and `team.rs` send the same).

use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::{AnyValue, KeyValue, any_value};
use opentelemetry_proto::tonic::trace::v1::{ResourceSpans, ScopeSpans, Span};
use prost::Message;

pub fn kv(k: &str, v: &str) -> KeyValue {
    KeyValue {
        key: k.into(),
        value: Some(AnyValue { value: Some(any_value::Value::StringValue(v.into())) }),
        ..Default::default()
    }
}

/// One trace of a GenAI handoff: triage's agent span and chat (it calls transfer_to_billing),
/// then billing's agent span and chat. Five spans.
pub fn trace(n: u64) -> Vec<Span> {
    let tid = {
        let mut t = [0u8; 16];
        t[..8].copy_from_slice(&n.to_be_bytes());
        t[8] = 1;
        t.to_vec()
    };
    let sid = |k: u8| {
        let mut s = [0u8; 8];
        s[..7].copy_from_slice(&n.to_be_bytes()[1..]);
        s[7] = k;
        s.to_vec()
    };
    let t0 = 1_700_000_000_000_000_000u64 + n * 1_000_000;
    let span = |k: u8, parent: Option<u8>, name: &str, at: u64, attrs: Vec<KeyValue>| Span {
        trace_id: tid.clone(),
        span_id: sid(k),
        parent_span_id: parent.map(sid).unwrap_or_default(),
        name: name.into(),
        start_time_unix_nano: t0 + at,
        end_time_unix_nano: t0 + at + 900,
        attributes: attrs,
        ..Default::default()
    };
    let user = r#"[{"role":"user","parts":[{"type":"text","content":"I was double charged on invoice 88."}]}]"#;
    let triage_out = r#"[{"role":"assistant","parts":[{"type":"text","content":"Routing you to billing."},{"type":"tool_call","id":"call_1","name":"transfer_to_billing","arguments":{}}]}]"#;
    let billing_in = r#"[{"role":"user","parts":[{"type":"text","content":"I was double charged on invoice 88."}]},{"role":"assistant","parts":[{"type":"text","content":"Routing you to billing."},{"type":"tool_call","id":"call_1","name":"transfer_to_billing","arguments":{}}]},{"role":"tool","parts":[{"type":"tool_call_response","id":"call_1","response":"{\"assistant\": \"Billing\"}"}]}]"#;
    let billing_out =
        r#"[{"role":"assistant","parts":[{"type":"text","content":"Refund issued for the duplicate charge."}]}]"#;
    vec![
        span(1, None, "invoke_workflow support", 0, vec![kv("gen_ai.operation.name", "invoke_workflow")]),
        span(
            2,
            Some(1),
            "invoke_agent triage",
            10,
            vec![kv("gen_ai.operation.name", "invoke_agent"), kv("gen_ai.agent.name", "triage")],
        ),
        span(
            3,
            Some(2),
            "chat gpt-4o",
            20,
            vec![
                kv("gen_ai.operation.name", "chat"),
                kv("gen_ai.input.messages", user),
                kv("gen_ai.output.messages", triage_out),
            ],
        ),
        span(
            4,
            Some(1),
            "invoke_agent billing",
            40,
            vec![kv("gen_ai.operation.name", "invoke_agent"), kv("gen_ai.agent.name", "billing")],
        ),
        span(
            5,
            Some(4),
            "chat gpt-4o",
            50,
            vec![
                kv("gen_ai.operation.name", "chat"),
                kv("gen_ai.input.messages", billing_in),
                kv("gen_ai.output.messages", billing_out),
            ],
        ),
    ]
}

/// One OTLP/protobuf request holding `spans`.
pub fn encode(spans: Vec<Span>) -> Vec<u8> {
    ExportTraceServiceRequest {
        resource_spans: vec![ResourceSpans {
            scope_spans: vec![ScopeSpans { spans, ..Default::default() }],
            ..Default::default()
        }],
    }
    .encode_to_vec()
}

//! Export to OTLP JSON with the OpenTelemetry GenAI conventions, so Jaeger, Phoenix or Langfuse
//! can read Baton's runs: a root span for the run, one `invoke_agent` span per period of
//! ownership (nested under the delegation's tool span for agent-as-tool calls), `chat` spans per
//! model call with `gen_ai.input.messages` / `gen_ai.output.messages`, `execute_tool` spans for
//! tools and for transfers (carrying Baton's diff counts and fact statuses). Baton's own facts
//! ride on the root span so a round trip Baton → OTLP → Baton keeps the fact checks.

use super::{StepKind, Trace};
use crate::context::{Item, ItemKind};
use serde_json::{Value, json};

fn attr(k: &str, v: Value) -> Value {
    let value = match v {
        Value::String(s) => json!({"stringValue": s}),
        Value::Bool(b) => json!({"boolValue": b}),
        Value::Number(n) if n.is_i64() || n.is_u64() => json!({"intValue": n.to_string()}),
        Value::Number(n) => json!({"doubleValue": n}),
        other => json!({"stringValue": other.to_string()}),
    };
    json!({"key": k, "value": value})
}

fn parse_time(s: &str) -> u128 {
    humantime::parse_rfc3339_weak(s)
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map(|d| d.as_nanos())
        .unwrap_or(0)
}

fn hex_id(seed: &str, n: usize, len: usize) -> String {
    let h = blake3::hash(format!("{seed}/{n}").as_bytes());
    h.to_hex()[..len].to_string()
}

/// The GenAI `parts` message list of some items (roles merged per consecutive run).
fn messages(items: &[&Item]) -> Value {
    let mut out: Vec<Value> = vec![];
    for i in items {
        let (role, part) = match i.kind {
            ItemKind::Instructions | ItemKind::PinnedFact => continue,
            ItemKind::UserMessage => ("user", json!({"type": "text", "content": i.text})),
            ItemKind::AssistantMessage => ("assistant", json!({"type": "text", "content": i.text})),
            ItemKind::Reasoning => ("assistant", json!({"type": "reasoning", "content": i.text})),
            ItemKind::ToolCall | ItemKind::TransferCall => (
                "assistant",
                json!({"type": "tool_call", "id": i.call_id, "name": i.name,
                       "arguments": serde_json::from_str::<Value>(i.arguments.as_deref().unwrap_or("{}")).unwrap_or(json!({}))}),
            ),
            ItemKind::ToolResult | ItemKind::TransferOutput => {
                ("tool", json!({"type": "tool_call_response", "id": i.call_id, "response": i.text}))
            }
        };
        match out.last_mut() {
            Some(m) if m["role"] == role && role != "tool" => m["parts"].as_array_mut().expect("parts").push(part),
            _ => out.push(json!({"role": role, "parts": [part]})),
        }
    }
    Value::Array(out)
}

struct Out {
    spans: Vec<Value>,
    seed: String,
    trace_id: String,
}

impl Out {
    fn span(&mut self, name: &str, parent: &str, start: u128, end: u128, attrs: Vec<Value>) -> String {
        let id = hex_id(&self.seed, self.spans.len(), 16);
        self.spans.push(json!({
            "traceId": self.trace_id,
            "spanId": id,
            "parentSpanId": parent,
            "name": name,
            "kind": 1,
            "startTimeUnixNano": start.to_string(),
            "endTimeUnixNano": end.max(start).to_string(),
            "attributes": attrs,
            "status": {"code": 0}
        }));
        id
    }
}

/// The OTLP JSON document of a trace.
pub fn to_otlp(t: &Trace) -> Value {
    let seed = t.run_id.clone().unwrap_or_else(|| format!("{}/{}/{}", t.topology, t.scenario, t.started_at));
    let mut o = Out { spans: vec![], trace_id: hex_id(&seed, usize::MAX, 32), seed };
    let start = parse_time(&t.started_at);
    let end = parse_time(&t.ended_at).max(start + t.steps.len() as u128 + 1);
    // Step k happens at start + k µs (a native trace keeps no per-step clock).
    let at = |k: usize| start + (k as u128) * 1000;
    let name_of = |id: &str| {
        t.definition.as_ref().and_then(|d| d.agent(id)).map(|a| a.name.clone()).unwrap_or_else(|| id.to_owned())
    };
    let facts = t
        .definition
        .as_ref()
        .map(|d| serde_json::to_string(&d.facts).expect("facts serialize"))
        .unwrap_or_else(|| "[]".into());
    let root_attrs = vec![
        attr("gen_ai.operation.name", json!("invoke_workflow")),
        attr("baton.topology", json!(t.topology)),
        attr("baton.scenario", json!(t.scenario)),
        attr("baton.outcome.status", json!(t.outcome.status.as_str())),
        attr("baton.outcome.reason", json!(t.outcome.reason)),
        attr("baton.facts", json!(facts)),
    ];
    // The root span goes last, as exporters send it; reserve its id first.
    let root = hex_id(&o.seed, usize::MAX - 1, 16);
    // Open invoke_agent spans: (agent id, span id, depth, first step, parent span id).
    let mut open: Vec<(String, String, u32, usize, String)> = vec![];
    let close = |o: &mut Out, a: (String, String, u32, usize, String), k: usize| {
        let name = name_of(&a.0);
        let attrs = vec![
            attr("gen_ai.operation.name", json!("invoke_agent")),
            attr("gen_ai.agent.name", json!(name)),
            attr("gen_ai.agent.id", json!(a.0)),
        ];
        o.spans.push(json!({
            "traceId": o.trace_id, "spanId": a.1, "parentSpanId": a.4, "name": format!("invoke_agent {name}"),
            // 1 ns after the step that opened it: after the transfer's own span, so readers that
            // order spans by time never see the receiver before the transfer.
            "kind": 1, "startTimeUnixNano": (at(a.3) + 1).to_string(), "endTimeUnixNano": at(k).to_string(),
            "attributes": attrs, "status": {"code": 0}
        }));
    };
    let item = |id: &crate::context::ItemId| t.item(*id);
    for (k, s) in t.steps.iter().enumerate() {
        let is_transfer = matches!(s.kind, StepKind::Handoff | StepKind::Delegation);
        // Delegations that ended close first; then the acting agent's span at this depth.
        let depth = if s.kind == StepKind::Delegation { s.depth.saturating_sub(1) } else { s.depth };
        while open.last().is_some_and(|a| a.2 > depth) {
            let a = open.pop().expect("non-empty");
            close(&mut o, a, k);
        }
        let acting = if is_transfer {
            s.transfer
                .and_then(|i| t.transfers.get(i as usize))
                .map(|tr| tr.from.clone())
                .unwrap_or_else(|| s.agent.clone())
        } else {
            s.agent.clone()
        };
        if open.last().is_none_or(|a| a.0 != acting || a.2 != depth) {
            let parent = match open.last() {
                Some(a) if a.2 == depth => {
                    let a = open.pop().expect("non-empty");
                    let p = a.4.clone();
                    close(&mut o, a, k);
                    p
                }
                _ if depth == 0 => root.clone(),
                Some(a) => a.1.clone(),
                None => root.clone(),
            };
            open.push((acting.clone(), hex_id(&o.seed, 1_000_000 + k, 16), depth, k, parent));
        }
        let parent = open.last().map(|a| a.1.clone()).unwrap_or_else(|| root.clone());
        let agent_name = name_of(&acting);
        match s.kind {
            StepKind::ModelCall => {
                let input: Vec<&Item> = s.context.iter().filter_map(item).collect();
                let output: Vec<&Item> = s.output.iter().filter_map(item).collect();
                let system: Vec<String> =
                    input.iter().filter(|i| i.kind == ItemKind::Instructions).map(|i| i.text.clone()).collect();
                let model = t.providers.get(&s.agent).cloned().unwrap_or_else(|| "mock".into());
                let mut attrs = vec![
                    attr("gen_ai.operation.name", json!("chat")),
                    attr("gen_ai.agent.name", json!(agent_name)),
                    attr("gen_ai.provider.name", json!(model.split(':').next().unwrap_or("mock"))),
                    attr("gen_ai.request.model", json!(model.split(':').nth(1).unwrap_or(&model))),
                    attr("gen_ai.input.messages", json!(messages(&input).to_string())),
                    attr("gen_ai.output.messages", json!(messages(&output).to_string())),
                ];
                if !system.is_empty() {
                    let sys = json!([{"type": "text", "content": system.join("\n")}]).to_string();
                    attrs.push(attr("gen_ai.system_instructions", json!(sys)));
                }
                if let Some(u) = s.usage {
                    attrs.push(attr("gen_ai.usage.input_tokens", json!(u.input_tokens)));
                    attrs.push(attr("gen_ai.usage.output_tokens", json!(u.output_tokens)));
                }
                o.span(&format!("chat {agent_name}"), &parent, at(k), at(k + 1), attrs);
            }
            StepKind::ToolCall => {
                let result = s.output.first().and_then(item);
                let call = result.and_then(|r| r.call_id.as_ref()).and_then(|cid| {
                    s.context.iter().filter_map(item).find(|i| i.kind.is_call() && i.call_id.as_ref() == Some(cid))
                });
                let name = call.and_then(|c| c.name.clone()).unwrap_or_default();
                let attrs = vec![
                    attr("gen_ai.operation.name", json!("execute_tool")),
                    attr("gen_ai.agent.name", json!(agent_name)),
                    attr("gen_ai.tool.name", json!(name)),
                    attr("gen_ai.tool.call.id", json!(result.and_then(|r| r.call_id.clone()).unwrap_or_default())),
                    attr(
                        "gen_ai.tool.call.arguments",
                        json!(call.and_then(|c| c.arguments.clone()).unwrap_or_default()),
                    ),
                    attr("gen_ai.tool.call.result", json!(result.map(|r| r.text.clone()).unwrap_or_default())),
                ];
                o.span(&format!("execute_tool {name}"), &parent, at(k), at(k + 1), attrs);
            }
            StepKind::Handoff | StepKind::Delegation => {
                let Some(tr) = s.transfer.and_then(|i| t.transfers.get(i as usize)) else { continue };
                let mut attrs = vec![
                    attr("gen_ai.operation.name", json!("execute_tool")),
                    attr("gen_ai.agent.name", json!(agent_name)),
                    attr(
                        "gen_ai.tool.name",
                        json!(format!("transfer_to_{}", crate::topology::snake_case(&name_of(&tr.to)))),
                    ),
                    attr("baton.transfer.kind", json!(tr.kind.as_str())),
                    attr("baton.transfer.from", json!(tr.from)),
                    attr("baton.transfer.to", json!(tr.to)),
                    attr("baton.transfer.policy", json!(tr.policy)),
                ];
                for (n, c) in [
                    ("carried", tr.carried.len()),
                    ("transformed", tr.transformed.len()),
                    ("dropped", tr.dropped.len()),
                    ("added", tr.added.len()),
                ] {
                    attrs.push(attr(&format!("baton.transfer.{n}"), json!(c)));
                }
                for f in &tr.facts {
                    attrs.push(attr(&format!("baton.fact.{}", f.id), json!(f.status.as_str())));
                }
                let label = format!("transfer {} → {}", agent_name, name_of(&tr.to));
                let tool = o.span(&label, &parent, at(k), at(k + 1), attrs);
                if s.kind == StepKind::Delegation {
                    // The target runs nested under the delegation's tool span.
                    open.push((tr.to.clone(), hex_id(&o.seed, 2_000_000 + k, 16), s.depth, k, tool));
                } else {
                    let a = open.pop().expect("the sender's span is open");
                    let p = a.4.clone();
                    close(&mut o, a, k);
                    open.push((tr.to.clone(), hex_id(&o.seed, 2_000_000 + k, 16), depth, k, p));
                }
            }
            _ => {}
        }
    }
    let n = t.steps.len();
    while let Some(a) = open.pop() {
        close(&mut o, a, n);
    }
    o.spans.push(json!({
        "traceId": o.trace_id, "spanId": root, "parentSpanId": "", "name": format!("run {}", t.topology),
        "kind": 1, "startTimeUnixNano": start.to_string(), "endTimeUnixNano": end.max(at(n)).to_string(),
        "attributes": root_attrs, "status": {"code": if t.outcome.status == super::OutcomeStatus::Failed { 2 } else { 0 }}
    }));
    json!({
        "resourceSpans": [{
            "resource": {"attributes": [attr("service.name", json!("baton"))]},
            "scopeSpans": [{"scope": {"name": "baton", "version": env!("CARGO_PKG_VERSION")}, "spans": o.spans}]
        }]
    })
}

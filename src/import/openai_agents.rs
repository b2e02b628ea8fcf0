//! OpenAI Agents SDK span exports (`trace` and `trace.span` objects, as `.export()` writes them):
//! agent spans give ownership and nesting (an agent span under a function span is an
//! agent-as-tool delegation), handoff spans give handoffs, generation spans give the messages a
//! model saw, function spans give tool calls. A `response` span keeps only a response id: the
//! importer says so instead of inventing a diff.

use super::ancestry;
use super::messages::openai_messages;
use super::recorded::{CallTime, Ev, RecordedRun};
use crate::providers::Usage;
use crate::topology::EdgeKind;
use serde_json::Value;
use std::collections::HashMap;

/// Spans of one trace, in arrival order.
#[derive(Default)]
pub struct SdkTrace {
    pub id: String,
    pub name: String,
    pub spans: Vec<Value>,
}

/// Which trace a record belongs to, and whether it closes the trace.
pub fn trace_of(record: &Value) -> Option<(String, bool)> {
    match record.get("object").and_then(Value::as_str) {
        Some("trace") => record.get("id").and_then(Value::as_str).map(|id| (id.to_owned(), true)),
        Some("trace.span") => record.get("trace_id").and_then(Value::as_str).map(|id| (id.to_owned(), false)),
        _ => None,
    }
}

fn s<'a>(v: &'a Value, k: &str) -> &'a str {
    v.get(k).and_then(Value::as_str).unwrap_or_default()
}

fn usage_of(u: Option<&Value>) -> Option<Usage> {
    let u = u?;
    let input = u.get("input_tokens").or_else(|| u.get("prompt_tokens")).and_then(Value::as_u64)?;
    let output = u.get("output_tokens").or_else(|| u.get("completion_tokens")).and_then(Value::as_u64).unwrap_or(0);
    Some(Usage { input_tokens: input, output_tokens: output })
}

/// The recorded run of one SDK trace, or why it is refused (spans nested past
/// [`ancestry::MAX_NESTING`]).
pub fn to_run(t: &SdkTrace) -> Result<RecordedRun, String> {
    let by_id: HashMap<&str, &Value> = t.spans.iter().map(|sp| (s(sp, "id"), sp)).collect();
    let parent = |sp: &Value| by_id.get(s(sp, "parent_id")).copied();
    let kind = |sp: &Value| sp.pointer("/span_data/type").and_then(Value::as_str).unwrap_or_default().to_owned();
    // Every span's parent by index, its nesting checked, then the nearest agent and function
    // above each span in one pass each (never a walk per span).
    let index: HashMap<&str, usize> = t.spans.iter().enumerate().map(|(i, sp)| (s(sp, "id"), i)).collect();
    let up: Vec<Option<usize>> = t.spans.iter().map(|sp| index.get(s(sp, "parent_id")).copied()).collect();
    ancestry::check_nesting(&t.id, &up, |i| format!("span {}", s(&t.spans[i], "id")))?;
    let kinds: Vec<String> = t.spans.iter().map(kind).collect();
    let near_agent = ancestry::nearest(&up, |j| kinds[j] == "agent");
    let near_function = ancestry::nearest(&up, |j| kinds[j] == "function");
    // The nearest agent span above, and whether a function span lies between (delegation): the
    // nearest function above lies below that agent when its own nearest agent is the same one.
    let owner = |i: usize| -> (Option<String>, bool) {
        let agent = near_agent[i];
        let through_function = near_function[i].is_some_and(|f| near_agent[f] == agent);
        let name = agent.and_then(|a| t.spans[a].pointer("/span_data/name").and_then(Value::as_str)).map(str::to_owned);
        (name, through_function)
    };
    let has_agent_child: std::collections::HashSet<&str> = t
        .spans
        .iter()
        .filter(|sp| kind(sp) == "agent")
        .filter_map(|sp| parent(sp).filter(|p| kind(p) == "function").map(|p| s(p, "id")))
        .collect();
    let mut timed: Vec<(String, usize, Ev)> = vec![];
    let mut notes = vec![];
    let mut content_missing = false;
    for (order, sp) in t.spans.iter().enumerate() {
        let d = sp.get("span_data").cloned().unwrap_or_default();
        let start = s(sp, "started_at").to_owned();
        let end = s(sp, "ended_at").to_owned();
        let (agent, delegated) = owner(order);
        let agent_name = agent.clone().unwrap_or_else(|| "agent".into());
        match kind(sp).as_str() {
            "agent" => {
                let name = s(&d, "name").to_owned();
                if let (Some(caller), true) = (agent.clone(), delegated) {
                    timed.push((
                        start.clone(),
                        order,
                        Ev::Transfer {
                            kind: EdgeKind::Delegation,
                            from: caller.clone(),
                            to: name.clone(),
                            policy: None,
                        },
                    ));
                    timed.push((end.clone(), order, Ev::Return { from: name, to: caller }));
                }
            }
            "handoff" => {
                let (from, to) = (s(&d, "from_agent").to_owned(), s(&d, "to_agent").to_owned());
                if !from.is_empty() && !to.is_empty() {
                    timed.push((start, order, Ev::Transfer { kind: EdgeKind::Handoff, from, to, policy: None }));
                }
            }
            "generation" => {
                let input = d.get("input").filter(|v| !v.is_null()).map(openai_messages);
                let output = d.get("output").map(openai_messages).unwrap_or_default();
                if input.is_none() {
                    content_missing = true;
                }
                let model = d.get("model").and_then(Value::as_str).map(str::to_owned);
                timed.push((
                    start.clone(),
                    order,
                    Ev::Model {
                        agent: agent_name,
                        input,
                        output,
                        usage: usage_of(d.get("usage")),
                        model,
                        held: Default::default(),
                        time: CallTime::of_rfc3339(&start, &end),
                    },
                ));
            }
            "response" => {
                // With sensitive data the SDK may keep input/response on the span object in
                // memory, but its export carries only the response id and usage.
                let input = d.get("input").filter(|v| !v.is_null()).map(openai_messages);
                let output = d.pointer("/response/output").map(openai_messages).unwrap_or_default();
                if input.is_none() {
                    content_missing = true;
                }
                let model = d.pointer("/response/model").and_then(Value::as_str).map(str::to_owned);
                timed.push((
                    start.clone(),
                    order,
                    Ev::Model {
                        agent: agent_name,
                        input,
                        output,
                        usage: usage_of(d.get("usage")),
                        model,
                        held: Default::default(),
                        time: CallTime::of_rfc3339(&start, &end),
                    },
                ));
            }
            "function" => {
                let name = s(&d, "name").to_owned();
                let output = d.get("output").filter(|v| !v.is_null()).map(|o| match o {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                });
                let time = CallTime::of_rfc3339(&start, &end);
                let at = if has_agent_child.contains(s(sp, "id")) { end } else { start };
                timed.push((
                    at,
                    order,
                    Ev::Tool {
                        agent: agent_name,
                        name,
                        call_id: None,
                        arguments: s(&d, "input").to_owned(),
                        output,
                        time,
                    },
                ));
            }
            _ => {}
        }
        if let Some(e) = sp.get("error").filter(|e| !e.is_null()) {
            let message = e.get("message").and_then(Value::as_str).map(str::to_owned).unwrap_or_else(|| e.to_string());
            let agent = agent.unwrap_or_default();
            timed.push((s(sp, "ended_at").to_owned(), order, Ev::Error { agent, message }));
        }
    }
    if content_missing {
        notes.push(
            "the OpenAI Agents SDK export keeps no message content for `response` spans (only the response id): \
             transfers show who handed off to whom, not what crossed"
                .to_owned(),
        );
    }
    timed.sort_by(|a, b| (&a.0, a.1).cmp(&(&b.0, b.1)));
    let started_at =
        t.spans.iter().map(|sp| s(sp, "started_at")).filter(|x| !x.is_empty()).min().unwrap_or_default().to_owned();
    let ended_at = t.spans.iter().map(|sp| s(sp, "ended_at")).max().unwrap_or_default().to_owned();
    Ok(RecordedRun {
        id: t.id.clone(),
        name: t.name.clone(),
        started_at,
        ended_at,
        events: timed.into_iter().map(|(_, _, e)| e).collect(),
        notes,
        ..Default::default()
    })
}

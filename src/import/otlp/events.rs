//! Messages kept in span events rather than attributes: the GenAI conventions' per-message events
//! (`gen_ai.system.message`, `gen_ai.user.message`, `gen_ai.assistant.message`,
//! `gen_ai.tool.message`, `gen_ai.choice`, whose `content` may be plain text, OpenAI-style parts
//! or Bedrock Converse blocks as Strands writes them) and the newer
//! `gen_ai.client.inference.operation.details` event, whose attributes are the same as the
//! span-attribute form and are lifted onto the span.

use super::super::recorded::{CallRec, MsgRec, Role};
use super::{Attrs, Span};
use serde_json::Value;

/// The event that carries the newer conventions' messages as attributes.
const DETAILS: &str = "gen_ai.client.inference.operation.details";

/// Lifts the details event's attributes onto its span where the span lacks them (a span may
/// hold several such events: the last of each key wins, as the exporters write it).
pub fn lift_details(sp: &mut Span) {
    let mut lifted: Vec<(String, Value)> = vec![];
    for (name, attrs) in &sp.events {
        if name != DETAILS {
            continue;
        }
        for (k, v) in attrs.iter() {
            if !sp.attrs.contains_key(k) {
                lifted.retain(|(x, _)| x != k);
                lifted.push((k.clone(), v.clone()));
            }
        }
    }
    for (k, v) in lifted {
        sp.attrs.set(&k, v);
    }
}

fn text_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// A value that may be JSON written as a string.
fn parsed(v: &Value) -> Value {
    match v {
        Value::String(s) if s.trim_start().starts_with(['[', '{']) => {
            serde_json::from_str(s).unwrap_or_else(|_| v.clone())
        }
        other => other.clone(),
    }
}

/// The messages of one content value: plain text, a list of Converse blocks (`text`,
/// `toolUse`, `toolResult`) or OpenAI-style parts (`type: text`).
fn content_messages(role: Role, content: &Value, id: Option<String>) -> Vec<MsgRec> {
    let c = parsed(content);
    let Value::Array(blocks) = &c else {
        let mut m = MsgRec::text(role, text_of(&c));
        m.call_id = id.filter(|_| role == Role::Tool);
        return vec![m];
    };
    let mut main = MsgRec::text(role, "");
    let mut results = vec![];
    let mut texts = vec![];
    for b in blocks {
        if let Some(t) = b.get("text").and_then(Value::as_str) {
            texts.push(t.to_owned());
        } else if let Some(u) = b.get("toolUse") {
            main.calls.push(CallRec {
                id: u.get("toolUseId").map(text_of).unwrap_or_default(),
                name: u.get("name").map(text_of).unwrap_or_default(),
                arguments: u
                    .get("input")
                    .map(|i| match i {
                        Value::String(s) => s.clone(),
                        other => other.to_string(),
                    })
                    .unwrap_or_else(|| "{}".into()),
            });
        } else if let Some(r) = b.get("toolResult") {
            let body = r
                .get("content")
                .map(|c| match c {
                    Value::Array(parts) => parts
                        .iter()
                        .map(|p| p.get("text").map(text_of).unwrap_or_else(|| p.to_string()))
                        .collect::<Vec<_>>()
                        .join("\n"),
                    other => text_of(other),
                })
                .unwrap_or_default();
            let mut m = MsgRec::text(Role::Tool, body);
            m.call_id = r.get("toolUseId").map(text_of);
            results.push(m);
        }
    }
    main.text = texts.join("\n");
    main.call_id = id.filter(|_| role == Role::Tool);
    let mut out = vec![];
    if !main.text.is_empty() || !main.calls.is_empty() || results.is_empty() {
        out.push(main);
    }
    out.extend(results);
    out
}

/// OpenAI-style `tool_calls` beside an event's content.
fn event_calls(a: &Attrs) -> Vec<CallRec> {
    let Some(v) = a.get("tool_calls").map(parsed) else { return vec![] };
    v.as_array()
        .into_iter()
        .flatten()
        .map(|c| CallRec {
            id: c.get("id").map(text_of).unwrap_or_default(),
            name: c.pointer("/function/name").map(text_of).unwrap_or_default(),
            arguments: c.pointer("/function/arguments").map(text_of).unwrap_or_else(|| "{}".into()),
        })
        .collect()
}

/// The span's messages from its per-message events: the input (system, user, assistant and
/// tool events) or the output (`gen_ai.choice`). None when it has no such events.
pub fn event_messages(sp: &Span, input: bool) -> Option<Vec<MsgRec>> {
    let mut out = vec![];
    let mut any = false;
    for (name, a) in &sp.events {
        let role = match name.as_str() {
            "gen_ai.system.message" => Role::System,
            "gen_ai.user.message" => Role::User,
            "gen_ai.assistant.message" => Role::Assistant,
            "gen_ai.tool.message" => Role::Tool,
            "gen_ai.choice" => Role::Assistant,
            _ => continue,
        };
        if input == (name == "gen_ai.choice") {
            continue;
        }
        any = true;
        let content = a.get("content").or_else(|| a.get("message")).cloned().unwrap_or(Value::Null);
        let id = a.get("id").map(text_of);
        let mut msgs = content_messages(role, &content, id);
        if let Some(first) = msgs.first_mut().filter(|_| role == Role::Assistant) {
            first.calls.extend(event_calls(a));
        }
        out.extend(msgs);
    }
    any.then_some(out)
}

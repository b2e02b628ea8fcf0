//! Message lists in the shapes traces record them: OpenAI Chat Completions messages, Responses
//! input/output items, and the OpenTelemetry GenAI `parts` form.

use super::recorded::{CallRec, MsgRec, Role};
use serde_json::Value;

fn role_of(s: &str) -> Role {
    match s {
        "system" | "developer" => Role::System,
        "assistant" | "model" => Role::Assistant,
        "tool" | "function" => Role::Tool,
        _ => Role::User,
    }
}

/// The text of a Python `repr` of an SDK output part, as the OTel contrib instrumentation of
/// the Agents SDK (0.1.0) writes assistant text: `{'annotations': [], 'text': 'Hi', 'type':
/// 'output_text'}`. None for any other text.
fn python_repr_text(s: &str) -> Option<String> {
    let s = s.trim();
    if !(s.starts_with('{') && s.ends_with('}') && s.contains("'type': 'output_text'")) {
        return None;
    }
    let at = s.find("'text': ")? + "'text': ".len();
    let mut chars = s[at..].chars();
    let quote = chars.next().filter(|q| *q == '\'' || *q == '"')?;
    let mut out = String::new();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next()? {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                other => out.push(other),
            },
            c if c == quote => return Some(out),
            c => out.push(c),
        }
    }
    None
}

/// Text of a `content` that is a string or a list of parts.
pub fn content_text(c: &Value) -> String {
    match c {
        Value::String(s) => python_repr_text(s).unwrap_or_else(|| s.clone()),
        Value::Array(parts) => parts
            .iter()
            .filter_map(|p| p.get("text").or_else(|| p.get("content")).and_then(Value::as_str).or_else(|| p.as_str()))
            .collect::<Vec<_>>()
            .join(""),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

fn args_text(v: Option<&Value>) -> String {
    match v {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Null) | None => "{}".into(),
        Some(other) => other.to_string(),
    }
}

/// OpenAI messages (Chat Completions) or Responses items, in one list or as a single string.
pub fn openai_messages(v: &Value) -> Vec<MsgRec> {
    let items: Vec<Value> = match v {
        Value::Array(a) => a.clone(),
        Value::String(s) => return vec![MsgRec::text(Role::User, s.clone())],
        Value::Object(_) => vec![v.clone()],
        _ => vec![],
    };
    let mut out = vec![];
    for it in &items {
        match it.get("type").and_then(Value::as_str) {
            Some("function_call") => out.push(MsgRec {
                role: Role::Assistant,
                text: String::new(),
                calls: vec![CallRec {
                    id: it.get("call_id").and_then(Value::as_str).unwrap_or_default().into(),
                    name: it.get("name").and_then(Value::as_str).unwrap_or_default().into(),
                    arguments: args_text(it.get("arguments")),
                }],
                call_id: None,
                author: None,
                ..Default::default()
            }),
            Some("function_call_output") => out.push(MsgRec {
                role: Role::Tool,
                text: content_text(it.get("output").unwrap_or(&Value::Null)),
                calls: vec![],
                call_id: it.get("call_id").and_then(Value::as_str).map(str::to_owned),
                author: None,
                ..Default::default()
            }),
            Some("reasoning") => {}
            _ => {
                let role = role_of(it.get("role").and_then(Value::as_str).unwrap_or("user"));
                let calls = it
                    .get("tool_calls")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .map(|c| CallRec {
                        id: c.get("id").and_then(Value::as_str).unwrap_or_default().into(),
                        name: c.pointer("/function/name").and_then(Value::as_str).unwrap_or_default().into(),
                        arguments: args_text(c.pointer("/function/arguments")),
                    })
                    .collect();
                out.push(MsgRec {
                    role,
                    text: content_text(it.get("content").unwrap_or(&Value::Null)),
                    calls,
                    call_id: it.get("tool_call_id").and_then(Value::as_str).map(str::to_owned),
                    author: None,
                    ..Default::default()
                });
            }
        }
    }
    out
}

/// The OpenTelemetry GenAI form: `[{"role", "parts": [{"type": "text", "content"},
/// {"type": "tool_call", "id", "name", "arguments"}, {"type": "tool_call_response", "id",
/// "response"}]}]` (also accepts OpenAI-style messages).
pub fn genai_messages(v: &Value) -> Vec<MsgRec> {
    let Some(list) = v.as_array() else { return openai_messages(v) };
    if !list.iter().any(|m| m.get("parts").is_some()) {
        return openai_messages(v);
    }
    let mut out = vec![];
    for m in list {
        let role = role_of(m.get("role").and_then(Value::as_str).unwrap_or("user"));
        let mut msg =
            MsgRec { role, text: String::new(), calls: vec![], call_id: None, author: None, ..Default::default() };
        for p in m.get("parts").and_then(Value::as_array).into_iter().flatten() {
            match p.get("type").and_then(Value::as_str) {
                Some("reasoning") | Some("thinking") => {
                    msg.reasoning.push(content_text(p.get("content").unwrap_or(&Value::Null)));
                }
                Some("text") | None => {
                    if !msg.text.is_empty() {
                        msg.text.push('\n');
                    }
                    msg.text.push_str(&content_text(p.get("content").unwrap_or(&Value::Null)));
                }
                Some("tool_call") => msg.calls.push(CallRec {
                    id: p.get("id").and_then(Value::as_str).unwrap_or_default().into(),
                    name: p.get("name").and_then(Value::as_str).unwrap_or_default().into(),
                    arguments: args_text(p.get("arguments")),
                }),
                Some("tool_call_response") => out.push(MsgRec {
                    role: Role::Tool,
                    text: content_text(p.get("response").or_else(|| p.get("result")).unwrap_or(&Value::Null)),
                    calls: vec![],
                    call_id: p.get("id").and_then(Value::as_str).map(str::to_owned),
                    author: None,
                    ..Default::default()
                }),
                _ => {}
            }
        }
        if !msg.text.is_empty() || !msg.calls.is_empty() || !msg.reasoning.is_empty() {
            out.push(msg);
        }
    }
    out
}

/// The GenAI `parts` form parsed straight from its JSON text (the fast path for
/// `gen_ai.input.messages` / `gen_ai.output.messages`); None when the text is not that form.
pub fn genai_messages_str(text: &str) -> Option<Vec<MsgRec>> {
    use serde::Deserialize;
    use std::borrow::Cow;
    #[derive(Deserialize)]
    struct GMsg<'a> {
        #[serde(borrow)]
        role: Cow<'a, str>,
        #[serde(borrow)]
        parts: Vec<GPart<'a>>,
    }
    #[derive(Deserialize)]
    struct GPart<'a> {
        #[serde(rename = "type", borrow)]
        ty: Cow<'a, str>,
        #[serde(default)]
        content: Option<Value>,
        #[serde(default, borrow)]
        id: Option<Cow<'a, str>>,
        #[serde(default, borrow)]
        name: Option<Cow<'a, str>>,
        #[serde(default)]
        arguments: Option<Value>,
        #[serde(default)]
        response: Option<Value>,
        #[serde(default)]
        result: Option<Value>,
    }
    let msgs: Vec<GMsg<'_>> = serde_json::from_str(text).ok()?;
    let mut out = vec![];
    for m in msgs {
        let mut msg = MsgRec { role: role_of(&m.role), ..Default::default() };
        for p in m.parts {
            match p.ty.as_ref() {
                "reasoning" | "thinking" => {
                    msg.reasoning.push(content_text(p.content.as_ref().unwrap_or(&Value::Null)))
                }
                "text" => {
                    if !msg.text.is_empty() {
                        msg.text.push('\n');
                    }
                    msg.text.push_str(&content_text(p.content.as_ref().unwrap_or(&Value::Null)));
                }
                "tool_call" => msg.calls.push(CallRec {
                    id: p.id.map(Cow::into_owned).unwrap_or_default(),
                    name: p.name.map(Cow::into_owned).unwrap_or_default(),
                    arguments: args_text(p.arguments.as_ref()),
                }),
                "tool_call_response" => out.push(MsgRec {
                    role: Role::Tool,
                    text: content_text(p.response.as_ref().or(p.result.as_ref()).unwrap_or(&Value::Null)),
                    call_id: p.id.map(Cow::into_owned),
                    ..Default::default()
                }),
                _ => {}
            }
        }
        if !msg.text.is_empty() || !msg.calls.is_empty() || !msg.reasoning.is_empty() {
            out.push(msg);
        }
    }
    Some(out)
}

/// One LangChain message as its serializer writes it (`{"lc": 1, "type": "constructor", "id":
/// [..., "AIMessage"], "kwargs": {content, type, name, tool_calls, tool_call_id}}`) or as its
/// plain dict (`{"type": "ai", "content": …}`).
fn langchain_message(v: &Value) -> Option<MsgRec> {
    let k = v.get("kwargs").unwrap_or(v);
    let class = v.get("id").and_then(Value::as_array).and_then(|id| id.last()).and_then(Value::as_str).unwrap_or("");
    let kind = k.get("type").and_then(Value::as_str).unwrap_or(class);
    let role = match kind {
        "system" | "SystemMessage" => Role::System,
        "human" | "HumanMessage" => Role::User,
        "ai" | "AIMessage" | "AIMessageChunk" => Role::Assistant,
        "tool" | "ToolMessage" => Role::Tool,
        _ => return None,
    };
    let mut m = MsgRec::text(role, content_text(k.get("content").unwrap_or(&Value::Null)));
    if role == Role::Assistant {
        m.author = k.get("name").and_then(Value::as_str).filter(|n| !n.is_empty()).map(str::to_owned);
        for c in k.get("tool_calls").and_then(Value::as_array).into_iter().flatten() {
            m.calls.push(CallRec {
                id: c.get("id").and_then(Value::as_str).unwrap_or_default().to_owned(),
                name: c.get("name").and_then(Value::as_str).unwrap_or_default().to_owned(),
                arguments: args_text(c.get("args")),
            });
        }
    }
    if role == Role::Tool {
        m.call_id = k.get("tool_call_id").and_then(Value::as_str).map(str::to_owned);
    }
    Some(m)
}

/// LangChain's model input (`{"messages": [[message, …]]}`) or output (`{"generations":
/// [[{"message": …}]]}`), as LangSmith's OTel export keeps them in `gen_ai.prompt` /
/// `gen_ai.completion`. None when it is neither.
pub fn langchain_messages(v: &Value) -> Option<Vec<MsgRec>> {
    if let Some(batches) = v.get("messages").and_then(Value::as_array) {
        let first = batches.first()?;
        let list = first.as_array().map(|a| a.as_slice()).unwrap_or(batches.as_slice());
        let out: Vec<MsgRec> = list.iter().filter_map(langchain_message).collect();
        return (!out.is_empty()).then_some(out);
    }
    let gens = v.get("generations")?.as_array()?.first()?.as_array()?;
    let out: Vec<MsgRec> = gens.iter().filter_map(|g| g.get("message").and_then(langchain_message)).collect();
    (!out.is_empty()).then_some(out)
}

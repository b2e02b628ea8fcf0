//! OTLP JSON (`resourceSpans` → `scopeSpans` → `spans`, and the file exporter's JSON Lines)
//! read through the OpenTelemetry GenAI conventions (`gen_ai.operation.name` invoke_agent /
//! chat / execute_tool, `gen_ai.input.messages`...) and OpenInference attributes
//! (`openinference.span.kind`, `llm.input_messages.<i>.message.*`, `tool.name`...). Handoffs
//! are inferred where no span says so: `transfer_to_*` tool calls and successive agent spans.

mod events;
mod frameworks;

use super::ancestry;
use super::messages::genai_messages;
use super::recorded::{CallRec, CallTime, Ev, MsgRec, RecordedRun, Role};
use crate::providers::Usage;
use crate::topology::EdgeKind;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, HashMap};

/// One OTLP span, flattened.
#[derive(Debug, Clone, Default)]
pub struct Span {
    pub trace_id: String,
    pub id: String,
    pub parent: String,
    pub name: String,
    pub start: u128,
    pub end: u128,
    pub attrs: Attrs,
    pub error: Option<String>,
    /// What the span is (agent, model call, tool), worked out once: reconstruction asks for
    /// every span on every parent walk.
    pub kind: std::cell::OnceCell<Kind>,
    /// The instrumentation scope's name (`openinference.instrumentation.langchain`,
    /// `strands.telemetry.tracer`…).
    pub scope: String,
    /// The span's events: name and attributes (older GenAI conventions keep messages there).
    pub events: Vec<(String, Attrs)>,
}

/// A span's attributes: a short list searched in order (cheaper to build than a map, and
/// spans carry a dozen attributes at most).
#[derive(Debug, Clone, Default)]
pub struct Attrs(Vec<(String, Value)>);

/// Replaces what looks like a key in a value (strings inside arrays and objects too); how many
/// strings changed.
fn redact_value(v: &mut Value) -> usize {
    match v {
        Value::String(s) => match crate::providers::redact::redact(s) {
            std::borrow::Cow::Owned(r) => {
                *s = r;
                1
            }
            std::borrow::Cow::Borrowed(_) => 0,
        },
        Value::Array(a) => a.iter_mut().map(redact_value).sum(),
        Value::Object(m) => m.values_mut().map(redact_value).sum(),
        _ => 0,
    }
}

impl Attrs {
    /// Replaces every value that holds a configured key or something shaped like a provider key
    /// (an application that put its key in a span); how many values changed.
    pub fn redact_secrets(&mut self) -> usize {
        self.0.iter_mut().map(|(_, v)| redact_value(v)).sum()
    }

    /// Cuts every string value (inside arrays and objects too) longer than `max` bytes to `max`,
    /// with a mark saying how much was cut; how many were cut.
    pub fn truncate_long(&mut self, max: usize) -> usize {
        fn cut(v: &mut Value, max: usize) -> usize {
            match v {
                Value::String(s) if s.len() > max => {
                    let keep = s.floor_char_boundary(max);
                    let dropped = s.len() - keep;
                    s.truncate(keep);
                    s.push_str(&format!("… [cut by Baton's collector: {dropped} more bytes]"));
                    1
                }
                Value::Array(a) => a.iter_mut().map(|v| cut(v, max)).sum(),
                Value::Object(m) => m.values_mut().map(|v| cut(v, max)).sum(),
                _ => 0,
            }
        }
        self.0.iter_mut().map(|(_, v)| cut(v, max)).sum()
    }

    /// Sets an attribute (an adapter adding what a convention lacks).
    pub fn set(&mut self, k: &str, v: Value) {
        match self.0.iter_mut().find(|(key, _)| key == k) {
            Some(slot) => slot.1 = v,
            None => self.0.push((k.to_owned(), v)),
        }
    }

    pub fn get(&self, k: &str) -> Option<&Value> {
        self.0.iter().find(|(key, _)| key == k).map(|(_, v)| v)
    }

    pub fn contains_key(&self, k: &str) -> bool {
        self.get(k).is_some()
    }

    pub fn iter(&self) -> impl Iterator<Item = (&String, &Value)> {
        self.0.iter().map(|(k, v)| (k, v))
    }

    pub fn from_pairs(pairs: Vec<(String, Value)>) -> Attrs {
        Attrs(pairs)
    }
}

impl FromIterator<(String, Value)> for Attrs {
    fn from_iter<I: IntoIterator<Item = (String, Value)>>(iter: I) -> Self {
        Attrs(iter.into_iter().collect())
    }
}

/// An OTLP AnyValue as plain JSON.
fn any_value(v: &Value) -> Value {
    if let Some(s) = v.get("stringValue") {
        return s.clone();
    }
    if let Some(i) = v.get("intValue") {
        return match i {
            Value::String(s) => s.parse::<i64>().map(Value::from).unwrap_or(Value::String(s.clone())),
            other => other.clone(),
        };
    }
    if let Some(d) = v.get("doubleValue") {
        return d.clone();
    }
    if let Some(b) = v.get("boolValue") {
        return b.clone();
    }
    if let Some(a) = v.pointer("/arrayValue/values").and_then(Value::as_array) {
        return Value::Array(a.iter().map(any_value).collect());
    }
    if let Some(kv) = v.pointer("/kvlistValue/values").and_then(Value::as_array) {
        return Value::Object(attrs_of(kv));
    }
    Value::Null
}

fn attrs_of(list: &[Value]) -> Map<String, Value> {
    list.iter()
        .filter_map(|kv| {
            Some((kv.get("key")?.as_str()?.to_owned(), any_value(kv.get("value").unwrap_or(&Value::Null))))
        })
        .collect()
}

fn nanos(v: Option<&Value>) -> u128 {
    match v {
        Some(Value::String(s)) => s.parse().unwrap_or(0),
        Some(Value::Number(n)) => n.as_u64().unwrap_or(0) as u128,
        _ => 0,
    }
}

/// The spans of one OTLP document (a `{"resourceSpans": [...]}` object).
pub fn spans_of(doc: &Value) -> Vec<Span> {
    let mut out = vec![];
    for rs in doc.get("resourceSpans").and_then(Value::as_array).into_iter().flatten() {
        let scopes = rs.get("scopeSpans").or_else(|| rs.get("instrumentationLibrarySpans"));
        for ss in scopes.and_then(Value::as_array).into_iter().flatten() {
            let scope = ss.pointer("/scope/name").and_then(Value::as_str).unwrap_or_default();
            for sp in ss.get("spans").and_then(Value::as_array).into_iter().flatten() {
                let status = sp.get("status");
                let error = status
                    .filter(|s| s.get("code").is_some_and(|c| c == 2 || c == "STATUS_CODE_ERROR"))
                    .map(|s| s.get("message").and_then(Value::as_str).unwrap_or("error").to_owned());
                out.push(Span {
                    trace_id: sp.get("traceId").and_then(Value::as_str).unwrap_or_default().to_owned(),
                    id: sp.get("spanId").and_then(Value::as_str).unwrap_or_default().to_owned(),
                    parent: sp.get("parentSpanId").and_then(Value::as_str).unwrap_or_default().to_owned(),
                    name: sp.get("name").and_then(Value::as_str).unwrap_or_default().to_owned(),
                    start: nanos(sp.get("startTimeUnixNano")),
                    end: nanos(sp.get("endTimeUnixNano")),
                    attrs: attrs_of(sp.get("attributes").and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]))
                        .into_iter()
                        .collect(),
                    error,
                    kind: Default::default(),
                    scope: scope.to_owned(),
                    events: sp
                        .get("events")
                        .and_then(Value::as_array)
                        .into_iter()
                        .flatten()
                        .map(|e| {
                            let name = e.get("name").and_then(Value::as_str).unwrap_or_default().to_owned();
                            let list = e.get("attributes").and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]);
                            (name, attrs_of(list).into_iter().collect())
                        })
                        .collect(),
                });
            }
        }
    }
    out
}

/// The OTLP document parsed straight from bytes into spans (no intermediate JSON tree, strings
/// borrowed where they need no unescaping): the fast path for large JSON Lines files.
pub fn spans_from_slice(bytes: &[u8]) -> Result<Vec<Span>, serde_json::Error> {
    use serde::Deserialize;
    use std::borrow::Cow;
    #[derive(Deserialize)]
    struct Doc<'a> {
        #[serde(rename = "resourceSpans", borrow)]
        resource_spans: Vec<Rs<'a>>,
    }
    #[derive(Deserialize)]
    struct Rs<'a> {
        #[serde(rename = "scopeSpans", alias = "instrumentationLibrarySpans", default, borrow)]
        scope_spans: Vec<Ss<'a>>,
    }
    #[derive(Deserialize)]
    struct Ss<'a> {
        #[serde(default, borrow)]
        scope: Option<Scope<'a>>,
        #[serde(default, borrow)]
        spans: Vec<Raw<'a>>,
    }
    #[derive(Deserialize)]
    struct Scope<'a> {
        #[serde(default, borrow)]
        name: Cow<'a, str>,
    }
    #[derive(Deserialize)]
    struct Event<'a> {
        #[serde(default, borrow)]
        name: Cow<'a, str>,
        #[serde(default, borrow)]
        attributes: Vec<Kv<'a>>,
    }
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Num<'a> {
        S(#[serde(borrow)] Cow<'a, str>),
        N(u64),
    }
    impl Num<'_> {
        fn get(&self) -> u128 {
            match self {
                Num::S(s) => s.parse().unwrap_or(0),
                Num::N(n) => *n as u128,
            }
        }
    }
    #[derive(Deserialize, Default)]
    struct AnyV<'a> {
        #[serde(rename = "stringValue", default, borrow)]
        s: Option<Cow<'a, str>>,
        #[serde(rename = "intValue", default, borrow)]
        i: Option<Num<'a>>,
        #[serde(rename = "doubleValue", default)]
        d: Option<f64>,
        #[serde(rename = "boolValue", default)]
        b: Option<bool>,
        #[serde(rename = "arrayValue", default)]
        a: Option<Value>,
        #[serde(rename = "kvlistValue", default)]
        kv: Option<Value>,
    }
    impl AnyV<'_> {
        fn into_value(self) -> Value {
            if let Some(s) = self.s {
                return Value::String(s.into_owned());
            }
            if let Some(i) = self.i {
                return Value::from(i.get() as u64);
            }
            if let Some(d) = self.d {
                return Value::from(d);
            }
            if let Some(b) = self.b {
                return Value::Bool(b);
            }
            if let Some(a) = self.a {
                return any_value(&serde_json::json!({ "arrayValue": a }));
            }
            if let Some(kv) = self.kv {
                return any_value(&serde_json::json!({ "kvlistValue": kv }));
            }
            Value::Null
        }
    }
    #[derive(Deserialize)]
    struct Kv<'a> {
        #[serde(borrow)]
        key: Cow<'a, str>,
        #[serde(default, borrow)]
        value: AnyV<'a>,
    }
    #[derive(Deserialize)]
    struct Status<'a> {
        #[serde(default)]
        code: Value,
        #[serde(default, borrow)]
        message: Option<Cow<'a, str>>,
    }
    #[derive(Deserialize)]
    #[allow(non_snake_case)]
    struct Raw<'a> {
        #[serde(default, borrow)]
        traceId: Cow<'a, str>,
        #[serde(default, borrow)]
        spanId: Cow<'a, str>,
        #[serde(default, borrow)]
        parentSpanId: Cow<'a, str>,
        #[serde(default, borrow)]
        name: Cow<'a, str>,
        #[serde(default, borrow)]
        startTimeUnixNano: Option<Num<'a>>,
        #[serde(default, borrow)]
        endTimeUnixNano: Option<Num<'a>>,
        #[serde(default, borrow)]
        attributes: Vec<Kv<'a>>,
        #[serde(default, borrow)]
        status: Option<Status<'a>>,
        #[serde(default, borrow)]
        events: Vec<Event<'a>>,
    }
    let doc: Doc<'_> = serde_json::from_slice(bytes)?;
    let mut out = vec![];
    for rs in doc.resource_spans {
        for ss in rs.scope_spans {
            let scope = ss.scope.map(|s| s.name.into_owned()).unwrap_or_default();
            for sp in ss.spans {
                let error = sp
                    .status
                    .filter(|s| s.code == 2 || s.code == "STATUS_CODE_ERROR")
                    .map(|s| s.message.map(|m| m.into_owned()).unwrap_or_else(|| "error".into()));
                out.push(Span {
                    trace_id: sp.traceId.into_owned(),
                    id: sp.spanId.into_owned(),
                    parent: sp.parentSpanId.into_owned(),
                    name: sp.name.into_owned(),
                    start: sp.startTimeUnixNano.map(|n| n.get()).unwrap_or(0),
                    end: sp.endTimeUnixNano.map(|n| n.get()).unwrap_or(0),
                    attrs: sp.attributes.into_iter().map(|kv| (kv.key.into_owned(), kv.value.into_value())).collect(),
                    error,
                    kind: Default::default(),
                    scope: scope.clone(),
                    events: sp
                        .events
                        .into_iter()
                        .map(|e| {
                            let attrs = e
                                .attributes
                                .into_iter()
                                .map(|kv| (kv.key.into_owned(), kv.value.into_value()))
                                .collect();
                            (e.name.into_owned(), attrs)
                        })
                        .collect(),
                });
            }
        }
    }
    Ok(out)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Agent,
    Model,
    Tool,
    Other,
}

fn text_attr(a: &Attrs, k: &str) -> Option<String> {
    a.get(k).and_then(|v| v.as_str().map(str::to_owned).or_else(|| (!v.is_null()).then(|| v.to_string())))
}

fn kind_of(sp: &Span) -> Kind {
    *sp.kind.get_or_init(|| classify(sp))
}

fn classify(sp: &Span) -> Kind {
    let a = &sp.attrs;
    // BeeAI traces every emitter event as its own span (`agent.react.start-4`,
    // `backend.openai.chat.success-16`): an agent's lifecycle events are steps of that agent, a
    // model call is its `start` event (its `success`/`finish` repeat it), a tool call its
    // `success` or `error` event (which holds both arguments and result).
    if let Some(event) = emitter_event(&sp.name).filter(|_| a.contains_key("openinference.span.kind")) {
        return match (a.get("openinference.span.kind").and_then(Value::as_str), event) {
            (Some("LLM"), "start") => Kind::Model,
            (Some("TOOL"), "success" | "error") => Kind::Tool,
            _ => Kind::Other,
        };
    }
    match a.get("gen_ai.operation.name").and_then(Value::as_str) {
        Some("invoke_agent") | Some("create_agent") => return Kind::Agent,
        Some("chat") | Some("text_completion") | Some("generate_content") => return Kind::Model,
        Some("execute_tool") => return Kind::Tool,
        _ => {}
    }
    match a.get("openinference.span.kind").and_then(Value::as_str) {
        Some("AGENT") => return Kind::Agent,
        Some("LLM") => return Kind::Model,
        Some("TOOL") => return Kind::Tool,
        _ => {}
    }
    // The Vercel AI SDK: `ai.generateText.doGenerate` (and streamText, generateObject…) is the
    // model call; `ai.toolCall` a tool.
    let op = a.get("ai.operationId").and_then(Value::as_str).unwrap_or(sp.name.as_str());
    if op.starts_with("ai.") {
        if op.ends_with(".doGenerate") || op.ends_with(".doStream") {
            return Kind::Model;
        }
        if op == "ai.toolCall" {
            return Kind::Tool;
        }
    }
    if ["ai.generate", "ai.stream", "ai.embed"].iter().any(|w| op.starts_with(w)) {
        // The Vercel wrapper spans (`ai.generateText` around its `doGenerate`) are not calls.
        return Kind::Other;
    }
    // Langfuse observations (its export, and its SDK's `langfuse.observation.*` spans).
    match a.get("langfuse.observation.type").and_then(Value::as_str) {
        Some("generation") => return Kind::Model,
        Some("agent") => return Kind::Agent,
        Some("tool") => return Kind::Tool,
        _ => {}
    }
    // An agent's own span that names it but carries no operation (pydantic-ai's `agent run`).
    if !a.contains_key("gen_ai.operation.name") && (a.contains_key("gen_ai.agent.name") || a.contains_key("agent_name"))
    {
        return Kind::Agent;
    }
    Kind::Other
}

/// The provider-side conversation a model span belongs to. A call continues an earlier one when
/// it names that call's response (`gen_ai.conversation.id` set to a response id, as Microsoft Agent
/// Framework records it; `previous_response_id` in OpenInference's invocation parameters) or an
/// OpenAI server-side conversation (`conv_…`). A session id in `gen_ai.conversation.id` is not one.
fn held_conversation(a: &Attrs, earlier: &std::collections::HashSet<String>) -> super::recorded::Held {
    let params = json_attr(a, "llm.invocation_parameters");
    let from_params = params.as_ref().and_then(|p| {
        p.get("previous_response_id")
            .or_else(|| p.get("conversation"))
            .and_then(|v| v.as_str().or_else(|| v.get("id").and_then(Value::as_str)))
            .map(str::to_owned)
    });
    let from_conversation = text_attr(a, "gen_ai.conversation.id")
        .filter(|c| earlier.contains(c) || c.starts_with("resp_") || c.starts_with("conv_"));
    super::recorded::Held {
        response_id: text_attr(a, "gen_ai.response.id"),
        continues: from_params.or(from_conversation),
    }
}

/// `backend.openai.chat.success-16` → `success`: a span named after an emitter's event path and
/// the event's sequence number (BeeAI's instrumentation), not after an agent, call or tool.
fn emitter_event(name: &str) -> Option<&str> {
    let (path, n) = name.rsplit_once('-')?;
    if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let segments: Vec<&str> = path.split('.').collect();
    let word = |s: &&str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
    (segments.len() >= 3 && segments.iter().all(word)).then(|| *segments.last().expect("three segments"))
}

/// `agent_run [hello_agent]` → `hello_agent`: frameworks that put the agent's name only in
/// the span name (ADK, Agno, Koog) put it in brackets or after `invoke_agent `.
fn name_in_span_name(name: &str) -> Option<String> {
    if let Some(n) = name.strip_prefix("invoke_agent ").filter(|n| !n.trim().is_empty()) {
        return Some(n.trim().to_owned());
    }
    let (head, rest) = name.split_once(" [")?;
    let inner = rest.strip_suffix(']')?;
    (!head.contains(' ') && !inner.is_empty()).then(|| inner.to_owned())
}

/// CrewAI records the agent only inside its task span's input: `role='Software developer'`.
fn crewai_role(a: &Attrs) -> Option<String> {
    let input = json_attr(a, "input.value")?;
    let agent = input.get("agent")?.as_str()?;
    let at = agent.find("role='")? + "role='".len();
    let end = agent[at..].find('\'')?;
    Some(agent[at..at + end].to_owned())
}

fn agent_name(sp: &Span) -> Option<String> {
    let is_agent = kind_of(sp) == Kind::Agent;
    text_attr(&sp.attrs, "gen_ai.agent.name")
        .or_else(|| text_attr(&sp.attrs, "agent.name"))
        .or_else(|| text_attr(&sp.attrs, "agent_name"))
        .or_else(|| text_attr(&sp.attrs, "graph.node.id").filter(|_| is_agent))
        .or_else(|| is_agent.then(|| crewai_role(&sp.attrs)).flatten())
        .or_else(|| is_agent.then(|| name_in_span_name(&sp.name)).flatten())
        .or_else(|| is_agent.then(|| sp.name.clone()))
}

/// OpenInference's flattened message list: `llm.input_messages.<i>.message.role` etc.
fn openinference_messages(a: &Attrs, prefix: &str) -> Option<Vec<MsgRec>> {
    let mut by_index: BTreeMap<usize, MsgRec> = BTreeMap::new();
    let mut calls: BTreeMap<(usize, usize), CallRec> = BTreeMap::new();
    // Multi-part contents, used when a message has no plain `message.content`.
    let mut multipart: BTreeMap<usize, BTreeMap<usize, String>> = BTreeMap::new();
    for (k, v) in a.iter() {
        let Some(rest) = k.strip_prefix(prefix) else { continue };
        let mut parts = rest.splitn(2, '.');
        let Some(i) = parts.next().and_then(|i| i.parse::<usize>().ok()) else { continue };
        let field = parts.next().unwrap_or_default();
        let m = by_index.entry(i).or_insert_with(|| MsgRec::text(Role::User, ""));
        let val = v.as_str().map(str::to_owned).unwrap_or_else(|| v.to_string());
        match field {
            "message.role" => {
                m.role = match val.as_str() {
                    // smolagents sends its earlier calls as assistant text (`tool-call`) and their
                    // observations as user text (`tool-response`).
                    "assistant" | "model" | "tool-call" => Role::Assistant,
                    "system" | "developer" => Role::System,
                    "tool" => Role::Tool,
                    _ => Role::User,
                }
            }
            "message.content" => m.text = val,
            f if f.starts_with("message.contents.") && f.ends_with(".message_content.text") => {
                let idx =
                    f["message.contents.".len()..].split('.').next().and_then(|k| k.parse::<usize>().ok()).unwrap_or(0);
                multipart.entry(i).or_default().insert(idx, val);
            }
            "message.tool_call_id" => m.call_id = Some(val),
            // Who wrote it (LangChain sets an agent's name on its messages).
            "message.name" => m.author = Some(val).filter(|v| !v.is_empty()),
            f if f.starts_with("message.tool_calls.") => {
                let rest = &f["message.tool_calls.".len()..];
                let mut p = rest.splitn(2, '.');
                let Some(j) = p.next().and_then(|j| j.parse::<usize>().ok()) else { continue };
                let c = calls.entry((i, j)).or_insert(CallRec {
                    id: String::new(),
                    name: String::new(),
                    arguments: "{}".into(),
                });
                match p.next().unwrap_or_default() {
                    "tool_call.id" => c.id = val,
                    "tool_call.function.name" => c.name = val,
                    "tool_call.function.arguments" => c.arguments = val,
                    _ => {}
                }
            }
            _ => {}
        }
    }
    if by_index.is_empty() {
        return None;
    }
    for ((i, _), c) in calls {
        if let Some(m) = by_index.get_mut(&i) {
            m.calls.push(c);
        }
    }
    for (i, p) in multipart {
        if let Some(m) = by_index.get_mut(&i).filter(|m| m.text.is_empty()) {
            m.text = p.into_values().collect::<Vec<_>>().join("\n");
        }
    }
    // A name on an assistant message is the agent that wrote it; on a tool message it is the
    // tool's, on a user message the person's: neither is an author among the agents.
    for m in by_index.values_mut().filter(|m| m.role != Role::Assistant) {
        m.author = None;
    }
    Some(by_index.into_values().collect())
}

fn json_attr(a: &Attrs, k: &str) -> Option<Value> {
    match a.get(k)? {
        Value::String(s) => serde_json::from_str(s).ok(),
        other => Some(other.clone()),
    }
}

fn model_messages(sp: &Span, input: bool) -> Option<Vec<MsgRec>> {
    attr_messages(&sp.attrs, input).or_else(|| events::event_messages(sp, input))
}

fn attr_messages(a: &Attrs, input: bool) -> Option<Vec<MsgRec>> {
    let (genai, oi) = if input {
        ("gen_ai.input.messages", "llm.input_messages.")
    } else {
        ("gen_ai.output.messages", "llm.output_messages.")
    };
    let fast = a.get(genai).and_then(Value::as_str).and_then(super::messages::genai_messages_str);
    let langchain = if input { "gen_ai.prompt" } else { "gen_ai.completion" };
    let mut msgs = fast
        .or_else(|| json_attr(a, genai).map(|v| genai_messages(&v)))
        .or_else(|| openinference_messages(a, oi))
        .or_else(|| json_attr(a, langchain).as_ref().and_then(super::messages::langchain_messages))
        .or_else(|| other_convention_messages(a, input));
    let sys = if input { json_attr(a, "gen_ai.system_instructions") } else { None };
    if let Some(sys) = sys.map(|v| match v {
        Value::String(s) => s,
        Value::Array(parts) => {
            parts.iter().filter_map(|p| p.get("content").and_then(Value::as_str)).collect::<Vec<_>>().join("\n")
        }
        other => other.to_string(),
    }) {
        msgs.get_or_insert_with(Vec::new).insert(0, MsgRec::text(Role::System, sys));
    }
    msgs
}

/// A list of GenAI-convention messages (`{role, parts: [{type, content}]}`), as Langfuse keeps
/// the input and output of GenAI spans.
fn is_genai_list(v: &Value) -> bool {
    v.as_array().and_then(|a| a.first()).is_some_and(|m| m.get("parts").is_some_and(Value::is_array))
}

/// Messages of conventions that are neither GenAI nor OpenInference: the Vercel AI SDK
/// (`ai.prompt.messages`, `ai.response.text`, `ai.response.toolCalls`) and Langfuse
/// (`langfuse.observation.input` / `output`: chat messages, Responses items or a whole
/// response object).
fn other_convention_messages(a: &Attrs, input: bool) -> Option<Vec<MsgRec>> {
    if input {
        if let Some(v) = json_attr(a, "ai.prompt.messages") {
            return Some(super::messages::openai_messages(&v));
        }
        let v = json_attr(a, "langfuse.observation.input")?;
        let v = v.get("messages").cloned().unwrap_or(v);
        if is_genai_list(&v) {
            return Some(genai_messages(&v));
        }
        return Some(super::messages::openai_messages(&v));
    }
    if a.contains_key("ai.response.text") || a.contains_key("ai.response.toolCalls") {
        let mut m = MsgRec::text(Role::Assistant, text_attr(a, "ai.response.text").unwrap_or_default());
        for c in json_attr(a, "ai.response.toolCalls").and_then(|v| v.as_array().cloned()).unwrap_or_default() {
            m.calls.push(CallRec {
                id: c.get("toolCallId").and_then(Value::as_str).unwrap_or_default().into(),
                name: c.get("toolName").and_then(Value::as_str).unwrap_or_default().into(),
                arguments: c
                    .get("args")
                    .or_else(|| c.get("input"))
                    .map(|x| match x {
                        Value::String(s) => s.clone(),
                        other => other.to_string(),
                    })
                    .unwrap_or_else(|| "{}".into()),
            });
        }
        return Some(vec![m]);
    }
    let v = json_attr(a, "langfuse.observation.output")?;
    if is_genai_list(&v) {
        return Some(genai_messages(&v));
    }
    let items = if let Some(out) = v.get("output").filter(|o| o.is_array()) {
        out.clone()
    } else if let Some(msg) = v.pointer("/choices/0/message") {
        msg.clone()
    } else if v.is_string() {
        serde_json::json!([{ "role": "assistant", "content": v }])
    } else {
        v
    };
    let mut msgs = super::messages::openai_messages(&items);
    for m in msgs.iter_mut() {
        if m.role == Role::User {
            m.role = Role::Assistant;
        }
    }
    Some(msgs)
}

/// The conversation a trace belongs to (`gen_ai.conversation.id`, `session.id`), if recorded:
/// successive traces of one conversation (ADK writes one per turn) are one run.
pub fn conversation_of(spans: &[Span]) -> Option<String> {
    let of = |s: &Span| text_attr(&s.attrs, "gen_ai.conversation.id").or_else(|| text_attr(&s.attrs, "session.id"));
    // The root's first: agents nested in a tool (pydantic-ai's delegation) carry conversations of
    // their own.
    spans
        .iter()
        .filter(|s| s.parent.is_empty())
        .find_map(of)
        .or_else(|| spans.iter().find_map(of))
        .or_else(|| spans.iter().find_map(runtime_topic))
}

/// The topic of an agent runtime's messages (`messaging.destination`
/// `billing_<32 hex>.(default)-A` or `<32 hex>.(default)-T`): Semantic Kernel's orchestrations
/// start a trace at every send, and this topic is what all the traces of one run share.
fn runtime_topic(s: &Span) -> Option<String> {
    if !s.name.starts_with("agent_runtime ") {
        return None;
    }
    let d = text_attr(&s.attrs, "messaging.destination")?;
    let head = d.split('.').next()?;
    let hex = head.rsplit('_').next()?;
    (hex.len() == 32 && hex.bytes().all(|b| b.is_ascii_hexdigit())).then(|| format!("runtime topic {hex}"))
}

/// Whether a trace holds nothing an agent did (a runtime's acknowledgement): it joins whatever
/// run is being assembled instead of ending it.
pub fn is_plumbing(spans: &[Span]) -> bool {
    spans.iter().all(|s| s.name.starts_with("agent_runtime ") || s.name.starts_with("workflow.build"))
}

/// Refuses a trace whose spans nest deeper than [`ancestry::MAX_NESTING`], naming its deepest span.
fn check_nesting(trace_id: &str, spans: &[Span]) -> Result<(), String> {
    let by_id: HashMap<&str, usize> = spans.iter().enumerate().map(|(i, s)| (s.id.as_str(), i)).collect();
    let up: Vec<Option<usize>> = spans.iter().map(|s| by_id.get(s.parent.as_str()).copied()).collect();
    ancestry::check_nesting(trace_id, &up, |i| {
        format!("span \"{}\", id {}", spans[i].name.chars().take(80).collect::<String>(), spans[i].id)
    })
}

/// The recorded run of one OTLP trace, or why it is refused (spans nested past
/// [`ancestry::MAX_NESTING`]).
pub fn to_run(trace_id: &str, spans: &mut [Span]) -> Result<RecordedRun, String> {
    check_nesting(trace_id, spans)?;
    // Fully ordered (ids break ties), so the spans' order in the file never matters.
    spans.sort_by(|a, b| (a.start, a.end, &a.id).cmp(&(b.start, b.end, &b.id)));
    let mut notes = vec![];
    let mut redacted = 0;
    for sp in spans.iter_mut() {
        redacted += sp.attrs.redact_secrets();
        redacted += sp.events.iter_mut().map(|(_, a)| a.redact_secrets()).sum::<usize>();
        events::lift_details(sp);
    }
    if redacted > 0 {
        notes.push(format!(
            "{redacted} span value(s) held a key (a configured key's value, or shaped like sk-…, sk-ant-…, AIza…): \
             replaced with [redacted] before anything was kept"
        ));
    }
    let frameworks = frameworks::adapt(spans, &mut notes);
    let spans: &[Span] = spans;
    let by_id: HashMap<String, usize> = spans.iter().enumerate().map(|(i, s)| (s.id.clone(), i)).collect();
    let mut events: Vec<Ev> = vec![];
    let mut contrib_sdk = false;
    let mut owner: Option<String> = None;
    let mut pending_transfer: Option<String> = None;
    // Agent spans nested under a tool span are delegations; remember whom to return to.
    let mut returns: Vec<(u128, String, String)> = vec![];
    let mut saw_content = false;
    // The policy a Baton export names on a transfer's tool span, for the transfer that follows.
    let mut pending_policy: Option<String> = None;
    let mut models = 0;
    // The response ids of the model calls so far (a later call may continue one).
    let mut response_ids: std::collections::HashSet<String> = std::collections::HashSet::new();
    // Each span's nearest agent, agent-or-tool and model-or-agent above it, in one pass each.
    let kinds: Vec<Kind> = spans.iter().map(kind_of).collect();
    let up_index: Vec<Option<usize>> = spans.iter().map(|s| by_id.get(&s.parent).copied()).collect();
    let near_agent = ancestry::nearest(&up_index, |j| kinds[j] == Kind::Agent);
    let near_agent_or_tool = ancestry::nearest(&up_index, |j| matches!(kinds[j], Kind::Agent | Kind::Tool));
    let near_model_or_agent = ancestry::nearest(&up_index, |j| matches!(kinds[j], Kind::Model | Kind::Agent));
    // Agent spans with another agent span below them (no tool between): workflow containers.
    let mut containers: std::collections::HashSet<&str> = std::collections::HashSet::new();
    for i in (0..spans.len()).filter(|i| kinds[*i] == Kind::Agent) {
        if let Some(p) = near_agent_or_tool[i].filter(|p| kinds[*p] == Kind::Agent) {
            containers.insert(spans[p].id.as_str());
        }
    }
    // Agent spans that own a model call (the nearest agent above it): agents, never wrappers.
    let owns_calls: std::collections::HashSet<&str> = (0..spans.len())
        .filter(|i| kinds[*i] == Kind::Model)
        .filter_map(|i| near_agent[i].map(|p| spans[p].id.as_str()))
        .collect();
    containers.retain(|c| !owns_calls.contains(c));
    // Agents a transfer names: `transfer_to_agent {agent_name}` tool spans, `transfer_to_<name>`.
    let transfer_targets: std::collections::HashSet<String> = spans
        .iter()
        .filter(|s| kind_of(s) == Kind::Tool)
        .filter_map(|s| {
            let name = text_attr(&s.attrs, "gen_ai.tool.name").or_else(|| text_attr(&s.attrs, "tool.name"))?;
            if let Some(t) = name.strip_prefix("transfer_to_").filter(|t| *t != "agent" && *t != "other_agent") {
                return Some(t.to_owned());
            }
            let args =
                json_attr(&s.attrs, "gen_ai.tool.call.arguments").or_else(|| json_attr(&s.attrs, "input.value"))?;
            args.get("agent_name").and_then(Value::as_str).map(str::to_owned)
        })
        .chain(spans.iter().filter_map(|s| text_attr(&s.attrs, "baton.transfer.to")))
        .collect();
    let agent_names: std::collections::HashSet<String> = spans.iter().filter_map(agent_name).collect();
    // The tools that handed the turn on (their calls are transfer calls in the rebuilt run).
    let mut transfer_tools: Vec<String> = vec![];
    // Agent spans whose given input stood in for a call's missing input.
    let mut given: std::collections::HashSet<&str> = std::collections::HashSet::new();
    let mut noted_given = false;
    let provider = spans
        .iter()
        .find_map(|s| text_attr(&s.attrs, "gen_ai.provider.name").or_else(|| text_attr(&s.attrs, "gen_ai.system")));
    for (here, sp) in spans.iter().enumerate() {
        while let Some(pos) = returns.iter().position(|(end, _, _)| *end <= sp.start) {
            let (_, from, to) = returns.remove(pos);
            events.push(Ev::Return { from, to: to.clone() });
            owner = Some(to);
        }
        // The agent a span works for: the nearest agent span above (or itself), else the
        // agent name the span itself carries.
        let agent_span: Option<&Span> =
            if kinds[here] == Kind::Agent { Some(sp) } else { near_agent[here].map(|p| &spans[p]) };
        let mut acting = agent_span.and_then(agent_name);
        if acting.is_none() {
            acting = text_attr(&sp.attrs, "gen_ai.agent.name").or_else(|| text_attr(&sp.attrs, "agent.name"));
        }
        // An explicit handoff span (the OpenTelemetry contrib instrumentation of the Agents SDK).
        if sp.attrs.get("gen_ai.operation.name").and_then(Value::as_str) == Some("agent_handoff") {
            contrib_sdk = true;
            if let (Some(from), Some(to)) =
                (text_attr(&sp.attrs, "gen_ai.handoff.from_agent"), text_attr(&sp.attrs, "gen_ai.handoff.to_agent"))
            {
                events.push(Ev::Transfer {
                    kind: EdgeKind::Handoff,
                    from,
                    to: to.clone(),
                    policy: pending_policy.take(),
                });
                pending_transfer = None;
                owner = Some(to);
            }
            continue;
        }
        match kind_of(sp) {
            Kind::Agent => {
                let Some(name) = agent_name(sp) else { continue };
                // A span that only contains agents is a wrapper (`Agent workflow`, a run), not an
                // agent, unless a transfer named it: then it is a workflow agent (ADK's
                // SequentialAgent) that takes the turn and passes it to the agents inside.
                if containers.contains(sp.id.as_str()) && !transfer_targets.contains(&name) {
                    continue;
                }
                // The agent above, and whether a tool stands between (the first agent or tool
                // above is a tool).
                let via_tool = near_agent_or_tool[here].is_some_and(|p| kinds[p] == Kind::Tool);
                let above = near_agent[here].map(|p| &spans[p]);
                let caller = above.and_then(agent_name);
                let caller_calls = above.is_some_and(|p| owns_calls.contains(p.id.as_str()));
                // Nested under another agent's span, through its tool or straight under an agent
                // that calls its own model (a manager running a managed agent): the caller gets
                // the turn back when it ends — a delegation.
                match (caller, via_tool || caller_calls) {
                    (Some(c), true) if c != name => {
                        events.push(Ev::Transfer {
                            kind: EdgeKind::Delegation,
                            from: c.clone(),
                            to: name.clone(),
                            policy: pending_policy.take(),
                        });
                        returns.push((sp.end, name.clone(), c));
                        // The call that asked for it was this delegation.
                        pending_transfer = None;
                        owner = Some(name);
                    }
                    _ => {
                        if let Some(prev) = owner.clone().filter(|o| *o != name) {
                            events.push(Ev::Transfer {
                                kind: EdgeKind::Handoff,
                                from: prev,
                                to: name.clone(),
                                policy: pending_policy.take(),
                            });
                        }
                        pending_transfer = None;
                        owner = Some(name);
                    }
                }
            }
            Kind::Model => {
                // A model span inside another one is the same call seen by a second
                // instrumentation (Agno's `chat` under its own generation): count it once.
                let nested = near_model_or_agent[here].is_some_and(|p| kinds[p] == Kind::Model);
                if nested {
                    continue;
                }
                models += 1;
                let agent = acting.or_else(|| owner.clone()).unwrap_or_else(|| "agent".into());
                let same = |a: &str, b: &str| crate::topology::snake_case(a) == crate::topology::snake_case(b);
                if let Some(target) = pending_transfer.take().filter(|t| !owner.as_deref().is_some_and(|o| same(o, t)))
                {
                    events.push(Ev::Transfer {
                        kind: EdgeKind::Handoff,
                        from: owner.clone().unwrap_or_default(),
                        to: target.clone(),
                        policy: None,
                    });
                    owner = Some(target);
                }
                let mut input = model_messages(sp, true);
                let output = model_messages(sp, false).unwrap_or_default();
                // A call span without its input (Semantic Kernel logs it instead): the first call of
                // an agent's run shows what the agent was given, as its span records it.
                if input.is_none()
                    && let Some(a) = agent_span
                    && given.insert(a.id.as_str())
                    && let Some(given_msgs) = attr_messages(&a.attrs, true)
                {
                    input = Some(given_msgs);
                    if !noted_given {
                        noted_given = true;
                        notes.push(
                            "the model call spans carry no input: each agent's first call shows what its agent span says the agent \
                             was given (its instructions and its own tool results are not on the spans)"
                                .into(),
                        );
                    }
                }
                saw_content |= input.is_some();
                let usage = sp
                    .attrs
                    .get("gen_ai.usage.input_tokens")
                    .or_else(|| sp.attrs.get("llm.token_count.prompt"))
                    .and_then(Value::as_u64)
                    .map(|i| Usage {
                        input_tokens: i,
                        output_tokens: sp
                            .attrs
                            .get("gen_ai.usage.output_tokens")
                            .or_else(|| sp.attrs.get("llm.token_count.completion"))
                            .and_then(Value::as_u64)
                            .unwrap_or(0),
                    });
                let model = text_attr(&sp.attrs, "gen_ai.response.model")
                    .or_else(|| text_attr(&sp.attrs, "gen_ai.request.model"))
                    .or_else(|| text_attr(&sp.attrs, "llm.model_name"))
                    .or_else(|| text_attr(&sp.attrs, "ai.model.id"))
                    .or_else(|| text_attr(&sp.attrs, "langfuse.observation.model.name"));
                // A transfer_to_* call the model made (or handoff_to_<agent> naming an agent of the
                // trace): the next agent to speak is its target.
                for m in &output {
                    for c in &m.calls {
                        let bare = c.name.rsplit('-').next().unwrap_or(&c.name);
                        if let Some(t) = bare.strip_prefix("transfer_to_") {
                            pending_transfer = Some(t.to_owned());
                            if bare != c.name && !transfer_tools.contains(&c.name) {
                                transfer_tools.push(c.name.clone());
                            }
                        } else if let Some(t) = c
                            .name
                            .strip_prefix("handoff_to_")
                            .filter(|t| agent_names.iter().any(|n| n == t || crate::topology::snake_case(n) == *t))
                        {
                            pending_transfer = Some(t.to_owned());
                            if !transfer_tools.contains(&c.name) {
                                transfer_tools.push(c.name.clone());
                            }
                        }
                    }
                }
                if owner.is_none() {
                    owner = Some(agent.clone());
                }
                let held = held_conversation(&sp.attrs, &response_ids);
                if let Some(id) = &held.response_id {
                    response_ids.insert(id.clone());
                }
                events.push(Ev::Model {
                    agent,
                    input,
                    output,
                    usage,
                    model,
                    held,
                    time: CallTime::of(sp.start as i128, sp.end as i128),
                });
            }
            Kind::Tool => {
                let agent = acting.or_else(|| owner.clone()).unwrap_or_else(|| "agent".into());
                let name = text_attr(&sp.attrs, "gen_ai.tool.name")
                    .or_else(|| text_attr(&sp.attrs, "tool.name"))
                    .unwrap_or_else(|| sp.name.trim_start_matches("execute_tool ").to_owned());
                let from_event = |name: &str, key: &str| {
                    sp.events.iter().find(|(n, _)| n == name).and_then(|(_, a)| text_attr(a, key))
                };
                let arguments = text_attr(&sp.attrs, "gen_ai.tool.call.arguments")
                    .or_else(|| text_attr(&sp.attrs, "tool.parameters"))
                    .or_else(|| text_attr(&sp.attrs, "input.value"))
                    .or_else(|| from_event("gen_ai.tool.message", "content"))
                    .unwrap_or_else(|| "{}".into());
                // A transfer tool is the transfer itself: agent spans (or the next model call)
                // say who received it. It is one by its name (`transfer_to_<agent>`), by an
                // adapter's mark, or by naming an agent of the trace as where the turn goes.
                let names_agent = serde_json::from_str::<Value>(&arguments).ok().is_some_and(|a| {
                    ["agent_name", "to_agent", "agent", "target_agent"].iter().any(|k| {
                        a.get(*k).and_then(Value::as_str).is_some_and(|v| {
                            agent_names.contains(v) || agent_names.iter().any(|n| crate::topology::snake_case(n) == v)
                        })
                    })
                });
                if let Some(to) = text_attr(&sp.attrs, "baton.transfer.to") {
                    pending_transfer.get_or_insert(to);
                }
                let bare = name.rsplit('-').next().unwrap_or(&name);
                if bare.starts_with("transfer_to_")
                    || sp.attrs.contains_key("baton.transfer.kind")
                    || sp.attrs.contains_key("baton.transfer.to")
                    || names_agent
                {
                    if !transfer_tools.contains(&name) {
                        transfer_tools.push(name.clone());
                    }
                    pending_policy = text_attr(&sp.attrs, "baton.transfer.policy");
                    continue;
                }
                let output = text_attr(&sp.attrs, "gen_ai.tool.call.result")
                    .or_else(|| text_attr(&sp.attrs, "output.value"))
                    .or_else(|| from_event("gen_ai.choice", "message"));
                let call_id =
                    text_attr(&sp.attrs, "gen_ai.tool.call.id").or_else(|| text_attr(&sp.attrs, "tool_call.id"));
                events.push(Ev::Tool {
                    agent,
                    name,
                    call_id,
                    arguments,
                    output,
                    time: CallTime::of(sp.start as i128, sp.end as i128),
                });
            }
            Kind::Other => {}
        }
        if let Some(e) = &sp.error {
            events.push(Ev::Error { agent: owner.clone().unwrap_or_default(), message: e.clone() });
        }
    }
    // A transfer_to_X whose target named itself only by the tool: resolve names like
    // `technical_support` to the agent spans' names when they match.
    let names: Vec<String> = spans.iter().filter_map(agent_name).collect();
    for e in events.iter_mut() {
        let Ev::Transfer { to, .. } = e else { continue };
        if let Some(n) = names.iter().find(|n| crate::topology::snake_case(n) == *to) {
            *to = n.clone();
        }
    }
    if models == 0 {
        let mut families: Vec<String> = spans
            .iter()
            .flat_map(|s| s.attrs.iter().map(|(k, _)| k.split('.').next().unwrap_or(k).to_owned()))
            .collect();
        families.sort();
        families.dedup();
        notes.push(format!(
            "saw the attribute families {}",
            if families.is_empty() { "(none: the spans carry no attributes)".to_string() } else { families.join(", ") }
        ));
    }
    if models > 0 && !saw_content {
        notes.push(
            "the spans carry no gen_ai.input.messages or llm.input_messages (content capture was off): transfers \
             show who handed off to whom, not what crossed"
                .into(),
        );
    }
    if contrib_sdk && saw_content {
        notes.push(
            "these spans come from the OpenTelemetry contrib instrumentation of the Agents SDK, whose chat spans \
             record their input lossy: it drops function calls and tool results that were sent, so each receiver's \
             input shows only the messages the instrumentation kept"
                .into(),
        );
    }
    if let Some(p) = provider {
        notes.push(format!("provider: {p}"));
    }
    // Agent ids, when each names one agent (some instrumentations give every agent the same id).
    let mut agent_ids: HashMap<String, String> = HashMap::new();
    for sp in spans.iter().filter(|s| kind_of(s) == Kind::Agent) {
        if let (Some(name), Some(id)) = (agent_name(sp), text_attr(&sp.attrs, "gen_ai.agent.id")) {
            agent_ids.insert(name, id);
        }
    }
    let distinct: std::collections::HashSet<&String> = agent_ids.values().collect();
    if distinct.len() != agent_ids.len() {
        agent_ids.clear();
    }
    let facts = spans
        .iter()
        .find_map(|s| json_attr(&s.attrs, "baton.facts"))
        .and_then(|v| serde_json::from_value(v).ok())
        .unwrap_or_default();
    let started = spans.iter().map(|s| s.start).min().unwrap_or(0);
    let ended = spans.iter().map(|s| s.end).max().unwrap_or(0);
    let ts = |n: u128| {
        humantime::format_rfc3339_micros(std::time::UNIX_EPOCH + std::time::Duration::from_nanos(n as u64)).to_string()
    };
    let name = spans
        .iter()
        .find_map(|s| text_attr(&s.attrs, "baton.topology"))
        .or_else(|| spans.iter().find(|s| s.parent.is_empty()).map(|s| s.name.clone()))
        .unwrap_or_else(|| format!("trace {trace_id}"));
    returns_without_transfer(&mut events, &transfer_tools);
    if !frameworks.is_empty() {
        notes.push(format!("read with the {} adapter", frameworks.join(", ")));
    }
    Ok(RecordedRun {
        id: trace_id.to_owned(),
        name,
        started_at: ts(started),
        ended_at: ts(ended),
        events,
        notes,
        agent_ids,
        facts,
        transfer_tools,
        ..Default::default()
    })
}

/// A turn that comes back to the agent that gave it away, without the receiver handing it
/// back (no transfer call of its own), was a delegation: the framework returned control to the
/// caller (a supervisor's worker, a graph edge back). Such handoff pairs become a delegation and
/// its return.
fn returns_without_transfer(events: &mut [Ev], transfer_tools: &[String]) {
    let is_transfer = |n: &str| n.starts_with("transfer_to_") || transfer_tools.iter().any(|t| t == n);
    let mut i = 0;
    while i < events.len() {
        let Ev::Transfer { kind: EdgeKind::Handoff, from: a, to: b, .. } = &events[i] else {
            i += 1;
            continue;
        };
        let (a, b) = (a.clone(), b.clone());
        let mut handed_on = false;
        let mut back = None;
        for (j, e) in events.iter().enumerate().skip(i + 1) {
            match e {
                Ev::Model { agent, output, .. } if *agent == b => {
                    handed_on |= output.iter().flat_map(|m| &m.calls).any(|c| is_transfer(&c.name));
                }
                Ev::Transfer { kind: EdgeKind::Handoff, from, to, .. } if *from == b && *to == a => {
                    back = Some(j);
                    break;
                }
                Ev::Transfer { .. } => break,
                _ => {}
            }
        }
        if let Some(j) = back.filter(|_| !handed_on) {
            if let Ev::Transfer { kind, .. } = &mut events[i] {
                *kind = EdgeKind::Delegation;
            }
            events[j] = Ev::Return { from: b, to: a };
            i = j + 1;
        } else {
            i += 1;
        }
    }
}

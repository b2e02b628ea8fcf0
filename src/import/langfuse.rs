//! Langfuse trace exports (`{trace, observations[]}`, one trace or a list, from its UI and its
//! public API): every framework Langfuse ingests arrives this way. Each observation becomes a
//! span: the original OpenTelemetry attributes survive in `metadata.attributes`, and the
//! observation's own `type`, `input`, `output` and `model` fill in what they lack. The spans then
//! go through the same reconstruction as OTLP.

use super::otlp::{Attrs, Span};
use serde_json::{Map, Value};

/// Whether a JSON value is a Langfuse trace export (or a list of them).
pub fn is_export(v: &Value) -> bool {
    match v {
        Value::Object(m) => {
            m.get("observations").is_some_and(Value::is_array) && m.get("trace").is_some_and(Value::is_object)
        }
        Value::Array(a) => a.first().is_some_and(is_export),
        _ => false,
    }
}

/// Whether a JSON value is Langfuse's ChatML rendering of a trace (not a trace itself).
pub fn is_chatml(v: &Value) -> bool {
    let Value::Object(m) = v else { return false };
    let keys: Vec<&str> = m.keys().map(String::as_str).collect();
    m.contains_key("messages")
        && !m.contains_key("observations")
        && keys.iter().all(|k| ["messages", "tools", "metadata", "name", "description"].contains(k))
        || m.get("chatml").is_some()
}

/// Parses a field that Langfuse stores either as JSON or as a JSON string.
fn json_or_string(v: Option<&Value>) -> Option<Value> {
    match v? {
        Value::Null => None,
        Value::String(s) => Some(serde_json::from_str(s).unwrap_or_else(|_| Value::String(s.clone()))),
        other => Some(other.clone()),
    }
}

/// Nanoseconds since the epoch of an RFC 3339 time, 0 when absent or unreadable.
fn nanos(v: Option<&Value>) -> u128 {
    v.and_then(Value::as_str).and_then(super::recorded::rfc3339_nanos).map(|n| n.max(0) as u128).unwrap_or(0)
}

/// The spans of one exported trace.
pub fn spans_of(export: &Value) -> Vec<Span> {
    let trace = export.get("trace").unwrap_or(&Value::Null);
    let trace_id = trace.get("id").and_then(Value::as_str).unwrap_or_default().to_owned();
    let mut out = vec![];
    for o in export.get("observations").and_then(Value::as_array).into_iter().flatten() {
        let meta = json_or_string(o.get("metadata"));
        let mut attrs: Map<String, Value> =
            meta.as_ref().and_then(|m| m.get("attributes")).and_then(Value::as_object).cloned().unwrap_or_default();
        let kind = o.get("type").and_then(Value::as_str).unwrap_or_default().to_ascii_lowercase();
        attrs.entry("langfuse.observation.type").or_insert_with(|| Value::String(kind.clone()));
        for (field, key) in [("input", "langfuse.observation.input"), ("output", "langfuse.observation.output")] {
            if let Some(v) = o.get(field).filter(|v| !v.is_null()) {
                let text = match v {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                attrs.entry(key).or_insert(Value::String(text));
            }
        }
        if let Some(m) = o.get("model").and_then(Value::as_str) {
            attrs.entry("langfuse.observation.model.name").or_insert_with(|| Value::String(m.to_owned()));
        }
        for (usage, key) in [("input", "gen_ai.usage.input_tokens"), ("output", "gen_ai.usage.output_tokens")] {
            if let Some(n) = o.get("usageDetails").and_then(|u| u.get(usage)).and_then(Value::as_u64) {
                attrs.entry(key).or_insert(Value::from(n));
            }
        }
        let error = (o.get("level").and_then(Value::as_str) == Some("ERROR"))
            .then(|| o.get("statusMessage").and_then(Value::as_str).unwrap_or("error").to_owned());
        out.push(Span {
            trace_id: o.get("traceId").and_then(Value::as_str).map(str::to_owned).unwrap_or_else(|| trace_id.clone()),
            id: o.get("id").and_then(Value::as_str).unwrap_or_default().to_owned(),
            parent: o.get("parentObservationId").and_then(Value::as_str).unwrap_or_default().to_owned(),
            name: o.get("name").and_then(Value::as_str).unwrap_or_default().to_owned(),
            start: nanos(o.get("startTime")),
            end: nanos(o.get("endTime")).max(nanos(o.get("startTime"))),
            attrs: Attrs::from_pairs(attrs.into_iter().collect()),
            error,
            ..Default::default()
        });
    }
    out
}

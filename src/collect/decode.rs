//! OTLP/HTTP trace request bodies into spans: protobuf (`application/x-protobuf`, the exporters'
//! default) or JSON, gzip or not, with a limit on the decompressed size (a gzip bomb is refused,
//! not inflated). Decoding uses the maintained `opentelemetry-proto` types.

use crate::import::otlp::Span;
use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::{AnyValue, any_value};
use prost::Message;
use serde_json::Value;
use std::io::Read;

/// Why a body was refused, with the HTTP status OTLP/HTTP gives it.
#[derive(Debug)]
pub enum Refused {
    /// 400: not a trace request of the declared type.
    Malformed(String),
    /// 413: larger than the limit (after decompression).
    TooLarge(usize),
    /// 415: a content type OTLP/HTTP does not define.
    MediaType(String),
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refused::Malformed(m) | Refused::MediaType(m) => f.write_str(m),
            Refused::TooLarge(n) => write!(f, "the body is larger than {} MB once decompressed", n >> 20),
        }
    }
}

/// The body's encoding, from `Content-Type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    Protobuf,
    Json,
}

impl Encoding {
    pub fn from_content_type(ct: &str) -> Result<Encoding, Refused> {
        let base = ct.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
        match base.as_str() {
            "application/x-protobuf" | "application/protobuf" => Ok(Encoding::Protobuf),
            "application/json" => Ok(Encoding::Json),
            other => Err(Refused::MediaType(format!(
                "content type '{other}' is not OTLP/HTTP: send application/x-protobuf or application/json"
            ))),
        }
    }
}

/// The body, decompressed when `Content-Encoding: gzip`, never past `limit` bytes.
pub fn inflate(body: &[u8], gzip: bool, limit: usize) -> Result<Vec<u8>, Refused> {
    if !gzip {
        return Ok(body.to_vec());
    }
    let mut out = Vec::new();
    let mut r = flate2::read::GzDecoder::new(body).take(limit as u64 + 1);
    r.read_to_end(&mut out).map_err(|e| Refused::Malformed(format!("the gzip body cannot be read: {e}")))?;
    if out.len() > limit {
        return Err(Refused::TooLarge(limit));
    }
    Ok(out)
}

/// The longest attribute or event value kept whole (a model input with its whole history fits;
/// a 50 MB blob does not): longer values are kept cut, with a mark.
pub const MAX_VALUE_BYTES: usize = 1 << 20;

/// The spans of a request, and how many were rejected (no trace or span id), with why.
pub fn spans(body: &[u8], encoding: Encoding) -> Result<(Vec<Span>, i64, Option<String>), Refused> {
    let spans = match encoding {
        Encoding::Json => crate::import::otlp::spans_from_slice(body)
            .map_err(|e| Refused::Malformed(format!("the JSON body is not an OTLP trace request: {e}")))?,
        Encoding::Protobuf => {
            let req = ExportTraceServiceRequest::decode(body).map_err(|e| {
                Refused::Malformed(format!("the protobuf body is not an ExportTraceServiceRequest: {e}"))
            })?;
            from_proto(req)
        }
    };
    Ok(keep(spans))
}

/// The spans a request keeps (those with a trace and span id; over-long values cut), how many
/// were rejected, and why.
pub(super) fn keep(spans: Vec<Span>) -> (Vec<Span>, i64, Option<String>) {
    let before = spans.len();
    let mut kept: Vec<Span> = spans.into_iter().filter(|s| !s.trace_id.is_empty() && !s.id.is_empty()).collect();
    for s in &mut kept {
        s.attrs.truncate_long(MAX_VALUE_BYTES);
        for (_, a) in &mut s.events {
            a.truncate_long(MAX_VALUE_BYTES);
        }
    }
    let rejected = (before - kept.len()) as i64;
    let why = (rejected > 0).then(|| format!("{rejected} span(s) without a trace id or span id were dropped"));
    (kept, rejected, why)
}

pub(super) fn from_proto(req: ExportTraceServiceRequest) -> Vec<Span> {
    let mut out = vec![];
    for rs in req.resource_spans {
        for ss in rs.scope_spans {
            let scope = ss.scope.as_ref().map(|s| s.name.clone()).unwrap_or_default();
            for sp in ss.spans {
                let error = sp
                    .status
                    .as_ref()
                    .filter(|s| s.code == 2)
                    .map(|s| if s.message.is_empty() { "error".to_owned() } else { s.message.clone() });
                out.push(Span {
                    trace_id: hex::encode(&sp.trace_id),
                    id: hex::encode(&sp.span_id),
                    parent: hex::encode(&sp.parent_span_id),
                    name: sp.name,
                    start: sp.start_time_unix_nano as u128,
                    end: sp.end_time_unix_nano as u128,
                    attrs: sp
                        .attributes
                        .into_iter()
                        .map(|kv| (kv.key, kv.value.map(value).unwrap_or(Value::Null)))
                        .collect(),
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
                                .map(|kv| (kv.key, kv.value.map(value).unwrap_or(Value::Null)))
                                .collect();
                            (e.name, attrs)
                        })
                        .collect(),
                });
            }
        }
    }
    out
}

/// An OTLP AnyValue as plain JSON (as the JSON reader gives it).
fn value(v: AnyValue) -> Value {
    match v.value {
        Some(any_value::Value::StringValue(s)) => Value::String(s),
        Some(any_value::Value::BoolValue(b)) => Value::Bool(b),
        Some(any_value::Value::IntValue(i)) => Value::from(i),
        Some(any_value::Value::DoubleValue(d)) => Value::from(d),
        Some(any_value::Value::ArrayValue(a)) => Value::Array(a.values.into_iter().map(value).collect()),
        Some(any_value::Value::KvlistValue(kv)) => Value::Object(
            kv.values.into_iter().map(|kv| (kv.key, kv.value.map(value).unwrap_or(Value::Null))).collect(),
        ),
        Some(any_value::Value::BytesValue(b)) => Value::String(hex::encode(b)),
        _ => Value::Null,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_values_are_kept_cut_with_a_mark_in_attributes_and_events() {
        let long = "é".repeat(MAX_VALUE_BYTES); // two bytes each: twice the limit
        let body = serde_json::json!({"resourceSpans": [{"scopeSpans": [{"spans": [{
            "traceId": "0000000000000000000000000000000a", "spanId": "000000000000000b", "name": "s",
            "attributes": [{"key": "big", "value": {"arrayValue": {"values": [{"stringValue": long}]}}},
                           {"key": "small", "value": {"stringValue": "kept"}}],
            "events": [{"name": "e", "attributes": [{"key": "big", "value": {"stringValue": long}}]}]
        }]}]}]});
        let (spans, rejected, _) = spans(body.to_string().as_bytes(), Encoding::Json).unwrap();
        assert_eq!(rejected, 0);
        let cut = spans[0].attrs.get("big").unwrap()[0].as_str().unwrap();
        assert!(cut.len() < MAX_VALUE_BYTES + 100 && cut.ends_with(&format!("{} more bytes]", MAX_VALUE_BYTES)));
        assert_eq!(spans[0].attrs.get("small").unwrap(), "kept");
        let ev = spans[0].events[0].1.get("big").unwrap().as_str().unwrap();
        assert!(ev.starts_with("éé") && ev.contains("cut by Baton's collector"));
    }
}

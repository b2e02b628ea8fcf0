//! Framework adapters: what a framework's spans lack of the OpenTelemetry GenAI agent
//! conventions, added before the convention reader runs. The reader understands the convention
//! (`gen_ai.operation.name` `invoke_agent` / `chat` / `execute_tool`, `gen_ai.agent.name`,
//! parent links) and OpenInference's span kinds; an adapter only names what its framework
//! leaves implicit: which span is an agent's (and whose), which spans merely look like agents
//! (routers, wrappers), which model spans are not calls, which tool hands the turn on. A trace
//! no adapter recognises is read by the convention alone.
//!
//! Adding a framework: one file here with an [`Adapter`], one line in [`ADAPTERS`], its spans
//! and attributes in `docs/frameworks.md`, and a fixture made by the real package.

mod langgraph;
mod llama_index;
mod smolagents;

use super::Span;
use serde_json::Value;

/// One framework's adapter.
pub struct Adapter {
    pub name: &'static str,
    /// Whether these spans come from this framework.
    pub detect: fn(&[Span]) -> bool,
    /// Adds what the convention lacks; notes go with the run.
    pub adapt: fn(&mut [Span], &mut Vec<String>),
}

/// Every adapter, tried in order; each that detects its framework adapts the spans.
pub const ADAPTERS: &[Adapter] = &[langgraph::ADAPTER, llama_index::ADAPTER, smolagents::ADAPTER];

/// Runs the adapters that recognise `spans`; returns their names.
pub fn adapt(spans: &mut [Span], notes: &mut Vec<String>) -> Vec<&'static str> {
    let mut used = vec![];
    for a in ADAPTERS {
        if (a.detect)(spans) {
            (a.adapt)(spans, notes);
            used.push(a.name);
        }
    }
    used
}

/// Marks a span as an agent's own (an `invoke_agent` span of the convention).
pub(super) fn mark_agent(sp: &mut Span, name: &str) {
    sp.attrs.set("gen_ai.operation.name", Value::from("invoke_agent"));
    sp.attrs.set("gen_ai.agent.name", Value::from(name));
}

/// Marks a span as not an agent's, whatever its kind said (a router, a wrapper, a node).
pub(super) fn mark_plain(sp: &mut Span) {
    if sp.attrs.get("openinference.span.kind").and_then(Value::as_str) == Some("AGENT") {
        sp.attrs.set("openinference.span.kind", Value::from("CHAIN"));
    }
    if sp.attrs.get("gen_ai.operation.name").and_then(Value::as_str) == Some("invoke_agent") {
        sp.attrs.set("gen_ai.operation.name", Value::from("chain"));
    }
}

/// Names the agent a span works for without making it an agent span.
pub(super) fn mark_owner(sp: &mut Span, name: &str) {
    if !sp.attrs.contains_key("gen_ai.agent.name") {
        sp.attrs.set("gen_ai.agent.name", Value::from(name));
    }
}

/// Marks a tool span as the transfer of the turn to `to`.
pub(super) fn mark_transfer(sp: &mut Span, to: &str) {
    sp.attrs.set("baton.transfer.to", Value::from(to));
}

/// A JSON attribute (a JSON string or a value).
pub(super) fn json(sp: &Span, k: &str) -> Option<Value> {
    match sp.attrs.get(k)? {
        Value::String(s) => serde_json::from_str(s).ok(),
        other => Some(other.clone()),
    }
}

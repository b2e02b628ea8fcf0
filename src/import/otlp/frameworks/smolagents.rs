//! smolagents (through OpenInference): an agent's run is an AGENT span named `<name>.run` with
//! no agent-name attribute; a managed agent's run nests under its manager's step span with no
//! tool span between (the manager calls it as a tool and gets its answer back).

use super::super::Span;
use super::mark_agent;
use serde_json::Value;

pub const ADAPTER: super::Adapter = super::Adapter { name: "smolagents", detect, adapt };

fn detect(spans: &[Span]) -> bool {
    spans.iter().any(|s| s.scope.contains("smolagents") || s.attrs.iter().any(|(k, _)| k.starts_with("smolagents.")))
}

fn adapt(spans: &mut [Span], _notes: &mut Vec<String>) {
    for sp in spans.iter_mut() {
        let agent = sp.attrs.get("openinference.span.kind").and_then(Value::as_str) == Some("AGENT");
        if let Some(name) = sp.name.strip_suffix(".run").filter(|n| agent && !n.is_empty()).map(str::to_owned) {
            mark_agent(sp, &name);
        }
    }
}

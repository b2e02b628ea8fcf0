//! LlamaIndex `AgentWorkflow` (through OpenInference): the workflow's steps are spans
//! (`AgentWorkflow.setup_agent`, `run_agent_step`, `call_tool`…) that name the acting agent only
//! inside their input or output text (`current_agent_name='billing'`); each model call shows as
//! two LLM spans, `<LLM>._prepare_chat_with_tools` (not a call) and `<LLM>.achat` /
//! `astream_chat` (the call); a handoff is the built-in `handoff` tool (`to_agent`).

use super::super::Span;
use super::{json, mark_agent, mark_transfer};
use serde_json::Value;

pub const ADAPTER: super::Adapter = super::Adapter { name: "llama-index", detect, adapt };

fn detect(spans: &[Span]) -> bool {
    spans.iter().any(|s| s.scope.contains("llama_index") || s.name.starts_with("AgentWorkflow."))
}

/// `current_agent_name='billing'` in a step's input or output text.
fn current_agent(sp: &Span) -> Option<String> {
    ["input.value", "output.value"].iter().find_map(|k| {
        let Some(Value::String(v)) = sp.attrs.get(k) else { return None };
        let at = v.find("current_agent_name=")? + "current_agent_name=".len();
        let rest = &v[at..];
        let q = rest.chars().next().filter(|c| *c == '\'' || *c == '"')?;
        let end = rest[1..].find(q)?;
        Some(rest[1..1 + end].to_owned())
    })
}

fn adapt(spans: &mut [Span], _notes: &mut Vec<String>) {
    for sp in spans.iter_mut() {
        if sp.name.ends_with("._prepare_chat_with_tools") {
            // Builds the request; the next LLM span is the call.
            sp.attrs.set("openinference.span.kind", Value::from("CHAIN"));
            continue;
        }
        if sp.name.ends_with(".run_agent_step")
            && let Some(a) = current_agent(sp)
        {
            mark_agent(sp, &a);
        }
        if sp.attrs.get("tool.name").and_then(Value::as_str) == Some("handoff") {
            let to = json(sp, "input.value").and_then(|v| {
                let kw = v.get("kwargs").cloned().unwrap_or(v);
                kw.get("to_agent").and_then(Value::as_str).map(str::to_owned)
            });
            if let Some(to) = to {
                mark_transfer(sp, &to);
            }
        }
    }
}

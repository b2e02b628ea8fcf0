//! LangGraph (through OpenInference's LangChain instrumentation or LangSmith's OTel export):
//! no agent spans, no handoff spans. An agent is a compiled graph (`create_agent`,
//! `create_react_agent`) run as a node of a parent graph or inside a tool; every LangChain run is
//! a span whose `metadata` JSON (OpenInference) or `langsmith.metadata.*` attributes (LangSmith)
//! name the agent (`lc_agent_name`, set by `create_agent`) and the graph node and namespace
//! (`langgraph_node`, `langgraph_checkpoint_ns`: `supervisor:<task>|agent:<task>`). OpenInference
//! gives kind AGENT to any run whose name contains "agent" (the swarm's `route_to_active_agent`,
//! `create_react_agent`'s `agent` node, the supervisor's `call_agent`), none of them agents.
//! Handoff tools return a `Command` (`goto`, `graph: "__parent__"`) and the swarm's and
//! supervisor's tools say `__handoff_destination`.

use super::super::Span;
use super::{json, mark_agent, mark_owner, mark_plain, mark_transfer};
use serde_json::{Map, Value};
use std::collections::{HashMap, HashSet};

pub const ADAPTER: super::Adapter = super::Adapter { name: "langgraph", detect, adapt };

/// The LangGraph metadata of a span, from either export.
fn metadata(sp: &Span) -> Map<String, Value> {
    if let Some(Value::Object(m)) = json(sp, "metadata") {
        return m;
    }
    let mut m = Map::new();
    for (k, v) in sp.attrs.iter() {
        if let Some(key) = k.strip_prefix("langsmith.metadata.") {
            m.insert(key.to_owned(), v.clone());
        }
    }
    m
}

fn detect(spans: &[Span]) -> bool {
    spans.iter().any(|s| {
        let m = metadata(s);
        m.contains_key("langgraph_node") || m.contains_key("lc_agent_name")
    })
}

fn str_of<'a>(m: &'a Map<String, Value>, k: &str) -> Option<&'a str> {
    m.get(k).and_then(Value::as_str).filter(|s| !s.is_empty())
}

/// The node names of a checkpoint namespace (`a:<task>|b:<task>` → [a, b]).
fn namespace(m: &Map<String, Value>) -> Vec<String> {
    str_of(m, "langgraph_checkpoint_ns")
        .map(|ns| ns.split('|').map(|seg| seg.split(':').next().unwrap_or(seg).to_owned()).collect())
        .unwrap_or_default()
}

fn adapt(spans: &mut [Span], notes: &mut Vec<String>) {
    let meta: Vec<Map<String, Value>> = spans.iter().map(metadata).collect();
    // The agents: every `lc_agent_name`, and the outer node of a namespace whose runs name no
    // agent (a `create_react_agent` graph run as a node, such as langgraph-supervisor's).
    let mut agents: HashSet<String> =
        meta.iter().filter_map(|m| str_of(m, "lc_agent_name")).map(str::to_owned).collect();
    for m in meta.iter().filter(|m| !m.contains_key("lc_agent_name")) {
        let ns = namespace(m);
        if ns.len() >= 2 && !ns[0].starts_with("__") {
            agents.insert(ns[0].clone());
        }
    }
    let root = spans.iter().find(|s| s.parent.is_empty()).map(|s| s.name.clone()).unwrap_or_default();
    // A single agent graph run at the top: its spans name no agent; the graph's name does.
    let single = agents.is_empty()
        && spans.iter().any(|s| s.attrs.get("openinference.span.kind").and_then(Value::as_str) == Some("LLM"));
    // Each span's agent: its `lc_agent_name`, else the outer node of its namespace when that node
    // is an agent.
    let owner: Vec<Option<String>> = meta
        .iter()
        .map(|m| {
            str_of(m, "lc_agent_name").map(str::to_owned).or_else(|| {
                let ns = namespace(m);
                ns.first().filter(|n| agents.contains(*n)).cloned()
            })
        })
        .map(|o| o.or_else(|| single.then(|| root.clone())))
        .collect();
    let index: HashMap<String, usize> = spans.iter().enumerate().map(|(i, s)| (s.id.clone(), i)).collect();
    let mut delegations = 0;
    for i in 0..spans.len() {
        let parent_owner = index.get(&spans[i].parent).and_then(|p| owner[*p].clone());
        mark_plain(&mut spans[i]);
        match &owner[i] {
            // The outermost span of an agent's run is the agent's span.
            Some(a) if parent_owner.as_deref() != Some(a.as_str()) => {
                mark_agent(&mut spans[i], a);
                if parent_owner.is_some() {
                    delegations += 1;
                }
            }
            Some(a) => mark_owner(&mut spans[i], a),
            None => {}
        }
        // A handoff tool: its destination, or the `goto` of the Command it returned.
        let m = &meta[i];
        let goto = str_of(m, "__handoff_destination").map(str::to_owned).or_else(|| {
            let out = json(&spans[i], "output.value").or_else(|| json(&spans[i], "gen_ai.completion"))?;
            let cmd = if out.get("goto").is_some() { out } else { out.get("output").cloned()? };
            (cmd.get("graph").and_then(Value::as_str) == Some("__parent__"))
                .then(|| cmd.get("goto").and_then(Value::as_str).map(str::to_owned))
                .flatten()
        });
        if let Some(to) = goto.filter(|t| agents.contains(t)) {
            mark_transfer(&mut spans[i], &to);
        }
    }
    // LangSmith marks the spans a Command unwinds as errors; they are the handoff, not a failure.
    for sp in spans.iter_mut() {
        if sp.error.as_deref().is_some_and(|e| e.contains("ParentCommand")) {
            sp.error = None;
        }
    }
    if agents.is_empty() && !single {
        notes.push("LangGraph spans without any agent (no lc_agent_name, no agent node): read as one graph".into());
    }
    let _ = delegations;
}

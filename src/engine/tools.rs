//! The tools each agent's model sees: its own tools, one `transfer_to_<target>` per outgoing
//! handoff, one tool per outgoing delegation, with the SDK's default descriptions and schemas.

use crate::providers::{ToolKind, ToolSpec};
use crate::topology::{ContextPolicy, EdgeKind, Topology};
use serde_json::json;

/// The tool list of one agent, in the order the SDK presents them (own tools, delegations as
/// tools, then handoffs).
pub fn tools_for(t: &Topology, agent_id: &str) -> Vec<ToolSpec> {
    let Some(agent) = t.agent(agent_id) else {
        return vec![];
    };
    let mut out: Vec<ToolSpec> = agent
        .tools
        .iter()
        .map(|tl| ToolSpec {
            name: tl.name.clone(),
            description: tl.description.clone(),
            parameters: tl.parameters.clone(),
            kind: ToolKind::Tool,
            edge: None,
        })
        .collect();
    for e in t.edges_from(agent_id).filter(|e| e.kind == EdgeKind::Delegation) {
        out.push(ToolSpec {
            name: t.tool_name(e),
            description: e.description.clone(),
            parameters: json!({
                "description": "Default input schema for agent-as-tool calls.",
                "properties": {"input": {"title": "Input", "type": "string"}},
                "required": ["input"],
                "title": "AgentAsToolInput",
                "type": "object",
                "additionalProperties": false
            }),
            kind: ToolKind::Delegation,
            edge: Some(e.id.clone()),
        });
    }
    for e in t.edges_from(agent_id).filter(|e| e.kind == EdgeKind::Handoff) {
        let target = t.agent(&e.to).map(|a| a.name.as_str()).unwrap_or(&e.to);
        let parameters = match &e.policy {
            ContextPolicy::Fields(fields) => {
                let props: serde_json::Map<String, serde_json::Value> = fields
                    .iter()
                    .map(|f| {
                        let mut p = json!({"type": f.ty});
                        if !f.description.is_empty() {
                            p["description"] = json!(f.description);
                        }
                        (f.name.clone(), p)
                    })
                    .collect();
                let required: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
                json!({"type": "object", "properties": props, "required": required, "additionalProperties": false})
            }
            _ => {
                json!({"additionalProperties": false, "type": "object", "properties": {}, "required": []})
            }
        };
        out.push(ToolSpec {
            name: t.tool_name(e),
            description: format!("Handoff to the {target} agent to handle the request. {}", e.description),
            parameters,
            kind: ToolKind::Handoff,
            edge: Some(e.id.clone()),
        });
    }
    out
}

/// The system prompt: the instructions, then the pinned facts the agent holds.
pub fn system_prompt(t: &Topology, agent_id: &str) -> String {
    let Some(agent) = t.agent(agent_id) else {
        return String::new();
    };
    let mut s = agent.instructions.trim_end().to_owned();
    let facts: Vec<&str> =
        t.facts.iter().filter(|f| f.holders.iter().any(|h| h == agent_id)).map(|f| f.text.as_str()).collect();
    if !facts.is_empty() {
        s.push_str("\n\nPinned facts:");
        for f in facts {
            s.push_str("\n- ");
            s.push_str(f);
        }
    }
    s
}

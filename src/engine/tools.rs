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
            // The schema the SDK sends for `handoff(input_type=<pydantic model>)` (strict), as
            // Baton's export declares that model: every field required, titled from its name.
            ContextPolicy::Fields(fields) => {
                let props: serde_json::Map<String, serde_json::Value> = fields
                    .iter()
                    .map(|f| {
                        let mut p = json!({"title": py_title(&f.name), "type": f.ty});
                        if f.ty == "array" {
                            p["items"] = json!({});
                        }
                        if !f.description.is_empty() {
                            p["description"] = json!(f.description);
                        }
                        (f.name.clone(), p)
                    })
                    .collect();
                let required: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
                json!({
                    "additionalProperties": false,
                    "properties": props,
                    "required": required,
                    "title": input_type_name(&e.id),
                    "type": "object"
                })
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

/// The name of a `fields` handoff's input model (`resolution-verification` →
/// `ResolutionVerificationInput`): the export declares it, and the SDK sends it as the schema title.
pub fn input_type_name(edge_id: &str) -> String {
    let pascal: String = crate::topology::snake_case(edge_id)
        .split('_')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let mut c = p.chars();
            c.next().map(|f| f.to_ascii_uppercase().to_string() + c.as_str()).unwrap_or_default()
        })
        .collect();
    format!("{pascal}Input")
}

/// A field's title as pydantic derives it (`ticket id` → `Ticket Id`): Python's `str.title()` of
/// the name with underscores as spaces.
fn py_title(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut prev_letter = false;
    for c in name.replace('_', " ").chars() {
        if c.is_alphabetic() {
            if prev_letter {
                out.extend(c.to_lowercase());
            } else {
                out.extend(c.to_uppercase());
            }
            prev_letter = true;
        } else {
            out.push(c);
            prev_letter = false;
        }
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

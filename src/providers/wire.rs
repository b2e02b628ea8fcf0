//! The provider-neutral conversation every wire format is written from: the owner's visible
//! items grouped into user turns, assistant turns (text, reasoning, tool calls of one response)
//! and tool results. Calls without results and results without calls are left out, as every
//! provider rejects them (a `last_n` policy can cut a pair in two).

use crate::context::{Item, ItemKind};
use std::collections::HashSet;

#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    pub id: String,
    pub name: String,
    /// JSON text of the arguments.
    pub arguments: String,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Msg {
    User(String),
    Assistant { text: Option<String>, reasoning: Vec<String>, calls: Vec<Call> },
    ToolResult { call_id: String, name: String, output: String },
}

/// Groups the visible context (own items excluded) into messages.
pub fn conversation(context: &[&Item]) -> Vec<Msg> {
    let items: Vec<&Item> = context.iter().copied().filter(|i| !i.kind.is_own()).collect();
    let called: HashSet<&str> =
        items.iter().filter(|i| i.kind.is_call()).filter_map(|i| i.call_id.as_deref()).collect();
    let answered: HashSet<&str> =
        items.iter().filter(|i| i.kind.is_call_output()).filter_map(|i| i.call_id.as_deref()).collect();
    let mut out: Vec<Msg> = vec![];
    let mut group: Option<(String, u32)> = None;
    for i in items {
        let key = (i.agent.clone(), i.turn);
        match i.kind {
            ItemKind::UserMessage => {
                out.push(Msg::User(i.text.clone()));
                group = None;
            }
            ItemKind::AssistantMessage | ItemKind::Reasoning | ItemKind::ToolCall | ItemKind::TransferCall => {
                if i.kind.is_call() && !i.call_id.as_deref().is_some_and(|c| answered.contains(c)) {
                    continue;
                }
                let same = group.as_ref() == Some(&key) && matches!(out.last(), Some(Msg::Assistant { .. }));
                // A summary (derived) message stands alone.
                if !same || !i.derived_from.is_empty() {
                    out.push(Msg::Assistant { text: None, reasoning: vec![], calls: vec![] });
                }
                group = if i.derived_from.is_empty() { Some(key) } else { None };
                let Some(Msg::Assistant { text, reasoning, calls }) = out.last_mut() else { unreachable!() };
                match i.kind {
                    ItemKind::AssistantMessage => match text {
                        Some(t) => {
                            t.push('\n');
                            t.push_str(&i.text);
                        }
                        None => *text = Some(i.text.clone()),
                    },
                    ItemKind::Reasoning => reasoning.push(i.text.clone()),
                    _ => calls.push(Call {
                        id: i.call_id.clone().unwrap_or_default(),
                        name: i.name.clone().unwrap_or_default(),
                        arguments: i.arguments.clone().unwrap_or_else(|| "{}".into()),
                    }),
                }
            }
            ItemKind::ToolResult | ItemKind::TransferOutput => {
                let Some(id) = i.call_id.as_deref().filter(|c| called.contains(c)) else {
                    continue;
                };
                let name = context
                    .iter()
                    .find(|c| c.kind.is_call() && c.call_id.as_deref() == Some(id))
                    .and_then(|c| c.name.clone())
                    .unwrap_or_default();
                out.push(Msg::ToolResult { call_id: id.to_owned(), name, output: i.text.clone() });
                group = None;
            }
            ItemKind::Instructions | ItemKind::PinnedFact => {}
        }
    }
    // An assistant turn with nothing to say (only reasoning) is dropped: no API accepts it.
    out.retain(|m| !matches!(m, Msg::Assistant { text: None, calls, .. } if calls.is_empty()));
    out
}

/// Parses call arguments as a JSON object ({} when empty or not an object).
pub fn args_object(arguments: &str) -> serde_json::Value {
    match serde_json::from_str::<serde_json::Value>(arguments) {
        Ok(v @ serde_json::Value::Object(_)) => v,
        _ => serde_json::json!({}),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::NewItem;

    fn item(kind: ItemKind, agent: &str, turn: u32, text: &str, call: Option<(&str, &str)>) -> Item {
        Item::new(
            kind,
            agent,
            turn,
            NewItem {
                text: text.into(),
                name: call.map(|c| c.1.to_owned()).filter(|_| kind.is_call()),
                arguments: call.filter(|_| kind.is_call()).map(|_| "{}".to_owned()),
                call_id: call.map(|c| c.0.to_owned()),
                ..Default::default()
            },
        )
    }

    #[test]
    fn groups_a_response_and_drops_orphans() {
        let items = [
            item(ItemKind::Instructions, "a", 0, "be nice", None),
            item(ItemKind::UserMessage, "user", 0, "hi", None),
            item(ItemKind::Reasoning, "a", 1, "think", None),
            item(ItemKind::AssistantMessage, "a", 1, "calling", None),
            item(ItemKind::ToolCall, "a", 1, "", Some(("c1", "lookup"))),
            item(ItemKind::ToolResult, "a", 1, "found", Some(("c1", "lookup"))),
            item(ItemKind::ToolResult, "a", 1, "orphan", Some(("c9", "x"))),
            item(ItemKind::TransferCall, "a", 2, "", Some(("c2", "transfer_to_b"))),
        ];
        let refs: Vec<&Item> = items.iter().collect();
        let msgs = conversation(&refs);
        assert_eq!(msgs.len(), 3, "{msgs:?}");
        assert_eq!(msgs[0], Msg::User("hi".into()));
        let Msg::Assistant { text, reasoning, calls } = &msgs[1] else { panic!() };
        assert_eq!((text.as_deref(), reasoning.len(), calls.len()), (Some("calling"), 1, 1));
        assert_eq!(msgs[2], Msg::ToolResult { call_id: "c1".into(), name: "lookup".into(), output: "found".into() });
    }
}

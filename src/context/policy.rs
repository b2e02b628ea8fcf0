//! Handoff context policies: what of the sender's history becomes the receiver's input, exactly
//! as the OpenAI Agents SDK builds it for `full`, `remove_all_tools` and nested history.

use super::{Item, ItemId, ItemKind, ItemStore, NewItem};
use crate::topology::ContextPolicy;

/// The conversation an owner sees (its own instructions and facts excluded), split as the SDK
/// splits it: the run's input first, then the items generated in the run.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct History {
    pub items: Vec<ItemId>,
    /// `items[..input_len]` is the input (or what a filtered handoff left); the rest was
    /// generated in this run.
    pub input_len: usize,
}

impl History {
    pub fn push(&mut self, id: ItemId) {
        self.items.push(id);
    }

    fn all_input(items: Vec<ItemId>) -> History {
        let input_len = items.len();
        History { items, input_len }
    }
}

const SUMMARY_HEAD: &str = "For context, here is the conversation so far between the user and the previous agent:";

/// What the transfer is: who sends, the call that asked for it, when.
pub struct TransferCtx<'a> {
    pub sender_id: &'a str,
    pub sender_name: &'a str,
    pub call: ItemId,
    pub turn: u32,
}

/// Builds the receiver's history from the sender's. `new_start` is where the items of the
/// current step (the response that asked for the handoff, and the transfer outputs) begin.
pub fn apply_policy(
    store: &mut ItemStore,
    policy: &ContextPolicy,
    hist: &History,
    new_start: usize,
    t: &TransferCtx<'_>,
) -> History {
    match policy {
        // A custom filter of the user's code cannot run here: the whole history crosses (lint says so).
        ContextPolicy::Full | ContextPolicy::Custom(_) => hist.clone(),
        ContextPolicy::RemoveTools => {
            let keep = |id: &ItemId| {
                !matches!(
                    store.get(*id).kind,
                    ItemKind::ToolCall
                        | ItemKind::ToolResult
                        | ItemKind::TransferCall
                        | ItemKind::TransferOutput
                        | ItemKind::Reasoning
                )
            };
            let input: Vec<ItemId> = hist.items[..hist.input_len].iter().copied().filter(keep).collect();
            let input_len = input.len();
            let mut items = input;
            items.extend(hist.items[hist.input_len..].iter().copied().filter(keep));
            History { items, input_len }
        }
        ContextPolicy::LastN(n) => {
            let skip = hist.items.len().saturating_sub(*n);
            History::all_input(hist.items[skip..].to_vec())
        }
        ContextPolicy::None => {
            let last_user = hist.items.iter().rev().find(|id| store.get(**id).kind == ItemKind::UserMessage);
            History::all_input(last_user.copied().into_iter().collect())
        }
        ContextPolicy::Fields(fields) => {
            let args: serde_json::Value =
                store.get(t.call).arguments.as_deref().and_then(|a| serde_json::from_str(a).ok()).unwrap_or_default();
            let mut text = format!("Handoff from {}:", t.sender_name);
            for f in fields {
                if let Some(v) = args.get(&f.name) {
                    let v = v.as_str().map(str::to_owned).unwrap_or_else(|| v.to_string());
                    text.push_str(&format!("\n{}: {v}", f.name));
                }
            }
            let item = Item::new(
                ItemKind::UserMessage,
                t.sender_id,
                t.turn,
                NewItem { text, derived_from: vec![t.call], ..Default::default() },
            );
            History::all_input(vec![store.add(item)])
        }
        ContextPolicy::NestSummary => nest(store, hist, new_start, t),
    }
}

/// The SDK's default nested-history mapper: summarized items collect into one assistant message
/// each time a forwarded item (a message) interrupts them.
fn nest(store: &mut ItemStore, hist: &History, new_start: usize, t: &TransferCtx<'_>) -> History {
    let mut pending: Vec<ItemId> = vec![];
    for &id in &hist.items[..hist.input_len] {
        // An earlier summary is flattened back into the items it summarized.
        let item = store.get(id);
        if item.kind == ItemKind::AssistantMessage
            && item.text.starts_with(SUMMARY_HEAD)
            && !item.derived_from.is_empty()
        {
            pending.extend(item.derived_from.iter().copied());
        } else {
            pending.push(id);
        }
    }
    let mut out = vec![];
    let new_start = new_start.clamp(hist.input_len, hist.items.len());
    for (i, &id) in hist.items.iter().enumerate().filter(|(i, _)| *i >= hist.input_len) {
        let kind = store.get(id).kind;
        let forwarded = if i < new_start {
            kind == ItemKind::UserMessage
        } else {
            matches!(kind, ItemKind::UserMessage | ItemKind::AssistantMessage)
        };
        if forwarded {
            flush(store, &mut pending, &mut out, t);
            out.push(id);
        } else {
            pending.push(id);
        }
    }
    flush(store, &mut pending, &mut out, t);
    if out.is_empty() {
        let text =
            format!("{SUMMARY_HEAD}\n<CONVERSATION HISTORY>\n(no previous turns recorded)\n</CONVERSATION HISTORY>");
        let item = Item::new(ItemKind::AssistantMessage, t.sender_id, t.turn, NewItem { text, ..Default::default() });
        out.push(store.add(item));
    }
    History::all_input(out)
}

fn flush(store: &mut ItemStore, pending: &mut Vec<ItemId>, out: &mut Vec<ItemId>, t: &TransferCtx<'_>) {
    if pending.is_empty() {
        return;
    }
    let mut lines = vec![SUMMARY_HEAD.to_owned(), "<CONVERSATION HISTORY>".to_owned()];
    for (n, id) in pending.iter().enumerate() {
        lines.push(format!("{}. {}", n + 1, render_for_summary(store.get(*id))));
    }
    lines.push("</CONVERSATION HISTORY>".to_owned());
    let item = Item::new(
        ItemKind::AssistantMessage,
        t.sender_id,
        t.turn,
        NewItem { text: lines.join("\n"), derived_from: std::mem::take(pending), ..Default::default() },
    );
    out.push(store.add(item));
}

/// A JSON string literal as Python's `json.dumps(..., ensure_ascii=False)` writes it.
fn js(s: &str) -> String {
    serde_json::to_string(s).expect("strings serialize")
}

/// `"id": "…", ` first in an output message or reasoning item, when the provider gave one.
fn id_field(item: &Item) -> String {
    item.provider_id.as_deref().map(|i| format!("\"id\": {}, ", js(i))).unwrap_or_default()
}

/// One transcript line, as the SDK's `_format_transcript_item` renders the input item.
fn render_for_summary(item: &Item) -> String {
    let multiline = item.text.contains('\n') || item.text.contains('\r');
    match item.kind {
        ItemKind::UserMessage if !multiline => format!("user: {}", item.text),
        ItemKind::UserMessage => format!("{{\"content\": {}, \"role\": \"user\"}}", js(&item.text)),
        // Input messages are plain role/content pairs; generated ones are output messages.
        ItemKind::AssistantMessage if item.turn == 0 && !multiline => {
            format!("assistant: {}", item.text)
        }
        ItemKind::AssistantMessage if item.turn == 0 => {
            format!("{{\"content\": {}, \"role\": \"assistant\"}}", js(&item.text))
        }
        // Output items as the SDK dumps them: the openai types' field order, `id` and `status`
        // where the provider set them.
        ItemKind::AssistantMessage => format!(
            "{{{}\"content\": [{{\"annotations\": [], \"text\": {}, \"type\": \"output_text\"}}], \"role\": \"assistant\", \"status\": {}, \"type\": \"message\"}}",
            id_field(item),
            js(&item.text),
            js(item.status.as_deref().unwrap_or("completed"))
        ),
        ItemKind::ToolCall | ItemKind::TransferCall => format!(
            "{{\"arguments\": {}, \"call_id\": {}, \"name\": {}, \"type\": \"function_call\"{}{}}}",
            js(item.arguments.as_deref().unwrap_or("{}")),
            js(item.call_id.as_deref().unwrap_or("")),
            js(item.name.as_deref().unwrap_or("")),
            item.provider_id.as_deref().map(|i| format!(", \"id\": {}", js(i))).unwrap_or_default(),
            item.status.as_deref().map(|s| format!(", \"status\": {}", js(s))).unwrap_or_default()
        ),
        ItemKind::ToolResult | ItemKind::TransferOutput => format!(
            "{{\"call_id\": {}, \"output\": {}, \"type\": \"function_call_output\"}}",
            js(item.call_id.as_deref().unwrap_or("")),
            js(&item.text)
        ),
        ItemKind::Reasoning => format!(
            "{{{}\"summary\": [{{\"text\": {}, \"type\": \"summary_text\"}}], \"type\": \"reasoning\"{}}}",
            id_field(item),
            js(&item.text),
            item.status.as_deref().map(|s| format!(", \"status\": {}", js(s))).unwrap_or_default()
        ),
        ItemKind::Instructions | ItemKind::PinnedFact => format!("system: {}", item.text),
    }
}

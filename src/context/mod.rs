//! Context items with identity: everything an agent can see, each with a content hash, a kind
//! and a provenance, so every byte a model sees can be traced to who created it and when.

mod diff;
mod facts;
mod policy;

pub use diff::{TransferDiff, diff_transfer};
pub use facts::{FactStatus, Presence, fact_presence, fact_status};
pub use policy::{History, TransferCtx, apply_policy};

use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fmt;

/// A content hash identifying one item: 16 bytes of BLAKE3 over the item's kind, content,
/// provenance and lineage. The same run reproduces the same ids.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ItemId(pub [u8; 16]);

impl fmt::Display for ItemId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&hex::encode(self.0))
    }
}

impl fmt::Debug for ItemId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", &hex::encode(self.0)[..8])
    }
}

impl std::str::FromStr for ItemId {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut b = [0u8; 16];
        hex::decode_to_slice(s, &mut b).map_err(|e| format!("bad item id '{s}': {e}"))?;
        Ok(ItemId(b))
    }
}

impl Serialize for ItemId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut buf = [0u8; 32];
        hex::encode_to_slice(self.0, &mut buf).expect("32 bytes fit");
        s.serialize_str(std::str::from_utf8(&buf).expect("hex is ascii"))
    }
}

impl<'de> Deserialize<'de> for ItemId {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// What an item is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum ItemKind {
    /// An agent's system instructions (never crosses a handoff).
    Instructions,
    /// A pinned fact an agent holds beside its instructions.
    PinnedFact,
    UserMessage,
    AssistantMessage,
    Reasoning,
    /// A call of an ordinary tool.
    ToolCall,
    ToolResult,
    /// A call of a transfer tool (handoff or delegation).
    TransferCall,
    /// The output of a transfer call (`{"assistant": "Billing"}`, a delegation's result).
    TransferOutput,
}

impl ItemKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ItemKind::Instructions => "instructions",
            ItemKind::PinnedFact => "pinned_fact",
            ItemKind::UserMessage => "user_message",
            ItemKind::AssistantMessage => "assistant_message",
            ItemKind::Reasoning => "reasoning",
            ItemKind::ToolCall => "tool_call",
            ItemKind::ToolResult => "tool_result",
            ItemKind::TransferCall => "transfer_call",
            ItemKind::TransferOutput => "transfer_output",
        }
    }

    /// True for the agent's own items, which sit beside the history and never cross.
    pub fn is_own(self) -> bool {
        matches!(self, ItemKind::Instructions | ItemKind::PinnedFact)
    }

    pub fn is_call(self) -> bool {
        matches!(self, ItemKind::ToolCall | ItemKind::TransferCall)
    }

    pub fn is_call_output(self) -> bool {
        matches!(self, ItemKind::ToolResult | ItemKind::TransferOutput)
    }
}

/// One thing an agent can see.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct Item {
    #[ts(as = "String")]
    pub id: ItemId,
    pub kind: ItemKind,
    /// Message text, reasoning, a tool's output, instructions or the fact's text.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub text: String,
    /// Tool name, for calls.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// JSON arguments, for calls.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<String>,
    /// Links a call and its output.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call_id: Option<String>,
    /// The pinned fact's id, for pinned-fact items.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fact: Option<String>,
    /// Agent that created the item (`user` for the user's input).
    pub agent: String,
    /// The run's model-call number at creation (0 for the input).
    pub turn: u32,
    /// Items this one was derived from (a summary, a serialized field, a delegation's input).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Vec<String>")]
    pub derived_from: Vec<ItemId>,
    /// The id the provider gave this output item (`msg_…`, `fc_…`; the Agents SDK's
    /// `__fake_id__` for Chat Completions), which the SDK prints in nested handoff history.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub provider_id: Option<String>,
    /// The provider's status of this output item (`completed`), when it set one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub status: Option<String>,
}

/// The fields of a new item; the id is computed from them.
#[derive(Debug, Clone, Default)]
pub struct NewItem {
    pub text: String,
    pub name: Option<String>,
    pub arguments: Option<String>,
    pub call_id: Option<String>,
    pub fact: Option<String>,
    pub derived_from: Vec<ItemId>,
    pub provider_id: Option<String>,
    pub status: Option<String>,
}

impl Item {
    pub fn new(kind: ItemKind, agent: &str, turn: u32, f: NewItem) -> Item {
        let mut h = blake3::Hasher::new();
        let mut field = |b: &[u8]| {
            h.update(&(b.len() as u64).to_le_bytes());
            h.update(b);
        };
        field(kind.as_str().as_bytes());
        field(f.text.as_bytes());
        field(f.name.as_deref().unwrap_or("\u{0}").as_bytes());
        field(f.arguments.as_deref().unwrap_or("\u{0}").as_bytes());
        field(f.call_id.as_deref().unwrap_or("\u{0}").as_bytes());
        field(f.fact.as_deref().unwrap_or("\u{0}").as_bytes());
        field(agent.as_bytes());
        field(&turn.to_le_bytes());
        for d in &f.derived_from {
            field(&d.0);
        }
        // Only when set, so items without provider ids keep the ids they always had.
        for (tag, v) in [("provider_id", &f.provider_id), ("status", &f.status)] {
            if let Some(v) = v {
                field(tag.as_bytes());
                field(v.as_bytes());
            }
        }
        let mut id = [0u8; 16];
        id.copy_from_slice(&h.finalize().as_bytes()[..16]);
        Item {
            id: ItemId(id),
            kind,
            text: f.text,
            name: f.name,
            arguments: f.arguments,
            call_id: f.call_id,
            fact: f.fact,
            agent: agent.to_owned(),
            turn,
            derived_from: f.derived_from,
            provider_id: f.provider_id,
            status: f.status,
        }
    }

    /// The role the item has in a chat-style model input.
    pub fn role(&self) -> &'static str {
        match self.kind {
            ItemKind::Instructions | ItemKind::PinnedFact => "system",
            ItemKind::UserMessage => "user",
            ItemKind::AssistantMessage | ItemKind::Reasoning => "assistant",
            ItemKind::ToolCall | ItemKind::TransferCall => "function_call",
            ItemKind::ToolResult | ItemKind::TransferOutput => "function_call_output",
        }
    }

    /// Everything a reader of the item sees, for text matching (text plus call arguments).
    pub fn searchable(&self) -> String {
        match &self.arguments {
            Some(a) => format!("{} {} {a}", self.text, self.name.as_deref().unwrap_or("")),
            None => self.text.clone(),
        }
    }

    /// A hash of the normalized content only (no provenance), to match items across traces
    /// recorded by other frameworks.
    pub fn content_key(&self) -> [u8; 16] {
        let mut h = blake3::Hasher::new();
        h.update(self.role().as_bytes());
        match &self.arguments {
            Some(_) => h.update(normalize(&self.searchable()).as_bytes()),
            None => h.update(normalize(&self.text).as_bytes()),
        };
        let mut k = [0u8; 16];
        k.copy_from_slice(&h.finalize().as_bytes()[..16]);
        k
    }
}

/// Lowercase, punctuation dropped, whitespace collapsed: the form in which texts are compared.
pub fn normalize(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut space = false;
    let word = |out: &mut String, space: &mut bool| {
        if *space && !out.is_empty() {
            out.push(' ');
        }
        *space = false;
    };
    for c in s.chars() {
        if c.is_ascii() {
            // Most text is ASCII: no Unicode tables.
            if c.is_ascii_alphanumeric() {
                word(&mut out, &mut space);
                out.push(c.to_ascii_lowercase());
            } else {
                space = true;
            }
        } else if c.is_alphanumeric() {
            word(&mut out, &mut space);
            out.extend(c.to_lowercase());
        } else {
            space = true;
        }
    }
    out
}

/// A hasher for keys that are already hashes (item ids, content keys): their first eight bytes.
#[derive(Default, Clone, Copy)]
pub struct IdHasher(u64);

impl std::hash::Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        // Array hashing writes a length first; only the key's own bytes count.
        if bytes.len() >= 8 {
            self.0 ^= u64::from_le_bytes(bytes[..8].try_into().expect("eight bytes"));
        }
    }
    fn write_usize(&mut self, _: usize) {}
}

/// A map keyed by item ids or content keys.
pub type IdMap<K, V> = HashMap<K, V, std::hash::BuildHasherDefault<IdHasher>>;

/// Every item of a run, stored once, by id.
#[derive(Debug, Clone, Default)]
pub struct ItemStore {
    items: Vec<Item>,
    index: IdMap<ItemId, usize>,
}

impl ItemStore {
    /// Adds an item (once) and returns its id.
    pub fn add(&mut self, item: Item) -> ItemId {
        let id = item.id;
        if !self.index.contains_key(&id) {
            self.index.insert(id, self.items.len());
            self.items.push(item);
        }
        id
    }

    pub fn get(&self, id: ItemId) -> &Item {
        &self.items[self.index[&id]]
    }

    pub fn try_get(&self, id: ItemId) -> Option<&Item> {
        self.index.get(&id).map(|&i| &self.items[i])
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Items in insertion order.
    pub fn iter(&self) -> impl Iterator<Item = &Item> {
        self.items.iter()
    }

    /// True when `id` is `ancestor` or derived from it, through any number of steps.
    pub fn derives_from(&self, id: ItemId, ancestor: ItemId) -> bool {
        if id == ancestor {
            return true;
        }
        let mut stack = vec![id];
        let mut seen = std::collections::HashSet::new();
        while let Some(x) = stack.pop() {
            let Some(item) = self.try_get(x) else {
                continue;
            };
            for &d in &item.derived_from {
                if d == ancestor {
                    return true;
                }
                if seen.insert(d) {
                    stack.push(d);
                }
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_depend_on_content_and_provenance() {
        let a = Item::new(ItemKind::UserMessage, "user", 0, NewItem { text: "hi".into(), ..Default::default() });
        let b = Item::new(ItemKind::UserMessage, "user", 0, NewItem { text: "hi".into(), ..Default::default() });
        let c = Item::new(ItemKind::UserMessage, "user", 1, NewItem { text: "hi".into(), ..Default::default() });
        let d = Item::new(ItemKind::AssistantMessage, "user", 0, NewItem { text: "hi".into(), ..Default::default() });
        assert_eq!(a.id, b.id);
        assert_ne!(a.id, c.id);
        assert_ne!(a.id, d.id);
        assert_eq!(a.content_key(), c.content_key());
        let s = a.id.to_string();
        assert_eq!(s.len(), 32);
        assert_eq!(s.parse::<ItemId>().unwrap(), a.id);
    }

    #[test]
    fn normalize_ignores_case_space_and_punctuation() {
        assert_eq!(normalize("  'Resolved' means: patched,\n behind a FLAG. "), "resolved means patched behind a flag");
    }
}

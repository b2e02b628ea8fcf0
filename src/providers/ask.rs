//! One question to a model outside a run's conversation (a guardrail agent's verdict, a caller's
//! check of a claim, the suspects judge): a single user message, no tools; the answer's text and
//! the JSON object it holds, when it holds one.

use super::{Model, ModelError, ModelRequest, OutputItem, Usage};
use crate::context::{Item, ItemKind, ItemStore, NewItem};
use crate::topology::{Agent, PinnedFact};

/// A model's answer to one question.
pub struct Answer {
    /// The text of its messages, joined.
    pub text: String,
    pub usage: Usage,
}

impl Answer {
    /// The JSON object in the answer (from its first `{` to its last `}`), if there is one.
    pub fn json<T: serde::de::DeserializeOwned>(&self) -> Option<T> {
        let (a, b) = self.text.find('{').zip(self.text.rfind('}'))?;
        serde_json::from_str(self.text.get(a..=b)?).ok()
    }
}

/// Asks `model` (as `agent`, with `system`) one question.
pub async fn ask(
    model: &dyn Model,
    agent: &Agent,
    system: &str,
    question: &str,
    turn: u32,
    call_number: u32,
    facts: &[PinnedFact],
) -> Result<Answer, ModelError> {
    let mut store = ItemStore::default();
    let id = store.add(Item::new(
        ItemKind::UserMessage,
        "user",
        turn,
        NewItem { text: question.to_owned(), ..Default::default() },
    ));
    let item = store.get(id).clone();
    let req = ModelRequest {
        agent,
        system: system.to_owned(),
        context: vec![&item],
        tools: &[],
        turn,
        call_number,
        store: &store,
        facts,
    };
    let resp = model.respond(req).await?;
    let text = resp
        .output
        .iter()
        .filter_map(|o| match o {
            OutputItem::Message(m) => Some(m.as_str()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n");
    Ok(Answer { text, usage: resp.usage })
}

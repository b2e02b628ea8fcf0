//! Scenarios: a named user input plus per-agent mock scripts, so every topology runs offline and
//! deterministically. Rules are ordered; the first whose conditions all hold answers.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A named input and the mock scripts that answer it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    pub name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// Conversation before the new input (e.g. an ongoing chat), oldest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub history: Vec<PriorMessage>,
    /// The user's new message.
    pub input: String,
    /// Mock rules per agent id.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub scripts: BTreeMap<String, Vec<MockRule>>,
    /// Scripted verdicts on verified claims, per delegation edge id, in the order the claims
    /// come back (mock runs).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub verdicts: BTreeMap<String, Vec<MockVerdict>>,
    /// What a run of this scenario must show (`baton test` checks it).
    #[serde(default, skip_serializing_if = "Expect::is_empty")]
    pub expect: Expect,
}

/// A scripted verdict on a claim: accepted, or rejected with a reason.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct MockVerdict {
    pub accept: bool,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reason: String,
}

/// Expectations on a run of a scenario; every one given must hold.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    /// How the run ends: completed, stopped, escalated, failed, cancelled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub status: Option<String>,
    /// Text the outcome's reason contains.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub reason_contains: Option<String>,
    /// Text the final output contains.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub output_contains: Option<String>,
    /// A regular expression the final output matches.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub output_matches: Option<String>,
    /// Pinned facts never lost at any transfer.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub facts_kept: Vec<String>,
    /// Pinned fact id → the edge (`from->to`) where it must be lost.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub fact_lost_at: BTreeMap<String, String>,
    /// At most this many transfers (handoffs and delegations).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub max_transfers: Option<u32>,
    /// Agents that must act.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub visits: Vec<String>,
    /// Agents that must not act.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_visits: Vec<String>,
    /// The agent that owns the conversation at the end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub owner: Option<String>,
    /// At most this many tokens (input and output) over the run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub max_tokens: Option<u64>,
}

impl Expect {
    pub fn is_empty(&self) -> bool {
        *self == Expect::default()
    }
}

/// A message of prior conversation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct PriorMessage {
    /// `user` or `assistant`.
    pub role: String,
    pub content: String,
}

/// One scripted answer: conditions, then what the model "says".
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct MockRule {
    /// All conditions must hold; no conditions always match.
    #[serde(default, skip_serializing_if = "MockWhen::is_empty")]
    pub when: MockWhen,
    #[serde(flatten)]
    pub then: MockAction,
}

/// Conditions on what the agent can see.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct MockWhen {
    /// Some visible item contains this text (case, whitespace and punctuation ignored).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contains: Option<String>,
    /// No visible item contains this text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_contains: Option<String>,
    /// This pinned fact is present in the agent's context.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fact_present: Option<String>,
    /// This pinned fact is absent from the agent's context.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fact_absent: Option<String>,
    /// The nth model call of this agent in the run (1-based).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call: Option<u32>,
    /// The most recent tool result the agent sees contains this text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_tool_result_contains: Option<String>,
}

impl MockWhen {
    pub fn is_empty(&self) -> bool {
        *self == MockWhen::default()
    }
}

/// What the mock model answers.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct MockAction {
    /// A reasoning item emitted before the answer (the "why" behind a decision).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reasoning: Option<String>,
    /// Assistant text. Without calls, this is the final answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub say: Option<String>,
    /// Tool calls, in order (several in one response are allowed).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub calls: Vec<MockCall>,
}

/// A scripted tool call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct MockCall {
    /// The tool name as the model sees it (e.g. `transfer_to_billing`).
    pub tool: String,
    #[serde(default = "empty_args", skip_serializing_if = "is_empty_args")]
    pub args: serde_json::Value,
    /// The call id (generated as `call_<turn>_<n>` when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
}

fn empty_args() -> serde_json::Value {
    serde_json::json!({})
}

fn is_empty_args(v: &serde_json::Value) -> bool {
    v.as_object().is_some_and(|m| m.is_empty())
}

//! Guardrails, with the OpenAI Agents SDK's semantics (`agents/run.py`, 0.24; written down in
//! docs/sdk-semantics.md): input guardrails check the first agent's input on the run's first
//! turn only (blocking ones before its model call, parallel ones, the default, beside it); output
//! guardrails check the final output of the agent that gave it; a tripwire ends the run with a
//! reason. A guardrail names its agent, or none for a run-wide one (the SDK's `RunConfig`).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// When a guardrail runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum GuardrailOn {
    /// The run's input, before (blocking) or beside (parallel) the first agent's first model call.
    #[default]
    Input,
    /// The final output.
    Output,
}

/// What a guardrail checks. A pattern trips when it matches; a schema trips when the text is
/// not JSON valid under it.
/// In the file: `{contains: TEXT}`, `{regex: RE}` or `{schema: JSON_SCHEMA}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ts_rs::TS)]
#[serde(untagged, deny_unknown_fields)]
pub enum GuardrailCheck {
    /// Trips when the text contains this (any case).
    Contains { contains: String },
    /// Trips when the text matches this regular expression.
    Regex { regex: String },
    /// Trips when the text is not a JSON value valid under this JSON Schema.
    Schema {
        #[ts(type = "unknown")]
        schema: serde_json::Value,
    },
    /// A guardrail function of the user's code (read by `baton import-code`), which Baton cannot
    /// run: runs treat it as passing, and lint says so.
    Custom { custom: String },
    /// A guardrail agent: an agent of the topology (mock scripts can script it) gets the text and
    /// answers `{"tripwire_triggered": bool, "reason": "..."}`.
    Agent { agent: String },
}

/// One guardrail.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct Guardrail {
    /// Its name, as the trace and the SDK export show it.
    pub name: String,
    /// The agent it belongs to; none: run-wide (the SDK's `RunConfig.input_guardrails` and
    /// `output_guardrails`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub agent: Option<String>,
    #[serde(default)]
    pub on: GuardrailOn,
    pub check: GuardrailCheck,
    /// Input guardrails only: beside the model call (true, the SDK's default) or before it.
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub run_in_parallel: bool,
    /// What the trace says when it trips.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub message: String,
}

fn yes() -> bool {
    true
}

fn is_true(b: &bool) -> bool {
    *b
}

/// A guardrail's verdict on a text.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    pub tripped: bool,
    /// Why, in words.
    pub reason: String,
}

impl Guardrail {
    /// Checks `text`.
    pub fn check(&self, text: &str) -> Verdict {
        let say = |tripped: bool, why: String| {
            let reason = if tripped && !self.message.is_empty() { format!("{} ({why})", self.message) } else { why };
            Verdict { tripped, reason }
        };
        match &self.check {
            GuardrailCheck::Contains { contains: s } => {
                let hit = text.to_lowercase().contains(&s.to_lowercase());
                say(hit, if hit { format!("contains '{s}'") } else { format!("does not contain '{s}'") })
            }
            GuardrailCheck::Regex { regex: r } => match regex::Regex::new(r) {
                Ok(re) => match re.find(text) {
                    Some(m) => say(true, format!("matches /{r}/ at '{}'", m.as_str())),
                    None => say(false, format!("does not match /{r}/")),
                },
                Err(e) => say(true, format!("/{r}/ is not a regular expression: {e}")),
            },
            GuardrailCheck::Agent { agent } => say(false, format!("{agent} decides (the engine asks it)")),
            GuardrailCheck::Custom { custom } => {
                say(false, format!("{custom} is a function of your code that Baton cannot run: treated as passing"))
            }
            GuardrailCheck::Schema { schema } => {
                let value: serde_json::Value = match serde_json::from_str(text.trim()) {
                    Ok(v) => v,
                    Err(e) => return say(true, format!("the output is not JSON: {e}")),
                };
                match jsonschema::validator_for(schema) {
                    Err(e) => say(true, format!("the schema is not valid JSON Schema: {e}")),
                    Ok(v) => match v.iter_errors(&value).next() {
                        Some(err) => {
                            say(true, format!("the output breaks the schema at '{}': {err}", err.instance_path()))
                        }
                        None => say(false, "the output is valid under the schema".into()),
                    },
                }
            }
        }
    }
}

//! A handoff's context policy: what of the sender's history the target receives. Written in
//! config as a bare word (`full`) or a one-key map (`{last_n: 4}`, `{fields: [...]}`).

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// What crosses a handoff.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum ContextPolicy {
    /// The whole history, without the sender's instructions (the default everywhere).
    #[default]
    Full,
    /// As the Agents SDK's `handoff_filters.remove_all_tools`: tool and transfer calls and
    /// their outputs are dropped.
    RemoveTools,
    /// Only the last N items of the history.
    LastN(usize),
    /// The transcript collapsed into one assistant message (the SDK's `nest_handoff_history`).
    NestSummary,
    /// Nothing of the history (ADK `include_contents='none'`).
    None,
    /// A structured handoff input: only the named fields, taken from the transfer call.
    Fields(Vec<FieldSpec>),
    /// A filter function of the user's code (read by `baton import-code`), which Baton cannot
    /// run: runs carry the whole history, and lint flags the edge as unverifiable.
    Custom(String),
}

/// One field of a structured handoff input.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct FieldSpec {
    pub name: String,
    /// JSON Schema type name: string, number, integer, boolean, object, array.
    #[serde(rename = "type", default = "default_field_type")]
    pub ty: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
}

fn default_field_type() -> String {
    "string".into()
}

impl ContextPolicy {
    /// Short label for UIs and timelines: `full`, `last_n(3)`, `fields(ticket,status)`.
    pub fn label(&self) -> String {
        match self {
            ContextPolicy::Full => "full".into(),
            ContextPolicy::RemoveTools => "remove_tools".into(),
            ContextPolicy::LastN(n) => format!("last_n({n})"),
            ContextPolicy::NestSummary => "nest_summary".into(),
            ContextPolicy::None => "none".into(),
            ContextPolicy::Fields(f) => {
                format!("fields({})", f.iter().map(|f| f.name.as_str()).collect::<Vec<_>>().join(","))
            }
            ContextPolicy::Custom(name) => format!("custom({name})"),
        }
    }

    /// The policy a [`Self::label`] names (`fields(a,b)` gets string fields); None when it names none.
    pub fn parse_label(label: &str) -> Option<ContextPolicy> {
        let l = label.trim();
        let inner = |prefix: &str| l.strip_prefix(prefix).and_then(|r| r.strip_suffix(')')).map(str::trim);
        Some(match l {
            "full" => ContextPolicy::Full,
            "remove_tools" => ContextPolicy::RemoveTools,
            "nest_summary" => ContextPolicy::NestSummary,
            "none" => ContextPolicy::None,
            _ => {
                if let Some(n) = inner("last_n(") {
                    ContextPolicy::LastN(n.parse().ok()?)
                } else if let Some(f) = inner("fields(") {
                    let names: Vec<&str> = f.split(',').map(str::trim).filter(|n| !n.is_empty()).collect();
                    if names.is_empty() {
                        return None;
                    }
                    ContextPolicy::Fields(
                        names
                            .into_iter()
                            .map(|n| FieldSpec {
                                name: n.to_owned(),
                                ty: default_field_type(),
                                description: String::new(),
                            })
                            .collect(),
                    )
                } else if let Some(name) = inner("custom(") {
                    ContextPolicy::Custom(name.to_owned())
                } else {
                    return None;
                }
            }
        })
    }
}

/// The config form: a word or a one-key map (public only for the TypeScript bindings).
#[derive(Serialize, Deserialize, JsonSchema, ts_rs::TS)]
#[serde(untagged)]
#[ts(rename = "ContextPolicy")]
pub enum Repr {
    /// `full`, `remove_tools`, `nest_summary` or `none`.
    Word(Word),
    LastN {
        /// Keep only the last N history items.
        last_n: usize,
    },
    Fields {
        /// The fields of the structured handoff input.
        fields: Vec<FieldSpec>,
    },
    Custom {
        /// The name of a filter function in the user's code, which Baton cannot run.
        custom: String,
    },
}

#[derive(Serialize, Deserialize, JsonSchema, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "PolicyWord")]
pub enum Word {
    Full,
    RemoveTools,
    NestSummary,
    None,
}

impl Serialize for ContextPolicy {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let r = match self {
            ContextPolicy::Full => Repr::Word(Word::Full),
            ContextPolicy::RemoveTools => Repr::Word(Word::RemoveTools),
            ContextPolicy::NestSummary => Repr::Word(Word::NestSummary),
            ContextPolicy::None => Repr::Word(Word::None),
            ContextPolicy::LastN(n) => Repr::LastN { last_n: *n },
            ContextPolicy::Fields(f) => Repr::Fields { fields: f.clone() },
            ContextPolicy::Custom(c) => Repr::Custom { custom: c.clone() },
        };
        r.serialize(s)
    }
}

impl<'de> Deserialize<'de> for ContextPolicy {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        const EXPECTED: &str = "expected one of: full, remove_tools, nest_summary, none, \
                                {last_n: N}, {fields: [{name, type}]}, {custom: NAME}";
        let v = serde_json::Value::deserialize(d)?;
        match &v {
            serde_json::Value::String(s) => match s.as_str() {
                "full" => Ok(ContextPolicy::Full),
                "remove_tools" => Ok(ContextPolicy::RemoveTools),
                "nest_summary" => Ok(ContextPolicy::NestSummary),
                "none" => Ok(ContextPolicy::None),
                other => Err(D::Error::custom(format!("unknown policy '{other}'; {EXPECTED}"))),
            },
            serde_json::Value::Object(m) if m.len() == 1 => {
                let (k, val) = m.iter().next().expect("one entry");
                match k.as_str() {
                    "last_n" => val
                        .as_u64()
                        .map(|n| ContextPolicy::LastN(n as usize))
                        .ok_or_else(|| D::Error::custom("last_n needs a whole number, e.g. {last_n: 4}")),
                    "fields" => serde_json::from_value::<Vec<FieldSpec>>(val.clone())
                        .map(ContextPolicy::Fields)
                        .map_err(|e| D::Error::custom(format!("bad fields policy: {e}"))),
                    "custom" => val
                        .as_str()
                        .filter(|c| !c.is_empty())
                        .map(|c| ContextPolicy::Custom(c.to_owned()))
                        .ok_or_else(|| D::Error::custom("custom needs the filter's name, e.g. {custom: my_filter}")),
                    other => Err(D::Error::custom(format!("unknown policy '{other}'; {EXPECTED}"))),
                }
            }
            _ => Err(D::Error::custom(format!("bad policy {v}; {EXPECTED}"))),
        }
    }
}

impl JsonSchema for ContextPolicy {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "ContextPolicy".into()
    }
    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        Repr::json_schema(generator)
    }
}

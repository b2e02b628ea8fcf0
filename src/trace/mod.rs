//! The native trace: every step of a run, every transfer with its diff and fact checks, the
//! outcome, and the items they reference (stored once, by id). JSON with `"version": 1`.

mod align;
mod brief;
mod columns;
mod otlp_export;
mod timeline;

use crate::error::{ApiError, ErrorCode};
pub use align::{AlignedTransfer, RunDiff, diff_runs};
pub use brief::{StepBrief, TransferBrief};
pub use columns::StepColumns;
pub use otlp_export::to_otlp;
pub use timeline::render_timeline;

use crate::context::{FactStatus, Item, ItemId, ItemStore};
use crate::providers::Usage;
use crate::topology::Topology;
use serde::{Deserialize, Serialize};

pub const TRACE_VERSION: u32 = 2;

/// Trace versions this Baton reads (1 wrote every step's whole context; 2 writes deltas).
pub const READS_TRACE_VERSIONS: [u32; 2] = [1, 2];

/// What a step is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum StepKind {
    ModelCall,
    ToolCall,
    Handoff,
    Delegation,
    DelegationReturn,
    Guard,
    /// An input or output guardrail's verdict.
    Guardrail,
    Final,
}

impl StepKind {
    pub fn as_str(self) -> &'static str {
        match self {
            StepKind::ModelCall => "model_call",
            StepKind::ToolCall => "tool_call",
            StepKind::Handoff => "handoff",
            StepKind::Delegation => "delegation",
            StepKind::DelegationReturn => "delegation_return",
            StepKind::Guard => "guard",
            StepKind::Guardrail => "guardrail",
            StepKind::Final => "final",
        }
    }

    pub fn is_transfer(self) -> bool {
        matches!(self, StepKind::Handoff | StepKind::Delegation)
    }

    /// Every kind, for reading one back from its name.
    pub const ALL: [StepKind; 8] = [
        StepKind::ModelCall,
        StepKind::ToolCall,
        StepKind::Handoff,
        StepKind::Delegation,
        StepKind::DelegationReturn,
        StepKind::Guard,
        StepKind::Guardrail,
        StepKind::Final,
    ];

    /// The kind named `s` (its wire name), if any.
    pub fn from_name(s: &str) -> Option<StepKind> {
        StepKind::ALL.into_iter().find(|k| k.as_str() == s)
    }
}

/// One step of a run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct Step {
    pub index: u32,
    pub kind: StepKind,
    /// The agent acting at this step (for a transfer, the receiver).
    pub agent: String,
    /// Who owns the conversation after this step.
    pub owner: String,
    /// Nesting depth (0 for the top-level run, +1 inside each delegation).
    pub depth: u32,
    /// What the acting agent sees at this step (for a model call: its input).
    #[ts(as = "Vec<String>")]
    pub context: Vec<ItemId>,
    /// Items this step created.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Vec<String>")]
    pub output: Vec<ItemId>,
    /// Index into `transfers`, for handoff and delegation steps.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transfer: Option<u32>,
    /// A one-line description (tool name, guard reason...).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub detail: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<Usage>,
    /// The provider exchange (request and response bodies, no auth headers).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exchange: Option<serde_json::Value>,
    /// When the step ran, where the run or the source recorded it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timing: Option<Timing>,
}

/// When a step ran: milliseconds from the run's start, and how long it took.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct Timing {
    pub start_ms: f64,
    pub duration_ms: f64,
}

impl Timing {
    /// From whole microseconds (the precision the store keeps, so a timing reads back equal).
    pub fn from_micros(start_us: i64, duration_us: i64) -> Timing {
        Timing { start_ms: start_us as f64 / 1000.0, duration_ms: duration_us as f64 / 1000.0 }
    }

    /// From Unix-epoch nanoseconds, relative to the run's start (`origin_ns`).
    pub fn from_nanos(origin_ns: i64, start_ns: i64, end_ns: i64) -> Timing {
        Timing::from_micros(
            start_ns.saturating_sub(origin_ns).max(0) / 1000,
            end_ns.saturating_sub(start_ns).max(0) / 1000,
        )
    }

    /// The microseconds the store keeps: (start, duration).
    pub fn micros(&self) -> (i64, i64) {
        ((self.start_ms * 1000.0).round() as i64, (self.duration_ms * 1000.0).round() as i64)
    }
}

/// A pinned fact's status at a transfer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct FactCheck {
    pub id: String,
    pub status: FactStatus,
}

/// One handoff or delegation with its diff.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct Transfer {
    /// The step that made the transfer.
    pub step: u32,
    /// `handoff` or `delegation`.
    pub kind: crate::topology::EdgeKind,
    pub from: String,
    pub to: String,
    /// The edge id (empty for an escalation made by a guard).
    pub edge: String,
    /// The context policy that built the receiver's input (`tool_input` for delegations).
    pub policy: String,
    /// The sender's visible context at the transfer.
    #[ts(as = "Vec<String>")]
    pub sender: Vec<ItemId>,
    /// The receiver's input.
    #[ts(as = "Vec<String>")]
    pub receiver: Vec<ItemId>,
    #[ts(as = "Vec<String>")]
    pub carried: Vec<ItemId>,
    #[ts(as = "Vec<String>")]
    pub transformed: Vec<ItemId>,
    #[ts(as = "Vec<String>")]
    pub dropped: Vec<ItemId>,
    #[ts(as = "Vec<String>")]
    pub added: Vec<ItemId>,
    pub facts: Vec<FactCheck>,
    /// A delegation's return: what came back to the caller and what the worker left behind.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub back: Option<Back>,
}

/// What came back from a delegation, and what the worker saw or made that did not.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, ts_rs::TS)]
pub struct Back {
    /// The step where the caller has the result.
    pub step: u32,
    /// The worker's history when it finished (its own instructions and facts excluded).
    #[ts(as = "Vec<String>")]
    pub worker: Vec<ItemId>,
    /// What reached the caller.
    #[ts(as = "Vec<String>")]
    pub returned: Vec<ItemId>,
    /// What the worker had that did not come back (its task excluded: the caller wrote it).
    #[ts(as = "Vec<String>")]
    pub left_behind: Vec<ItemId>,
}

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum OutcomeStatus {
    Completed,
    /// A guard ended the run (`guard` says which).
    Stopped,
    /// A human took over.
    Escalated,
    /// An error ended the run.
    Failed,
    Cancelled,
    /// The process died mid-run (set when a store is reopened).
    Interrupted,
    /// Still running (only while events stream).
    Running,
}

impl OutcomeStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            OutcomeStatus::Completed => "completed",
            OutcomeStatus::Stopped => "stopped",
            OutcomeStatus::Escalated => "escalated",
            OutcomeStatus::Failed => "failed",
            OutcomeStatus::Cancelled => "cancelled",
            OutcomeStatus::Interrupted => "interrupted",
            OutcomeStatus::Running => "running",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct Outcome {
    pub status: OutcomeStatus,
    /// Why the run ended, in words.
    pub reason: String,
    /// Who owned the conversation at the end.
    pub owner: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_output: Option<String>,
    /// The guard that ended the run: `max_turns`, `max_handoffs`, `revisit`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub guard: Option<String>,
}

/// A whole run.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Trace {
    pub version: u32,
    /// The run's id in a store, when saved.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_id: Option<String>,
    /// The topology's name.
    pub topology: String,
    pub scenario: String,
    /// The topology that ran, so a trace file is self-contained.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub definition: Option<Topology>,
    /// Provider per agent id.
    #[serde(default)]
    pub providers: std::collections::BTreeMap<String, String>,
    pub started_at: String,
    #[serde(default)]
    pub ended_at: String,
    /// In the file, each step's context is a delta against the step before
    /// (`context_keep`: how many of its ids to keep, `context_add`: the ids that follow), so a
    /// trace grows with its items, not with steps × context.
    #[serde(with = "context_deltas")]
    pub steps: Vec<Step>,
    pub transfers: Vec<Transfer>,
    pub outcome: Outcome,
    pub usage: Usage,
    /// Every item the steps reference, by id (insertion order).
    #[serde(with = "item_map")]
    pub items: ItemStore,
    /// Where the trace came from when imported (`openai-agents`, `otlp`, `adk`), with notes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<serde_json::Value>,
    /// For a fork: its parent run, the step it forked at, what changed and where it diverged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fork: Option<crate::fork::ForkInfo>,
    /// How a person judged the run's ending (`baton runs mark`, the debugger's Good/Bad).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mark: Option<RunMark>,
}

/// A judgement of how a run ended: good or bad.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum Judgement {
    Good,
    Bad,
}

impl Judgement {
    pub fn as_str(self) -> &'static str {
        match self {
            Judgement::Good => "good",
            Judgement::Bad => "bad",
        }
    }

    pub fn parse(s: &str) -> Option<Judgement> {
        match s {
            "good" => Some(Judgement::Good),
            "bad" => Some(Judgement::Bad),
            _ => None,
        }
    }
}

/// A person's mark on a run: good or bad, why, and when it was set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
pub struct RunMark {
    pub judgement: Judgement,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub why: Option<String>,
    /// RFC 3339.
    pub at: String,
}

impl Trace {
    /// Parses a trace file's text, with a clear error. `origin` names the source in errors.
    pub fn from_json(text: &str, origin: &str) -> Result<Trace, ApiError> {
        let invalid = |m: String| ApiError::new(ErrorCode::TraceInvalid, format!("{origin}: {m}"));
        let mut t: Trace = serde_json::from_str(text).map_err(|e| {
            invalid(format!("not a Baton trace ({e}); a trace of another framework is read by `baton trace import`"))
        })?;
        if !READS_TRACE_VERSIONS.contains(&t.version) {
            return Err(invalid(format!(
                "trace format version {} is not supported; this Baton reads versions 1 and {TRACE_VERSION}",
                t.version
            )));
        }
        t.version = TRACE_VERSION;
        t.check().map_err(|e| invalid(e.message))?;
        Ok(t)
    }

    /// The deepest delegation nesting a trace may claim (the engine stops far earlier).
    pub const MAX_DEPTH: u32 = 1000;

    /// What a trace claims must hold before anything uses it: steps name items it has and
    /// transfers it has, depths are sane. (A crafted file claiming depth 4294967295 would
    /// otherwise make the timeline allocate gigabytes of indentation.)
    pub fn check(&self) -> Result<(), ApiError> {
        let bad = |m: String| ApiError::new(ErrorCode::TraceInvalid, m);
        for (i, s) in self.steps.iter().enumerate() {
            if s.depth > Self::MAX_DEPTH {
                return Err(bad(format!(
                    "step {i} claims depth {}; a trace nests at most {} deep",
                    s.depth,
                    Self::MAX_DEPTH
                )));
            }
            if let Some(t) = s.transfer.filter(|t| *t as usize >= self.transfers.len()) {
                return Err(bad(format!("step {i} names transfer {t}, but the trace has {}", self.transfers.len())));
            }
            if let Some(id) = s.context.iter().chain(&s.output).find(|id| self.items.try_get(**id).is_none()) {
                return Err(bad(format!("step {i} names item {id}, which the trace does not hold")));
            }
        }
        for (i, t) in self.transfers.iter().enumerate() {
            if t.step as usize >= self.steps.len().max(1) {
                return Err(bad(format!(
                    "transfer {i} names step {}, but the trace has {} steps",
                    t.step,
                    self.steps.len()
                )));
            }
            let all = t
                .sender
                .iter()
                .chain(&t.receiver)
                .chain(&t.carried)
                .chain(&t.transformed)
                .chain(&t.dropped)
                .chain(&t.added);
            if let Some(id) = all.into_iter().find(|id| self.items.try_get(**id).is_none()) {
                return Err(bad(format!("transfer {i} names item {id}, which the trace does not hold")));
            }
        }
        Ok(())
    }

    /// Reads a file of native traces: one trace, or the JSON array `baton trace import
    /// --format json` writes.
    pub fn all_from_file(path: &std::path::Path) -> Result<Vec<Trace>, ApiError> {
        let origin = path.display().to_string();
        let text = crate::config::read_regular(path, 4 << 30)
            .map_err(|e| ApiError::new(ErrorCode::TraceInvalid, format!("{origin}: cannot read the file: {e}")))?;
        if !text.trim_start().starts_with('[') {
            return Ok(vec![Trace::from_json(&text, &origin)?]);
        }
        let raw: Vec<serde_json::Value> = serde_json::from_str(&text).map_err(|e| {
            ApiError::new(ErrorCode::TraceInvalid, format!("{origin}: not a list of Baton traces ({e})"))
        })?;
        raw.iter()
            .enumerate()
            .map(|(i, v)| Trace::from_json(&v.to_string(), &format!("{origin} (trace {i})")))
            .collect()
    }

    /// Reads a native trace file.
    pub fn from_file(path: &std::path::Path) -> Result<Trace, ApiError> {
        let origin = path.display().to_string();
        let text = crate::config::read_regular(path, 4 << 30)
            .map_err(|e| ApiError::new(ErrorCode::TraceInvalid, format!("{origin}: cannot read the file: {e}")))?;
        Trace::from_json(&text, &origin)
    }

    pub fn item(&self, id: ItemId) -> Option<&Item> {
        self.items.try_get(id)
    }
}

mod context_deltas {
    use super::Step;
    use crate::context::ItemId;
    use serde::de::Error as _;
    use serde::ser::{Error as _, SerializeSeq};
    use serde::{Deserialize, Deserializer, Serializer};
    use serde_json::{Map, Value};

    pub fn serialize<S: Serializer>(steps: &[Step], s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(steps.len()))?;
        let mut prev: &[ItemId] = &[];
        for step in steps {
            let keep = prev.iter().zip(&step.context).take_while(|(a, b)| a == b).count();
            let mut v = serde_json::to_value(step).map_err(S::Error::custom)?;
            let m = v.as_object_mut().expect("a step serializes to an object");
            m.remove("context");
            m.insert("context_keep".into(), Value::from(keep));
            m.insert("context_add".into(), serde_json::to_value(&step.context[keep..]).map_err(S::Error::custom)?);
            seq.serialize_element(&v)?;
            prev = &step.context;
        }
        seq.end()
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Step>, D::Error> {
        let raw: Vec<Map<String, Value>> = Vec::deserialize(d)?;
        let mut out: Vec<Step> = Vec::with_capacity(raw.len());
        let mut prev: Vec<ItemId> = vec![];
        for (i, mut m) in raw.into_iter().enumerate() {
            if !m.contains_key("context") {
                // Version 2: a delta against the step before.
                let keep = m.remove("context_keep").and_then(|v| v.as_u64()).unwrap_or(0) as usize;
                if keep > prev.len() {
                    return Err(D::Error::custom(format!(
                        "step {i} keeps {keep} context items but the step before has {}",
                        prev.len()
                    )));
                }
                let add: Vec<ItemId> = match m.remove("context_add") {
                    Some(v) => serde_json::from_value(v).map_err(D::Error::custom)?,
                    None => vec![],
                };
                let mut ctx = prev[..keep].to_vec();
                ctx.extend(add);
                m.insert("context".into(), serde_json::to_value(&ctx).map_err(D::Error::custom)?);
            }
            let step: Step = serde_json::from_value(Value::Object(m)).map_err(D::Error::custom)?;
            prev = step.context.clone();
            out.push(step);
        }
        Ok(out)
    }
}

mod item_map {
    use crate::context::{Item, ItemId, ItemStore};
    use serde::de::{MapAccess, Visitor};
    use serde::ser::SerializeMap;
    use serde::{Deserializer, Serializer};

    pub fn serialize<S: Serializer>(store: &ItemStore, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(store.len()))?;
        for item in store.iter() {
            m.serialize_entry(&item.id, item)?;
        }
        m.end()
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<ItemStore, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = ItemStore;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a map of item id to item")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ItemStore, A::Error> {
                let mut store = ItemStore::default();
                while let Some((id, item)) = map.next_entry::<ItemId, Item>()? {
                    if id != item.id {
                        return Err(serde::de::Error::custom(format!("item {id} carries the id {}", item.id)));
                    }
                    store.add(item);
                }
                Ok(store)
            }
        }
        d.deserialize_map(V)
    }
}

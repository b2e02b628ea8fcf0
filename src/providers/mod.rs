//! One `Model` trait for every provider: the engine hands it the owner's instructions, visible
//! items and tools, and gets back output items and token usage. The mock provider (scripted,
//! offline, deterministic) is the default.

pub mod anthropic;
mod check;
pub mod gemini;
pub mod http;
pub mod keys;
mod live;
mod mock;
pub mod openai_chat;
pub mod openai_responses;
pub mod redact;
pub mod wire;

pub use check::{ProviderStatus, REAL, check_all};
pub use live::LiveModels;
pub mod ask;
pub use mock::{MockModel, estimate_tokens};

use crate::context::{Item, ItemStore};
use crate::topology::{Agent, PinnedFact};
use futures::future::BoxFuture;
use serde::{Deserialize, Serialize};

/// What a tool is to the engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToolKind {
    /// An ordinary tool, answered with its mock result.
    Tool,
    /// `transfer_to_<target>`: a handoff edge.
    Handoff,
    /// A delegation edge (agent-as-tool).
    Delegation,
}

/// A tool as a model sees it.
#[derive(Debug, Clone)]
pub struct ToolSpec {
    pub name: String,
    pub description: String,
    pub parameters: serde_json::Value,
    pub kind: ToolKind,
    /// The edge behind a transfer tool.
    pub edge: Option<String>,
}

/// One model call's input.
pub struct ModelRequest<'a> {
    pub agent: &'a Agent,
    /// The system prompt: instructions plus the pinned facts the agent holds.
    pub system: String,
    /// The visible context: the agent's own items, then the history, in order.
    pub context: Vec<&'a Item>,
    pub tools: &'a [ToolSpec],
    /// The run's model-call number (for deterministic call ids).
    pub turn: u32,
    /// This agent's nth model call in the run (1-based).
    pub call_number: u32,
    pub store: &'a ItemStore,
    pub facts: &'a [PinnedFact],
}

/// The provider's id and status of one output item.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct OutputRef {
    pub id: Option<String>,
    pub status: Option<String>,
}

impl OutputRef {
    /// What the Agents SDK's Chat Completions converter gives every item it makes (its
    /// `FAKE_RESPONSES_ID`); messages are `completed`, the rest carry no status.
    pub fn sdk_fake(item: &OutputItem) -> OutputRef {
        OutputRef {
            id: Some("__fake_id__".into()),
            status: matches!(item, OutputItem::Message(_)).then(|| "completed".to_owned()),
        }
    }
}

/// One item of a model's answer.
#[derive(Debug, Clone, PartialEq)]
pub enum OutputItem {
    Reasoning(String),
    Message(String),
    Call { name: String, arguments: String, call_id: String },
}

/// Token counts of one call (the provider's own figures; an estimate for the mock).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
pub struct Usage {
    #[ts(type = "number")]
    pub input_tokens: u64,
    #[ts(type = "number")]
    pub output_tokens: u64,
}

impl std::ops::AddAssign for Usage {
    fn add_assign(&mut self, o: Usage) {
        self.input_tokens += o.input_tokens;
        self.output_tokens += o.output_tokens;
    }
}

#[derive(Debug, Clone)]
pub struct ModelResponse {
    pub output: Vec<OutputItem>,
    /// The provider's id and status of each output item, in the same order (empty: none given).
    pub refs: Vec<OutputRef>,
    pub usage: Usage,
    /// The request and response bodies as sent and received (no auth headers), for the trace.
    pub exchange: Option<serde_json::Value>,
}

/// Why a model call failed.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ModelError {
    #[error("{0}")]
    Script(String),
    #[error("{provider} returned HTTP {status}: {message}")]
    Http { provider: String, status: u16, message: String },
    #[error("{provider}: {message}")]
    Transport { provider: String, message: String },
    #[error("{provider}: unexpected response: {message}")]
    Protocol { provider: String, message: String },
    #[error("{0}")]
    Config(String),
    #[error("cancelled")]
    Cancelled,
}

impl crate::error::Coded for ModelError {
    fn code(&self) -> crate::error::ErrorCode {
        use crate::error::ErrorCode as C;
        match self {
            ModelError::Script(_) => C::ModelScript,
            ModelError::Http { .. } => C::ModelHttp,
            ModelError::Transport { .. } => C::ModelTransport,
            ModelError::Protocol { .. } => C::ModelProtocol,
            ModelError::Config(_) => C::ModelConfig,
            ModelError::Cancelled => C::ModelCancelled,
        }
    }
}

/// A model provider.
pub trait Model: Send + Sync {
    fn respond<'a>(&'a self, req: ModelRequest<'a>) -> BoxFuture<'a, Result<ModelResponse, ModelError>>;
}

/// Chooses the model for each agent of a run.
pub trait ModelSource: Send + Sync {
    fn model_for(&self, agent: &Agent) -> Result<&dyn Model, ModelError>;
}

/// Every agent answered by one model (the mock, or a replay).
pub struct SameModel<M: Model>(pub M);

impl<M: Model> ModelSource for SameModel<M> {
    fn model_for(&self, _agent: &Agent) -> Result<&dyn Model, ModelError> {
        Ok(&self.0)
    }
}

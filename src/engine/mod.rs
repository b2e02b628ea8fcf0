//! The run engine: executes a topology the way the OpenAI Agents SDK does (handoffs move
//! ownership under a context policy, delegations run nested and return a result), records every
//! step and transfer with its diff and fact checks, enforces the guards, and streams events.

mod events;
mod gate;
pub mod replay;
mod runner;
mod tools;
pub use tools::{input_type_name, system_prompt, tools_for};

pub use events::RunEvent;
pub use gate::Gate;

use crate::providers::{MockModel, ModelSource, SameModel};
use crate::topology::Topology;
use crate::trace::Trace;
use tokio_util::sync::CancellationToken;

/// Errors that stop a run before it starts (a run that starts always ends with an outcome).
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error("{0}")]
    Invalid(#[from] crate::topology::ValidationError),
    #[error("the topology has no scenario named '{0}'; its scenarios: {1}")]
    UnknownScenario(String, String),
    #[error("the topology has no scenario to run; add one under `scenarios:` with an `input`")]
    NoScenario,
}

impl crate::error::Coded for EngineError {
    fn code(&self) -> crate::error::ErrorCode {
        use crate::error::ErrorCode as C;
        match self {
            EngineError::Invalid(_) => C::TopologyInvalid,
            EngineError::UnknownScenario(..) => C::RunUnknownScenario,
            EngineError::NoScenario => C::RunNoScenario,
        }
    }
}

/// A receiver of run events.
pub type EventSink = Box<dyn FnMut(&RunEvent) + Send>;

/// Everything a run needs besides the topology and its models.
#[derive(Default)]
pub struct RunOptions {
    /// Scenario name; the first scenario when absent.
    pub scenario: Option<String>,
    pub cancel: CancellationToken,
    /// Receives every event as it happens.
    pub sink: Option<EventSink>,
    /// The run's id (when it is being saved to a store).
    pub run_id: Option<String>,
    /// Edge ids on which a run pauses before the transfer happens.
    pub breakpoints: std::collections::HashSet<String>,
    /// Resumes a paused run.
    pub gate: std::sync::Arc<Gate>,
    /// Simulated latency of each mock model call (demos, crash tests).
    pub mock_delay: Option<std::time::Duration>,
    /// Label of the provider per agent id, recorded in the trace.
    pub providers: std::collections::BTreeMap<String, String>,
    /// A fork's change to the context at one step (items dropped or restored).
    pub edit: Option<ContextEdit>,
    /// Tool results of a recording, answered for the same call (agent, tool, arguments) before
    /// the tool's mock result: a fork of an imported run sees what the real tools returned.
    pub recorded_tools: Option<std::sync::Arc<RecordedTools>>,
}

/// A recording's tool results by call: (agent, tool, arguments) → the results in call order.
#[derive(Debug, Default)]
pub struct RecordedTools(std::collections::HashMap<(String, String, String), Vec<String>>);

impl RecordedTools {
    /// Every tool call of `trace` with its result.
    pub fn of(trace: &Trace) -> RecordedTools {
        use crate::context::ItemKind;
        let results: std::collections::HashMap<&str, &str> = trace
            .items
            .iter()
            .filter(|i| i.kind == ItemKind::ToolResult)
            .filter_map(|i| Some((i.call_id.as_deref()?, i.text.as_str())))
            .collect();
        let mut map: std::collections::HashMap<(String, String, String), Vec<String>> = Default::default();
        for s in &trace.steps {
            for it in s.output.iter().filter_map(|id| trace.item(*id)).filter(|i| i.kind == ItemKind::ToolCall) {
                let Some(r) = it.call_id.as_deref().and_then(|c| results.get(c)) else { continue };
                let key =
                    (it.agent.clone(), it.name.clone().unwrap_or_default(), normalize_args(it.arguments.as_deref()));
                map.entry(key).or_default().push((*r).to_owned());
            }
        }
        RecordedTools(map)
    }

    /// The recorded result of the `nth` (0-based) same call, else the last one recorded.
    pub fn result(&self, agent: &str, tool: &str, arguments: &str, nth: usize) -> Option<&str> {
        let v = self.0.get(&(agent.to_owned(), tool.to_owned(), normalize_args(Some(arguments))))?;
        v.get(nth).or(v.last()).map(String::as_str)
    }
}

/// Arguments compared as JSON values (key order and spacing ignored), else as text.
fn normalize_args(a: Option<&str>) -> String {
    let a = a.unwrap_or_default();
    serde_json::from_str::<serde_json::Value>(a).map(|v| v.to_string()).unwrap_or_else(|_| a.trim().to_owned())
}

/// A change to what the agent acting at step `at` sees: at a transfer, the receiver's history
/// right after the policy (so the transfer's fact checks see it); at a model call, the history
/// before the call.
#[derive(Debug, Clone, Default)]
pub struct ContextEdit {
    pub at: u32,
    /// Items taken out of the history.
    pub drop: Vec<crate::context::ItemId>,
    /// Pinned facts put back, as their own items (at the end of the history).
    pub restore: Vec<String>,
    /// Items of the recording put back (what did not cross a transfer), each where it stood
    /// in `order` relative to the items the history kept: after the nearest earlier item of
    /// `order` that is present, else at the start (before a delegation's task).
    pub put_back: Vec<crate::context::Item>,
    /// The sender's context at the transfer, in order (where `put_back` items stood).
    pub order: Vec<crate::context::ItemId>,
}

/// Runs a topology's scenario with the given models.
pub async fn run(t: &Topology, models: &dyn ModelSource, opts: RunOptions) -> Result<Trace, EngineError> {
    t.validate()?;
    let scenario = match &opts.scenario {
        Some(name) => t.scenario(Some(name)).ok_or_else(|| {
            EngineError::UnknownScenario(
                name.clone(),
                t.scenarios.iter().map(|s| s.name.as_str()).collect::<Vec<_>>().join(", "),
            )
        })?,
        None => t.scenario(None).ok_or(EngineError::NoScenario)?,
    };
    Ok(runner::Runner::new(t, scenario, models, opts).run().await)
}

/// Runs a scenario with the mock provider for every agent (the default, offline).
pub async fn run_mock(t: &Topology, opts: RunOptions) -> Result<Trace, EngineError> {
    let scenario = match &opts.scenario {
        Some(n) => t.scenario(Some(n)).cloned(),
        None => t.scenario(None).cloned(),
    };
    let mut mock = MockModel::new(scenario.unwrap_or_default());
    if let Some(d) = opts.mock_delay {
        mock = mock.with_delay(d);
    }
    let models = SameModel(mock);
    let mut opts = opts;
    if opts.providers.is_empty() {
        opts.providers = t.agents.iter().map(|a| (a.id.clone(), "mock".to_string())).collect();
    }
    run(t, &models, opts).await
}

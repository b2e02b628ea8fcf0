//! Fork a recorded run at a step: change the topology (an edge's policy, an agent's model or
//! instructions, a guard) or the context at that step (items dropped, facts restored), then
//! re-run under the replay provider, so every call up to the fork point and every later call
//! whose request is unchanged answers from the recording, and the first changed one (the
//! divergence) and the rest go to the mock, the live providers, or nowhere (`replay`: the run
//! ends there with that reason).

use crate::context::{Item, ItemId};
use crate::engine::replay::{Divergence, NoFallback, Replay};
use crate::engine::{ContextEdit, RunOptions};
use crate::providers::{MockModel, ModelSource, SameModel};
use crate::topology::{ContextPolicy, ModelRef, Provider, Topology};
use crate::trace::Trace;
use serde::{Deserialize, Serialize};

/// Who answers from the first divergence on.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum Then {
    /// Nobody: the fork ends at the divergence, with that reason.
    Replay,
    /// The scenario's mock scripts.
    #[default]
    Mock,
    /// Each agent's configured provider.
    Live,
}

/// What to change at the fork.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct ForkSpec {
    /// The step the fork starts at (0-based, as the timeline numbers them).
    pub at: u32,
    /// Edge id → policy label (`full`, `none`, `last_n(3)`, `fields(a,b)`…).
    #[serde(default)]
    pub policies: std::collections::BTreeMap<String, String>,
    /// Agent id → `PROVIDER:MODEL[@BASE_URL]` (`openai:gpt-4o`, `openai-compatible:qwen@http://127.0.0.1:8080/v1`).
    #[serde(default)]
    pub models: std::collections::BTreeMap<String, String>,
    /// Agent id → new instructions.
    #[serde(default)]
    pub instructions: std::collections::BTreeMap<String, String>,
    /// Item ids to take out of the context at the fork step.
    #[serde(default)]
    pub drop: Vec<String>,
    /// Pinned fact ids to put back into the context at the fork step.
    #[serde(default)]
    pub restore: Vec<String>,
    /// Item ids of the run to put back into the receiver's context at the fork step (what did
    /// not cross the transfer there), each where it stood in the sender's context.
    #[serde(default)]
    pub put_back: Vec<String>,
    /// A new `guards.max_turns`.
    #[serde(default)]
    #[ts(optional)]
    pub max_turns: Option<u32>,
    #[serde(default)]
    pub then: Then,
}

/// How a fork relates to its parent, kept with the fork's trace.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct ForkInfo {
    /// The parent run's id (empty for a trace file that was never saved).
    pub parent: String,
    pub at: u32,
    /// The changes, in words.
    pub changes: Vec<String>,
    pub then: Then,
    /// Where the fork left the recording (None: it replayed to the end unchanged).
    pub divergence: Option<Divergence>,
}

#[derive(Debug, thiserror::Error)]
pub enum ForkError {
    #[error(
        "this run carries no topology to re-run (a trace file from before topologies were kept); import it again or fork a run Baton made"
    )]
    NoTopology,
    #[error("the run has {count} steps; --at {at} is past its end (steps are numbered from 0)")]
    PastEnd { at: u32, count: usize },
    #[error("{0}")]
    Bad(String),
}

impl crate::error::Coded for ForkError {
    fn code(&self) -> crate::error::ErrorCode {
        crate::error::ErrorCode::ApiArgs
    }
}

/// `PROVIDER:MODEL`, optionally `@BASE_URL` (an OpenAI-compatible server's address).
pub fn model_ref(spec: &str) -> Result<ModelRef, ForkError> {
    let (model, base_url) = match spec.split_once('@') {
        Some((m, url)) => (m, Some(url.trim().to_owned())),
        None => (spec, None),
    };
    let (p, name) = model.split_once(':').ok_or_else(|| {
        ForkError::Bad(format!("model '{spec}': write PROVIDER:MODEL, e.g. openai:gpt-4o or openai-compatible:qwen"))
    })?;
    let provider: Provider = serde_json::from_value(serde_json::Value::String(p.trim().to_owned())).map_err(|_| {
        ForkError::Bad(format!(
            "model '{spec}': unknown provider '{p}' (one of mock, openai, openai-responses, anthropic, gemini, openai-compatible)"
        ))
    })?;
    let mut m = ModelRef::with_provider(provider);
    m.name = name.trim().to_owned();
    m.base_url = base_url;
    Ok(m)
}

/// The fork's topology and its changes in words.
fn changed_topology(t: &Topology, spec: &ForkSpec) -> Result<(Topology, Vec<String>, Vec<String>), ForkError> {
    let mut out = t.clone();
    let mut words = vec![];
    let mut remodelled = vec![];
    let known_agents = || t.agents.iter().map(|a| a.id.as_str()).collect::<Vec<_>>().join(", ");
    for (edge, label) in &spec.policies {
        let policy = ContextPolicy::parse_label(label).ok_or_else(|| {
            ForkError::Bad(format!(
                "policy '{label}' for {edge}: write full, remove_tools, nest_summary, none, last_n(N) or fields(a,b)"
            ))
        })?;
        let e = out.edges.iter_mut().find(|e| &e.id == edge).ok_or_else(|| {
            ForkError::Bad(format!(
                "edge '{edge}' is not in the run's topology (it has: {})",
                t.edges.iter().map(|e| e.id.as_str()).collect::<Vec<_>>().join(", ")
            ))
        })?;
        words.push(format!("policy of {edge}: {} → {}", e.policy.label(), policy.label()));
        e.policy = policy;
    }
    for (agent, m) in &spec.models {
        let m = model_ref(m)?;
        let a = out.agents.iter_mut().find(|a| &a.id == agent).ok_or_else(|| {
            ForkError::Bad(format!("agent '{agent}' is not in the run's topology (it has: {})", known_agents()))
        })?;
        words.push(format!("model of {}: {}:{}", a.name, m.provider.as_str(), m.name));
        a.model = Some(m);
        remodelled.push(agent.clone());
    }
    for (agent, text) in &spec.instructions {
        let a = out.agents.iter_mut().find(|a| &a.id == agent).ok_or_else(|| {
            ForkError::Bad(format!("agent '{agent}' is not in the run's topology (it has: {})", known_agents()))
        })?;
        words.push(format!("instructions of {} changed", a.name));
        a.instructions = text.clone();
    }
    if let Some(n) = spec.max_turns {
        words.push(format!("max_turns: {} → {n}", out.guards.max_turns));
        out.guards.max_turns = n;
    }
    for f in &spec.restore {
        if !t.facts.iter().any(|x| &x.id == f) {
            return Err(ForkError::Bad(format!(
                "fact '{f}' is not pinned in the run's topology (it has: {})",
                t.facts.iter().map(|f| f.id.as_str()).collect::<Vec<_>>().join(", ")
            )));
        }
        words.push(format!("fact {f} restored at step {}", spec.at));
    }
    Ok((out, words, remodelled))
}

/// The items `spec.put_back` names, and the order they stood in: the sender's context of the
/// transfer at the fork step (a handoff or a delegation), else the
/// context of the step before.
fn put_back_items(trace: &Trace, spec: &ForkSpec) -> Result<(Vec<Item>, Vec<ItemId>), ForkError> {
    if spec.put_back.is_empty() {
        return Ok((vec![], vec![]));
    }
    let mut items = vec![];
    for s in &spec.put_back {
        let id = s.parse::<ItemId>().map_err(|e| ForkError::Bad(format!("item '{s}': {e}")))?;
        let it = trace.item(id).ok_or_else(|| {
            ForkError::Bad(format!("item '{s}' is not in the run (`baton trace show` lists a step's items)"))
        })?;
        items.push(it.clone());
    }
    let at = spec.at;
    let order = trace
        .transfers
        .iter()
        .find(|t| t.step == at)
        .map(|t| t.sender.clone())
        .or_else(|| at.checked_sub(1).and_then(|p| trace.steps.get(p as usize)).map(|s| s.context.clone()))
        .unwrap_or_default();
    Ok((items, order))
}

/// Forks `trace` (saved as run `parent`, or "" for a file) as `spec` says. With `Then::Live`
/// each agent's configured provider (of the changed topology) answers from the divergence on.
/// Returns the fork's trace (its `fork` set).
pub async fn fork(
    trace: &Trace,
    parent: &str,
    spec: &ForkSpec,
    mut opts: RunOptions,
) -> Result<Trace, crate::error::ApiError> {
    let base = trace.definition.as_ref().ok_or(ForkError::NoTopology)?;
    if spec.at as usize >= trace.steps.len() {
        return Err(ForkError::PastEnd { at: spec.at, count: trace.steps.len() }.into());
    }
    let (topology, mut changes, remodelled) = changed_topology(base, spec)?;
    let drop: Vec<ItemId> = spec
        .drop
        .iter()
        .map(|s| s.parse::<ItemId>().map_err(|e| ForkError::Bad(format!("item '{s}': {e}"))))
        .collect::<Result<_, _>>()?;
    for d in &drop {
        changes.push(format!("item {} dropped at step {}", &d.to_string()[..8], spec.at));
    }
    let (put_back, order) = put_back_items(trace, spec)?;
    for it in &put_back {
        changes.push(format!("{} of {} put back at step {}", it.kind.as_str(), it.agent, spec.at));
    }
    let scenario = topology.scenario(Some(&trace.scenario)).or_else(|| topology.scenario(None)).cloned();
    let mock = SameModel(MockModel::new(scenario.clone().unwrap_or_default()));
    let live = match spec.then {
        Then::Live => Some(crate::providers::LiveModels::for_fork(&topology, scenario.as_ref(), opts.cancel.clone())),
        _ => None,
    };
    if let Some(l) = &live {
        opts.providers = l.labels.clone();
    } else if opts.providers.is_empty() {
        opts.providers = topology.agents.iter().map(|a| (a.id.clone(), "replay".to_string())).collect();
    }
    let fallback: &dyn ModelSource = match (&live, spec.then) {
        (Some(l), _) => l,
        (None, Then::Replay) => &NoFallback,
        (None, _) => &mock,
    };
    let replay = Replay::new(trace, fallback).forced_before(spec.at).changed(remodelled);
    opts.scenario = scenario.map(|s| s.name);
    if opts.recorded_tools.is_none() {
        opts.recorded_tools = Some(std::sync::Arc::new(crate::engine::RecordedTools::of(trace)));
    }
    if !drop.is_empty() || !spec.restore.is_empty() || !put_back.is_empty() {
        opts.edit = Some(ContextEdit { at: spec.at, drop, restore: spec.restore.clone(), put_back, order });
    }
    let mut out = crate::engine::run(&topology, &replay, opts).await?;
    out.fork = Some(ForkInfo {
        parent: parent.to_owned(),
        at: spec.at,
        changes,
        then: spec.then,
        divergence: replay.divergence(),
    });
    Ok(out)
}

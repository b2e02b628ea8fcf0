//! The replay provider: answers each model call of a recorded run with the recorded response,
//! matched by agent and call order and checked against the recorded request (the context's item
//! ids: items are content-addressed, so an unchanged request has the same ids). At the first call
//! whose request differs, or that the recording does not have, the replay marks the divergence
//! and hands that call and every later one to the fallback source (mock or live providers).

use crate::context::{ItemId, ItemKind};
use crate::providers::{Model, ModelError, ModelRequest, ModelResponse, ModelSource, OutputItem, OutputRef};
use crate::topology::Agent;
use crate::trace::{StepKind, Trace};
use futures::future::BoxFuture;
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};
use std::sync::Mutex;

/// One recorded call: what it saw and what it answered.
struct Recorded {
    /// The step of the recording that made it.
    step: u32,
    context: Vec<ItemId>,
    response: ModelResponse,
}

/// Where a replay stopped following the recording.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct Divergence {
    /// The agent whose call differed.
    pub agent: String,
    /// Its nth call (1-based).
    pub call: u32,
    /// The recording's step of that call, when the recording has one.
    pub recorded_step: Option<u32>,
    pub reason: String,
}

/// Replays `trace`'s model calls; `fallback` answers from the first divergence on.
pub struct Replay<'a> {
    calls: HashMap<String, Vec<Recorded>>,
    fallback: &'a dyn ModelSource,
    /// Calls before this step of the recording are answered from it even when their request
    /// changed (a fork keeps the run up to its fork point).
    forced_before: u32,
    /// Agents whose model the fork changed: their calls after the fork point never replay.
    changed: HashSet<String>,
    diverged: Mutex<Option<Divergence>>,
}

/// The recorded response of a model-call step, rebuilt from its output items.
fn response_of(trace: &Trace, output: &[ItemId], usage: Option<crate::providers::Usage>) -> ModelResponse {
    let mut out = vec![];
    let mut refs = vec![];
    for id in output {
        let Some(it) = trace.item(*id) else { continue };
        let item = match it.kind {
            ItemKind::AssistantMessage => OutputItem::Message(it.text.clone()),
            ItemKind::Reasoning => OutputItem::Reasoning(it.text.clone()),
            ItemKind::ToolCall | ItemKind::TransferCall => OutputItem::Call {
                name: it.name.clone().unwrap_or_default(),
                arguments: it.arguments.clone().unwrap_or_default(),
                call_id: it.call_id.clone().unwrap_or_default(),
            },
            _ => continue,
        };
        out.push(item);
        refs.push(OutputRef { id: it.provider_id.clone(), status: it.status.clone() });
    }
    ModelResponse { output: out, refs, usage: usage.unwrap_or_default(), exchange: None }
}

impl<'a> Replay<'a> {
    pub fn new(trace: &Trace, fallback: &'a dyn ModelSource) -> Replay<'a> {
        let mut calls: HashMap<String, Vec<Recorded>> = HashMap::new();
        for s in trace.steps.iter().filter(|s| s.kind == StepKind::ModelCall) {
            calls.entry(s.agent.clone()).or_default().push(Recorded {
                step: s.index,
                context: s.context.clone(),
                response: response_of(trace, &s.output, s.usage),
            });
        }
        Replay { calls, fallback, forced_before: 0, changed: HashSet::new(), diverged: Mutex::new(None) }
    }

    /// Keeps the recording's answers for every call before recorded step `step`.
    pub fn forced_before(mut self, step: u32) -> Self {
        self.forced_before = step;
        self
    }

    /// Agents whose model changed: after the fork point their calls go to the fallback.
    pub fn changed(mut self, agents: impl IntoIterator<Item = String>) -> Self {
        self.changed.extend(agents);
        self
    }

    /// The first divergence, if the replay left the recording.
    pub fn divergence(&self) -> Option<Divergence> {
        self.diverged.lock().expect("not poisoned").clone()
    }

    /// The recorded answer for this request, or why there is none.
    fn recorded(&self, req: &ModelRequest<'_>) -> Result<ModelResponse, (Option<u32>, String)> {
        let agent = &req.agent.id;
        let n = req.call_number as usize;
        let Some(rec) = self.calls.get(agent).and_then(|c| c.get(n.wrapping_sub(1))) else {
            return Err((None, format!("the recording has no call {n} of {}", req.agent.name)));
        };
        if rec.step < self.forced_before {
            return Ok(rec.response.clone());
        }
        if self.changed.contains(agent) {
            return Err((Some(rec.step), format!("{}'s model was changed", req.agent.name)));
        }
        let now: Vec<ItemId> = req.context.iter().map(|i| i.id).collect();
        if now != rec.context {
            let added = now.iter().filter(|i| !rec.context.contains(i)).count();
            let gone = rec.context.iter().filter(|i| !now.contains(i)).count();
            return Err((
                Some(rec.step),
                format!(
                    "its input differs from the recording's ({added} item{} new, {gone} gone)",
                    if added == 1 { "" } else { "s" }
                ),
            ));
        }
        Ok(rec.response.clone())
    }
}

impl Model for Replay<'_> {
    fn respond<'b>(&'b self, req: ModelRequest<'b>) -> BoxFuture<'b, Result<ModelResponse, ModelError>> {
        Box::pin(async move {
            if self.diverged.lock().expect("not poisoned").is_none() {
                match self.recorded(&req) {
                    Ok(r) => return Ok(r),
                    Err((step, reason)) => {
                        *self.diverged.lock().expect("not poisoned") = Some(Divergence {
                            agent: req.agent.id.clone(),
                            call: req.call_number,
                            recorded_step: step,
                            reason,
                        });
                    }
                }
            }
            self.fallback.model_for(req.agent)?.respond(req).await
        })
    }
}

impl ModelSource for Replay<'_> {
    fn model_for(&self, _agent: &Agent) -> Result<&dyn Model, ModelError> {
        Ok(self)
    }
}

/// A fallback that answers nothing: a replay that must not leave the recording ends there.
pub struct NoFallback;

impl Model for NoFallback {
    fn respond<'a>(&'a self, req: ModelRequest<'a>) -> BoxFuture<'a, Result<ModelResponse, ModelError>> {
        let msg = format!(
            "the replay left the recording at call {} of {} and no provider was chosen for the rest (mock or live)",
            req.call_number, req.agent.name
        );
        Box::pin(std::future::ready(Err(ModelError::Script(msg))))
    }
}

impl ModelSource for NoFallback {
    fn model_for(&self, _agent: &Agent) -> Result<&dyn Model, ModelError> {
        Ok(self)
    }
}

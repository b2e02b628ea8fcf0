//! Live models: each agent answered by its configured provider (agents on `mock`, or without
//! a model, keep the scenario's scripts), checked up front so a missing key or base URL is
//! reported before the run starts.

use super::anthropic::Anthropic;
use super::gemini::Gemini;
use super::http::{Endpoint, HttpPolicy, client};
use super::keys;
use super::openai_chat::OpenAiChat;
use super::openai_responses::OpenAiResponses;
use super::{MockModel, Model, ModelError, ModelSource};
use crate::topology::{Agent, Provider, Scenario, Topology};
use std::collections::{BTreeMap, HashMap};
use tokio_util::sync::CancellationToken;

pub struct LiveModels {
    models: HashMap<String, Box<dyn Model>>,
    /// Retries the providers made (HTTP 429, 5xx, timeouts).
    retries: std::sync::Arc<std::sync::atomic::AtomicU64>,
    mock: MockModel,
    /// Provider label per agent id, for the trace.
    pub labels: BTreeMap<String, String>,
}

impl LiveModels {
    /// Builds a model per agent. Fails with every configuration problem listed.
    pub fn new(t: &Topology, scenario: Option<&Scenario>, cancel: CancellationToken) -> Result<LiveModels, ModelError> {
        LiveModels::build(t, scenario, cancel, true)
    }

    /// For a fork: an agent whose provider cannot be reached (no key, no base URL) fails only
    /// if the fork calls it (most agents answer from the recording before the divergence).
    pub fn for_fork(t: &Topology, scenario: Option<&Scenario>, cancel: CancellationToken) -> LiveModels {
        LiveModels::build(t, scenario, cancel, false).expect("a lenient build does not fail")
    }

    fn build(
        t: &Topology,
        scenario: Option<&Scenario>,
        cancel: CancellationToken,
        strict: bool,
    ) -> Result<LiveModels, ModelError> {
        let policy = HttpPolicy::from_env();
        let http = client(&policy);
        let mut models: HashMap<String, Box<dyn Model>> = HashMap::new();
        let mut labels = BTreeMap::new();
        let mut problems = vec![];
        for a in &t.agents {
            let Some(m) = a.model.as_ref().filter(|m| m.provider != Provider::Mock) else {
                labels.insert(a.id.clone(), "mock".to_string());
                continue;
            };
            let p = m.provider;
            let key = keys::key(p).map(|(k, _)| k);
            if key.is_none() && p != Provider::OpenaiCompatible {
                problems.push((
                    a.id.clone(),
                    format!(
                        "{} uses {} but no key is set: export {} or store one with `baton providers set-key {}`",
                        a.name,
                        p.as_str(),
                        keys::key_vars(p).join(" or "),
                        p.as_str()
                    ),
                ));
                continue;
            }
            let Some(base_url) = keys::base_url(p, m.base_url.as_deref()) else {
                problems.push((a.id.clone(), format!(
                    "{} uses an OpenAI-compatible server but has no base_url: set `base_url` (e.g. http://127.0.0.1:8080/v1) or OPENAI_COMPATIBLE_BASE_URL",
                    a.name
                )));
                continue;
            };
            let ep = Endpoint {
                label: p.as_str(),
                base_url,
                key,
                model: m.name.clone(),
                temperature: m.temperature,
                top_p: m.top_p,
                max_tokens: m.max_tokens,
                stream: m.stream,
                policy: policy.clone(),
                client: http.clone(),
                cancel: cancel.clone(),
            };
            let model: Box<dyn Model> = match p {
                Provider::Openai | Provider::OpenaiCompatible => Box::new(OpenAiChat {
                    ep,
                    compatible: p == Provider::OpenaiCompatible,
                    tool_choice: m.tool_choice.clone(),
                }),
                Provider::OpenaiResponses => Box::new(OpenAiResponses { ep }),
                Provider::Anthropic => Box::new(Anthropic { ep }),
                Provider::Gemini => Box::new(Gemini { ep }),
                Provider::Mock => unreachable!("mock agents are skipped above"),
            };
            labels.insert(a.id.clone(), format!("{}:{}", p.as_str(), m.name));
            models.insert(a.id.clone(), Box::new(Redacting(model)));
        }
        if strict && !problems.is_empty() {
            return Err(ModelError::Config(problems.into_iter().map(|(_, p)| p).collect::<Vec<_>>().join("\n")));
        }
        for (agent, problem) in problems {
            labels.insert(agent.clone(), "unavailable".into());
            models.insert(agent, Box::new(Unavailable(problem)));
        }
        let mock = MockModel::new(scenario.cloned().unwrap_or_else(|| Scenario {
            name: String::new(),
            description: String::new(),
            history: vec![],
            input: String::new(),
            scripts: Default::default(),
            verdicts: Default::default(),
            expect: Default::default(),
        }));
        Ok(LiveModels { models, mock, labels, retries: policy.retries.clone() })
    }
}

/// A real provider whose every answer and error loses any key it echoes, before any caller
/// (a run, a guardrail agent, a claim check, the judge, a matrix cell, a fork) sees it.
struct Redacting(Box<dyn Model>);

impl Model for Redacting {
    fn respond<'a>(
        &'a self,
        req: crate::providers::ModelRequest<'a>,
    ) -> futures::future::BoxFuture<'a, Result<crate::providers::ModelResponse, ModelError>> {
        Box::pin(async move {
            match self.0.respond(req).await {
                Ok(r) => Ok(super::redact::response(r)),
                Err(e) => Err(super::redact::error(e)),
            }
        })
    }
}

/// A model that cannot be called, and says why.
struct Unavailable(String);

impl Model for Unavailable {
    fn respond<'a>(
        &'a self,
        _req: crate::providers::ModelRequest<'a>,
    ) -> futures::future::BoxFuture<'a, Result<crate::providers::ModelResponse, ModelError>> {
        let why = self.0.clone();
        Box::pin(async move { Err(ModelError::Config(why)) })
    }
}

impl LiveModels {
    /// How many times the providers retried a request so far.
    pub fn retries(&self) -> u64 {
        self.retries.load(std::sync::atomic::Ordering::Relaxed)
    }
}

impl ModelSource for LiveModels {
    fn model_for(&self, agent: &Agent) -> Result<&dyn Model, ModelError> {
        Ok(self.models.get(&agent.id).map(|m| m.as_ref()).unwrap_or(&self.mock))
    }
}

//! The mock provider: deterministic, offline answers from the scenario's per-agent scripts.
//! Ordered rules, first match wins. Tokens are estimated as ceil(chars / 4) per text plus 3
//! per item, the common rule of thumb for English text with OpenAI tokenizers.

use super::{Model, ModelError, ModelRequest, ModelResponse, OutputItem, OutputRef, Usage};
use crate::context::{Presence, fact_presence, normalize};
use crate::topology::{MockRule, MockWhen, Scenario};
use futures::future::BoxFuture;

pub struct MockModel {
    scenario: Scenario,
    delay: Option<std::time::Duration>,
}

impl MockModel {
    pub fn new(scenario: Scenario) -> MockModel {
        MockModel { scenario, delay: None }
    }

    /// Answers after `delay`, like a model with latency.
    pub fn with_delay(mut self, delay: std::time::Duration) -> MockModel {
        self.delay = Some(delay);
        self
    }
}

/// ceil(chars / 4) + 3: the documented mock estimate of one text's tokens.
pub fn estimate_tokens(text: &str) -> u64 {
    (text.chars().count() as u64).div_ceil(4) + 3
}

fn matches(w: &MockWhen, req: &ModelRequest<'_>) -> bool {
    if w.call.is_some_and(|n| n != req.call_number) {
        return false;
    }
    let contains = |needle: &str| {
        let n = normalize(needle);
        req.context.iter().any(|i| !i.kind.is_own() && normalize(&i.searchable()).contains(&n))
    };
    if w.contains.as_deref().is_some_and(|c| !contains(c)) {
        return false;
    }
    if w.not_contains.as_deref().is_some_and(contains) {
        return false;
    }
    let ids: Vec<_> = req.context.iter().map(|i| i.id).collect();
    let present = |fact: &str| {
        req.facts.iter().find(|f| f.id == fact).is_some_and(|f| fact_presence(req.store, f, &ids) != Presence::Absent)
    };
    if w.fact_present.as_deref().is_some_and(|f| !present(f)) {
        return false;
    }
    if w.fact_absent.as_deref().is_some_and(present) {
        return false;
    }
    if let Some(needle) = &w.last_tool_result_contains {
        let last = req.context.iter().rev().find(|i| i.kind.is_call_output());
        if !last.is_some_and(|i| normalize(&i.text).contains(&normalize(needle))) {
            return false;
        }
    }
    true
}

impl MockModel {
    fn answer(&self, req: &ModelRequest<'_>) -> Result<ModelResponse, ModelError> {
        let agent = &req.agent.id;
        let rules: &[MockRule] = self.scenario.scripts.get(agent).map(Vec::as_slice).unwrap_or(&[]);
        let rule = rules.iter().find(|r| matches(&r.when, req)).ok_or_else(|| {
            ModelError::Script(format!(
                "mock script of scenario '{}' has no rule for agent '{agent}' that matches its call {}; \
                 add a rule under scenarios[{}].scripts.{agent} (a rule without `when` always matches)",
                self.scenario.name, req.call_number, self.scenario.name
            ))
        })?;
        let mut output = vec![];
        if let Some(r) = &rule.then.reasoning {
            output.push(OutputItem::Reasoning(r.clone()));
        }
        if let Some(s) = &rule.then.say {
            output.push(OutputItem::Message(s.clone()));
        }
        for (i, c) in rule.then.calls.iter().enumerate() {
            output.push(OutputItem::Call {
                name: c.tool.clone(),
                arguments: c.args.to_string(),
                call_id: c.id.clone().unwrap_or_else(|| format!("call_{}_{}", req.turn, i + 1)),
            });
        }
        if output.is_empty() {
            return Err(ModelError::Script(format!(
                "a mock rule for agent '{agent}' in scenario '{}' has no `say`, `reasoning` or `calls`",
                self.scenario.name
            )));
        }
        let input_tokens = estimate_tokens(&req.system)
            + req
                .context
                .iter()
                .filter(|i| !i.kind.is_own())
                .map(|i| estimate_tokens(&i.text) + i.arguments.as_deref().map_or(0, estimate_tokens))
                .sum::<u64>();
        let output_tokens = output
            .iter()
            .map(|o| match o {
                OutputItem::Reasoning(t) | OutputItem::Message(t) => estimate_tokens(t),
                OutputItem::Call { name, arguments, .. } => estimate_tokens(name) + estimate_tokens(arguments),
            })
            .sum();
        // Ids as a Responses API model sets them (deterministic: the turn and the item's place).
        let refs = output
            .iter()
            .enumerate()
            .map(|(i, o)| match o {
                OutputItem::Message(_) => {
                    OutputRef { id: Some(format!("msg_{}_{i}", req.turn)), status: Some("completed".into()) }
                }
                OutputItem::Call { call_id, .. } => {
                    OutputRef { id: Some(format!("fc_{call_id}")), status: Some("completed".into()) }
                }
                OutputItem::Reasoning(_) => OutputRef { id: Some(format!("rs_{}_{i}", req.turn)), status: None },
            })
            .collect();
        Ok(ModelResponse { output, refs, usage: Usage { input_tokens, output_tokens }, exchange: None })
    }
}

impl Model for MockModel {
    fn respond<'a>(&'a self, req: ModelRequest<'a>) -> BoxFuture<'a, Result<ModelResponse, ModelError>> {
        let r = self.answer(&req);
        match self.delay {
            None => Box::pin(std::future::ready(r)),
            Some(d) => Box::pin(async move {
                tokio::time::sleep(d).await;
                r
            }),
        }
    }
}

//! The optional judge: a configured model (any provider, a local OpenAI-compatible server
//! included) is shown one transfer's deterministic suspects and asked to re-rank them. Its view
//! is kept beside the deterministic ranking and never replaces it; an answer that is not a
//! ranking of the listed suspects is reported as such.

use crate::providers::{LiveModels, ModelSource};
use crate::suspects::TransferSuspects;
use crate::topology::{Agent, ModelRef, Topology};
use serde::{Deserialize, Serialize};

/// The judge's view of one transfer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct JudgeView {
    pub transfer: u32,
    /// The suspects' positions (0-based, in the deterministic list) in the judge's order; empty
    /// when the answer was not a ranking.
    pub order: Vec<u32>,
    /// What the judge said, as it said it (clipped).
    pub answer: String,
    /// Why the answer was not used, when it was not.
    pub problem: Option<String>,
}

const INSTRUCTIONS: &str = "You judge which piece of context, lost at a handoff between AI agents, \
most likely broke the run. You get numbered suspects. Answer with JSON only: {\"ranking\": [numbers, \
most likely first]}.";

/// The numbers of a `{"ranking": [...]}` answer that name listed suspects, in order, once each.
fn parse_ranking(text: &str, n: usize) -> Result<Vec<u32>, String> {
    let start = text.find('{').ok_or("the answer holds no JSON object")?;
    let end = text.rfind('}').ok_or("the answer holds no JSON object")?;
    let v: serde_json::Value =
        serde_json::from_str(&text[start..=end]).map_err(|e| format!("the answer's JSON does not parse: {e}"))?;
    let list = v.get("ranking").and_then(|r| r.as_array()).ok_or("the answer has no \"ranking\" list")?;
    let mut out = vec![];
    for x in list {
        let k = x.as_u64().ok_or("the ranking holds something other than suspect numbers")?;
        if k == 0 || k as usize > n {
            return Err(format!("the ranking names suspect {k}, but there are {n}"));
        }
        if !out.contains(&(k as u32 - 1)) {
            out.push(k as u32 - 1);
        }
    }
    if out.is_empty() {
        return Err("the ranking is empty".into());
    }
    Ok(out)
}

/// Asks `model` to re-rank `t`'s top suspects (at most `top`).
pub async fn judge(model: &ModelRef, t: &TransferSuspects, top: usize) -> Result<JudgeView, crate::error::ApiError> {
    let shown: Vec<_> = t.suspects.iter().take(top).collect();
    let mut prompt = format!("Handoff {} → {} (transfer {}). Suspects:\n", t.from, t.to, t.transfer);
    for (i, s) in shown.iter().enumerate() {
        prompt.push_str(&format!("{}. ({} of {}) {}\n", i + 1, s.kind.as_str(), s.agent, s.text));
    }
    let agent = Agent {
        id: "judge".into(),
        name: "Judge".into(),
        kind: Default::default(),
        instructions: INSTRUCTIONS.into(),
        model: Some(model.clone()),
        tools: vec![],
        source: None,
    };
    let mut topo = Topology::new("judge");
    topo.agents = vec![agent.clone()];
    topo.entry = "judge".into();
    let models = LiveModels::new(&topo, None, Default::default())?;
    let model_for = models.model_for(&agent)?;
    let answer = crate::providers::ask::ask(model_for, &agent, INSTRUCTIONS, &prompt, 1, 1, &[]).await?.text;
    let clipped: String = answer.chars().take(400).collect();
    Ok(match parse_ranking(&answer, shown.len()) {
        Ok(order) => JudgeView { transfer: t.transfer, order, answer: clipped, problem: None },
        Err(p) => JudgeView { transfer: t.transfer, order: vec![], answer: clipped, problem: Some(p) },
    })
}

#[cfg(test)]
mod tests {
    use super::parse_ranking;

    #[test]
    fn a_ranking_names_listed_suspects_once() {
        assert_eq!(parse_ranking("Sure: {\"ranking\": [2, 1, 2]}", 3), Ok(vec![1, 0]));
        assert!(parse_ranking("{\"ranking\": [4]}", 3).unwrap_err().contains("there are 3"));
        assert!(parse_ranking("I think the second one.", 3).is_err());
        assert!(parse_ranking("{\"rank\": [1]}", 3).is_err());
    }
}

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

/// Asks `model`, as a one-agent topology of its own, `prompt` under `instructions`; the answer
/// redacted (nothing a provider sends is shown unredacted: a reply may echo a key).
async fn ask(model: &ModelRef, instructions: &str, prompt: &str) -> Result<String, crate::error::ApiError> {
    let agent = Agent {
        id: "judge".into(),
        name: "Judge".into(),
        kind: Default::default(),
        instructions: instructions.into(),
        model: Some(model.clone()),
        tools: vec![],
        source: None,
    };
    let mut topo = Topology::new("judge");
    topo.agents = vec![agent.clone()];
    topo.entry = "judge".into();
    let models = LiveModels::new(&topo, None, Default::default())?;
    let answer = crate::providers::ask::ask(models.model_for(&agent)?, &agent, instructions, prompt, 1, 1, &[]).await?;
    Ok(crate::providers::redact::redact(&answer.text).into_owned())
}

/// Asks `model` to re-rank `t`'s top suspects (at most `top`).
pub async fn judge(model: &ModelRef, t: &TransferSuspects, top: usize) -> Result<JudgeView, crate::error::ApiError> {
    let shown: Vec<_> = t.suspects.iter().take(top).collect();
    let mut prompt = format!("Handoff {} → {} (transfer {}). Suspects:\n", t.from, t.to, t.transfer);
    for (i, s) in shown.iter().enumerate() {
        prompt.push_str(&format!("{}. ({} of {}) {}\n", i + 1, s.kind.as_str(), s.agent, s.text));
    }
    let answer = ask(model, INSTRUCTIONS, &prompt).await?;
    let clipped: String = answer.chars().take(400).collect();
    Ok(match parse_ranking(&answer, shown.len()) {
        Ok(order) => JudgeView { transfer: t.transfer, order, answer: clipped, problem: None },
        Err(p) => JudgeView { transfer: t.transfer, order: vec![], answer: clipped, problem: Some(p) },
    })
}

const ENDING: &str = "You judge how a run of AI agents ended for the user who asked. Answer with JSON only: \
{\"ending\": \"good\" or \"bad\", \"reason\": \"one sentence\"}.";

/// Asks `model` whether `trace` ended well for its user: what the user asked, how the run ended
/// and its final answer. None when the answer is not that JSON (the ending then stays unjudged
/// by a judge).
pub async fn judge_ending(
    model: &ModelRef,
    trace: &crate::trace::Trace,
) -> Result<Option<crate::suspects::JudgeSays>, crate::error::ApiError> {
    let asked = trace
        .steps
        .first()
        .into_iter()
        .flat_map(|s| s.context.iter().filter_map(|id| trace.item(*id)))
        .filter(|i| i.kind == crate::context::ItemKind::UserMessage)
        .map(|i| i.text.clone())
        .collect::<Vec<_>>()
        .join("\n");
    let o = &trace.outcome;
    let prompt = format!(
        "The user asked:\n{asked}\n\nThe run ended {} ({}).\nIts final answer:\n{}",
        o.status.as_str(),
        o.reason,
        o.final_output.as_deref().unwrap_or("(none)")
    );
    let answer = ask(model, ENDING, &prompt).await?;
    let (Some(start), Some(end)) = (answer.find('{'), answer.rfind('}')) else { return Ok(None) };
    let Ok(v) = serde_json::from_str::<serde_json::Value>(&answer[start..=end.max(start)]) else { return Ok(None) };
    let judgement = match v.get("ending").and_then(|e| e.as_str()) {
        Some("good") => crate::trace::Judgement::Good,
        Some("bad") => crate::trace::Judgement::Bad,
        _ => return Ok(None),
    };
    let why: String = v.get("reason").and_then(|r| r.as_str()).unwrap_or_default().chars().take(300).collect();
    Ok(Some(crate::suspects::JudgeSays {
        judgement,
        reason: format!(
            "the judge ({}:{}) says it ended {}: {why}",
            model.provider.as_str(),
            model.name,
            judgement.as_str()
        ),
    }))
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

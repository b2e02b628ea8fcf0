//! How a run ended, judged without word lists deciding alone. The sources, in order: the
//! scenario's `expect:` failing; a person's mark (`baton runs mark`); a configured judge; then
//! what the run's structure shows (a failure, an escalation, a guard stop or tripwire, a claim its
//! checker rejected, an action on an identifier another agent had already acted on that undoes
//! it). A reversal word alone never decides: it counts only on an action that touches the same
//! identifiers as an earlier agent's action.

use super::text::{TermKind, terms};
use crate::context::ItemKind;
use crate::trace::{Judgement, OutcomeStatus, StepKind, Trace};
use serde::{Deserialize, Serialize};

/// Who judged the ending.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum JudgedBy {
    /// The scenario's `expect:` failed.
    Expect,
    /// A person marked the run.
    Mark,
    /// A configured judge model.
    Judge,
    /// The run's structure (failure, escalation, guard, rejected claim, an undone action).
    Signal,
    /// Nothing judged it.
    Nobody,
}

/// The run's ending as judged.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct Ending {
    /// Bad, good, or not known (None).
    pub judgement: Option<Judgement>,
    pub by: JudgedBy,
    /// Why, in words.
    pub reason: String,
    /// The step where it went wrong, when one can be named.
    pub at: Option<u32>,
}

impl Ending {
    pub fn is_bad(&self) -> bool {
        self.judgement == Some(Judgement::Bad)
    }

    fn unknown() -> Ending {
        Ending {
            judgement: None,
            by: JudgedBy::Nobody,
            reason: "nothing judges this ending: no failed expect:, no mark, no judge, no failure signal".into(),
            at: None,
        }
    }
}

/// An outside judgement of the ending (a judge model's answer), when one was asked.
#[derive(Debug, Clone, PartialEq)]
pub struct JudgeSays {
    pub judgement: Judgement,
    pub reason: String,
}

/// The expectations of the run's scenario, checked against the run: Some(failures) when the
/// scenario has any.
pub fn expect_failures(trace: &Trace) -> Option<Vec<crate::testing::Failure>> {
    let topo = trace.definition.as_ref()?;
    let scenario = topo.scenario(Some(&trace.scenario))?;
    let (checked, failures) = crate::testing::check(topo, &scenario.expect, trace);
    (checked > 0).then_some(failures)
}

/// Judges `trace`'s ending: expect, mark, judge, then the run's own signals.
pub fn judge_ending(trace: &Trace, judge: Option<&JudgeSays>) -> Ending {
    let last = trace.steps.last().map(|s| s.index);
    if let Some(failures) = expect_failures(trace).filter(|f| !f.is_empty()) {
        let first = &failures[0];
        return Ending {
            judgement: Some(Judgement::Bad),
            by: JudgedBy::Expect,
            reason: format!("the scenario's expect failed: {}: {}", first.expectation, first.reason),
            at: failures.iter().filter_map(|f| f.step).min().or(last),
        };
    }
    if let Some(m) = &trace.mark {
        return Ending {
            judgement: Some(m.judgement),
            by: JudgedBy::Mark,
            reason: match &m.why {
                Some(w) if !w.trim().is_empty() => format!("marked {} by a person: {w}", m.judgement.as_str()),
                _ => format!("marked {} by a person", m.judgement.as_str()),
            },
            at: last,
        };
    }
    if let Some(j) = judge {
        return Ending { judgement: Some(j.judgement), by: JudgedBy::Judge, reason: j.reason.clone(), at: last };
    }
    match signal(trace) {
        Some((reason, at)) => Ending { judgement: Some(Judgement::Bad), by: JudgedBy::Signal, reason, at: Some(at) },
        None => Ending::unknown(),
    }
}

/// Words of undoing (a reversal): weight for an action that also touches what another agent
/// acted on, never a judgement on their own.
const UNDO: &[&str] = &[
    "reopen", "revert", "rollback", "undo", "reverse", "rescind", "retract", "revoke", "withdraw", "void", "cancel",
    "clawback", "recall", "refund", "unwind", "annul", "return",
];

fn undo_word(text: &str) -> Option<String> {
    let lower = text.to_lowercase();
    let squashed: String = lower.chars().filter(|c| c.is_alphanumeric() || c.is_whitespace() || *c == '_').collect();
    let joined = squashed.replace(['_', ' '], "");
    squashed
        .split(|c: char| !c.is_alphanumeric())
        .find_map(|w| UNDO.iter().find(|u| w.starts_with(*u)).map(|u| (*u).to_owned()))
        .or_else(|| ["rollback", "clawback"].iter().find(|u| joined.contains(*u)).map(|u| (*u).to_owned()))
}

/// Identifiers and numbers of a text (what an action is about).
fn idents(text: &str) -> Vec<String> {
    let mut v: Vec<String> = terms(text)
        .into_iter()
        .filter(|(_, k)| matches!(k, TermKind::Ident | TermKind::Number))
        .map(|(t, _)| t)
        .collect();
    v.sort();
    v
}

/// The first structural sign that the run went wrong, with its step.
pub fn signal(trace: &Trace) -> Option<(String, u32)> {
    let last = trace.steps.last().map(|s| s.index).unwrap_or(0);
    match trace.outcome.status {
        OutcomeStatus::Failed | OutcomeStatus::Escalated | OutcomeStatus::Stopped | OutcomeStatus::Interrupted => {
            return Some((format!("the run {}: {}", trace.outcome.status.as_str(), trace.outcome.reason), last));
        }
        _ => {}
    }
    // A claim its checker rejected, unless a later claim was accepted (the caller recovered).
    let mut verdicts =
        trace.steps.iter().filter(|s| s.kind == StepKind::DelegationReturn && s.detail.contains("· claim "));
    if let Some(s) = verdicts.next_back().filter(|s| s.detail.contains("claim rejected")) {
        return Some((format!("the last claim was rejected at step {}: {}", s.index, s.detail), s.index));
    }
    undone(trace)
}

/// An action that undoes another agent's earlier one: a later tool call (or its result) that
/// reads as a reversal and names an identifier an earlier action of another agent named. One
/// pass over the steps, identifiers looked up in a map.
fn undone(trace: &Trace) -> Option<(String, u32)> {
    use std::collections::HashMap;
    let results: HashMap<&str, &str> = trace
        .items
        .iter()
        .filter(|r| r.kind == ItemKind::ToolResult)
        .filter_map(|r| Some((r.call_id.as_deref()?, r.text.as_str())))
        .collect();
    // Identifier → the agents whose actions (tool and transfer calls) named it so far.
    let mut acted: HashMap<String, Vec<String>> = HashMap::new();
    for s in &trace.steps {
        for it in s.output.iter().filter_map(|id| trace.item(*id)) {
            if !matches!(it.kind, ItemKind::ToolCall | ItemKind::TransferCall) {
                continue;
            }
            let ids = idents(&it.searchable());
            if it.kind == ItemKind::ToolCall {
                let call = format!(
                    "{} {}",
                    it.name.as_deref().unwrap_or_default(),
                    it.arguments.as_deref().unwrap_or_default()
                );
                let result = it.call_id.as_deref().and_then(|c| results.get(c)).copied().unwrap_or_default();
                if let Some(word) = undo_word(&call).or_else(|| undo_word(result)) {
                    let shared = ids.iter().find_map(|t| {
                        acted
                            .get(t)
                            .and_then(|agents| agents.iter().find(|a| **a != it.agent))
                            .map(|a| (a.clone(), t.clone()))
                    });
                    if let Some((other, t)) = shared {
                        return Some((
                            format!(
                                "{} undoes what {other} acted on at step {} ('{word}' on {t}, which {other} had acted on)",
                                it.agent, s.index
                            ),
                            s.index,
                        ));
                    }
                }
            }
            for t in ids {
                let agents = acted.entry(t).or_default();
                if !agents.contains(&it.agent) {
                    agents.push(it.agent.clone());
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::undo_word;

    #[test]
    fn undo_words_are_found_in_tool_names() {
        assert_eq!(undo_word("reopen_ticket"), Some("reopen".into()));
        assert_eq!(undo_word("claw_back_payment"), Some("clawback".into()));
        assert_eq!(undo_word("book_table"), None);
    }
}

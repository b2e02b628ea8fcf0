//! A run's ending in comparable parts (the expect: verdict, outcome, owner, the tool actions
//! after the fork point, the final answer and the names in it), the parts forks with nothing
//! restored hold steady, and what differs between two endings in one line.

use crate::context::ItemKind;
use crate::suspects::text::{TermKind, surface, terms};
use crate::trace::{StepKind, Trace};
use std::collections::BTreeSet;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Part {
    /// The scenario's expect: passes or fails.
    Oracle,
    Status,
    Owner,
    /// Which tools were called, by whom, in order.
    Actions,
    /// The identifiers and numbers each action named.
    Arguments,
    /// The final answer, word for word.
    Answer,
    /// The names, identifiers and numbers in the final answer.
    AnswerNames,
}

const STRUCTURAL: [Part; 6] =
    [Part::Status, Part::Owner, Part::Actions, Part::Arguments, Part::Answer, Part::AnswerNames];

#[derive(Debug, Clone, PartialEq)]
struct Action {
    step: u32,
    agent: String,
    tool: String,
    args: String,
    idents: BTreeSet<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Key {
    oracle: Option<bool>,
    status: String,
    owner: String,
    actions: Vec<Action>,
    answer: String,
    names: BTreeSet<String>,
}

fn idents(text: &str, with_names: bool) -> BTreeSet<String> {
    terms(text)
        .into_iter()
        .filter(|(_, k)| matches!(k, TermKind::Ident | TermKind::Number) || (with_names && *k == TermKind::Name))
        .map(|(t, _)| t)
        .collect()
}

/// The names as the answer wrote them.
fn written(answer: &str, names: &[&String]) -> String {
    names.iter().map(|n| surface(answer, n).unwrap_or(n.as_str())).collect::<Vec<_>>().join(", ")
}

fn normalize_args(a: &str) -> String {
    serde_json::from_str::<serde_json::Value>(a).map(|v| v.to_string()).unwrap_or_else(|_| a.trim().to_owned())
}

impl Key {
    /// The ending of `trace`, with the actions from step `at` on.
    pub fn of(trace: &Trace, at: u32) -> Key {
        let mut actions = vec![];
        for s in trace.steps.iter().filter(|s| s.index >= at && s.kind == StepKind::ModelCall) {
            for it in s.output.iter().filter_map(|id| trace.item(*id)) {
                if matches!(it.kind, ItemKind::ToolCall | ItemKind::TransferCall) {
                    let args = it.arguments.clone().unwrap_or_default();
                    actions.push(Action {
                        step: s.index,
                        agent: it.agent.clone(),
                        tool: it.name.clone().unwrap_or_default(),
                        idents: idents(&args, false),
                        args: normalize_args(&args),
                    });
                }
            }
        }
        let answer = trace.outcome.final_output.clone().unwrap_or_default();
        Key {
            oracle: super::super::ending::expect_failures(trace).map(|f| f.is_empty()),
            status: trace.outcome.status.as_str().to_owned(),
            owner: trace.outcome.owner.clone(),
            actions,
            names: idents(&answer, true),
            answer: answer.split_whitespace().collect::<Vec<_>>().join(" "),
        }
    }

    /// The same ending with only the actions from step `at` on.
    pub fn after(&self, at: u32, _trace: &Trace) -> Key {
        let mut k = self.clone();
        k.actions.retain(|a| a.step >= at);
        k
    }

    fn same(&self, other: &Key, part: Part) -> bool {
        match part {
            Part::Oracle => self.oracle == other.oracle,
            Part::Status => self.status == other.status,
            Part::Owner => self.owner == other.owner,
            Part::Actions => {
                self.actions.len() == other.actions.len()
                    && self.actions.iter().zip(&other.actions).all(|(a, b)| a.agent == b.agent && a.tool == b.tool)
            }
            Part::Arguments => {
                self.actions.len() == other.actions.len()
                    && self.actions.iter().zip(&other.actions).all(|(a, b)| a.idents == b.idents)
            }
            Part::Answer => self.answer == other.answer,
            Part::AnswerNames => self.names == other.names,
        }
    }

    /// What differs from `self` (the recording) in `other` on the parts `stable` compares, in one
    /// line; None when nothing does.
    pub fn differs(&self, other: &Key, stable: &Stable) -> Option<String> {
        if stable.parts.iter().all(|p| self.same(other, *p)) {
            return None;
        }
        Some(self.describe(other))
    }

    /// The differences in words: "billing calls refund_partial instead of refund_full; the final
    /// answer no longer names Tahini".
    fn describe(&self, other: &Key) -> String {
        let mut out = vec![];
        if let (Some(a), Some(b)) = (self.oracle, other.oracle)
            && a != b
        {
            out.push(format!(
                "the scenario's expect: now {} (it {})",
                pass(b),
                pass(a).replace("passes", "passed").replace("fails", "failed")
            ));
        }
        if self.status != other.status {
            out.push(format!("the run ends {} instead of {}", other.status, self.status));
        }
        if self.owner != other.owner {
            out.push(format!("{} owns the end instead of {}", other.owner, self.owner));
        }
        if let Some(a) = action_change(&self.actions, &other.actions) {
            out.push(a);
        }
        if self.answer != other.answer {
            let gone: Vec<&String> = self.names.difference(&other.names).take(3).collect();
            let new: Vec<&String> = other.names.difference(&self.names).take(3).collect();
            let (was, now) = (written(&self.answer, &gone), written(&other.answer, &new));
            match (gone.is_empty(), new.is_empty(), other.answer.is_empty()) {
                (_, _, true) => out.push("there is no final answer".into()),
                (false, false, _) => out.push(format!("the final answer names {now} instead of {was}")),
                (false, true, _) => out.push(format!("the final answer no longer names {was}")),
                (true, false, _) => out.push(format!("the final answer now names {now}")),
                (true, true, _) => out.push(format!("the final answer changes: \"{}\"", clip(&other.answer, 80))),
            }
        }
        if out.is_empty() {
            out.push("the ending changes".into());
        }
        out.join("; ")
    }
}

fn pass(ok: bool) -> &'static str {
    if ok { "passes" } else { "fails" }
}

fn clip(s: &str, n: usize) -> String {
    let t: String = s.chars().take(n).collect();
    if t.len() < s.len() { format!("{t}…") } else { t }
}

/// The first action that differs, in words.
fn action_change(was: &[Action], now: &[Action]) -> Option<String> {
    let i = (0..was.len().max(now.len())).find(|i| match (was.get(*i), now.get(*i)) {
        (Some(a), Some(b)) => a.agent != b.agent || a.tool != b.tool || a.args != b.args,
        _ => true,
    })?;
    Some(match (was.get(i), now.get(i)) {
        (Some(a), Some(b)) if a.agent == b.agent && a.tool == b.tool => {
            format!("{} calls {} with {} instead of {}", b.agent, b.tool, clip(&b.args, 60), clip(&a.args, 60))
        }
        (Some(a), Some(b)) if a.agent == b.agent => format!("{} calls {} instead of {}", b.agent, b.tool, a.tool),
        (Some(a), Some(b)) => format!("{} calls {} where {} called {}", b.agent, b.tool, a.agent, a.tool),
        (Some(a), None) => format!("{} no longer calls {}", a.agent, a.tool),
        (None, Some(b)) => format!("{} now also calls {}", b.agent, b.tool),
        (None, None) => return None,
    })
}

/// The parts compared: with an expect:, its verdict alone; else the structural parts that forks
/// with nothing restored all share with the recording.
#[derive(Debug, Clone)]
pub struct Stable {
    parts: Vec<Part>,
    /// Baseline forks whose verdict differed from the recording's anyway (with an expect:).
    pub baseline_flips: u32,
}

impl Stable {
    /// Every part (a deterministic mock): the expect: verdict when the run has one.
    pub fn all(baseline_flips: u32) -> Stable {
        Stable { parts: STRUCTURAL.to_vec(), baseline_flips }
    }

    /// From the recording and the baseline forks' endings.
    pub fn from(reference: &Key, baseline: &[Key]) -> Stable {
        if reference.oracle.is_some() {
            let flips = baseline.iter().filter(|k| k.oracle != reference.oracle).count() as u32;
            return Stable { parts: vec![Part::Oracle], baseline_flips: flips };
        }
        let parts = STRUCTURAL.iter().copied().filter(|p| baseline.iter().all(|k| reference.same(k, *p))).collect();
        Stable { parts, baseline_flips: 0 }
    }

    /// For a deterministic run with an expect:, its verdict alone.
    pub fn for_reference(reference: &Key) -> Stable {
        if reference.oracle.is_some() {
            Stable { parts: vec![Part::Oracle], baseline_flips: 0 }
        } else {
            Stable::all(0)
        }
    }

    pub fn is_empty(&self) -> bool {
        self.parts.is_empty()
    }
}

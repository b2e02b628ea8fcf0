//! Suspects: at every transfer, the items that did not reach the receiver (dropped, or crossing
//! only in a form that left out their point), ranked by evidence that they mattered, each with
//! its evidence in words; and the run's verdict: for a run that ended badly, the transfer and
//! suspect most likely responsible, or "no transfer-related cause found". Deterministic and
//! offline: the evidence is read from the recording (constraint wording, identifiers the receiver
//! meets again later, a claim handed over without its qualification, what the user said).

use crate::context::{Item, ItemId, ItemKind};
use crate::topology::EdgeKind;
use crate::trace::{OutcomeStatus, Trace, Transfer};
use regex::Regex;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeSet, HashSet};
use std::sync::LazyLock;

/// What kind of evidence a suspect has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum EvidenceKind {
    /// It states a constraint, a condition or a qualification.
    Constraint,
    /// An identifier, number or flag in it that the receiver meets again later.
    Reappears,
    /// The sender handed over a claim whose qualification this item holds.
    Claim,
    /// The user said it, and the receiver no longer sees it.
    UserStated,
    /// It crossed only in a form that leaves out its point.
    Transformed,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct Evidence {
    pub kind: EvidenceKind,
    pub text: String,
    pub weight: f32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum Confidence {
    Low,
    Medium,
    High,
}

impl Confidence {
    pub fn as_str(self) -> &'static str {
        match self {
            Confidence::Low => "low",
            Confidence::Medium => "medium",
            Confidence::High => "high",
        }
    }
}

/// How the item failed to reach the receiver.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum Loss {
    Dropped,
    Transformed,
    /// At a delegation: the caller kept it and did not pass it to the worker.
    Withheld,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct Suspect {
    #[ts(as = "String")]
    pub item: ItemId,
    pub agent: String,
    pub kind: ItemKind,
    pub text: String,
    pub loss: Loss,
    pub score: f32,
    pub confidence: Confidence,
    pub evidence: Vec<Evidence>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct TransferSuspects {
    pub transfer: u32,
    pub step: u32,
    pub kind: EdgeKind,
    pub from: String,
    pub to: String,
    /// Best first.
    pub suspects: Vec<Suspect>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct Verdict {
    /// Why the run counts as ending badly (None: it did not).
    pub bad: Option<String>,
    pub transfer: Option<u32>,
    #[ts(as = "Option<String>")]
    pub suspect: Option<ItemId>,
    /// The chain of evidence, in words.
    pub chain: Vec<String>,
    /// One sentence: the cause, or "no transfer-related cause found".
    pub text: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct SuspectReport {
    pub transfers: Vec<TransferSuspects>,
    pub verdict: Verdict,
}

static CONSTRAINT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(must(?: not)?|only (?:if|when|after)|pending|behind (?:a |the )?(?:feature )?flag|feature flag|not yet|unless|except|until|deadline|no later than|by (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|the end of)|do not|don't|never|manual(?:ly)? roll ?out|roll ?out|requires?|allerg\w*|at most|no more than|limit(?:ed)? to|as long as|provided that|conditional|temporar\w*|on hold|awaiting|subject to)\b",
    )
    .expect("valid")
});

static CLAIM: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(resolved|approved|done|verified|fixed|complete(?:d)?|closed|confirmed|shipped|cleared|safe)\b")
        .expect("valid")
});

static TOKEN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(?:[A-Z][A-Z0-9]*_[A-Z0-9_]+|[A-Z]{2,}[0-9]+|#?[0-9]{3,}|\$[0-9][0-9,.]*|[0-9]+(?:\.[0-9]+)?%|[A-Z0-9]{2,}-[0-9]+)\b")
        .expect("valid")
});

static USER_CUE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(my name is|i am|i'm|call me|i prefer|prefer|please don't|i can't|budget|allerg\w*|vegetarian|vegan|wheelchair|deadline|no later than|at most|limit)\b")
        .expect("valid")
});

static REVERSAL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(reopen(?:ed|s)?|revert(?:ed)?|roll(?:ed)? ?back|undo(?:ne)?|reversed?|refund(?:ed)? (?:taken back|reversed)|cancel(?:led|ed)?|taken back)\b")
        .expect("valid")
});

fn clip(s: &str, n: usize) -> String {
    let t: String = s.chars().take(n).collect();
    if t.len() < s.len() { format!("{t}…") } else { t }
}

fn tokens(text: &str) -> BTreeSet<String> {
    TOKEN.find_iter(text).map(|m| m.as_str().trim_start_matches('#').to_owned()).filter(|t| t.len() >= 3).collect()
}

fn matches(re: &Regex, text: &str) -> Vec<String> {
    let mut out: Vec<String> = vec![];
    for m in re.find_iter(text) {
        let w = m.as_str().to_lowercase();
        if !out.contains(&w) {
            out.push(w);
        }
    }
    out
}

fn confidence(score: f32) -> Confidence {
    if score >= 6.0 {
        Confidence::High
    } else if score >= 3.0 {
        Confidence::Medium
    } else {
        Confidence::Low
    }
}

/// The text the receiver's side handed over (fields, a summary, a tool input) and the sender's call.
fn handed_over(trace: &Trace, tr: &Transfer) -> String {
    let sender: HashSet<ItemId> = tr.sender.iter().copied().collect();
    let mut out = String::new();
    for id in tr.receiver.iter().filter(|id| !sender.contains(id)) {
        // The receiver's own instructions and facts are not what the sender handed over.
        if let Some(it) = trace
            .item(*id)
            .filter(|i| !(matches!(i.kind, ItemKind::Instructions | ItemKind::PinnedFact) && i.agent == tr.to))
        {
            out.push_str(&it.searchable());
            out.push('\n');
        }
    }
    // The transfer call's arguments (a handoff's input, a delegation's task).
    if let Some(call) =
        tr.sender.iter().rev().filter_map(|id| trace.item(*id)).find(|i| i.kind == ItemKind::TransferCall)
    {
        out.push_str(call.arguments.as_deref().unwrap_or_default());
    }
    out
}

/// Items that appear in the run after `step`, with the step that made them.
fn later_items(trace: &Trace, step: u32) -> Vec<(u32, &Item)> {
    trace
        .steps
        .iter()
        .filter(|s| s.index > step)
        .flat_map(|s| s.output.iter().filter_map(|id| trace.item(*id)).map(move |it| (s.index, it)))
        .collect()
}

fn describe_later(it: &Item) -> String {
    match it.kind {
        ItemKind::ToolResult => "a tool result".into(),
        ItemKind::ToolCall => format!("a call of {}", it.name.as_deref().unwrap_or("a tool")),
        ItemKind::UserMessage => "a message from the user".into(),
        ItemKind::AssistantMessage => format!("{}'s answer", it.agent),
        _ => it.kind.as_str().into(),
    }
}

fn score_item(
    tr: &Transfer,
    it: &Item,
    loss: Loss,
    receiver_text: &str,
    claim: &[String],
    later: &[(u32, &Item)],
    transformed_as: Option<&Item>,
) -> Option<Suspect> {
    if matches!(it.kind, ItemKind::TransferCall | ItemKind::TransferOutput) {
        return None;
    }
    let text = it.searchable();
    let mut ev = vec![];
    let constraints = matches(&CONSTRAINT, &text);
    let lost_constraints: Vec<&String> = match transformed_as {
        Some(r) => {
            let rt = r.searchable().to_lowercase();
            constraints.iter().filter(|c| !rt.contains(c.as_str())).collect()
        }
        None => constraints.iter().collect(),
    };
    if !lost_constraints.is_empty() {
        let words = lost_constraints.iter().take(4).map(|w| format!("'{w}'")).collect::<Vec<_>>().join(", ");
        ev.push(Evidence {
            kind: EvidenceKind::Constraint,
            text: format!("states a constraint or qualification ({words})"),
            weight: 2.0 + (lost_constraints.len().min(3) as f32 - 1.0) * 0.5,
        });
    }
    // Identifiers the receiver did not get but meets again later.
    let receiver_tokens = tokens(receiver_text);
    let mut met = vec![];
    for tok in tokens(&text).into_iter().filter(|t| !receiver_tokens.contains(t)) {
        if let Some((step, later_it)) = later.iter().find(|(_, l)| l.searchable().contains(&tok)) {
            met.push(format!("{tok} (step {step}, {})", describe_later(later_it)));
        }
    }
    if !met.is_empty() {
        ev.push(Evidence {
            kind: EvidenceKind::Reappears,
            text: format!(
                "{} meets again what it was not told: {}",
                tr.to,
                met.iter().take(3).cloned().collect::<Vec<_>>().join(", ")
            ),
            weight: 2.0 + (met.len().min(3) as f32 - 1.0) * 0.5,
        });
    }
    if !claim.is_empty() && !lost_constraints.is_empty() {
        ev.push(Evidence {
            kind: EvidenceKind::Claim,
            text: format!(
                "{} handed over {} while this qualification stayed behind",
                tr.from,
                claim.iter().map(|c| format!("'{c}'")).collect::<Vec<_>>().join(", ")
            ),
            weight: 3.0,
        });
    }
    if it.kind == ItemKind::UserMessage && (it.agent == "user" || it.agent.is_empty()) {
        let cues = matches(&USER_CUE, &text);
        ev.push(Evidence {
            kind: EvidenceKind::UserStated,
            text: if cues.is_empty() {
                format!("the user said it, and {} no longer sees it", tr.to)
            } else {
                format!("the user stated {} and {} no longer sees it", cues.join(", "), tr.to)
            },
            weight: if cues.is_empty() { 1.0 } else { 2.5 },
        });
    }
    if let Some(r) = transformed_as
        && (!lost_constraints.is_empty() || !met.is_empty())
    {
        ev.push(Evidence {
            kind: EvidenceKind::Transformed,
            text: format!("crossed only as \"{}\"", clip(&r.searchable(), 80)),
            weight: 0.5,
        });
    }
    if ev.is_empty() {
        return None;
    }
    let mut score: f32 = ev.iter().map(|e| e.weight).sum();
    // The sender's instructions never cross by design: evidence, but behind what it learned.
    if it.kind == ItemKind::Instructions {
        score *= 0.75;
    }
    let mut conf = confidence(score);
    if loss == Loss::Withheld {
        // The caller still holds it and keeps ownership: at most a medium suspect.
        score *= 0.5;
        conf = confidence(score).min(Confidence::Medium);
    }
    Some(Suspect {
        item: it.id,
        agent: it.agent.clone(),
        kind: it.kind,
        text: clip(&text, 240),
        loss,
        score: (score * 100.0).round() / 100.0,
        confidence: conf,
        evidence: ev,
    })
}

/// The suspects of one transfer, best first.
pub fn transfer_suspects(trace: &Trace, index: u32) -> Option<TransferSuspects> {
    let tr = trace.transfers.get(index as usize)?;
    let receiver_text: String =
        tr.receiver.iter().filter_map(|id| trace.item(*id)).map(|i| i.searchable()).collect::<Vec<_>>().join("\n");
    let handed = handed_over(trace, tr);
    let claim = matches(&CLAIM, &handed);
    let later = later_items(trace, tr.step);
    let receiver: HashSet<ItemId> = tr.receiver.iter().copied().collect();
    let mut out = vec![];
    let mut seen = HashSet::new();
    let delegation = tr.kind == EdgeKind::Delegation;
    // Transformed: the receiver's derived item and its sources in the sender's context.
    for r in tr.transformed.iter().filter_map(|id| trace.item(*id)) {
        for src in r.derived_from.iter().filter(|s| tr.sender.contains(s) && !receiver.contains(s)) {
            if let Some(it) = trace.item(*src)
                && seen.insert(it.id)
                && let Some(s) = score_item(tr, it, Loss::Transformed, &receiver_text, &claim, &later, Some(r))
            {
                out.push(s);
            }
        }
    }
    for id in tr.sender.iter().filter(|id| !receiver.contains(id)) {
        let Some(it) = trace.item(*id) else { continue };
        if !seen.insert(it.id) {
            continue;
        }
        let loss = if delegation { Loss::Withheld } else { Loss::Dropped };
        if let Some(s) = score_item(tr, it, loss, &receiver_text, &claim, &later, None) {
            out.push(s);
        }
    }
    out.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.item.cmp(&b.item)));
    Some(TransferSuspects {
        transfer: index,
        step: tr.step,
        kind: tr.kind,
        from: tr.from.clone(),
        to: tr.to.clone(),
        suspects: out,
    })
}

/// Why the run counts as ending badly, and the step it went wrong at, if it does.
fn badness(trace: &Trace) -> Option<(String, u32)> {
    let last = trace.steps.last().map(|s| s.index).unwrap_or(0);
    match trace.outcome.status {
        OutcomeStatus::Failed | OutcomeStatus::Escalated | OutcomeStatus::Stopped => {
            return Some((format!("the run {}: {}", trace.outcome.status.as_str(), trace.outcome.reason), last));
        }
        _ => {}
    }
    // A run that reverses its own result: a reopen, a revert, a refund taken back.
    for s in &trace.steps {
        for it in s.output.iter().filter_map(|id| trace.item(*id)) {
            let text = match it.kind {
                ItemKind::ToolCall => format!(
                    "{} {}",
                    it.name.as_deref().unwrap_or_default(),
                    it.arguments.as_deref().unwrap_or_default()
                ),
                ItemKind::AssistantMessage | ItemKind::ToolResult => it.text.clone(),
                _ => continue,
            };
            if let Some(m) = REVERSAL.find(&text) {
                return Some((
                    format!("the run reverses its own result at step {} ('{}')", s.index, m.as_str()),
                    s.index,
                ));
            }
        }
    }
    None
}

/// Suspects at every transfer and the run's verdict.
pub fn suspects(trace: &Trace) -> SuspectReport {
    let transfers: Vec<TransferSuspects> =
        (0..trace.transfers.len() as u32).filter_map(|i| transfer_suspects(trace, i)).collect();
    let verdict = match badness(trace) {
        None => Verdict {
            bad: None,
            transfer: None,
            suspect: None,
            chain: vec![],
            text: "the run did not end badly: no verdict needed".into(),
        },
        Some((why, at)) => {
            let best = transfers
                .iter()
                .filter(|t| t.step < at)
                .filter_map(|t| t.suspects.first().map(|s| (t, s)))
                .filter(|(_, s)| s.confidence >= Confidence::Medium)
                .max_by(|a, b| a.1.score.total_cmp(&b.1.score).then(b.0.transfer.cmp(&a.0.transfer)));
            match best {
                None => Verdict {
                    bad: Some(why),
                    transfer: None,
                    suspect: None,
                    chain: vec![],
                    text: "no transfer-related cause found".into(),
                },
                Some((t, s)) => {
                    let mut chain = vec![why.clone()];
                    chain.push(format!(
                        "at transfer {} ({} → {}, step {}), {} did not reach {}: \"{}\"",
                        t.transfer,
                        t.from,
                        t.to,
                        t.step,
                        s.kind.as_str(),
                        t.to,
                        clip(&s.text, 120)
                    ));
                    chain.extend(s.evidence.iter().map(|e| e.text.clone()));
                    Verdict {
                        bad: Some(why),
                        transfer: Some(t.transfer),
                        suspect: Some(s.item),
                        text: format!(
                            "most likely cause: transfer {} ({} → {}) lost \"{}\" ({} confidence)",
                            t.transfer,
                            t.from,
                            t.to,
                            clip(&s.text, 80),
                            s.confidence.as_str()
                        ),
                        chain,
                    }
                }
            }
        }
    };
    SuspectReport { transfers, verdict }
}

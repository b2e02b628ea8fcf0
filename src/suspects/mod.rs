//! Suspects: at every transfer, the items that did not reach the receiver (dropped, withheld at a
//! delegation, or crossing only in a form that left out their point), ranked by what the run
//! itself shows about them (`rank.rs`); how the run ended, judged by its expectations, a person's
//! mark, a judge or its structure (`ending.rs`); and, on request, proof by counterfactual replay:
//! the run forked at a transfer with the lost items put back (`prove.rs`). The verdict names the
//! transfer that most likely broke a bad run, and says whether that is proven or only suspected.

pub mod ending;
pub mod prove;
mod rank;
pub mod text;

pub use ending::{Ending, JudgeSays, JudgedBy, judge_ending};
pub use prove::{Proof, ProofCost, ProofStatus, ProveOptions, TransferProof, prove};
pub use rank::{RunText, candidate, restorable};

use crate::context::{ItemId, ItemKind};
use crate::topology::EdgeKind;
use crate::trace::Trace;
use serde::{Deserialize, Serialize};

/// What kind of evidence a suspect has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum EvidenceKind {
    /// It states a qualification (a negation, a condition, an obligation, a limit) that nothing
    /// the receiver got keeps.
    Constraint,
    /// What the receiver later does or meets names something in it that it was never told.
    Reappears,
    /// What the receiver later does touches the subject it speaks about.
    Touches,
    /// The sender handed over a claim about the same subject without its qualification.
    Claim,
    /// It says more about the subject the sender handed over than what crossed (identifiers,
    /// numbers, names the receiver never got).
    Subject,
    /// The user said it, and the receiver no longer sees it.
    UserStated,
    /// The result of a check the receiver never repeats (or has no tool to repeat).
    Unrepeatable,
    /// A pinned fact the receiver does not hold.
    Pinned,
    /// It crossed only in a form that leaves out its point.
    Transformed,
    /// Restoring it in a fork changed the ending (a proof found it where the ranking saw nothing).
    Proven,
    /// What it says reached the receiver in another form (weighs the suspect down).
    Covered,
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

fn confidence(score: f32) -> Confidence {
    if score >= 5.0 {
        Confidence::High
    } else if score >= 3.0 {
        Confidence::Medium
    } else {
        Confidence::Low
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
    /// At a delegation's return: the worker had it and it did not come back to the caller.
    LeftBehind,
}

/// The handoff error classes of AgentAsk (what kind of break in the hand-over this is).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum ErrorClass {
    /// Information the receiver needed never reached it.
    DataGap,
    /// It reached the receiver distorted: a claim without its qualification, a lossy form.
    SignalCorruption,
    /// The receiver works on things it was never told about (identifiers, names).
    ReferentialDrift,
    /// The receiver cannot re-establish it: it lacks the tool that produced it.
    CapabilityGap,
}

impl ErrorClass {
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorClass::DataGap => "data gap",
            ErrorClass::SignalCorruption => "signal corruption",
            ErrorClass::ReferentialDrift => "referential drift",
            ErrorClass::CapabilityGap => "capability gap",
        }
    }
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
    /// The handoff error class, where one fits.
    pub class: Option<ErrorClass>,
    /// Its place in the sender's context (ties rank the later first).
    pub position: u32,
    /// What restoring it did, when a proof ran.
    pub proof: Option<Proof>,
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
    /// How many suspects ranked below these were left out (a report capped per transfer: see
    /// [`SuspectReport::capped`]); `baton suspects RUN --transfer N` lists them all.
    #[serde(default)]
    pub more: u32,
    /// The transfer's proof, when one ran.
    pub proof: Option<TransferProof>,
}

/// Whether the verdict's cause was proven by replay or only ranked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum Basis {
    /// Restoring the cause changed the ending in a fork.
    Proven,
    /// The ranking's best guess; no proof ran or none changed the ending.
    Suspected,
    /// No cause is named.
    None,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct Verdict {
    /// Why the run counts as ending badly (None: it did not, or nothing says).
    pub bad: Option<String>,
    /// How the ending was judged.
    pub ending: Ending,
    pub basis: Basis,
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
    /// What the proof cost, when one ran.
    pub cost: Option<ProofCost>,
}

impl SuspectReport {
    /// The report with at most `top` suspects per transfer, the best ones; each transfer counts
    /// what it left out in `more`. The verdict is the whole report's: it reads each transfer's
    /// best suspect, which a cap keeps. A run that loses hundreds of items at each of hundreds of
    /// transfers ranks them all, but a window cannot show 200,000 suspects.
    /// A suspect a proof found to change the ending, and the verdict's, are kept past the cap.
    pub fn capped(mut self, top: usize) -> SuspectReport {
        let named = (self.verdict.transfer, self.verdict.suspect);
        for t in &mut self.transfers {
            if t.suspects.len() <= top {
                continue;
            }
            let before = t.suspects.len();
            let mut rank = 0;
            t.suspects.retain(|s| {
                rank += 1;
                rank <= top
                    || (Some(t.transfer), Some(s.item)) == named
                    || s.proof.as_ref().is_some_and(|p| p.status.changes())
            });
            t.more += (before - t.suspects.len()) as u32;
        }
        self
    }
}

/// The suspects of one transfer, best first.
pub fn transfer_suspects(trace: &Trace, index: u32) -> Option<TransferSuspects> {
    rank::transfer_suspects_in(&RunText::new(trace), index)
}

/// Suspects at every transfer and the run's verdict (the ending judged without a judge model).
pub fn suspects(trace: &Trace) -> SuspectReport {
    report(trace, None)
}

/// Suspects at every transfer and the run's verdict, with a judge's view of the ending if one
/// was asked.
pub fn report(trace: &Trace, judge: Option<&JudgeSays>) -> SuspectReport {
    let run = RunText::new(trace);
    let transfers: Vec<TransferSuspects> =
        (0..trace.transfers.len() as u32).filter_map(|i| rank::transfer_suspects_in(&run, i)).collect();
    let ending = judge_ending(trace, judge);
    let verdict = verdict(&transfers, ending);
    SuspectReport { transfers, verdict, cost: None }
}

fn clip(s: &str, n: usize) -> String {
    let t: String = s.chars().take(n).collect();
    if t.len() < s.len() { format!("{t}…") } else { t }
}

/// The verdict from the transfers (with their proofs, if any) and the judged ending.
pub fn verdict(transfers: &[TransferSuspects], ending: Ending) -> Verdict {
    let bad = ending.is_bad().then(|| ending.reason.clone());
    let before = |t: &&TransferSuspects| ending.at.is_none_or(|at| t.step < at);
    // A proven cause first: the earliest transfer whose restoration changed the ending.
    let proven = transfers
        .iter()
        .filter(before)
        .find_map(|t| t.suspects.iter().find(|s| s.proof.as_ref().is_some_and(|p| p.status.changes())).map(|s| (t, s)));
    if let Some((t, s)) = proven {
        let p = s.proof.as_ref().expect("proven");
        let first = Some(s);
        let what = format!("\"{}\"", clip(&s.text, 80));
        let more = p.with.len();
        let mut chain = vec![ending.reason.clone()];
        chain.push(format!(
            "at transfer {} ({} → {}, step {}), {} did not reach {}",
            t.transfer,
            t.from,
            t.to,
            t.step,
            if more > 0 { format!("{what} and {more} more item(s)") } else { what.clone() },
            if s.loss == Loss::LeftBehind {
                format!("{} (it stayed with {} when the delegation returned)", t.from, t.to)
            } else {
                t.to.clone()
            }
        ));
        chain.push(format!("restoring it in a fork {}: {}", p.status.words(), p.changed));
        if let Some(s) = first {
            chain.extend(s.evidence.iter().map(|e| e.text.clone()));
        }
        let text = if ending.is_bad() {
            format!(
                "proven cause: transfer {} ({} → {}) lost {what}; restoring it {}",
                t.transfer,
                t.from,
                t.to,
                p.status.words()
            )
        } else {
            format!(
                "restoring what transfer {} ({} → {}) lost ({what}) {} (whether for the better is not known: nothing judges this ending)",
                t.transfer,
                t.from,
                t.to,
                p.status.words()
            )
        };
        return Verdict {
            bad,
            ending,
            basis: Basis::Proven,
            transfer: Some(t.transfer),
            suspect: first.map(|s| s.item),
            chain,
            text,
        };
    }
    if !ending.is_bad() {
        let text = match ending.judgement {
            Some(crate::trace::Judgement::Good) => format!("the run ended well ({}): no verdict needed", ending.reason),
            _ => "the run did not end badly as far as anything shows: no verdict needed".into(),
        };
        return Verdict { bad, ending, basis: Basis::None, transfer: None, suspect: None, chain: vec![], text };
    }
    let best = transfers
        .iter()
        .filter(before)
        .filter_map(|t| t.suspects.first().map(|s| (t, s)))
        .filter(|(_, s)| s.confidence >= Confidence::Medium)
        .filter(|(_, s)| s.proof.as_ref().is_none_or(|p| !matches!(p.status, ProofStatus::NoEffect { .. })))
        .fold(None::<(&TransferSuspects, &Suspect)>, |acc, x| match acc {
            Some(a) if a.1.score >= x.1.score => Some(a),
            _ => Some(x),
        });
    match best {
        None => Verdict {
            bad,
            ending,
            basis: Basis::None,
            transfer: None,
            suspect: None,
            chain: vec![],
            text: "no transfer-related cause found".into(),
        },
        Some((t, s)) => {
            let mut chain = vec![ending.reason.clone()];
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
                bad,
                ending,
                basis: Basis::Suspected,
                transfer: Some(t.transfer),
                suspect: Some(s.item),
                text: format!(
                    "suspected cause: transfer {} ({} → {}) lost \"{}\" ({} confidence, not proven)",
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

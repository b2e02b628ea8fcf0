//! `suspects`, the proof jobs (`prove_start`, `prove_status`, `prove_cancel`) and `mark_run`: a
//! saved run's suspects and verdict, proof by counterfactual replay with progress and cancel, and
//! a person's good/bad mark on a run.

use super::Api;
use super::runs::RunIdArgs;
use crate::error::{ApiError, ErrorCode};
use crate::store::TraceParts;
use crate::suspects::prove::{ProveProgress, Proved};
use crate::suspects::{ProveOptions, SuspectReport, prove, report};
use crate::trace::{Judgement, RunMark, Trace};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

/// How to prove a run's suspects.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct ProveArgs {
    pub run_id: String,
    /// Only this transfer.
    #[serde(default)]
    #[ts(optional)]
    pub transfer: Option<u32>,
    /// AGENT (or `*`) → `PROVIDER:MODEL[@URL]`: who answers after the restored point.
    #[serde(default)]
    pub models: BTreeMap<String, String>,
    /// The run's own providers answer after the restored point.
    #[serde(default)]
    pub live: bool,
    /// Forks per test with a sampled provider (default 3; the mock needs 1).
    #[serde(default)]
    #[ts(optional)]
    pub samples: Option<u32>,
    /// At most this many model calls in all.
    #[serde(default)]
    #[ts(optional)]
    pub budget_calls: Option<u32>,
    /// Save the forks that changed the ending, linked to the run.
    #[serde(default)]
    pub save: bool,
}

impl ProveArgs {
    pub fn options(&self) -> ProveOptions {
        ProveOptions {
            transfer: self.transfer,
            models: self.models.clone(),
            live: self.live,
            samples: self.samples.unwrap_or(3),
            budget_calls: self.budget_calls,
            ..Default::default()
        }
    }
}

/// A proof running in this session.
#[derive(Debug, Clone, Serialize, Deserialize, ts_rs::TS)]
pub struct ProveJob {
    pub job: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct ProveStatusArgs {
    pub job: String,
    /// Answer once more than this many progress lines exist, or the proof ended (waits up to 20 s).
    #[serde(default)]
    #[ts(optional)]
    pub seen: Option<u32>,
}

/// Where a proof stands.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ts_rs::TS)]
pub struct ProveState {
    pub progress: Vec<ProveProgress>,
    pub done: bool,
    pub cancelled: bool,
    /// The report with its proofs, once done.
    pub report: Option<SuspectReport>,
    pub error: Option<ApiError>,
}

pub(crate) struct ProofJob {
    state: Mutex<ProveState>,
    changed: Notify,
    cancel: CancellationToken,
}

/// A person's mark on a run (None clears it).
#[derive(Debug, Clone, Serialize, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct MarkArgs {
    pub run_id: String,
    pub judgement: Option<Judgement>,
    #[serde(default)]
    #[ts(optional)]
    pub why: Option<String>,
}

/// Proves `trace`'s suspects and, with `save`, saves the forks that changed its ending (each
/// proof then names its fork's run id). Shared by the CLI and the proof jobs.
pub async fn prove_trace(
    api: &Api,
    trace: &Trace,
    opts: &ProveOptions,
    save: bool,
    judge: Option<&crate::suspects::JudgeSays>,
) -> Result<SuspectReport, ApiError> {
    let parent = trace.run_id.clone().unwrap_or_default();
    let base = report(trace, judge);
    let Proved { mut report, forks } = prove(trace, &parent, base, opts).await?;
    if save {
        let store = api.store().await?;
        for (transfer, item, fork) in forks {
            let id = store.save_trace(&fork).await?;
            let Some(t) = report.transfers.iter_mut().find(|t| t.transfer == transfer) else { continue };
            match item {
                None => {
                    if let Some(p) = t.proof.as_mut() {
                        p.fork_run = Some(id.clone());
                    }
                    for s in t.suspects.iter_mut() {
                        if let Some(p) = s.proof.as_mut().filter(|p| p.status.changes() && p.fork_run.is_none()) {
                            let in_min = t.proof.as_ref().is_some_and(|tp| tp.minimal.contains(&s.item));
                            if in_min {
                                p.fork_run = Some(id.clone());
                            }
                        }
                    }
                }
                Some(item) => {
                    if let Some(p) = t.suspects.iter_mut().find(|s| s.item == item).and_then(|s| s.proof.as_mut()) {
                        p.fork_run = Some(id);
                    }
                }
            }
        }
    }
    Ok(report)
}

/// A report kept for the run it was built from, as that run stood.
pub(super) struct CachedReport {
    key: Option<String>,
    report: SuspectReport,
}

impl CachedReport {
    /// What identifies an ended run as it stands; none for a running run (its report changes
    /// as it grows, and a captured run is rebuilt from its spans).
    fn key(s: &crate::store::RunSummary) -> Option<String> {
        if s.outcome.status == crate::trace::OutcomeStatus::Running {
            return None;
        }
        let mark = serde_json::to_string(&s.mark).unwrap_or_default();
        Some(format!("{}\n{}\n{}\n{}\n{mark}", s.id, s.steps, s.transfers, s.ended_at.as_deref().unwrap_or("")))
    }
}

/// Suspects per transfer in a report sent to a window (the rest are counted, not sent).
pub const SHOWN_PER_TRANSFER: usize = 20;

impl Api {
    /// The run's suspects report. It reads the run without its contexts and exchanges, which it
    /// does not use: on a 100,020-step run those are gigabytes.
    ///
    /// One report is built at a time: windows that ask together (a page reloaded while its
    /// report is building) wait for it rather than each building one. An ended run's report is
    /// kept until the run changes (a mark), so asking again is free.
    pub async fn suspects(self: &Arc<Self>, a: RunIdArgs) -> Result<SuspectReport, ApiError> {
        let mut cached = self.reports.lock().await;
        let store = self.store().await?;
        let key = CachedReport::key(&store.run_summary(&a.run_id).await?);
        if let Some(c) = cached.as_ref().filter(|c| key.is_some() && c.key == key) {
            return Ok(c.report.clone());
        }
        let trace = store.load_trace_parts(&a.run_id, TraceParts::REPORT).await?;
        let report = super::blocking(move || Ok(report(&trace, None).capped(SHOWN_PER_TRANSFER))).await?;
        *cached = key.map(|key| CachedReport { key: Some(key), report: report.clone() });
        Ok(report)
    }

    /// Starts proving a saved run's suspects; `prove_status` follows it.
    pub async fn prove_start(self: &Arc<Self>, a: ProveArgs) -> Result<ProveJob, ApiError> {
        let trace = self.load_trace(&a.run_id).await?;
        let job = crate::store::new_run_id();
        let entry = Arc::new(ProofJob {
            state: Mutex::new(ProveState::default()),
            changed: Notify::new(),
            cancel: CancellationToken::new(),
        });
        self.proofs.lock().expect("not poisoned").insert(job.clone(), entry.clone());
        let api = self.clone();
        tokio::spawn(async move {
            let mut opts = a.options();
            opts.cancel = entry.cancel.clone();
            let sink = entry.clone();
            opts.progress = Some(Box::new(move |p: &ProveProgress| {
                sink.state.lock().expect("not poisoned").progress.push(p.clone());
                sink.changed.notify_waiters();
            }));
            let result = prove_trace(&api, &trace, &opts, a.save, None).await.map(|r| r.capped(SHOWN_PER_TRANSFER));
            let mut s = entry.state.lock().expect("not poisoned");
            s.done = true;
            s.cancelled = entry.cancel.is_cancelled();
            match result {
                Ok(r) => s.report = Some(r),
                Err(e) => s.error = Some(e),
            }
            drop(s);
            entry.changed.notify_waiters();
        });
        Ok(ProveJob { job })
    }

    fn proof_job(&self, job: &str) -> Result<Arc<ProofJob>, ApiError> {
        self.proofs.lock().expect("not poisoned").get(job).cloned().ok_or_else(|| {
            ApiError::new(ErrorCode::ApiArgs, format!("no proof '{job}' in this session; start one with prove_start"))
        })
    }

    /// A proof's progress and, once done, its report (waits up to 20 s for news).
    pub async fn prove_status(self: &Arc<Self>, a: ProveStatusArgs) -> Result<ProveState, ApiError> {
        let job = self.proof_job(&a.job)?;
        let seen = a.seen.unwrap_or(0) as usize;
        let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(20);
        loop {
            let notified = job.changed.notified();
            {
                let s = job.state.lock().expect("not poisoned");
                if s.done || s.progress.len() > seen || a.seen.is_none() {
                    return Ok(s.clone());
                }
            }
            if tokio::time::timeout_at(deadline, notified).await.is_err() {
                return Ok(job.state.lock().expect("not poisoned").clone());
            }
        }
    }

    /// Cancels a proof: the fork under way ends, the rest is reported "not tested (cancelled)".
    pub async fn prove_cancel(self: &Arc<Self>, a: ProveStatusArgs) -> Result<(), ApiError> {
        self.proof_job(&a.job)?.cancel.cancel();
        Ok(())
    }

    /// Marks a saved run good or bad (or clears the mark).
    pub async fn mark_run(self: &Arc<Self>, a: MarkArgs) -> Result<Option<RunMark>, ApiError> {
        let mark = a.judgement.map(|judgement| RunMark {
            judgement,
            why: a.why.map(|w| w.trim().chars().take(2000).collect::<String>()).filter(|w| !w.is_empty()),
            at: humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
        });
        self.store().await?.set_mark(&a.run_id, mark.as_ref()).await?;
        Ok(mark)
    }
}

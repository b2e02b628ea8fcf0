//! Live assembly: spans of many traces arrive in any order over many requests; a trace becomes a
//! run once its root span is in and a quiet period has passed, through the same reconstruction
//! as a file import. A span that arrives after its run was saved amends that run (same id).

use crate::import::otlp::{self, Span};
use crate::store::Store;
use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Spans held in memory, waiting for their traces to complete; past it a request is told to
/// retry later (503 with Retry-After), never dropped silently.
pub const MAX_HELD_SPANS: usize = 1_000_000;
/// How long a saved trace's spans are kept to amend its run when a late span arrives.
const KEEP_DONE: Duration = Duration::from_secs(600);

struct Pending {
    spans: Vec<Span>,
    root_seen: bool,
    last: Instant,
    /// The run this trace was saved as, when a late span reopened it.
    run_id: Option<String>,
}

struct Done {
    spans: Vec<Span>,
    run_id: String,
    at: Instant,
}

#[derive(Default)]
struct Traces {
    pending: HashMap<String, Pending>,
    done: HashMap<String, Done>,
    held: usize,
}

/// Counters for the status line.
#[derive(Default)]
pub struct Stats {
    pub spans: AtomicU64,
    pub runs: AtomicU64,
    pub transfers: AtomicU64,
    pub lost_facts: AtomicU64,
    pub rejected: AtomicU64,
}

/// One saved (or amended) run, as it is reported.
pub struct Saved {
    pub run_id: String,
    pub amended: bool,
    pub agents: Vec<String>,
    pub transfers: usize,
}

pub struct Live {
    traces: Mutex<Traces>,
    pub stats: Stats,
    quiet: Duration,
    source: String,
}

impl Live {
    pub fn new(quiet: Duration, source: String) -> Live {
        Live { traces: Mutex::new(Traces::default()), stats: Stats::default(), quiet, source }
    }

    /// Takes a request's spans; `false` (and nothing taken) when too many are held already.
    pub fn accept(&self, spans: Vec<Span>) -> bool {
        let mut t = self.traces.lock().expect("no panic while held");
        if t.held + spans.len() > MAX_HELD_SPANS {
            return false;
        }
        let now = Instant::now();
        self.stats.spans.fetch_add(spans.len() as u64, Ordering::Relaxed);
        for sp in spans {
            t.held += 1;
            let id = sp.trace_id.clone();
            if !t.pending.contains_key(&id) {
                // A late span of a saved trace reopens it, to amend the same run.
                let reopened =
                    t.done.remove(&id).map(|d| (d.run_id, d.spans.iter().any(|s| s.parent.is_empty()), d.spans));
                let (run_id, root_seen, spans) = match reopened {
                    Some((r, root, spans)) => (Some(r), root, spans),
                    None => (None, false, vec![]),
                };
                t.held += spans.len();
                t.pending.insert(id.clone(), Pending { spans, root_seen, last: now, run_id });
            }
            let p = t.pending.get_mut(&id).expect("inserted above");
            p.root_seen |= sp.parent.is_empty();
            p.last = now;
            p.spans.push(sp);
        }
        true
    }

    /// Saves every trace whose root is in and that has been quiet long enough (all of them when
    /// `all`, at shutdown). Returns what was saved.
    pub async fn complete(&self, store: &Store, all: bool) -> Vec<Result<Saved, String>> {
        let ready: Vec<(String, Pending)> = {
            let mut t = self.traces.lock().expect("no panic while held");
            let ids: Vec<String> = t
                .pending
                .iter()
                .filter(|(_, p)| all || (p.root_seen && p.last.elapsed() >= self.quiet))
                .map(|(id, _)| id.clone())
                .collect();
            let out: Vec<(String, Pending)> =
                ids.into_iter().filter_map(|id| t.pending.remove(&id).map(|p| (id, p))).collect();
            t.held -= out.iter().map(|(_, p)| p.spans.len()).sum::<usize>();
            t.done.retain(|_, d| d.at.elapsed() < KEEP_DONE);
            out
        };
        let mut results = vec![];
        for (id, p) in ready {
            results.push(self.save(store, id, p).await);
        }
        results
    }

    async fn save(&self, store: &Store, trace_id: String, p: Pending) -> Result<Saved, String> {
        let mut spans = p.spans.clone();
        let mut run = otlp::to_run(&trace_id, &mut spans);
        if !p.root_seen {
            run.notes.push("no root span arrived before Baton stopped: the run holds the spans present".into());
        }
        if !run.events.iter().any(|e| {
            matches!(
                e,
                crate::import::Ev::Model { .. } | crate::import::Ev::Tool { .. } | crate::import::Ev::Transfer { .. }
            )
        }) {
            return Err(format!(
                "trace {trace_id}: no model call, tool run or transfer Baton recognises (GenAI, OpenInference, Vercel AI \
                 SDK, Langfuse conventions); not saved"
            ));
        }
        let (mut trace, _) = crate::import::reconstruct(&run, "otlp", &self.source, None);
        let amended = p.run_id.is_some();
        let run_id = p.run_id.clone().unwrap_or_else(crate::store::new_run_id);
        trace.run_id = Some(run_id.clone());
        if amended {
            match store.delete_run(&run_id).await {
                Ok(()) | Err(crate::store::StoreError::NoRun(_)) => {}
                Err(e) => return Err(format!("trace {trace_id}: cannot amend run {run_id}: {e}")),
            }
        }
        let mut tx = store.import_tx().await.map_err(|e| e.to_string())?;
        tx.add(&trace).await.map_err(|e| e.to_string())?;
        tx.commit().await.map_err(|e| e.to_string())?;
        if !amended {
            self.stats.runs.fetch_add(1, Ordering::Relaxed);
        }
        self.stats.transfers.fetch_add(trace.transfers.len() as u64, Ordering::Relaxed);
        let lost = trace
            .transfers
            .iter()
            .flat_map(|t| &t.facts)
            .filter(|f| f.status == crate::context::FactStatus::Lost)
            .count();
        self.stats.lost_facts.fetch_add(lost as u64, Ordering::Relaxed);
        let agents =
            trace.definition.as_ref().map(|d| d.agents.iter().map(|a| a.name.clone()).collect()).unwrap_or_default();
        let saved = Saved { run_id: run_id.clone(), amended, agents, transfers: trace.transfers.len() };
        let mut t = self.traces.lock().expect("no panic while held");
        t.done.insert(trace_id, Done { spans: p.spans, run_id, at: Instant::now() });
        Ok(saved)
    }

    /// Spans waiting for their traces to complete.
    pub fn held(&self) -> usize {
        self.traces.lock().expect("no panic while held").held
    }
}

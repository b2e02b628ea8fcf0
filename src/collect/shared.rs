//! Collectors that share one store (`baton collect --shared`, a team behind a load balancer):
//! the spans of one trace may reach different instances, so an instance keeps nothing in memory.
//! Each accepted request is committed to the store with the arrival of each of its traces before
//! it is acknowledged; every tick, an instance claims the traces quiet across all instances,
//! rebuilds each from every instance's requests, and saves it as the same run id (amended when
//! more spans come). A killed instance loses nothing it acknowledged: the others save its traces.

use super::live::{Live, Saved, Taken, build_spans, run_id_for};
use crate::import::otlp::Span;
use crate::store::{Arrival, Claimed, ImportTx, Store};
use std::collections::{HashMap, HashSet};
use std::sync::Mutex;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// Traces claimed (and saved) per transaction.
const CLAIM: i64 = 16;
/// How long one tick may go on saving batches.
const TICK_BUDGET: Duration = Duration::from_millis(1000);
/// How long a saved trace's requests are kept for late spans to amend its run.
const KEEP_MS: i64 = 600_000;
/// How often an instance forgets saved traces past [`KEEP_MS`].
const EXPIRE_EVERY: Duration = Duration::from_secs(10);
/// A trace shown as running is shown again at most this often.
const SHOW_EVERY_MS: i64 = 1_000;
/// How many quiet periods a trace without its root waits before it is saved anyway.
const ROOTLESS_QUIET_FACTOR: i64 = 15;

/// An instance's part of the shared state: when it last expired old traces.
pub struct SharedState {
    expired: Mutex<Instant>,
    max_spans: i64,
    max_bytes: i64,
}

impl Live {
    /// Shares the store given to [`Live::with_inbox`] with other instances. A trace is rebuilt
    /// within this collector's bounds ([`Live::with_limits`]): one past them is refused when saved.
    pub fn shared(mut self) -> Live {
        let long_ago = Instant::now().checked_sub(EXPIRE_EVERY).unwrap_or_else(Instant::now);
        let (spans, bytes) = self.limits();
        self.shared = Some(SharedState {
            expired: Mutex::new(long_ago),
            max_spans: i64::try_from(spans).unwrap_or(i64::MAX),
            max_bytes: i64::try_from(bytes).unwrap_or(i64::MAX),
        });
        self
    }

    /// Commits a request and its traces' arrival ([`arrivals`]) to the store; nothing is held in
    /// memory.
    pub(super) async fn take_shared(
        &self,
        store: &Store,
        encoding: &str,
        body: &[u8],
        arrivals: Vec<Arrival>,
    ) -> Result<Taken, String> {
        store.shared_put(encoding, body, &arrivals).await.map_err(|e| e.to_string())?;
        let n: i64 = arrivals.iter().map(|a| a.spans).sum();
        self.stats.spans.fetch_add(n as u64, Ordering::Relaxed);
        Ok(Taken::Yes)
    }

    /// One tick: shows the traces still arriving, saves the quiet ones, now and then forgets old.
    pub(super) async fn complete_shared(&self, store: &Store) -> Vec<Result<Saved, String>> {
        let mut out = vec![];
        let started = Instant::now();
        for running in [true, false] {
            // Batches until none is due, or a tick's time is spent (the next tick goes on).
            while started.elapsed() < TICK_BUDGET {
                match self.save_batch(store, running).await {
                    Ok(saved) => {
                        let more = saved.len() as i64 == CLAIM;
                        out.extend(saved);
                        if !more {
                            break;
                        }
                    }
                    Err(e) => {
                        out.push(Err(e));
                        break;
                    }
                }
            }
        }
        if let Some(s) = &self.shared {
            let due = s.expired.lock().expect("no panic while held").elapsed() >= EXPIRE_EVERY;
            if due {
                *s.expired.lock().expect("no panic while held") = Instant::now();
                if let Err(e) = store.shared_expire(KEEP_MS).await {
                    out.push(Err(format!("could not forget old captured traces: {e}")));
                }
            }
        }
        out
    }

    /// Claims up to [`CLAIM`] traces (to show as running, or to save) and writes their runs in
    /// one transaction; what became of each. Err: the store failed (they stay due).
    async fn save_batch(&self, store: &Store, running: bool) -> Result<Vec<Result<Saved, String>>, String> {
        let quiet = self.quiet.as_millis() as i64;
        let mut tx =
            if running { store.capture_tx().await } else { store.import_tx().await }.map_err(|e| e.to_string())?;
        let claimed = if running {
            tx.claim_running(quiet, SHOW_EVERY_MS, CLAIM).await
        } else {
            tx.claim_due(quiet, quiet * ROOTLESS_QUIET_FACTOR, CLAIM).await
        }
        .map_err(|e| e.to_string())?;
        if claimed.is_empty() {
            return Ok(vec![]);
        }
        let (max_spans, max_bytes) = self.shared.as_ref().map_or((i64::MAX, i64::MAX), |s| (s.max_spans, s.max_bytes));
        let mut inputs = vec![];
        for c in &claimed {
            // What one instance reads back at once is bounded like what it would hold: in spans,
            // and in the bytes of the requests that carry them (requests may mostly hold other
            // traces' spans).
            let bytes = tx.trace_body_bytes(&c.trace_id).await.map_err(|e| e.to_string())?;
            let bodies = if c.spans > max_spans || bytes > max_bytes {
                Err(format!(
                    "trace {}: {} spans in {} KB of requests, more than one collector rebuilds at once ({max_spans} \
                     spans, {} KB); not saved (raise --max-spans / --max-mb)",
                    c.trace_id,
                    c.spans,
                    bytes >> 10,
                    max_bytes >> 10
                ))
            } else {
                Ok(tx.trace_bodies(&c.trace_id).await.map_err(|e| e.to_string())?)
            };
            inputs.push((c.trace_id.clone(), c.first_at, bodies));
        }
        let source = self.source.clone();
        // Reconstruction is CPU work: off the async workers.
        let built = tokio::task::spawn_blocking(move || {
            inputs
                .into_iter()
                .map(|(id, first, bodies)| bodies.and_then(|b| assemble(&id, &b, first, &source)))
                .collect::<Vec<_>>()
        })
        .await
        .map_err(|e| format!("reconstruction stopped: {e}"))?;
        let mut results = vec![];
        for (c, b) in claimed.iter().zip(built) {
            results.push(write(&mut tx, c, b, running).await.map_err(|e| e.to_string())?);
        }
        tx.commit().await.map_err(|e| e.to_string())?;
        // A run counts once: when it is first written (shown running, or saved unseen).
        let new = claimed.iter().zip(&results).filter(|(c, r)| r.is_ok() && c.saved_spans == 0 && !c.shown).count();
        self.stats.runs.fetch_add(new as u64, Ordering::Relaxed);
        Ok(results)
    }
}

/// How many spans of each trace a request holds, and whether one is its root, by trace id.
pub(super) fn arrivals(spans: &[Span]) -> Vec<Arrival> {
    let mut per_trace: HashMap<&str, (i64, bool)> = HashMap::new();
    for s in spans {
        let e = per_trace.entry(s.trace_id.as_str()).or_default();
        e.0 += 1;
        e.1 |= s.parent.is_empty();
    }
    let mut out: Vec<Arrival> =
        per_trace.into_iter().map(|(id, (n, root))| Arrival { trace_id: id.to_owned(), spans: n, root }).collect();
    // Every request locks its traces' rows in the same order: two requests of the same traces
    // wait for each other instead of deadlocking.
    out.sort_by(|a, b| a.trace_id.cmp(&b.trace_id));
    out
}

/// Writes a claimed trace's run (as running, or as saved) and records it, in `tx`.
async fn write(
    tx: &mut ImportTx,
    c: &Claimed,
    built: Result<crate::trace::Trace, String>,
    running: bool,
) -> Result<Result<Saved, String>, crate::store::StoreError> {
    let mut trace = match built {
        Ok(t) => t,
        Err(why) => {
            // Refused with its reason, once: not claimed again until more spans come.
            if !running {
                tx.mark_saved(&c.trace_id, c.spans).await?;
            } else {
                tx.mark_shown(&c.trace_id).await?;
            }
            return Ok(Err(why));
        }
    };
    trace.run_id = Some(run_id_for(&c.trace_id));
    if running {
        trace.outcome.status = crate::trace::OutcomeStatus::Running;
        trace.outcome.reason = "capturing: spans of this trace are still arriving".into();
    }
    let run_id = tx.replace(&trace).await?;
    if running {
        tx.mark_shown(&c.trace_id).await?;
    } else {
        tx.mark_saved(&c.trace_id, c.spans).await?;
    }
    let agents =
        trace.definition.as_ref().map(|d| d.agents.iter().map(|a| a.name.clone()).collect()).unwrap_or_default();
    Ok(Ok(Saved {
        trace_id: c.trace_id.clone(),
        run_id,
        amended: c.saved_spans > 0,
        running,
        agents,
        transfers: trace.transfers.len(),
    }))
}

/// The trace of `trace_id` from the requests that hold its spans (a span sent twice, by a
/// sender's retry, counts once); `first_at`: when its first span arrived, in ms since the epoch.
fn assemble(
    trace_id: &str,
    bodies: &[(String, Vec<u8>)],
    first_at: i64,
    source: &str,
) -> Result<crate::trace::Trace, String> {
    let mut spans = vec![];
    let mut seen = HashSet::new();
    for (encoding, body) in bodies {
        let (name, gzip) = match encoding.strip_suffix("+gzip") {
            Some(name) => (name, true),
            None => (encoding.as_str(), false),
        };
        let enc = if name == "json" { super::decode::Encoding::Json } else { super::decode::Encoding::Protobuf };
        let decoded =
            super::decode::inflate(body, gzip, super::MAX_INFLATED).and_then(|b| super::decode::spans(&b, enc));
        let Ok((all, _, _)) = decoded else { continue };
        spans.extend(all.into_iter().filter(|s| s.trace_id == trace_id && seen.insert(s.id.clone())));
    }
    let root = spans.iter().any(|s| s.parent.is_empty());
    let mut trace = build_spans(trace_id, &spans, root, false, source)?;
    if let Some(serde_json::Value::Object(m)) = trace.source.as_mut() {
        let at = std::time::UNIX_EPOCH + Duration::from_millis(first_at.max(0) as u64);
        m.insert("captured_at".into(), serde_json::Value::String(humantime::format_rfc3339_millis(at).to_string()));
    }
    Ok(trace)
}

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

/// Traces claimed per transaction (each is saved in its own, so one failure holds back no other).
const CLAIM: i64 = 1;
/// At most this many traces saved (and as many shown) per tick.
const PER_TICK: usize = 64;
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
}

impl Live {
    /// Shares the store given to [`Live::with_inbox`] with other instances; a trace holding more
    /// than `max_spans` spans is refused when saved (what one instance rebuilds at once).
    pub fn shared(mut self, max_spans: usize) -> Live {
        let long_ago = Instant::now().checked_sub(EXPIRE_EVERY).unwrap_or_else(Instant::now);
        self.shared = Some(SharedState { expired: Mutex::new(long_ago), max_spans: max_spans as i64 });
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
        for running in [true, false] {
            for _ in 0..PER_TICK {
                match self.save_one(store, running).await {
                    Ok(Some(r)) => out.push(r),
                    Ok(None) => break,
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

    /// Claims one trace (to show as running, or to save) and writes its run; None when no trace
    /// is due. Err: the store failed (the trace stays due and is tried again).
    async fn save_one(&self, store: &Store, running: bool) -> Result<Option<Result<Saved, String>>, String> {
        let quiet = self.quiet.as_millis() as i64;
        let mut tx =
            if running { store.capture_tx().await } else { store.import_tx().await }.map_err(|e| e.to_string())?;
        let claimed = if running {
            tx.claim_running(quiet, SHOW_EVERY_MS, CLAIM).await
        } else {
            tx.claim_due(quiet, quiet * ROOTLESS_QUIET_FACTOR, CLAIM).await
        }
        .map_err(|e| e.to_string())?;
        let Some(c) = claimed.into_iter().next() else { return Ok(None) };
        let max = self.shared.as_ref().map_or(i64::MAX, |s| s.max_spans);
        let built = if c.spans > max {
            Err(format!(
                "trace {}: {} spans, more than one collector rebuilds at once ({max}); not saved (raise --max-spans)",
                c.trace_id, c.spans
            ))
        } else {
            let bodies = tx.trace_bodies(&c.trace_id).await.map_err(|e| e.to_string())?;
            let (id, first, source) = (c.trace_id.clone(), c.first_at, self.source.clone());
            tokio::task::spawn_blocking(move || assemble(&id, &bodies, first, &source))
                .await
                .map_err(|e| format!("reconstruction stopped: {e}"))?
        };
        let result = write(&mut tx, &c, built, running).await.map_err(|e| e.to_string())?;
        tx.commit().await.map_err(|e| e.to_string())?;
        if let Ok(s) = &result
            && !s.amended
        {
            self.stats.runs.fetch_add(1, Ordering::Relaxed);
        }
        Ok(Some(result))
    }
}

/// How many spans of each trace a request holds, and whether one is its root.
pub(super) fn arrivals(spans: &[Span]) -> Vec<Arrival> {
    let mut per_trace: HashMap<&str, (i64, bool)> = HashMap::new();
    for s in spans {
        let e = per_trace.entry(s.trace_id.as_str()).or_default();
        e.0 += 1;
        e.1 |= s.parent.is_empty();
    }
    per_trace.into_iter().map(|(id, (n, root))| Arrival { trace_id: id.to_owned(), spans: n, root }).collect()
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

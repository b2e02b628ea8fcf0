//! Live assembly: spans of many traces arrive in any order over many requests; a trace becomes a
//! run once its root span is in and a quiet period has passed, through the same reconstruction
//! as a file import. A span that arrives after its run was saved amends that run (same id).

use crate::import::otlp::{self, Span};
use crate::store::Store;
use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// A trace past either of these is saved in the large lane ([`Lane::Large`]).
const LARGE_SPANS: usize = 2_000;
const LARGE_BYTES: usize = 8 << 20;

/// Which traces a saving loop takes: ordinary ones are saved in a loop of their own, so one
/// large trace (thousands of spans, a deep chain, megabytes of attributes) never delays them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lane {
    Ordinary,
    Large,
}

impl Lane {
    fn takes(self, p: &Pending) -> bool {
        let large = p.spans.len() > LARGE_SPANS || p.bytes > LARGE_BYTES;
        large == (self == Lane::Large)
    }
}

/// How many quiet periods a trace without its root waits before it is saved anyway.
const ROOTLESS_QUIET_FACTOR: u32 = 15;

/// Spans held in memory (waiting for their traces to complete, or kept to amend a saved run);
/// past it a request is told to retry later (503 with Retry-After), never dropped silently.
pub const MAX_HELD_SPANS: usize = 1_000_000;
/// The same bound in bytes of what spans carry (names, ids, attribute and event values).
pub const MAX_HELD_BYTES: usize = 512 << 20;
/// How long a saved trace's spans are kept to amend its run when a late span arrives.
const KEEP_DONE: Duration = Duration::from_secs(600);
/// How long a trace runs before it is shown as a running run (and how often it is refreshed).
const SHOW_AFTER: Duration = Duration::from_secs(1);

struct Pending {
    spans: Vec<Span>,
    /// What its spans weigh ([`span_bytes`]).
    bytes: usize,
    root_seen: bool,
    last: Instant,
    /// The run this trace was saved as, when a late span reopened it, with the transfers and
    /// lost facts that run counted (the status counts them once).
    run_id: Option<String>,
    counted: (u64, u64),
    /// Inbox rows that hold some of these spans (deleted once their traces are saved).
    inbox: Vec<i64>,
    /// Replayed from the inbox after a restart: saved at once, as interrupted.
    replayed: bool,
    /// When its first span arrived, when it was last shown as a running run, and whether spans
    /// arrived since.
    first: Instant,
    shown: Option<Instant>,
    dirty: bool,
    /// Reopened by a late span after its run was saved.
    reopened: bool,
    /// Runs it was shown as before it joined an earlier trace of its conversation (deleted when
    /// it is saved).
    stale: Vec<String>,
}

struct Done {
    spans: Vec<Span>,
    bytes: usize,
    run_id: String,
    at: Instant,
    counted: (u64, u64),
    /// The conversation its root span names (`gen_ai.conversation.id`, `session.id`).
    conversation: Option<String>,
}

#[derive(Default)]
struct Traces {
    pending: HashMap<String, Pending>,
    done: HashMap<String, Done>,
    /// Spans and bytes held, pending and saved alike, and their bounds.
    held: usize,
    bytes: usize,
    max_spans: usize,
    max_bytes: usize,
    /// For each inbox row, the traces it holds spans of that are not saved yet.
    rows: HashMap<i64, std::collections::HashSet<String>>,
    /// A trace merged into a later trace of its conversation: where its late spans go.
    alias: HashMap<String, String>,
    /// The saved trace (a key of `done`) of each conversation.
    conversations: HashMap<String, String>,
}

impl Traces {
    /// Takes a saved trace out of `done` (and the conversation index).
    fn take_done(&mut self, id: &str) -> Option<Done> {
        let d = self.done.remove(id)?;
        self.release(d.spans.len(), d.bytes);
        if let Some(c) = &d.conversation
            && self.conversations.get(c).is_some_and(|t| t == id)
        {
            self.conversations.remove(c);
        }
        Some(d)
    }

    fn release(&mut self, spans: usize, bytes: usize) {
        self.held = self.held.saturating_sub(spans);
        self.bytes = self.bytes.saturating_sub(bytes);
    }

    /// Whether `spans` more spans weighing `bytes` fit; saved traces kept only to amend their
    /// runs are forgotten, oldest first, to make room.
    fn make_room(&mut self, spans: usize, bytes: usize) -> bool {
        let fits = |t: &Traces| t.held + spans <= t.max_spans && t.bytes + bytes <= t.max_bytes;
        if fits(self) {
            return true;
        }
        let mut oldest: Vec<(Instant, String)> = self.done.iter().map(|(id, d)| (d.at, id.clone())).collect();
        oldest.sort();
        for (_, id) in oldest {
            self.take_done(&id);
            if fits(self) {
                break;
            }
        }
        let Traces { alias, done, pending, .. } = self;
        alias.retain(|_, to| done.contains_key(to) || pending.contains_key(to));
        fits(self)
    }

    /// Forgets saved traces past `KEEP_DONE`, and the aliases that led to them.
    fn expire(&mut self) {
        let mut gone = vec![];
        let mut freed = (0, 0);
        self.done.retain(|id, d| {
            let keep = d.at.elapsed() < KEEP_DONE;
            if !keep {
                freed = (freed.0 + d.spans.len(), freed.1 + d.bytes);
                if let Some(c) = d.conversation.take() {
                    gone.push((c, id.clone()));
                }
            }
            keep
        });
        self.release(freed.0, freed.1);
        for (c, id) in gone {
            if self.conversations.get(&c).is_some_and(|t| *t == id) {
                self.conversations.remove(&c);
            }
        }
        let Traces { alias, done, pending, .. } = self;
        alias.retain(|_, to| done.contains_key(to) || pending.contains_key(to));
    }
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

impl Stats {
    /// Counts a saved run's transfers and lost facts in place of what its earlier save of the
    /// same run counted (`before`); returns what it counts now.
    fn recount(&self, trace: &crate::trace::Trace, before: (u64, u64)) -> (u64, u64) {
        let lost = trace
            .transfers
            .iter()
            .flat_map(|t| &t.facts)
            .filter(|f| f.status == crate::context::FactStatus::Lost)
            .count() as u64;
        let now = (trace.transfers.len() as u64, lost);
        self.transfers.fetch_add(now.0, Ordering::Relaxed);
        self.transfers.fetch_sub(before.0, Ordering::Relaxed);
        self.lost_facts.fetch_add(now.1, Ordering::Relaxed);
        self.lost_facts.fetch_sub(before.1, Ordering::Relaxed);
        now
    }
}

fn agent_names(trace: &crate::trace::Trace) -> Vec<String> {
    trace.definition.as_ref().map(|d| d.agents.iter().map(|a| a.name.clone()).collect()).unwrap_or_default()
}

/// One saved (or amended) run, as it is reported.
pub struct Saved {
    pub trace_id: String,
    pub run_id: String,
    pub amended: bool,
    /// Shown while its trace is still arriving (saved again when it ends).
    pub running: bool,
    pub agents: Vec<String>,
    pub transfers: usize,
}

/// The run a captured trace is saved as: its trace id as a UUID, so that every save of it (shown
/// while it runs, saved when it ends, amended, replayed after a restart) is the same run.
pub(super) fn run_id_for(trace_id: &str) -> String {
    let h = trace_id.to_ascii_lowercase();
    if h.len() == 32 && h.bytes().all(|b| b.is_ascii_hexdigit()) {
        format!("{}-{}-{}-{}-{}", &h[..8], &h[8..12], &h[12..16], &h[16..20], &h[20..])
    } else {
        format!("trace-{trace_id}")
    }
}

/// The trace of one captured OTLP trace, as a file import builds it.
fn build(trace_id: &str, p: &Pending, source: &str) -> Result<crate::trace::Trace, String> {
    let mut trace = build_spans(trace_id, &p.spans, p.root_seen, p.replayed, source)?;
    // When its first span reached this collector: the capture list's order (the trace's own
    // clock may be another machine's, or a replay of yesterday's).
    let arrived = std::time::SystemTime::now().checked_sub(p.first.elapsed()).unwrap_or(std::time::UNIX_EPOCH);
    if let Some(serde_json::Value::Object(m)) = trace.source.as_mut() {
        let at = humantime::format_rfc3339_millis(arrived).to_string();
        m.insert("captured_at".into(), serde_json::Value::String(at));
    }
    Ok(trace)
}

/// The trace of `spans` (one trace's), or why it is not saved; `root_seen`: its root arrived;
/// `replayed`: read back from the inbox after the collector stopped.
pub(super) fn build_spans(
    trace_id: &str,
    spans: &[Span],
    root_seen: bool,
    replayed: bool,
    source: &str,
) -> Result<crate::trace::Trace, String> {
    let mut spans = spans.to_vec();
    let mut run = otlp::to_run(trace_id, &mut spans)?;
    if !root_seen {
        run.notes.push(
            "no root span arrived (its parent may be in another service, or was never sent): the run holds the \
             spans present, and spans that arrive later amend it"
                .into(),
        );
    }
    let recognised = run.events.iter().any(|e| {
        matches!(
            e,
            crate::import::Ev::Model { .. } | crate::import::Ev::Tool { .. } | crate::import::Ev::Transfer { .. }
        )
    });
    if !recognised {
        return Err(format!(
            "trace {trace_id}: no model call, tool run or transfer Baton recognises (GenAI, OpenInference, Vercel AI \
             SDK, Langfuse conventions); not saved"
        ));
    }
    let mut trace = crate::import::reconstruct(&run, "otlp", source, None).0;
    // Received live, not read from a file: the Runs home tells them apart by this mark.
    if let Some(serde_json::Value::Object(m)) = trace.source.as_mut() {
        m.insert("captured".into(), serde_json::Value::Bool(true));
    }
    if replayed {
        trace.outcome.status = crate::trace::OutcomeStatus::Interrupted;
        trace.outcome.reason = "the collector stopped before this trace ended; these are the spans it had \
                                acknowledged, and spans that arrive now amend the run"
            .into();
    }
    Ok(trace)
}

/// Traces of one conversation are one run, as a file import makes them (pydantic-ai's
/// programmatic hand-off, a chat's later turns): a ready trace whose root names the conversation
/// of a saved run, or of an earlier ready trace, joins it and keeps its run id.
fn merge_conversations(t: &mut Traces, mut ready: Vec<(String, Pending)>) -> Vec<(String, Pending)> {
    ready.sort_by_key(|(_, p)| p.spans.iter().map(|s| s.start).min());
    let mut out: Vec<(String, Pending, Option<String>)> = vec![];
    for (id, mut p) in ready {
        let Some(conv) = otlp::conversation_of(&p.spans) else {
            out.push((id, p, None));
            continue;
        };
        if let Some((qid, q, _)) = out.iter_mut().find(|(_, _, c)| c.as_deref() == Some(conv.as_str())) {
            for r in &p.inbox {
                if let Some(set) = t.rows.get_mut(r) {
                    set.remove(&id);
                    set.insert(qid.clone());
                }
                if !q.inbox.contains(r) {
                    q.inbox.push(*r);
                }
            }
            q.stale.extend(p.run_id.take().filter(|r| q.run_id.as_ref() != Some(r)));
            q.stale.append(&mut p.stale);
            q.spans.append(&mut p.spans);
            q.bytes += p.bytes;
            q.replayed |= p.replayed;
            t.alias.insert(id, qid.clone());
            continue;
        }
        let earlier = t.conversations.get(&conv).filter(|old| **old != id).cloned();
        if let Some((old, d)) = earlier.and_then(|old| t.take_done(&old).map(|d| (old, d))) {
            let mut spans = d.spans;
            spans.append(&mut p.spans);
            p.spans = spans;
            p.bytes += d.bytes;
            p.stale.extend(p.run_id.take().filter(|r| *r != d.run_id));
            p.run_id = Some(d.run_id);
            p.counted = d.counted;
            p.reopened = true;
            for to in t.alias.values_mut().filter(|to| **to == old) {
                *to = id.clone();
            }
            t.alias.insert(old, id.clone());
        }
        out.push((id, p, Some(conv)));
    }
    out.into_iter().map(|(id, p, _)| (id, p)).collect()
}

/// What became of a request's spans.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Taken {
    Yes,
    /// The collector holds this many spans already: retry shortly (503 / UNAVAILABLE).
    Full(usize),
    /// The request alone is larger than the collector ever holds: retrying cannot help.
    TooLarge(String),
}

pub struct Live {
    traces: Mutex<Traces>,
    pub stats: Stats,
    pub(super) quiet: Duration,
    pub(super) source: String,
    /// Where accepted requests are kept before they are acknowledged (none: in memory only).
    pub(super) inbox: Option<Store>,
    /// Several collectors share the store: traces are assembled there ([`super::shared`]).
    pub(super) shared: Option<super::shared::SharedState>,
}

impl Live {
    pub fn new(quiet: Duration, source: String) -> Live {
        let traces = Traces { max_spans: MAX_HELD_SPANS, max_bytes: MAX_HELD_BYTES, ..Traces::default() };
        Live { traces: Mutex::new(traces), stats: Stats::default(), quiet, source, inbox: None, shared: None }
    }

    /// Holds at most `spans` spans weighing at most `bytes` (instead of [`MAX_HELD_SPANS`] and
    /// [`MAX_HELD_BYTES`]).
    pub fn with_limits(self, spans: usize, bytes: usize) -> Live {
        {
            let mut t = self.traces.lock().expect("no panic while held");
            t.max_spans = spans;
            t.max_bytes = bytes;
        }
        self
    }

    /// The bounds set by [`Self::with_limits`]: spans, and bytes of what they carry.
    pub(super) fn limits(&self) -> (usize, usize) {
        let t = self.traces.lock().expect("no panic while held");
        (t.max_spans, t.max_bytes)
    }

    /// Keeps every accepted request in the store's inbox before it is acknowledged, so that a
    /// crash loses nothing acknowledged ([`Live::replay`] brings it back).
    pub fn with_inbox(mut self, store: Store) -> Live {
        self.inbox = Some(store);
        self
    }

    /// Whether `spans` can be held (saved traces kept to amend their runs give way).
    pub fn room_for(&self, spans: &[Span]) -> Taken {
        let weights: Vec<usize> = spans.iter().map(span_bytes).collect();
        self.room_for_weighed(&weights)
    }

    /// [`Self::room_for`] of spans already weighed ([`span_bytes`] each).
    fn room_for_weighed(&self, weights: &[usize]) -> Taken {
        let (n, bytes) = (weights.len(), weights.iter().sum::<usize>());
        let mut t = self.traces.lock().expect("no panic while held");
        if n > t.max_spans || bytes > t.max_bytes {
            return Taken::TooLarge(format!(
                "the request holds {} spans ({} KB): more than this collector holds at once ({} spans, {} KB); send \
                 smaller batches or raise --max-spans / --max-mb",
                n,
                bytes >> 10,
                t.max_spans,
                t.max_bytes >> 10
            ));
        }
        if t.make_room(n, bytes) { Taken::Yes } else { Taken::Full(t.held) }
    }

    /// Takes an accepted request: writes its body to the inbox (when there is one), then its
    /// spans. Nothing is taken unless the answer is [`Taken::Yes`].
    pub async fn take(&self, encoding: &str, body: &[u8], spans: Vec<Span>) -> Result<Taken, String> {
        // Weighed once, outside the lock: the check and the taking share it.
        let weights: Vec<usize> = spans.iter().map(span_bytes).collect();
        let room = self.room_for_weighed(&weights);
        // Nothing to keep: an empty request never enters the inbox (it would never leave it).
        if room != Taken::Yes || spans.is_empty() {
            return Ok(room);
        }
        if let (Some(_), Some(store)) = (&self.shared, &self.inbox) {
            let arrivals = super::shared::arrivals(&spans);
            return self.take_shared(store, encoding, body, arrivals).await;
        }
        let row = match &self.inbox {
            Some(store) => Some(store.inbox_put(encoding, body).await.map_err(|e| e.to_string())?),
            None => None,
        };
        let held = self.held();
        Ok(if self.accept_weighed(spans, weights, row, false) { Taken::Yes } else { Taken::Full(held) })
    }

    /// Replays what the inbox still holds (a collector that stopped before saving it): those
    /// traces are saved at the next tick, marked interrupted; their later spans amend them.
    pub async fn replay(&self) -> Result<usize, String> {
        let (Some(store), None) = (&self.inbox, &self.shared) else { return Ok(0) };
        let rows = store.inbox_all().await.map_err(|e| e.to_string())?;
        let n = rows.len();
        for (id, encoding, body) in rows {
            let (name, gzip) = match encoding.strip_suffix("+gzip") {
                Some(name) => (name, true),
                None => (encoding.as_str(), false),
            };
            let enc = if name == "json" { super::decode::Encoding::Json } else { super::decode::Encoding::Protobuf };
            let decoded = super::decode::inflate(&body, gzip, super::MAX_INFLATED)
                .and_then(|body| super::decode::spans(&body, enc));
            match decoded {
                Ok((spans, _, _)) => {
                    self.accept_from(spans, Some(id), true);
                }
                Err(_) => store.inbox_delete(&[id]).await.map_err(|e| e.to_string())?,
            }
        }
        Ok(n)
    }

    /// Takes a request's spans; `false` (and nothing taken) when too many are held already.
    pub fn accept(&self, spans: Vec<Span>) -> bool {
        self.accept_from(spans, None, false)
    }

    fn accept_from(&self, spans: Vec<Span>, row: Option<i64>, replayed: bool) -> bool {
        let weights: Vec<usize> = spans.iter().map(span_bytes).collect();
        self.accept_weighed(spans, weights, row, replayed)
    }

    fn accept_weighed(&self, spans: Vec<Span>, weights: Vec<usize>, row: Option<i64>, replayed: bool) -> bool {
        let mut t = self.traces.lock().expect("no panic while held");
        // What the inbox replays was acknowledged already: it is taken whatever it weighs.
        if !t.make_room(spans.len(), weights.iter().sum()) && !replayed {
            return false;
        }
        let now = Instant::now();
        self.stats.spans.fetch_add(spans.len() as u64, Ordering::Relaxed);
        for (sp, weight) in spans.into_iter().zip(weights) {
            t.held += 1;
            t.bytes += weight;
            let id = t.alias.get(&sp.trace_id).cloned().unwrap_or_else(|| sp.trace_id.clone());
            if !t.pending.contains_key(&id) {
                // A late span of a saved trace reopens it, to amend the same run.
                let reopened = t
                    .take_done(&id)
                    .map(|d| (d.run_id, d.spans.iter().any(|s| s.parent.is_empty()), d.spans, d.counted, d.bytes));
                let (run_id, root_seen, spans, counted, bytes) = match reopened {
                    Some((r, root, spans, counted, bytes)) => (Some(r), root, spans, counted, bytes),
                    None => (None, false, vec![], (0, 0), 0),
                };
                t.held += spans.len();
                t.bytes += bytes;
                let reopened = run_id.is_some();
                t.pending.insert(
                    id.clone(),
                    Pending {
                        spans,
                        bytes,
                        root_seen,
                        last: now,
                        run_id,
                        counted,
                        inbox: vec![],
                        replayed,
                        first: now,
                        shown: None,
                        dirty: true,
                        reopened,
                        stale: vec![],
                    },
                );
            }
            if let Some(r) = row {
                t.rows.entry(r).or_default().insert(id.clone());
            }
            let p = t.pending.get_mut(&id).expect("inserted above");
            p.root_seen |= sp.parent.is_empty();
            p.last = now;
            p.replayed |= replayed;
            p.dirty = true;
            if let Some(r) = row.filter(|r| !p.inbox.contains(r)) {
                p.inbox.push(r);
            }
            p.spans.push(sp);
            p.bytes += weight;
        }
        true
    }

    /// Saves every trace of `lane` whose root is in and that has been quiet long enough (all of
    /// them when `all`, at shutdown). Returns what was saved.
    pub async fn complete(&self, store: &Store, all: bool, lane: Lane) -> Vec<Result<Saved, String>> {
        if self.shared.is_some() {
            // Everything acknowledged is in the store: at shutdown the other instances (or the
            // next start) save it; one loop is enough.
            return if all || lane == Lane::Large { vec![] } else { self.complete_shared(store).await };
        }
        let ready: Vec<(String, Pending)> = {
            let mut t = self.traces.lock().expect("no panic while held");
            let ids: Vec<String> = t
                .pending
                .iter()
                .filter(|(_, p)| lane.takes(p))
                .filter(|(_, p)| {
                    // A trace whose root never arrives (its parent is in an upstream service, or
                    // was lost) is saved once it has been quiet fifteen times as long (30 s by
                    // default): not shown running for ever; later spans amend its run.
                    let quiet = p.last.elapsed();
                    all || p.replayed
                        || (p.root_seen && quiet >= self.quiet)
                        || (!p.root_seen && quiet >= self.quiet * ROOTLESS_QUIET_FACTOR)
                })
                .map(|(id, _)| id.clone())
                .collect();
            let out: Vec<(String, Pending)> =
                ids.into_iter().filter_map(|id| t.pending.remove(&id).map(|p| (id, p))).collect();
            let freed = out.iter().fold((0, 0), |(n, b), (_, p)| (n + p.spans.len(), b + p.bytes));
            t.release(freed.0, freed.1);
            // One lane is enough to forget old saved traces (it walks them all).
            if lane == Lane::Ordinary {
                t.expire();
            }
            merge_conversations(&mut t, out)
        };
        // Traces still arriving are shown as running runs (again each second while spans arrive),
        // so that a user sees a run while it happens.
        let showing: Vec<(String, Pending)> = if all {
            vec![]
        } else {
            let mut t = self.traces.lock().expect("no panic while held");
            let now = Instant::now();
            t.pending
                .iter_mut()
                .filter(|(_, p)| lane.takes(p))
                .filter(|(_, p)| {
                    // A trace whose root has not ended is still running: shown from its first
                    // agent span on. So is one whose spans keep arriving over more than a second
                    // (not a trace that merely waits its turn to be saved, as under load).
                    p.dirty
                        && !p.replayed
                        && (!p.root_seen || p.last.duration_since(p.first) >= SHOW_AFTER)
                        && p.shown.is_none_or(|s| s.elapsed() >= SHOW_AFTER)
                })
                .map(|(id, p)| {
                    p.dirty = false;
                    p.shown = Some(now);
                    let copy = Pending {
                        spans: p.spans.clone(),
                        bytes: p.bytes,
                        // Still arriving: not a trace whose root never came.
                        root_seen: true,
                        last: p.last,
                        run_id: p.run_id.clone(),
                        counted: p.counted,
                        inbox: vec![],
                        replayed: false,
                        first: p.first,
                        shown: p.shown,
                        dirty: false,
                        reopened: p.reopened,
                        stale: vec![],
                    };
                    (id.clone(), copy)
                })
                .collect()
        };
        if ready.is_empty() && showing.is_empty() {
            return vec![];
        }
        let mut results = self.show(store, showing).await;
        if ready.is_empty() {
            return results;
        }
        // Reconstruction is CPU work: off the async workers. Then one transaction for them all.
        let source = self.source.clone();
        let built = tokio::task::spawn_blocking(move || {
            ready
                .into_iter()
                .map(|(id, p)| {
                    let t = build(&id, &p, &source);
                    (id, p, t)
                })
                .collect::<Vec<_>>()
        })
        .await;
        let built = match built {
            Ok(b) => b,
            Err(e) => return vec![Err(format!("reconstruction stopped: {e}"))],
        };
        // Spans are not `Sync` (their kind is worked out lazily): only the traces cross the
        // awaits below; the pending spans wait beside them.
        let mut to_save: Vec<(String, Pending, bool)> = vec![];
        let mut traces: Vec<crate::trace::Trace> = vec![];
        let mut refused_rows = vec![];
        for (id, p, t) in built {
            match t {
                Ok(mut trace) => {
                    // Counted as a run already when it was shown running or saved before.
                    let amended = p.run_id.is_some();
                    trace.run_id = Some(p.run_id.clone().unwrap_or_else(|| run_id_for(&id)));
                    to_save.push((id, p, amended));
                    traces.push(trace);
                }
                Err(e) => {
                    // Refused, with its reason: what was acknowledged for it leaves the inbox.
                    refused_rows.extend(self.release(&id, &p));
                    results.push(Err(e));
                }
            }
        }
        if let (Some(inbox), false) = (&self.inbox, refused_rows.is_empty())
            && let Err(e) = inbox.inbox_delete(&refused_rows).await
        {
            results.push(Err(format!("the capture inbox kept {} refused request(s): {e}", refused_rows.len())));
        }
        if to_save.is_empty() {
            return results;
        }
        // Only a trace shown before, reopened, or replayed after a crash can have a run to
        // replace; the rest are added (replacing costs a flush and the deletes).
        let may_exist: Vec<bool> = to_save.iter().map(|(_, p, _)| p.run_id.is_some() || p.replayed).collect();
        let stale: Vec<Vec<String>> = to_save.iter().map(|(_, p, _)| p.stale.clone()).collect();
        let write = |all_replace: bool| {
            let (traces, may_exist, stale) = (&traces, &may_exist, &stale);
            async move {
                let mut tx = store.import_tx().await?;
                for ((trace, replace), stale) in traces.iter().zip(may_exist).zip(stale) {
                    for run in stale {
                        tx.delete(run).await?;
                    }
                    if all_replace || *replace {
                        tx.replace(trace).await?;
                    } else {
                        tx.add(trace).await?;
                    }
                }
                tx.commit().await
            }
        };
        // A trace sent again after its run was saved by an earlier collector (an exporter's retry
        // across a restart) has a run already: the batch is then written again replacing each.
        let written = match write(false).await {
            Ok(n) => Ok(n),
            Err(_) => write(true).await,
        };
        if let Err(e) = written {
            // Nothing of the batch was written: its traces wait for the next tick.
            let mut t = self.traces.lock().expect("no panic while held");
            for (id, p, _) in to_save {
                t.held += p.spans.len();
                t.bytes += p.bytes;
                t.pending.insert(id, p);
            }
            results.push(Err(format!("the store refused the captured runs (kept, will retry): {e}")));
            return results;
        }
        let mut finished_rows = vec![];
        {
            let mut t = self.traces.lock().expect("no panic while held");
            for ((trace_id, p, amended), trace) in to_save.into_iter().zip(traces) {
                for r in &p.inbox {
                    if let Some(left) = t.rows.get_mut(r) {
                        left.remove(&trace_id);
                        if left.is_empty() {
                            t.rows.remove(r);
                            finished_rows.push(*r);
                        }
                    }
                }
                if !amended {
                    self.stats.runs.fetch_add(1, Ordering::Relaxed);
                }
                let counted = self.stats.recount(&trace, p.counted);
                let run_id = trace.run_id.clone().expect("set above");
                let agents = agent_names(&trace);
                results.push(Ok(Saved {
                    trace_id: trace_id.clone(),
                    run_id: run_id.clone(),
                    amended: p.reopened,
                    running: false,
                    agents,
                    transfers: trace.transfers.len(),
                }));
                let conversation = otlp::conversation_of(&p.spans);
                if let Some(c) = &conversation {
                    t.conversations.insert(c.clone(), trace_id.clone());
                }
                t.held += p.spans.len();
                t.bytes += p.bytes;
                let bytes = p.bytes;
                t.done.insert(
                    trace_id,
                    Done { spans: p.spans, bytes, run_id, at: Instant::now(), counted, conversation },
                );
            }
        }
        // The runs are committed: the inbox rows all of whose traces they hold can go.
        if let (Some(inbox), false) = (&self.inbox, finished_rows.is_empty())
            && let Err(e) = inbox.inbox_delete(&finished_rows).await
        {
            results.push(Err(format!("saved, but the capture inbox kept {} request(s): {e}", finished_rows.len())));
        }
        results
    }

    /// Forgets a trace's claim on the inbox rows that held its spans; the rows no trace claims
    /// any more.
    fn release(&self, trace_id: &str, p: &Pending) -> Vec<i64> {
        let mut t = self.traces.lock().expect("no panic while held");
        let mut finished = vec![];
        for r in &p.inbox {
            if let Some(left) = t.rows.get_mut(r) {
                left.remove(trace_id);
                if left.is_empty() {
                    t.rows.remove(r);
                    finished.push(*r);
                }
            }
        }
        finished
    }

    /// Saves traces still arriving as running runs (replacing what was shown before).
    async fn show(&self, store: &Store, showing: Vec<(String, Pending)>) -> Vec<Result<Saved, String>> {
        if showing.is_empty() {
            return vec![];
        }
        let source = self.source.clone();
        let built = tokio::task::spawn_blocking(move || {
            showing
                .into_iter()
                .filter_map(|(id, p)| {
                    let mut trace = build(&id, &p, &source).ok()?;
                    trace.run_id = Some(p.run_id.clone().unwrap_or_else(|| run_id_for(&id)));
                    trace.outcome.status = crate::trace::OutcomeStatus::Running;
                    trace.outcome.reason = "capturing: spans of this trace are still arriving".into();
                    Some((id, trace))
                })
                .collect::<Vec<_>>()
        })
        .await
        .unwrap_or_default();
        if built.is_empty() {
            return vec![];
        }
        let written = async {
            let mut tx = store.capture_tx().await?;
            for (_, trace) in &built {
                tx.replace(trace).await?;
            }
            tx.commit().await
        }
        .await;
        if let Err(e) = written {
            return vec![Err(format!("could not show the runs still arriving: {e}"))];
        }
        let mut out = vec![];
        let mut t = self.traces.lock().expect("no panic while held");
        for (id, trace) in built {
            let Some(p) = t.pending.get_mut(&id) else { continue };
            let run_id = trace.run_id.clone().expect("set above");
            let first = p.run_id.is_none();
            if first {
                self.stats.runs.fetch_add(1, Ordering::Relaxed);
            }
            p.counted = self.stats.recount(&trace, p.counted);
            p.run_id = Some(run_id.clone());
            let agents = agent_names(&trace);
            out.push(Ok(Saved {
                trace_id: id,
                run_id,
                amended: !first,
                running: true,
                agents,
                transfers: trace.transfers.len(),
            }));
        }
        out
    }

    /// Spans held: waiting for their traces to complete, or kept to amend saved runs.
    pub fn held(&self) -> usize {
        self.traces.lock().expect("no panic while held").held
    }

    /// Spans of traces not saved yet (what "waiting" means to a user; saved traces kept only to
    /// amend their runs are not counted).
    pub fn waiting(&self) -> usize {
        let t = self.traces.lock().expect("no panic while held");
        t.pending.values().map(|p| p.spans.len()).sum()
    }

    /// What the held spans weigh, in bytes ([`span_bytes`]).
    pub fn held_bytes(&self) -> usize {
        self.traces.lock().expect("no panic while held").bytes
    }
}

/// What a span holds in memory, roughly: its strings and a fixed overhead.
pub fn span_bytes(s: &Span) -> usize {
    fn value(v: &serde_json::Value) -> usize {
        match v {
            serde_json::Value::String(s) => s.len() + 24,
            serde_json::Value::Array(a) => 24 + a.iter().map(value).sum::<usize>(),
            serde_json::Value::Object(m) => 24 + m.iter().map(|(k, v)| k.len() + value(v)).sum::<usize>(),
            _ => 16,
        }
    }
    let attrs = |a: &otlp::Attrs| a.iter().map(|(k, v)| k.len() + value(v) + 24).sum::<usize>();
    256 + s.trace_id.len()
        + s.id.len()
        + s.parent.len()
        + s.name.len()
        + s.scope.len()
        + attrs(&s.attrs)
        + s.events.iter().map(|(n, a)| n.len() + attrs(a)).sum::<usize>()
}

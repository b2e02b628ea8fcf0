//! Writing runs: a recorder turns the engine's events into rows as they happen, in one
//! transaction per batch of queued events, so a crash loses at most the batch in flight.

use super::snapshot::{Encoder, encode_ids};
use super::{Store, StoreError, hostname};
use crate::context::ItemId;
use crate::engine::{EventSink, RunEvent};
use crate::topology::Topology;
use crate::trace::{OutcomeStatus, Trace};
use sqlx::{Any, Transaction};
use tokio::sync::mpsc;

/// What a recorder wrote.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WriteStats {
    pub events: u64,
    pub batches: u64,
    pub steps: u64,
}

/// A run being written; await [`Recorder::finish`] after the run ends.
pub struct Recorder {
    pub run_id: String,
    handle: tokio::task::JoinHandle<Result<WriteStats, StoreError>>,
    store: Store,
}

impl Recorder {
    /// Waits until every event is written.
    pub async fn finish(self) -> Result<WriteStats, StoreError> {
        self.handle.await.map_err(|e| StoreError::Damaged(format!("the store writer stopped: {e}")))?
    }

    /// Waits until every event is written, then keeps how the run's ending is judged.
    pub async fn finish_for(self, trace: &Trace) -> Result<WriteStats, StoreError> {
        let (store, run_id) = (self.store.clone(), self.run_id.clone());
        let stats = self.finish().await?;
        store.set_ending(&run_id, trace).await?;
        Ok(stats)
    }
}

/// Called after each committed batch with the number of steps written so far.
pub type CommitHook = Box<dyn FnMut(u64) + Send>;

struct Writer {
    store: Store,
    run_id: String,
    topology_hash: String,
    topology_id: Option<String>,
    providers: String,
    source: Option<String>,
    enc: Encoder,
    stats: WriteStats,
    transfers: i64,
    lost: i64,
    items: i64,
}

pub fn new_run_id() -> String {
    uuid::Uuid::now_v7().to_string()
}

impl Store {
    /// Stores a topology version (once per distinct content) and returns its hash.
    pub async fn save_topology(&self, t: &Topology) -> Result<String, StoreError> {
        let body = serde_json::to_string(t).expect("topologies serialize");
        let hash = blake3::hash(body.as_bytes()).to_hex()[..32].to_string();
        sqlx::query(
            "INSERT INTO topologies (hash, name, body, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (hash) DO NOTHING",
        )
        .bind(hash.clone())
        .bind(t.name.clone())
        .bind(body)
        .bind(humantime::format_rfc3339_micros(std::time::SystemTime::now()).to_string())
        .execute(self.pool())
        .await?;
        Ok(hash)
    }

    /// Starts recording a run of `t`: returns the event sink to give the engine and the
    /// recorder to finish once the run is over.
    pub async fn record(
        &self,
        t: &Topology,
        run_id: String,
        providers: &std::collections::BTreeMap<String, String>,
        source: Option<serde_json::Value>,
        mut on_commit: Option<CommitHook>,
    ) -> Result<(EventSink, Recorder), StoreError> {
        let topology_hash = self.save_topology(t).await?;
        let (tx, mut rx) = mpsc::unbounded_channel::<RunEvent>();
        let mut w = Writer {
            store: self.clone(),
            run_id: run_id.clone(),
            topology_hash,
            topology_id: t.id.clone(),
            providers: serde_json::to_string(providers).expect("maps serialize"),
            source: source.map(|s| s.to_string()),
            enc: Encoder::default(),
            stats: WriteStats::default(),
            transfers: 0,
            lost: 0,
            items: 0,
        };
        let handle = tokio::spawn(async move {
            while let Some(first) = rx.recv().await {
                let mut batch = vec![first];
                while batch.len() < 1024 {
                    match rx.try_recv() {
                        Ok(e) => batch.push(e),
                        Err(_) => break,
                    }
                }
                w.write_batch(&batch).await?;
                if let Some(hook) = on_commit.as_mut() {
                    hook(w.stats.steps);
                }
            }
            Ok(w.stats)
        });
        let sink: EventSink = Box::new(move |e: &RunEvent| {
            let _ = tx.send(e.clone());
        });
        Ok((sink, Recorder { run_id, handle, store: self.clone() }))
    }

    /// Starts an import: every run added to it is written in one transaction, committed by
    /// [`ImportTx::commit`]. A failure, or a process killed midway, leaves nothing behind.
    pub async fn import_tx(&self) -> Result<ImportTx, StoreError> {
        Ok(ImportTx {
            store: self.clone(),
            tx: self.write_tx().await?,
            runs: 0,
            rows: super::rows::Rows::new(),
            live: false,
        })
    }

    /// An import for live capture: a run may be saved as still running (its trace arriving).
    pub async fn capture_tx(&self) -> Result<ImportTx, StoreError> {
        let mut tx = self.import_tx().await?;
        tx.live = true;
        Ok(tx)
    }

    /// Saves a finished trace (an import, a trace file) as a run; returns its id.
    pub async fn save_trace(&self, trace: &Trace) -> Result<String, StoreError> {
        let topology = trace.definition.clone().unwrap_or_else(|| Topology::new(&trace.topology));
        let run_id = trace.run_id.clone().unwrap_or_else(new_run_id);
        let (mut sink, rec) =
            self.record(&topology, run_id.clone(), &trace.providers, trace.source.clone(), None).await?;
        for e in trace_events(trace) {
            sink(&e);
        }
        drop(sink);
        rec.finish().await?;
        if let Some(f) = &trace.fork {
            sqlx::query("UPDATE runs SET parent_run = $1, fork_step = $2, fork = $3 WHERE id = $4")
                .bind(Some(f.parent.clone()).filter(|p| !p.is_empty()))
                .bind(i64::from(f.at))
                .bind(serde_json::to_string(f).expect("serializes"))
                .bind(run_id.clone())
                .execute(self.pool())
                .await
                .map_err(|e| self.locate(e.into()))?;
        }
        if let Some(m) = &trace.mark {
            self.set_mark(&run_id, Some(m)).await?;
        }
        self.set_ending(&run_id, trace).await?;
        Ok(run_id)
    }

    /// Keeps how a run's ending is judged (see `suspects::judge_ending`).
    pub async fn set_ending(&self, run_id: &str, trace: &Trace) -> Result<(), StoreError> {
        sqlx::query("UPDATE runs SET ending = $1 WHERE id = $2")
            .bind(super::rows::ending_json(trace))
            .bind(run_id.to_owned())
            .execute(self.pool())
            .await
            .map_err(|e| self.locate(e.into()))?;
        Ok(())
    }

    /// Sets (or with None clears) a person's mark on a run.
    pub async fn set_mark(&self, run_id: &str, mark: Option<&crate::trace::RunMark>) -> Result<(), StoreError> {
        let r = sqlx::query("UPDATE runs SET mark = $1, judgement = $2 WHERE id = $3")
            .bind(mark.map(|m| serde_json::to_string(m).expect("serializes")))
            .bind(mark.map(|m| m.judgement.as_str().to_owned()))
            .bind(run_id.to_owned())
            .execute(self.pool())
            .await
            .map_err(|e| self.locate(e.into()))?;
        if r.rows_affected() == 0 {
            return Err(StoreError::NoRun(run_id.to_owned()));
        }
        Ok(())
    }
}

/// An import in progress: its runs are invisible to every other reader until it commits.
pub struct ImportTx {
    pub(super) store: Store,
    pub(super) tx: Transaction<'static, Any>,
    runs: usize,
    rows: super::rows::Rows,
    live: bool,
}

impl ImportTx {
    /// Adds a finished trace as a run; returns its id.
    pub async fn add(&mut self, trace: &Trace) -> Result<String, StoreError> {
        let store = self.store.clone();
        self.add_inner(trace).await.map_err(|e| store.locate(e))
    }

    async fn add_inner(&mut self, trace: &Trace) -> Result<String, StoreError> {
        let topology = trace.definition.clone().unwrap_or_else(|| Topology::new(&trace.topology));
        let run_id = trace.run_id.clone().unwrap_or_else(new_run_id);
        let body = serde_json::to_string(&topology).expect("topologies serialize");
        let topology_hash = blake3::hash(body.as_bytes()).to_hex()[..32].to_string();
        self.rows.add(trace, &run_id, (&topology_hash, &topology.name, body), self.live);
        if self.rows.full() {
            self.rows.flush(&mut self.tx, &self.store).await?;
        }
        self.runs += 1;
        Ok(run_id)
    }

    /// Adds a trace as a run, replacing a run with the same id if there is one (live capture:
    /// a run shown while its trace is still arriving, then the trace once it has ended).
    pub async fn replace(&mut self, trace: &Trace) -> Result<String, StoreError> {
        if let Some(id) = &trace.run_id {
            // Rows waiting in the batch for this run would be written after its deletion.
            self.rows.flush(&mut self.tx, &self.store).await?;
            delete_rows(&mut self.tx, id).await.map_err(|e| self.store.locate(e.into()))?;
        }
        self.add(trace).await
    }

    /// Deletes a run in the same transaction (a captured run merged into another).
    pub async fn delete(&mut self, run_id: &str) -> Result<(), StoreError> {
        self.rows.flush(&mut self.tx, &self.store).await?;
        delete_rows(&mut self.tx, run_id).await.map_err(|e| self.store.locate(e.into()))
    }

    /// Makes every added run visible at once.
    pub async fn commit(mut self) -> Result<usize, StoreError> {
        let store = self.store.clone();
        self.rows.flush(&mut self.tx, &store).await?;
        self.tx.commit().await.map_err(|e| store.locate(e.into()))?;
        Ok(self.runs)
    }
}

/// The events that would have produced `trace`, in order.
pub fn trace_events(t: &Trace) -> Vec<RunEvent> {
    let mut out = vec![RunEvent::Started {
        topology: t.topology.clone(),
        scenario: t.scenario.clone(),
        started_at: t.started_at.clone(),
    }];
    out.extend(t.items.iter().cloned().map(RunEvent::Item));
    for s in &t.steps {
        if let Some(tr) = s.transfer.and_then(|i| t.transfers.get(i as usize)) {
            out.push(RunEvent::Transfer(tr.clone()));
        }
        out.push(RunEvent::Step(s.clone()));
    }
    out.push(RunEvent::Finished { outcome: t.outcome.clone(), usage: t.usage, ended_at: t.ended_at.clone() });
    out
}

impl Store {
    /// Deletes a run, and the items no other run references. A run still being written by a
    /// live process is refused (its writer would fail and its output be lost).
    pub async fn delete_run(&self, run: &str) -> Result<(), StoreError> {
        self.delete_run_inner(run).await.map_err(|e| self.locate(e))
    }

    async fn delete_run_inner(&self, run: &str) -> Result<(), StoreError> {
        let mut tx = self.write_tx().await?;
        let row: Option<(String, Option<i64>, Option<String>)> =
            sqlx::query_as("SELECT status, pid, host FROM runs WHERE id = $1")
                .bind(run.to_owned())
                .fetch_optional(&mut *tx)
                .await?;
        let Some((status, pid, host)) = row else { return Err(StoreError::NoRun(run.into())) };
        let alive = host.as_deref() == Some(hostname().as_str()) && pid.is_some_and(super::process_alive);
        if status == "running" && alive {
            return Err(StoreError::RunActive(run.into()));
        }
        delete_rows(&mut tx, run).await?;
        tx.commit().await?;
        Ok(())
    }
}

impl Store {
    /// Deletes the runs that started before `before` (RFC 3339) and are not running, a batch of
    /// 500 per transaction (a prune stopped midway leaves whole runs); how many went.
    pub async fn prune_runs(&self, before: &str) -> Result<usize, StoreError> {
        let prune = async {
            let mut gone = 0;
            loop {
                let mut tx = self.write_tx().await?;
                let ids: Vec<String> = sqlx::query_scalar(
                    "SELECT id FROM runs WHERE started_at < $1 AND status <> 'running' ORDER BY started_at LIMIT 500",
                )
                .bind(before.to_owned())
                .fetch_all(&mut *tx)
                .await?;
                for id in &ids {
                    delete_rows(&mut tx, id).await?;
                }
                tx.commit().await?;
                gone += ids.len();
                if ids.len() < 500 {
                    return Ok::<_, sqlx::Error>(gone);
                }
            }
        };
        prune.await.map_err(|e| self.locate(e.into()))
    }
}

/// Removes a run's rows, and the items no other run references, inside `tx`.
async fn delete_rows(tx: &mut Transaction<'static, Any>, run: &str) -> Result<(), sqlx::Error> {
    sqlx::query(
        "DELETE FROM items WHERE id IN (SELECT item_id FROM run_items WHERE run_id = $1) \
         AND id NOT IN (SELECT item_id FROM run_items WHERE run_id <> $2)",
    )
    .bind(run.to_owned())
    .bind(run.to_owned())
    .execute(&mut **tx)
    .await?;
    for table in ["fact_checks", "transfers", "steps", "snapshots", "run_items", "runs"] {
        let col = if table == "runs" { "id" } else { "run_id" };
        sqlx::query(sqlx::AssertSqlSafe(format!("DELETE FROM {table} WHERE {col} = $1")))
            .bind(run.to_owned())
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}

impl Writer {
    async fn snapshot(&mut self, tx: &mut Transaction<'static, Any>, ids: &[ItemId]) -> Result<i64, StoreError> {
        let (seq, row) = self.enc.push(ids);
        if let Some((seq, prefix, bytes)) = row {
            sqlx::query("INSERT INTO snapshots (run_id, seq, prefix_len, ids) VALUES ($1, $2, $3, $4)")
                .bind(self.run_id.clone())
                .bind(seq)
                .bind(prefix)
                .bind(bytes)
                .execute(&mut **tx)
                .await?;
        }
        Ok(seq)
    }

    /// Writes a batch in one transaction; when another writer holds the store past the busy
    /// timeout, waits and tries the whole batch again (the writer's counters are restored).
    async fn write_batch(&mut self, batch: &[RunEvent]) -> Result<(), StoreError> {
        let mut attempt = 0;
        loop {
            let saved = (self.enc.clone(), self.stats, self.transfers, self.lost, self.items);
            match self.try_batch(batch).await {
                Err(StoreError::Db(e)) if super::is_busy(&e) && attempt < 5 => {
                    (self.enc, self.stats, self.transfers, self.lost, self.items) = saved;
                    attempt += 1;
                    tokio::time::sleep(std::time::Duration::from_millis(200 << attempt)).await;
                }
                Err(StoreError::Db(e)) if super::is_busy(&e) => {
                    return Err(StoreError::Locked { url: self.store.url().to_owned() });
                }
                other => return other.map_err(|e| self.store.locate(e)),
            }
        }
    }

    async fn try_batch(&mut self, batch: &[RunEvent]) -> Result<(), StoreError> {
        let mut tx = self.store.write_tx().await?;
        for e in batch {
            self.write_one(&mut tx, e).await?;
            self.stats.events += 1;
        }
        self.write_counts(&mut tx).await?;
        tx.commit().await?;
        self.stats.batches += 1;
        Ok(())
    }

    async fn write_counts(&self, tx: &mut Transaction<'static, Any>) -> Result<(), StoreError> {
        sqlx::query("UPDATE runs SET step_count = $1, transfer_count = $2, lost_facts = $3 WHERE id = $4")
            .bind(self.stats.steps as i64)
            .bind(self.transfers)
            .bind(self.lost)
            .bind(self.run_id.clone())
            .execute(&mut **tx)
            .await?;
        Ok(())
    }

    async fn write_one(&mut self, tx: &mut Transaction<'static, Any>, e: &RunEvent) -> Result<(), StoreError> {
        match e {
            RunEvent::Started { topology, scenario, started_at } => {
                sqlx::query(
                    "INSERT INTO runs (id, topology_hash, topology, scenario, providers, started_at, status, reason, owner, pid, host, source, topology_id) \
                     VALUES ($1, $2, $3, $4, $5, $6, 'running', 'running', '', $7, $8, $9, $10)",
                )
                .bind(self.run_id.clone())
                .bind(self.topology_hash.clone())
                .bind(topology.clone())
                .bind(scenario.clone())
                .bind(self.providers.clone())
                .bind(started_at.clone())
                .bind(std::process::id() as i64)
                .bind(hostname())
                .bind(self.source.clone())
                .bind(self.topology_id.clone())
                .execute(&mut **tx)
                .await?;
            }
            RunEvent::Item(item) => {
                let body = serde_json::to_string(item).expect("items serialize");
                sqlx::query("INSERT INTO items (id, body) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING")
                    .bind(item.id.0.to_vec())
                    .bind(body)
                    .execute(&mut **tx)
                    .await?;
                sqlx::query(
                    "INSERT INTO run_items (run_id, item_id, ord) VALUES ($1, $2, $3) ON CONFLICT (run_id, item_id) DO NOTHING",
                )
                .bind(self.run_id.clone())
                .bind(item.id.0.to_vec())
                .bind(self.items)
                .execute(&mut **tx)
                .await?;
                self.items += 1;
            }
            RunEvent::Transfer(t) => {
                let sender = self.snapshot(tx, &t.sender).await?;
                let receiver = self.snapshot(tx, &t.receiver).await?;
                sqlx::query(
                    "INSERT INTO transfers (run_id, idx, step, kind, from_agent, to_agent, edge, policy, sender, receiver, carried, transformed, dropped, added, back) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)",
                )
                .bind(self.run_id.clone())
                .bind(self.transfers)
                .bind(t.step as i64)
                .bind(t.kind.as_str().to_owned())
                .bind(t.from.clone())
                .bind(t.to.clone())
                .bind(t.edge.clone())
                .bind(t.policy.clone())
                .bind(sender)
                .bind(receiver)
                .bind(encode_ids(&t.carried))
                .bind(encode_ids(&t.transformed))
                .bind(encode_ids(&t.dropped))
                .bind(encode_ids(&t.added))
                .bind(t.back.as_ref().map(|b| serde_json::to_string(b).expect("serializes")))
                .execute(&mut **tx)
                .await?;
                for f in &t.facts {
                    if f.status == crate::context::FactStatus::Lost {
                        self.lost += 1;
                    }
                    sqlx::query(
                        "INSERT INTO fact_checks (run_id, transfer_idx, step, fact_id, status) VALUES ($1, $2, $3, $4, $5)",
                    )
                    .bind(self.run_id.clone())
                    .bind(self.transfers)
                    .bind(t.step as i64)
                    .bind(f.id.clone())
                    .bind(f.status.as_str().to_owned())
                    .execute(&mut **tx)
                    .await?;
                }
                self.transfers += 1;
            }
            RunEvent::Step(s) => {
                let snap = self.snapshot(tx, &s.context).await?;
                sqlx::query(
                    "INSERT INTO steps (run_id, idx, kind, agent, owner, depth, snapshot, output, transfer_idx, detail, input_tokens, output_tokens, exchange, \
                     context_len, start_us, duration_us) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)",
                )
                .bind(self.run_id.clone())
                .bind(s.index as i64)
                .bind(s.kind.as_str().to_owned())
                .bind(s.agent.clone())
                .bind(s.owner.clone())
                .bind(s.depth as i64)
                .bind(snap)
                .bind(encode_ids(&s.output))
                .bind(s.transfer.map(|t| t as i64))
                .bind(s.detail.clone())
                .bind(s.usage.map(|u| u.input_tokens as i64))
                .bind(s.usage.map(|u| u.output_tokens as i64))
                .bind(s.exchange.as_ref().map(|x| x.to_string()))
                .bind(s.context.len() as i64)
                .bind(s.timing.map(|t| t.micros().0))
                .bind(s.timing.map(|t| t.micros().1))
                .execute(&mut **tx)
                .await?;
                self.stats.steps += 1;
            }
            RunEvent::Paused { .. } => {}
            RunEvent::Returned { transfer, back } => {
                sqlx::query("UPDATE transfers SET back = $1 WHERE run_id = $2 AND idx = $3")
                    .bind(serde_json::to_string(back).expect("serializes"))
                    .bind(self.run_id.clone())
                    .bind(i64::from(*transfer))
                    .execute(&mut **tx)
                    .await?;
            }
            RunEvent::Finished { outcome, usage, ended_at } => {
                let status =
                    if outcome.status == OutcomeStatus::Running { OutcomeStatus::Interrupted } else { outcome.status };
                sqlx::query(
                    "UPDATE runs SET status = $1, reason = $2, owner = $3, final_output = $4, guard = $5, ended_at = $6, \
                     input_tokens = $7, output_tokens = $8 WHERE id = $9",
                )
                .bind(status.as_str().to_owned())
                .bind(outcome.reason.clone())
                .bind(outcome.owner.clone())
                .bind(outcome.final_output.clone())
                .bind(outcome.guard.clone())
                .bind(ended_at.clone())
                .bind(usage.input_tokens as i64)
                .bind(usage.output_tokens as i64)
                .bind(self.run_id.clone())
                .execute(&mut **tx)
                .await?;
            }
        }
        Ok(())
    }
}

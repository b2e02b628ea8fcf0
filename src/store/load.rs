//! Reading a stored run back as a native [`Trace`], whole or with only the parts a caller reads:
//! a step's context is a few hundred ids, so a 100,000-step run's contexts alone are gigabytes,
//! and a report that reads the steps' outputs must not pay for them.

use super::read::{Reader, TRANSFER_COLS, fact_checks, transfer_from_row};
use super::snapshot::apply;
use super::{StoreError, TraceParts};
use crate::context::{Item, ItemId, ItemStore};
use crate::providers::Usage;
use crate::trace::{Outcome, Step, TRACE_VERSION, Trace, Transfer};
use sqlx::Row;
use std::collections::{HashMap, HashSet};

/// The steps query: every column, or all but the provider exchange.
fn steps_query(parts: TraceParts) -> &'static str {
    if parts.exchanges {
        "SELECT * FROM steps WHERE run_id = $1 ORDER BY idx"
    } else {
        "SELECT idx, kind, agent, owner, depth, snapshot, output, transfer_idx, detail, input_tokens, output_tokens, \
         CAST(NULL AS TEXT) AS exchange, start_us, duration_us FROM steps WHERE run_id = $1 ORDER BY idx"
    }
}

/// The steps whose context is wanted: every step, or only the first (what the user asked) and
/// those where a delegation returned (what the caller holds then).
fn wanted_steps(parts: TraceParts, steps: &[(Step, i64)], transfers: &[Transfer]) -> HashSet<u32> {
    if parts.contexts {
        steps.iter().map(|(s, _)| s.index).collect()
    } else {
        let returns = transfers.iter().filter_map(|t| t.back.as_ref().map(|b| b.step));
        steps.first().map(|(s, _)| s.index).into_iter().chain(returns).collect()
    }
}

/// Contexts rebuilt from a run's snapshot deltas in one pass: only the snapshots asked for are
/// kept, and the last taker of one gets it without a copy.
#[derive(Default)]
struct Contexts {
    uses: HashMap<i64, usize>,
    built: HashMap<i64, Vec<ItemId>>,
}

impl Contexts {
    fn want(&mut self, seq: i64) {
        *self.uses.entry(seq).or_default() += 1;
    }

    fn build(&mut self, snaps: Vec<(i64, i64, Vec<u8>)>) -> Result<(), StoreError> {
        let mut cur: Vec<ItemId> = vec![];
        for (seq, prefix, bytes) in snaps {
            apply(&mut cur, seq, prefix, &bytes)?;
            if self.uses.contains_key(&seq) {
                self.built.insert(seq, cur.clone());
            }
        }
        Ok(())
    }

    fn take(&mut self, seq: i64) -> Vec<ItemId> {
        let Some(left) = self.uses.get_mut(&seq) else { return vec![] };
        *left = left.saturating_sub(1);
        if *left == 0 {
            self.built.remove(&seq).unwrap_or_default()
        } else {
            self.built.get(&seq).cloned().unwrap_or_default()
        }
    }
}

/// A transfer read without its two contexts yet, and the snapshots that hold them.
struct Pending {
    transfer: Transfer,
    sender: i64,
    receiver: i64,
}

impl Reader<'_> {
    /// A whole run as a native trace.
    pub(crate) async fn load_trace(&mut self, run: &str) -> Result<Trace, StoreError> {
        self.load_trace_parts(run, TraceParts::WHOLE).await
    }

    /// A run as a native trace with only the parts asked for. A fixed number of queries whatever
    /// the run's size: its steps, its transfers, their fact checks, one pass over its snapshots.
    pub(crate) async fn load_trace_parts(&mut self, run: &str, parts: TraceParts) -> Result<Trace, StoreError> {
        let s = self.run_summary(run).await?;
        let definition = self.run_topology(run).await.ok();
        let rows = sqlx::query(steps_query(parts)).bind(run.to_owned()).fetch_all(&mut *self.c).await?;
        let rows: Vec<(Step, i64)> = rows.iter().map(Reader::step_from_row).collect::<Result<_, _>>()?;
        let pending = self.pending_transfers(run, s.transfers).await?;
        let transfers: Vec<Transfer> = pending.iter().map(|p| p.transfer.clone()).collect();
        let wanted = wanted_steps(parts, &rows, &transfers);
        let mut cx = Contexts::default();
        for (step, snap) in &rows {
            if wanted.contains(&step.index) {
                cx.want(*snap);
            }
        }
        for p in &pending {
            cx.want(p.sender);
            cx.want(p.receiver);
        }
        let snaps: Vec<(i64, i64, Vec<u8>)> =
            sqlx::query_as("SELECT seq, prefix_len, ids FROM snapshots WHERE run_id = $1 ORDER BY seq")
                .bind(run.to_owned())
                .fetch_all(&mut *self.c)
                .await?;
        cx.build(snaps)?;
        let steps = rows
            .into_iter()
            .map(|(mut step, snap)| {
                if wanted.contains(&step.index) {
                    step.context = cx.take(snap);
                }
                step
            })
            .collect();
        let transfers = pending
            .into_iter()
            .map(|mut p| {
                p.transfer.sender = cx.take(p.sender);
                p.transfer.receiver = cx.take(p.receiver);
                p.transfer
            })
            .collect();
        let items = self.run_items(run).await?;
        let fork = sqlx::query_scalar::<_, Option<String>>("SELECT fork FROM runs WHERE id = $1")
            .bind(run.to_owned())
            .fetch_one(&mut *self.c)
            .await?
            .and_then(|f| serde_json::from_str(&f).ok());
        Ok(Trace {
            version: TRACE_VERSION,
            run_id: Some(s.id.clone()),
            topology: s.topology,
            scenario: s.scenario,
            definition,
            providers: s.providers,
            started_at: s.started_at,
            ended_at: s.ended_at.unwrap_or_default(),
            steps,
            transfers,
            outcome: Outcome {
                status: s.outcome.status,
                reason: s.outcome.reason,
                owner: s.owner,
                final_output: s.final_output,
                guard: s.guard,
            },
            usage: Usage { input_tokens: s.input_tokens, output_tokens: s.output_tokens },
            items,
            source: s.source,
            mark: s.mark,
            fork,
        })
    }

    /// The run's `count` transfers and their fact checks in two queries; a missing one is damage.
    async fn pending_transfers(&mut self, run: &str, count: u32) -> Result<Vec<Pending>, StoreError> {
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {TRANSFER_COLS} FROM transfers WHERE run_id = $1 ORDER BY idx"
        )))
        .bind(run.to_owned())
        .fetch_all(&mut *self.c)
        .await?;
        let checks: Vec<(i64, String, String)> = sqlx::query_as(
            "SELECT transfer_idx, fact_id, status FROM fact_checks WHERE run_id = $1 ORDER BY transfer_idx, fact_id",
        )
        .bind(run.to_owned())
        .fetch_all(&mut *self.c)
        .await?;
        let mut facts: HashMap<i64, Vec<(String, String)>> = HashMap::new();
        for (idx, id, status) in checks {
            facts.entry(idx).or_default().push((id, status));
        }
        let mut out = Vec::with_capacity(rows.len());
        for (i, row) in rows.iter().enumerate() {
            let idx: i64 = row.try_get("idx")?;
            if idx != i as i64 {
                return Err(StoreError::Damaged(format!("run {run} has no transfer {i}")));
            }
            let checks = fact_checks(facts.remove(&idx).unwrap_or_default());
            let transfer = transfer_from_row(row, checks, vec![], vec![])?;
            out.push(Pending { transfer, sender: row.try_get("sender")?, receiver: row.try_get("receiver")? });
        }
        if out.len() != count as usize {
            return Err(StoreError::Damaged(format!("run {run} has no transfer {}", out.len())));
        }
        Ok(out)
    }

    /// Every item the run references, in the order it met them.
    async fn run_items(&mut self, run: &str) -> Result<ItemStore, StoreError> {
        let rows: Vec<(String,)> = sqlx::query_as(
            "SELECT i.body FROM run_items r JOIN items i ON i.id = r.item_id WHERE r.run_id = $1 ORDER BY r.ord",
        )
        .bind(run.to_owned())
        .fetch_all(&mut *self.c)
        .await?;
        let mut items = ItemStore::default();
        for (body,) in rows {
            let item: Item = serde_json::from_str(&body).map_err(|e| StoreError::Damaged(format!("item: {e}")))?;
            items.add(item);
        }
        Ok(items)
    }
}

//! Reading runs back: the queries the debugger steps with (context at a step, the diff at a
//! transfer, next/previous transfer, where a fact was lost), run lists, deletion (whole traces: `load.rs`).

use super::snapshot::{FULL_EVERY, decode_ids, rebuild};
use super::{Store, StoreError};
use crate::context::{FactStatus, Item, ItemId};
use crate::providers::Usage;
use crate::topology::{EdgeKind, Topology};
use crate::trace::{
    FactCheck, OutcomeStatus, Step, StepBrief, StepColumns, StepKind, Timing, Trace, Transfer, TransferBrief,
};
use serde::{Deserialize, Serialize};
use sqlx::Row;
use sqlx::any::AnyRow;
use std::collections::HashMap;

/// How a run ended, in brief.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct OutcomeBrief {
    pub status: OutcomeStatus,
    pub reason: String,
}

/// One run in a list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct RunSummary {
    pub id: String,
    pub topology: String,
    pub scenario: String,
    pub started_at: String,
    pub ended_at: Option<String>,
    pub outcome: OutcomeBrief,
    pub owner: String,
    pub final_output: Option<String>,
    pub guard: Option<String>,
    #[ts(type = "number")]
    pub input_tokens: u64,
    #[ts(type = "number")]
    pub output_tokens: u64,
    pub steps: u32,
    pub transfers: u32,
    pub lost_facts: u32,
    /// Provider per agent id.
    pub providers: std::collections::BTreeMap<String, String>,
    /// For imported traces: the source format and file.
    pub source: Option<serde_json::Value>,
    /// Baton's own run, an imported trace, or a captured one.
    pub origin: super::RunOrigin,
    /// For a fork: the run it was forked from.
    #[serde(default)]
    #[ts(optional = nullable)]
    pub parent: Option<String>,
    /// For a fork: the step of the parent it forked at.
    #[serde(default)]
    #[ts(optional = nullable)]
    pub forked_at: Option<u32>,
    /// For a fork: what it changed and where it left the recording.
    #[serde(default)]
    #[ts(optional = nullable)]
    pub fork: Option<crate::fork::ForkInfo>,
    /// A person's mark: good or bad, and why.
    #[serde(default)]
    #[ts(optional = nullable)]
    pub mark: Option<crate::trace::RunMark>,
    /// How the ending was judged when the run was saved (its expect:, its structure), apart
    /// from how it ended (the outcome): a run can complete badly.
    #[serde(default)]
    #[ts(optional = nullable)]
    pub ending: Option<crate::suspects::Ending>,
}

/// A run's timeline without contexts: what the debugger loads when it opens a run (its steps by
/// column: a long run's are a few flat arrays).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct RunOverview {
    pub summary: RunSummary,
    pub topology: Option<Topology>,
    pub steps: StepColumns,
    pub transfers: Vec<TransferBrief>,
}

/// The end of a run still growing: its summary and topology, and the step and transfer briefs
/// from `from_step` and `from_transfer` on (a debugger following the run appends them).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct RunTail {
    pub summary: RunSummary,
    pub topology: Option<Topology>,
    pub steps: StepColumns,
    pub transfers: Vec<TransferBrief>,
    pub from_step: u32,
    pub from_transfer: u32,
}

/// Everything the debugger shows at one step. A long context comes one window at a time: `context`
/// (and `step.context`, its ids) hold the items from `context_offset` on, of `context_total`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct StepView {
    pub step: Step,
    /// The context the acting agent sees, in order (the window asked for).
    pub context: Vec<Item>,
    /// Where the window starts in the whole context.
    pub context_offset: u32,
    /// How many items the whole context holds.
    pub context_total: u32,
    /// Items the step created.
    pub output: Vec<Item>,
    /// The transfer this step made, if any.
    pub transfer: Option<TransferView>,
    pub step_count: u32,
    pub prev_transfer: Option<u32>,
    pub next_transfer: Option<u32>,
}

/// A window of a step's context: `limit` items from `offset` on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct ItemWindow {
    pub offset: u32,
    pub limit: u32,
}

impl ItemWindow {
    /// The most items one window carries (a larger `limit` is cut to it).
    pub const MAX: u32 = 2000;
    /// What the debugger asks for first: enough to fill any screen, small enough to send at once.
    pub const FIRST: ItemWindow = ItemWindow { offset: 0, limit: 500 };

    /// The index range this window covers in a context of `total` items.
    fn range(self, total: usize) -> std::ops::Range<usize> {
        let from = (self.offset as usize).min(total);
        from..(from + self.limit.min(Self::MAX) as usize).min(total)
    }
}

/// One window of a step's context (the rest of a long context, as the list scrolls).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct ContextPage {
    pub step: u32,
    pub offset: u32,
    pub total: u32,
    pub items: Vec<Item>,
}

/// A transfer with every item its diff names (sources of transformed items included).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct TransferView {
    pub index: u32,
    pub transfer: Transfer,
    pub items: Vec<Item>,
}

fn status_of(s: &str) -> OutcomeStatus {
    serde_json::from_value(serde_json::Value::String(s.to_owned())).unwrap_or(OutcomeStatus::Interrupted)
}

pub(super) fn summary(row: &AnyRow) -> Result<RunSummary, StoreError> {
    let providers: String = row.try_get("providers")?;
    let source: Option<serde_json::Value> =
        row.try_get::<Option<String>, _>("source")?.and_then(|s| serde_json::from_str(&s).ok());
    Ok(RunSummary {
        id: row.try_get("id")?,
        topology: row.try_get("topology")?,
        scenario: row.try_get("scenario")?,
        started_at: row.try_get("started_at")?,
        ended_at: row.try_get("ended_at")?,
        outcome: OutcomeBrief {
            status: status_of(&row.try_get::<String, _>("status")?),
            reason: row.try_get("reason")?,
        },
        owner: row.try_get("owner")?,
        final_output: row.try_get("final_output")?,
        guard: row.try_get("guard")?,
        input_tokens: row.try_get::<i64, _>("input_tokens")? as u64,
        output_tokens: row.try_get::<i64, _>("output_tokens")? as u64,
        steps: row.try_get::<i64, _>("step_count")? as u32,
        transfers: row.try_get::<i64, _>("transfer_count")? as u32,
        lost_facts: row.try_get::<i64, _>("lost_facts")? as u32,
        providers: serde_json::from_str(&providers).unwrap_or_default(),
        origin: super::RunOrigin::of(source.as_ref()),
        source,
        parent: row.try_get("parent_run")?,
        forked_at: row.try_get::<Option<i64>, _>("fork_step")?.map(|n| n as u32),
        fork: row.try_get::<Option<String>, _>("fork")?.and_then(|f| serde_json::from_str(&f).ok()),
        mark: row.try_get::<Option<String>, _>("mark")?.and_then(|m| serde_json::from_str(&m).ok()),
        ending: row.try_get::<Option<String>, _>("ending")?.and_then(|m| serde_json::from_str(&m).ok()),
    })
}

/// The runs of one topology: `$1` its identity, `$2` its name (for runs saved without one).
pub(super) const OF_TOPOLOGY: &str = "(topology_id = $1 OR (topology_id IS NULL AND topology = $2))";

pub(super) const RUN_COLUMNS: &str = "id, topology, scenario, started_at, ended_at, status, reason, owner, final_output, guard, \
     input_tokens, output_tokens, step_count, transfer_count, lost_facts, providers, source, parent_run, fork_step, fork, mark, ending";

pub(super) fn ids(bytes: Vec<u8>) -> Result<Vec<ItemId>, StoreError> {
    decode_ids(&bytes)
}

/// The columns of a transfer row that [`transfer_from_row`] reads.
pub(super) const TRANSFER_COLS: &str =
    "idx, step, kind, from_agent, to_agent, edge, policy, sender, receiver, carried, transformed, dropped, added, back";

/// A transfer from its row, its fact checks and its two contexts (rebuilt by the caller from the
/// row's `sender` and `receiver` snapshot numbers).
pub(super) fn transfer_from_row(
    row: &AnyRow,
    facts: Vec<FactCheck>,
    sender: Vec<ItemId>,
    receiver: Vec<ItemId>,
) -> Result<Transfer, StoreError> {
    let kind: String = row.try_get("kind")?;
    Ok(Transfer {
        step: row.try_get::<i64, _>("step")? as u32,
        kind: if kind == "delegation" { EdgeKind::Delegation } else { EdgeKind::Handoff },
        from: row.try_get("from_agent")?,
        to: row.try_get("to_agent")?,
        edge: row.try_get("edge")?,
        policy: row.try_get("policy")?,
        sender,
        receiver,
        carried: ids(row.try_get("carried")?)?,
        transformed: ids(row.try_get("transformed")?)?,
        dropped: ids(row.try_get("dropped")?)?,
        added: ids(row.try_get("added")?)?,
        facts,
        back: row.try_get::<Option<String>, _>("back")?.and_then(|b| serde_json::from_str(&b).ok()),
    })
}

/// Fact checks from their stored (id, status) pairs.
pub(super) fn fact_checks(rows: Vec<(String, String)>) -> Vec<FactCheck> {
    rows.into_iter()
        .map(|(id, s)| FactCheck {
            id,
            status: serde_json::from_value(serde_json::Value::String(s)).unwrap_or(FactStatus::Absent),
        })
        .collect()
}

/// Reads on one connection inside one transaction: every query of a read sees the same
/// snapshot, so a run deleted (or still being written) meanwhile is never returned torn.
pub(crate) struct Reader<'c> {
    pub(crate) c: &'c mut sqlx::AnyConnection,
    pub(crate) backend: super::Backend,
}

/// Each read of [`Reader`] as a `Store` method, in its own read transaction.
macro_rules! in_read_tx {
    ($( $(#[doc = $doc:literal])* $name:ident ( $($arg:ident : $ty:ty),* ) -> $out:ty; )*) => {
        impl Store {
            $(
                $(#[doc = $doc])*
                pub async fn $name(&self, $($arg: $ty),*) -> Result<$out, StoreError> {
                    let read = async {
                        let mut tx = self.pool().begin().await?;
                        let r = Reader { c: &mut tx, backend: self.backend }.$name($($arg),*).await?;
                        tx.commit().await?;
                        Ok::<_, StoreError>(r)
                    };
                    read.await.map_err(|e| self.locate(e))
                }
            )*
        }
    };
}

in_read_tx! {
    /// Runs, newest first; only those of one topology when `topology` is given.
    list_runs(topology: Option<&str>) -> Vec<RunSummary>;
    /// One page of runs, newest first.
    list_runs_page(topology: Option<&str>, limit: u32, offset: u32) -> Vec<RunSummary>;
    /// One page of one topology's runs, by its identity (runs saved before it had one: by name).
    list_runs_of(id: &str, name: &str, limit: u32, offset: u32) -> Vec<RunSummary>;
    run_summary(run: &str) -> RunSummary;
    /// The topology version a run ran.
    run_topology(run: &str) -> Topology;
    /// Items by id, in the order asked.
    items(wanted: &[ItemId]) -> Vec<Item>;
    /// A transfer with every item its diff names.
    transfer_view(run: &str, idx: u32) -> TransferView;
    /// Everything the debugger shows at step `k` of a run.
    step_view(run: &str, k: u32) -> StepView;
    /// Step `k` with only a window of its context.
    step_view_window(run: &str, k: u32, window: Option<ItemWindow>) -> StepView;
    /// One window of step `k`'s context.
    step_context(run: &str, k: u32, window: ItemWindow) -> ContextPage;
    /// The steps of the nearest transfers before and after step `k`.
    neighbour_transfers(run: &str, k: u32) -> (Option<u32>, Option<u32>);
    /// A run's summary, topology, step and transfer briefs (no items).
    run_overview(run: &str) -> RunOverview;
    /// The same, from step `from_step` and transfer `from_transfer` on (a run being followed).
    run_tail(run: &str, from_step: u32, from_transfer: u32) -> RunTail;
    /// Steps of the transfers where `fact` was lost.
    fact_lost_steps(run: &str, fact: &str) -> Vec<u32>;
    /// A whole run as a native trace.
    load_trace(run: &str) -> Trace;
    /// A run as a native trace with only the parts asked for (see [`TraceParts`]).
    load_trace_parts(run: &str, parts: super::TraceParts) -> Trace;
    /// Runs matching a query, newest first, one page at a time (the Runs home).
    search_runs(q: &super::RunQuery) -> super::RunPage;
    /// The first run imported from a source with this content hash.
    run_with_source_hash(hash: &str) -> Option<String>;
}

impl Reader<'_> {
    /// Runs, newest first; only those of one topology when `topology` is given.
    pub async fn list_runs(&mut self, topology: Option<&str>) -> Result<Vec<RunSummary>, StoreError> {
        self.list_runs_page(topology, u32::MAX, 0).await
    }

    /// One page of [`Self::list_runs`]: at most `limit` runs after skipping `offset`.
    pub async fn list_runs_page(
        &mut self,
        topology: Option<&str>,
        limit: u32,
        offset: u32,
    ) -> Result<Vec<RunSummary>, StoreError> {
        let (limit, offset) = (i64::from(limit), i64::from(offset));
        let rows = match topology {
            Some(t) => {
                sqlx::query(sqlx::AssertSqlSafe(format!(
                    "SELECT {RUN_COLUMNS} FROM runs WHERE topology = $1 ORDER BY started_at DESC, id DESC LIMIT $2 OFFSET $3"
                )))
                .bind(t.to_owned())
                .bind(limit)
                .bind(offset)
                .fetch_all(&mut *self.c)
                .await?
            }
            None => {
                sqlx::query(sqlx::AssertSqlSafe(format!(
                    "SELECT {RUN_COLUMNS} FROM runs ORDER BY started_at DESC, id DESC LIMIT $1 OFFSET $2"
                )))
                .bind(limit)
                .bind(offset)
                .fetch_all(&mut *self.c)
                .await?
            }
        };
        rows.iter().map(summary).collect()
    }

    /// One page of the runs of the topology whose identity is `id`: runs saved with that identity
    /// whatever its name was then, and runs saved before topologies had identities under `name`.
    pub async fn list_runs_of(
        &mut self,
        id: &str,
        name: &str,
        limit: u32,
        offset: u32,
    ) -> Result<Vec<RunSummary>, StoreError> {
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {RUN_COLUMNS} FROM runs WHERE {OF_TOPOLOGY} ORDER BY started_at DESC, id DESC LIMIT $3 OFFSET $4"
        )))
        .bind(id.to_owned())
        .bind(name.to_owned())
        .bind(i64::from(limit))
        .bind(i64::from(offset))
        .fetch_all(&mut *self.c)
        .await?;
        rows.iter().map(summary).collect()
    }

    pub async fn run_summary(&mut self, run: &str) -> Result<RunSummary, StoreError> {
        let row = sqlx::query(sqlx::AssertSqlSafe(format!("SELECT {RUN_COLUMNS} FROM runs WHERE id = $1")))
            .bind(run.to_owned())
            .fetch_optional(&mut *self.c)
            .await?
            .ok_or_else(|| StoreError::NoRun(run.into()))?;
        summary(&row)
    }

    /// The topology version a run ran.
    pub async fn run_topology(&mut self, run: &str) -> Result<Topology, StoreError> {
        let body: Option<String> = sqlx::query_scalar(
            "SELECT t.body FROM runs r JOIN topologies t ON t.hash = r.topology_hash WHERE r.id = $1",
        )
        .bind(run.to_owned())
        .fetch_optional(&mut *self.c)
        .await?;
        let body = body.ok_or_else(|| StoreError::NoRun(run.into()))?;
        serde_json::from_str(&body).map_err(|e| StoreError::Damaged(format!("topology of run {run}: {e}")))
    }

    /// Items by id, in the order asked (unknown ids are an error: the store is damaged).
    pub async fn items(&mut self, wanted: &[ItemId]) -> Result<Vec<Item>, StoreError> {
        let mut found: HashMap<ItemId, Item> = HashMap::with_capacity(wanted.len());
        let mut unique: Vec<ItemId> = wanted.to_vec();
        unique.sort();
        unique.dedup();
        for chunk in unique.chunks(500) {
            let params: Vec<String> = (1..=chunk.len()).map(|i| format!("${i}")).collect();
            let sql = format!("SELECT body FROM items WHERE id IN ({})", params.join(", "));
            let mut q = sqlx::query(sqlx::AssertSqlSafe(sql));
            for id in chunk {
                q = q.bind(id.0.to_vec());
            }
            for row in q.fetch_all(&mut *self.c).await? {
                let body: String = row.try_get(0)?;
                let item: Item = serde_json::from_str(&body).map_err(|e| StoreError::Damaged(format!("item: {e}")))?;
                found.insert(item.id, item);
            }
        }
        wanted
            .iter()
            .map(|id| found.get(id).cloned().ok_or_else(|| StoreError::Damaged(format!("item {id} is missing"))))
            .collect()
    }

    async fn snapshot_ids(&mut self, run: &str, seq: i64) -> Result<Vec<ItemId>, StoreError> {
        let rows: Vec<(i64, i64, Vec<u8>)> = sqlx::query_as(
            "SELECT seq, prefix_len, ids FROM snapshots WHERE run_id = $1 AND seq >= $2 AND seq <= $3 ORDER BY seq",
        )
        .bind(run.to_owned())
        .bind(seq - seq % FULL_EVERY)
        .bind(seq)
        .fetch_all(&mut *self.c)
        .await?;
        rebuild(&rows, seq)
    }

    /// A run's step briefs, fetched as one JSON array the database builds: a result of 100,000
    /// rows costs the driver (row by row) far more than the query, one text value almost nothing.
    /// Only what a brief shows: output ids, snapshots and provider exchanges (which may hold whole
    /// request bodies) stay in the store until a step is opened.
    async fn step_briefs(&mut self, run: &str, from: u32) -> Result<StepColumns, StoreError> {
        const COLS: &str = "idx, kind, agent, owner, depth, transfer_idx, detail, input_tokens, output_tokens, \
                            context_len, start_us, duration_us";
        let sql = match self.backend {
            super::Backend::Sqlite => format!(
                "SELECT json_group_array(json_array({COLS})) FROM (SELECT {COLS} FROM steps WHERE run_id = $1 AND idx >= $2 ORDER BY idx)"
            ),
            super::Backend::Postgres => {
                format!(
                    "SELECT json_agg(json_build_array({COLS}) ORDER BY idx)::text FROM steps WHERE run_id = $1 AND idx >= $2"
                )
            }
        };
        let json: Option<String> = sqlx::query_scalar(sqlx::AssertSqlSafe(sql))
            .bind(run.to_owned())
            .bind(i64::from(from))
            .fetch_one(&mut *self.c)
            .await?;
        type Row = (
            u32,
            String,
            String,
            String,
            u32,
            Option<u32>,
            String,
            Option<u64>,
            Option<u64>,
            Option<u32>,
            Option<i64>,
            Option<i64>,
        );
        let rows: Vec<Row> = match json {
            Some(j) => serde_json::from_str(&j).map_err(|e| StoreError::Damaged(format!("step briefs: {e}")))?,
            None => vec![],
        };
        let mut steps = rows
            .into_iter()
            .map(|(index, kind, agent, owner, depth, transfer, detail, input, output, context_len, start, duration)| {
                let timing = start.zip(duration).map(|(s, d)| Timing::from_micros(s, d));
                Ok(StepBrief {
                    index,
                    kind: StepKind::from_name(&kind)
                        .ok_or_else(|| StoreError::Damaged(format!("unknown step kind {kind}")))?,
                    agent,
                    owner,
                    depth,
                    transfer,
                    detail,
                    tokens: input.map(|i| i + output.unwrap_or(0)),
                    context_len,
                    start_ms: timing.map(|t| t.start_ms),
                    duration_ms: timing.map(|t| t.duration_ms),
                })
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
        steps.sort_by_key(|s| s.index);
        // The UI numbers steps by position from the first: a gap would show one step as another.
        if let Some(gap) = steps.windows(2).find(|w| w[1].index != w[0].index + 1) {
            return Err(StoreError::Damaged(format!(
                "run {run} has no step between {} and {}: its steps table lost rows (restore the store from a backup)",
                gap[0].index, gap[1].index
            )));
        }
        Ok(StepColumns::from_briefs(steps))
    }

    pub(super) fn step_from_row(row: &AnyRow) -> Result<(Step, i64), StoreError> {
        let kind: String = row.try_get("kind")?;
        let input: Option<i64> = row.try_get("input_tokens")?;
        let output_tokens: Option<i64> = row.try_get("output_tokens")?;
        let exchange: Option<String> = row.try_get("exchange")?;
        let step = Step {
            index: row.try_get::<i64, _>("idx")? as u32,
            kind: serde_json::from_value(serde_json::Value::String(kind.clone()))
                .map_err(|_| StoreError::Damaged(format!("unknown step kind {kind}")))?,
            agent: row.try_get("agent")?,
            owner: row.try_get("owner")?,
            depth: row.try_get::<i64, _>("depth")? as u32,
            context: vec![],
            output: ids(row.try_get("output")?)?,
            transfer: row.try_get::<Option<i64>, _>("transfer_idx")?.map(|t| t as u32),
            detail: row.try_get("detail")?,
            usage: input.map(|i| Usage { input_tokens: i as u64, output_tokens: output_tokens.unwrap_or(0) as u64 }),
            exchange: exchange.and_then(|e| serde_json::from_str(&e).ok()),
            timing: match (row.try_get::<Option<i64>, _>("start_us")?, row.try_get::<Option<i64>, _>("duration_us")?) {
                (Some(start), Some(duration)) => Some(Timing::from_micros(start, duration)),
                _ => None,
            },
        };
        Ok((step, row.try_get("snapshot")?))
    }

    pub(super) async fn transfer_row(&mut self, run: &str, idx: u32) -> Result<Transfer, StoreError> {
        let row = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {TRANSFER_COLS} FROM transfers WHERE run_id = $1 AND idx = $2"
        )))
        .bind(run.to_owned())
        .bind(idx as i64)
        .fetch_optional(&mut *self.c)
        .await?
        .ok_or_else(|| StoreError::Damaged(format!("run {run} has no transfer {idx}")))?;
        let facts: Vec<(String, String)> = sqlx::query_as(
            "SELECT fact_id, status FROM fact_checks WHERE run_id = $1 AND transfer_idx = $2 ORDER BY fact_id",
        )
        .bind(run.to_owned())
        .bind(idx as i64)
        .fetch_all(&mut *self.c)
        .await?;
        let sender = self.snapshot_ids(run, row.try_get("sender")?).await?;
        let receiver = self.snapshot_ids(run, row.try_get("receiver")?).await?;
        transfer_from_row(&row, fact_checks(facts), sender, receiver)
    }

    /// A transfer with every item its diff names.
    pub async fn transfer_view(&mut self, run: &str, idx: u32) -> Result<TransferView, StoreError> {
        let transfer = self.transfer_row(run, idx).await?;
        let mut wanted: Vec<ItemId> = transfer.sender.iter().chain(&transfer.receiver).copied().collect();
        let mut items = self.items(&wanted).await?;
        // Sources of transformed items may lie outside both contexts (e.g. a fact's item).
        let extra: Vec<ItemId> =
            items.iter().flat_map(|i| i.derived_from.iter().copied()).filter(|d| !wanted.contains(d)).collect();
        if !extra.is_empty() {
            items.extend(self.items(&extra).await?);
            wanted.extend(extra);
        }
        let mut seen = std::collections::HashSet::new();
        items.retain(|i| seen.insert(i.id));
        Ok(TransferView { index: idx, transfer, items })
    }

    /// Everything the debugger shows at step `k` of a run, its whole context included.
    pub async fn step_view(&mut self, run: &str, k: u32) -> Result<StepView, StoreError> {
        self.step_view_window(run, k, None).await
    }

    /// Step `k` with only a window of its context (the whole context when `window` is `None`).
    pub async fn step_view_window(
        &mut self,
        run: &str,
        k: u32,
        window: Option<ItemWindow>,
    ) -> Result<StepView, StoreError> {
        let (count, mut step, snap) = self.step_row(run, k).await?;
        let ids = self.snapshot_ids(run, snap).await?;
        let context_total = ids.len() as u32;
        let range = window.map_or(0..ids.len(), |w| w.range(ids.len()));
        let context_offset = range.start as u32;
        step.context = ids[range].to_vec();
        // One round trip for the context and the output.
        let mut all = self.items(&[step.context.as_slice(), step.output.as_slice()].concat()).await?;
        let output = all.split_off(step.context.len());
        let context = all;
        let transfer = match step.transfer {
            Some(t) => Some(self.transfer_view(run, t).await?),
            None => None,
        };
        let (prev_transfer, next_transfer) = self.neighbour_transfers(run, k).await?;
        Ok(StepView {
            step,
            context,
            context_offset,
            context_total,
            output,
            transfer,
            step_count: count,
            prev_transfer,
            next_transfer,
        })
    }

    /// One window of step `k`'s context.
    pub async fn step_context(&mut self, run: &str, k: u32, window: ItemWindow) -> Result<ContextPage, StoreError> {
        let (_, _, snap) = self.step_row(run, k).await?;
        let ids = self.snapshot_ids(run, snap).await?;
        let range = window.range(ids.len());
        let offset = range.start as u32;
        let items = self.items(&ids[range]).await?;
        Ok(ContextPage { step: k, offset, total: ids.len() as u32, items })
    }

    /// The run's step count, step `k` and its context snapshot's sequence number.
    async fn step_row(&mut self, run: &str, k: u32) -> Result<(u32, Step, i64), StoreError> {
        let count: Option<i64> = sqlx::query_scalar("SELECT step_count FROM runs WHERE id = $1")
            .bind(run.to_owned())
            .fetch_optional(&mut *self.c)
            .await?;
        let count = count.ok_or_else(|| StoreError::NoRun(run.into()))? as u32;
        let row = sqlx::query("SELECT * FROM steps WHERE run_id = $1 AND idx = $2")
            .bind(run.to_owned())
            .bind(k as i64)
            .fetch_optional(&mut *self.c)
            .await?
            .ok_or(StoreError::NoStep { run: run.into(), step: k, count })?;
        let (step, snap) = Reader::step_from_row(&row)?;
        Ok((count, step, snap))
    }

    /// The steps of the nearest transfers before and after step `k`.
    pub async fn neighbour_transfers(&mut self, run: &str, k: u32) -> Result<(Option<u32>, Option<u32>), StoreError> {
        let (prev, next): (Option<i64>, Option<i64>) = sqlx::query_as(
            "SELECT (SELECT MAX(step) FROM transfers WHERE run_id = $1 AND step < $2), \
                    (SELECT MIN(step) FROM transfers WHERE run_id = $3 AND step > $4)",
        )
        .bind(run.to_owned())
        .bind(k as i64)
        .bind(run.to_owned())
        .bind(k as i64)
        .fetch_one(&mut *self.c)
        .await?;
        Ok((prev.map(|s| s as u32), next.map(|s| s as u32)))
    }

    /// The first run imported from a source with this content hash, if any.
    pub async fn run_with_source_hash(&mut self, hash: &str) -> Result<Option<String>, StoreError> {
        let id: Option<String> =
            sqlx::query_scalar("SELECT id FROM runs WHERE source LIKE $1 ORDER BY started_at LIMIT 1")
                .bind(format!("%\"hash\":\"{hash}\"%"))
                .fetch_optional(&mut *self.c)
                .await?;
        Ok(id)
    }

    /// A run's summary, topology, step and transfer briefs (no items).
    pub async fn run_overview(&mut self, run: &str) -> Result<RunOverview, StoreError> {
        let RunTail { summary, topology, steps, transfers, .. } = self.run_tail(run, 0, 0).await?;
        Ok(RunOverview { summary, topology, steps, transfers })
    }

    /// A run's summary and topology with the step briefs from `from_step` on and the transfer
    /// briefs from `from_transfer` on: what a debugger following a running run reads each time,
    /// instead of the whole overview again.
    pub async fn run_tail(&mut self, run: &str, from_step: u32, from_transfer: u32) -> Result<RunTail, StoreError> {
        let summary = self.run_summary(run).await?;
        let topology = self.run_topology(run).await.ok();
        let steps = self.step_briefs(run, from_step).await?;
        let rows = sqlx::query(
            "SELECT idx, step, kind, from_agent, to_agent, edge, policy, carried, transformed, dropped, added \
             FROM transfers WHERE run_id = $1 AND idx >= $2 ORDER BY idx",
        )
        .bind(run.to_owned())
        .bind(i64::from(from_transfer))
        .fetch_all(&mut *self.c)
        .await?;
        let facts: Vec<(i64, String, String)> = sqlx::query_as(
            "SELECT transfer_idx, fact_id, status FROM fact_checks WHERE run_id = $1 AND transfer_idx >= $2 \
             ORDER BY transfer_idx, fact_id",
        )
        .bind(run.to_owned())
        .bind(i64::from(from_transfer))
        .fetch_all(&mut *self.c)
        .await?;
        // Each transfer's fact checks, grouped once (not a scan of every check per transfer).
        let mut facts_of: HashMap<i64, Vec<FactCheck>> = HashMap::new();
        for (t, id, status) in facts {
            let status = serde_json::from_value(serde_json::Value::String(status)).unwrap_or(FactStatus::Absent);
            facts_of.entry(t).or_default().push(FactCheck { id, status });
        }
        let mut transfers = Vec::with_capacity(rows.len());
        for row in &rows {
            let idx: i64 = row.try_get("idx")?;
            let len = |c: &str| -> Result<u32, StoreError> { Ok((row.try_get::<Vec<u8>, _>(c)?.len() / 16) as u32) };
            let kind: String = row.try_get("kind")?;
            transfers.push(TransferBrief {
                index: idx as u32,
                step: row.try_get::<i64, _>("step")? as u32,
                kind: if kind == "delegation" { EdgeKind::Delegation } else { EdgeKind::Handoff },
                from: row.try_get("from_agent")?,
                to: row.try_get("to_agent")?,
                edge: row.try_get("edge")?,
                policy: row.try_get("policy")?,
                carried: len("carried")?,
                transformed: len("transformed")?,
                dropped: len("dropped")?,
                added: len("added")?,
                facts: facts_of.remove(&idx).unwrap_or_default(),
            });
        }
        Ok(RunTail { summary, topology, steps, transfers, from_step, from_transfer })
    }

    /// Steps of the transfers where `fact` was lost.
    pub async fn fact_lost_steps(&mut self, run: &str, fact: &str) -> Result<Vec<u32>, StoreError> {
        let steps: Vec<i64> = sqlx::query_scalar(
            "SELECT step FROM fact_checks WHERE run_id = $1 AND fact_id = $2 AND status = 'lost' ORDER BY step",
        )
        .bind(run.to_owned())
        .bind(fact.to_owned())
        .fetch_all(&mut *self.c)
        .await?;
        Ok(steps.into_iter().map(|s| s as u32).collect())
    }
}

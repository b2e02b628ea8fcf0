//! An import's rows, gathered over many runs and written as multi-row INSERTs: each statement
//! is a round trip to the database's worker, so an import sends a few large ones instead of
//! one per row (what the recorder of a live run does, event by event).

use super::snapshot::{Encoder, encode_ids};
use super::{Store, hostname};
use crate::trace::{OutcomeStatus, Trace};
use sqlx::{Any, Transaction};
use std::collections::HashSet;

/// Parameters bound by one statement: below SQLite's limit (32,766) and PostgreSQL's (65,535).
const MAX_PARAMS: usize = 16_000;
/// Rows gathered before they are written (bounds an import's memory, whatever its size).
const FLUSH_ROWS: usize = 2_000;
/// Item ids remembered as written in this import (16 bytes each), to skip repeats; beyond it the
/// database's `ON CONFLICT` does the same work.
const MAX_SEEN_ITEMS: usize = 1 << 20;

/// One bound value.
enum Val {
    Int(i64),
    OptInt(Option<i64>),
    Text(String),
    OptText(Option<String>),
    Blob(Vec<u8>),
}

/// The rows waiting for one table.
struct Table {
    head: &'static str,
    cols: usize,
    tail: &'static str,
    vals: Vec<Val>,
}

impl Table {
    const fn new(head: &'static str, cols: usize, tail: &'static str) -> Table {
        Table { head, cols, tail, vals: Vec::new() }
    }

    fn push<const N: usize>(&mut self, row: [Val; N]) {
        debug_assert_eq!(N, self.cols);
        self.vals.extend(row);
    }

    fn rows(&self) -> usize {
        self.vals.len() / self.cols
    }

    /// SQLite gets anonymous `?` placeholders: it looks each numbered one up by name in a list,
    /// which makes binding a large statement quadratic in its parameters.
    async fn flush(&mut self, tx: &mut Transaction<'static, Any>, numbered: bool) -> Result<(), sqlx::Error> {
        let per_statement = MAX_PARAMS / self.cols;
        let vals = std::mem::take(&mut self.vals);
        let mut vals = vals.into_iter().peekable();
        while vals.peek().is_some() {
            let chunk: Vec<Val> = vals.by_ref().take(per_statement * self.cols).collect();
            let rows = chunk.len() / self.cols;
            let mut sql = String::with_capacity(self.head.len() + self.tail.len() + rows * self.cols * 6);
            sql.push_str(self.head);
            sql.push_str(" VALUES ");
            let mut n = 0;
            for r in 0..rows {
                sql.push_str(if r == 0 { "(" } else { ", (" });
                for c in 0..self.cols {
                    n += 1;
                    if c > 0 {
                        sql.push_str(", ");
                    }
                    if numbered {
                        sql.push('$');
                        sql.push_str(&n.to_string());
                    } else {
                        sql.push('?');
                    }
                }
                sql.push(')');
            }
            sql.push_str(self.tail);
            let mut q = sqlx::query(sqlx::AssertSqlSafe(sql));
            for v in chunk {
                q = match v {
                    Val::Int(i) => q.bind(i),
                    Val::OptInt(i) => q.bind(i),
                    Val::Text(s) => q.bind(s),
                    Val::OptText(s) => q.bind(s),
                    Val::Blob(b) => q.bind(b),
                };
            }
            q.execute(&mut **tx).await?;
        }
        Ok(())
    }
}

/// The rows of the runs added to an import and not yet written.
pub(crate) struct Rows {
    topologies: Table,
    runs: Table,
    items: Table,
    run_items: Table,
    snapshots: Table,
    steps: Table,
    transfers: Table,
    fact_checks: Table,
    seen_topologies: HashSet<String>,
    seen_items: HashSet<[u8; 16]>,
    host: String,
}

impl Rows {
    pub(crate) fn new() -> Rows {
        Rows {
            topologies: Table::new(
                "INSERT INTO topologies (hash, name, body, created_at)",
                4,
                " ON CONFLICT (hash) DO NOTHING",
            ),
            runs: Table::new(
                "INSERT INTO runs (id, topology_hash, topology, scenario, providers, started_at, ended_at, status, \
                 reason, owner, final_output, guard, input_tokens, output_tokens, step_count, transfer_count, \
                 lost_facts, pid, host, source, parent_run, fork_step, fork, ending, topology_id)",
                25,
                "",
            ),
            items: Table::new("INSERT INTO items (id, body)", 2, " ON CONFLICT (id) DO NOTHING"),
            run_items: Table::new(
                "INSERT INTO run_items (run_id, item_id, ord)",
                3,
                " ON CONFLICT (run_id, item_id) DO NOTHING",
            ),
            snapshots: Table::new("INSERT INTO snapshots (run_id, seq, prefix_len, ids)", 4, ""),
            steps: Table::new(
                "INSERT INTO steps (run_id, idx, kind, agent, owner, depth, snapshot, output, transfer_idx, detail, \
                 input_tokens, output_tokens, exchange, context_len, start_us, duration_us)",
                16,
                "",
            ),
            transfers: Table::new(
                "INSERT INTO transfers (run_id, idx, step, kind, from_agent, to_agent, edge, policy, sender, receiver, \
                 carried, transformed, dropped, added, back)",
                15,
                "",
            ),
            fact_checks: Table::new("INSERT INTO fact_checks (run_id, transfer_idx, step, fact_id, status)", 5, ""),
            seen_topologies: HashSet::new(),
            seen_items: HashSet::new(),
            host: hostname(),
        }
    }

    /// The rows of one finished run, as the recorder would write them event by event.
    /// `live`: a run shown while its trace still arrives keeps the status `running` (a file's
    /// trace that says running was interrupted).
    pub(crate) fn add(&mut self, trace: &Trace, run_id: &str, topology: (&str, &str, String), live: bool) {
        let (topology_hash, topology_name, body) = topology;
        if self.seen_topologies.insert(topology_hash.to_owned()) {
            self.topologies.push([
                Val::Text(topology_hash.to_owned()),
                Val::Text(topology_name.to_owned()),
                Val::Text(body),
                Val::Text(humantime::format_rfc3339_micros(std::time::SystemTime::now()).to_string()),
            ]);
        }
        let run = || Val::Text(run_id.to_owned());
        for (ord, item) in trace.items.iter().enumerate() {
            if self.seen_items.len() >= MAX_SEEN_ITEMS {
                self.seen_items.clear();
            }
            if self.seen_items.insert(item.id.0) {
                self.items.push([
                    Val::Blob(item.id.0.to_vec()),
                    Val::Text(serde_json::to_string(item).expect("items serialize")),
                ]);
            }
            self.run_items.push([run(), Val::Blob(item.id.0.to_vec()), Val::Int(ord as i64)]);
        }
        let mut enc = Encoder::default();
        let mut snapshot = |ids: &[crate::context::ItemId], rows: &mut Table| {
            let (seq, row) = enc.push(ids);
            if let Some((seq, prefix, bytes)) = row {
                rows.push([run(), Val::Int(seq), Val::Int(prefix), Val::Blob(bytes)]);
            }
            seq
        };
        let (mut transfers, mut lost) = (0i64, 0i64);
        for s in &trace.steps {
            if let Some(t) = s.transfer.and_then(|i| trace.transfers.get(i as usize)) {
                let sender = snapshot(&t.sender, &mut self.snapshots);
                let receiver = snapshot(&t.receiver, &mut self.snapshots);
                self.transfers.push([
                    run(),
                    Val::Int(transfers),
                    Val::Int(t.step as i64),
                    Val::Text(t.kind.as_str().to_owned()),
                    Val::Text(t.from.clone()),
                    Val::Text(t.to.clone()),
                    Val::Text(t.edge.clone()),
                    Val::Text(t.policy.clone()),
                    Val::Int(sender),
                    Val::Int(receiver),
                    Val::Blob(encode_ids(&t.carried)),
                    Val::Blob(encode_ids(&t.transformed)),
                    Val::Blob(encode_ids(&t.dropped)),
                    Val::Blob(encode_ids(&t.added)),
                    Val::OptText(t.back.as_ref().map(|b| serde_json::to_string(b).expect("serializes"))),
                ]);
                for f in &t.facts {
                    if f.status == crate::context::FactStatus::Lost {
                        lost += 1;
                    }
                    self.fact_checks.push([
                        run(),
                        Val::Int(transfers),
                        Val::Int(t.step as i64),
                        Val::Text(f.id.clone()),
                        Val::Text(f.status.as_str().to_owned()),
                    ]);
                }
                transfers += 1;
            }
            let snap = snapshot(&s.context, &mut self.snapshots);
            self.steps.push([
                run(),
                Val::Int(s.index as i64),
                Val::Text(s.kind.as_str().to_owned()),
                Val::Text(s.agent.clone()),
                Val::Text(s.owner.clone()),
                Val::Int(s.depth as i64),
                Val::Int(snap),
                Val::Blob(encode_ids(&s.output)),
                Val::OptInt(s.transfer.map(|t| t as i64)),
                Val::Text(s.detail.clone()),
                Val::OptInt(s.usage.map(|u| u.input_tokens as i64)),
                Val::OptInt(s.usage.map(|u| u.output_tokens as i64)),
                Val::OptText(s.exchange.as_ref().map(|x| x.to_string())),
                Val::Int(s.context.len() as i64),
                Val::OptInt(s.timing.map(|t| t.micros().0)),
                Val::OptInt(s.timing.map(|t| t.micros().1)),
            ]);
        }
        let o = &trace.outcome;
        let status = if o.status == OutcomeStatus::Running && !live { OutcomeStatus::Interrupted } else { o.status };
        self.runs.push([
            run(),
            Val::Text(topology_hash.to_owned()),
            Val::Text(trace.topology.clone()),
            Val::Text(trace.scenario.clone()),
            Val::Text(serde_json::to_string(&trace.providers).expect("maps serialize")),
            Val::Text(trace.started_at.clone()),
            Val::OptText(Some(trace.ended_at.clone())),
            Val::Text(status.as_str().to_owned()),
            Val::Text(o.reason.clone()),
            Val::Text(o.owner.clone()),
            Val::OptText(o.final_output.clone()),
            Val::OptText(o.guard.clone()),
            Val::Int(trace.usage.input_tokens as i64),
            Val::Int(trace.usage.output_tokens as i64),
            Val::Int(trace.steps.len() as i64),
            Val::Int(transfers),
            Val::Int(lost),
            Val::OptInt(Some(std::process::id() as i64)),
            Val::OptText(Some(self.host.clone())),
            Val::OptText(trace.source.as_ref().map(|s| s.to_string())),
            Val::OptText(trace.fork.as_ref().map(|f| f.parent.clone()).filter(|p| !p.is_empty())),
            Val::OptInt(trace.fork.as_ref().map(|f| i64::from(f.at))),
            Val::OptText(trace.fork.as_ref().map(|f| serde_json::to_string(f).expect("serializes"))),
            Val::OptText(Some(ending_json(trace))),
            Val::OptText(trace.definition.as_ref().and_then(|t| t.id.clone())),
        ]);
    }

    /// Whether enough rows wait that they should be written now.
    pub(crate) fn full(&self) -> bool {
        let t = [
            &self.runs,
            &self.items,
            &self.run_items,
            &self.snapshots,
            &self.steps,
            &self.transfers,
            &self.fact_checks,
        ];
        t.iter().map(|t| t.rows()).sum::<usize>() >= FLUSH_ROWS
    }

    /// Writes every waiting row, parents before children.
    pub(crate) async fn flush(
        &mut self,
        tx: &mut Transaction<'static, Any>,
        store: &Store,
    ) -> Result<(), super::StoreError> {
        let locate = |e: sqlx::Error| store.locate(e.into());
        let numbered = store.backend() == super::Backend::Postgres;
        self.topologies.flush(tx, numbered).await.map_err(locate)?;
        self.runs.flush(tx, numbered).await.map_err(locate)?;
        self.items.flush(tx, numbered).await.map_err(locate)?;
        self.run_items.flush(tx, numbered).await.map_err(locate)?;
        self.snapshots.flush(tx, numbered).await.map_err(locate)?;
        self.steps.flush(tx, numbered).await.map_err(locate)?;
        self.transfers.flush(tx, numbered).await.map_err(locate)?;
        self.fact_checks.flush(tx, numbered).await.map_err(locate)?;
        Ok(())
    }
}

/// How the run's ending is judged as it is saved (its expect:, a mark it carries, its structure),
/// as the runs table keeps it.
pub(crate) fn ending_json(trace: &Trace) -> String {
    serde_json::to_string(&crate::suspects::judge_ending(trace, None)).expect("serializes")
}

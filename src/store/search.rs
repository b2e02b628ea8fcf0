//! The Runs home's query: every run in the store, filtered (topology, origin, status, lost
//! facts, dates, text) and paged in SQL, with the total and the topologies on offer, so a list
//! of 10,000 runs is never sent whole.

use super::read::{RUN_COLUMNS, Reader, summary};
use super::{RunSummary, StoreError};
use crate::trace::OutcomeStatus;
use serde::{Deserialize, Serialize};

/// Where a run came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum RunOrigin {
    /// Baton ran it.
    Native,
    /// Read from a trace file.
    Imported,
    /// Received live by the OTLP endpoint.
    Captured,
}

impl RunOrigin {
    /// From a run's `source` (none for Baton's own runs; live capture marks its runs).
    pub fn of(source: Option<&serde_json::Value>) -> RunOrigin {
        match source {
            None | Some(serde_json::Value::Null) => RunOrigin::Native,
            Some(s) if s.get("captured").and_then(serde_json::Value::as_bool) == Some(true) => RunOrigin::Captured,
            Some(_) => RunOrigin::Imported,
        }
    }
}

/// Which runs to list. Every filter is optional; they combine with AND.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct RunQuery {
    /// Runs of this topology (by name).
    #[serde(default)]
    #[ts(optional)]
    pub topology: Option<String>,
    /// Runs of the topology with this identity (with `topology`: also its runs saved before it
    /// had one, under that name). Takes the place of the name filter.
    #[serde(default)]
    #[ts(optional)]
    pub topology_id: Option<String>,
    #[serde(default)]
    #[ts(optional)]
    pub origin: Option<RunOrigin>,
    #[serde(default)]
    #[ts(optional)]
    pub status: Option<OutcomeStatus>,
    /// true: only runs that lost a pinned fact; false: only runs that lost none.
    #[serde(default)]
    #[ts(optional)]
    pub lost: Option<bool>,
    /// Runs a person marked good or bad (`unmarked` is not a judgement: leave it out for all).
    #[serde(default)]
    #[ts(optional)]
    pub judgement: Option<crate::trace::Judgement>,
    /// Started at or after this RFC 3339 time (a date `2026-12-01` works too).
    #[serde(default)]
    #[ts(optional)]
    pub since: Option<String>,
    /// Started before this RFC 3339 time or date.
    #[serde(default)]
    #[ts(optional)]
    pub until: Option<String>,
    /// Forks of this run (its direct children in the lineage).
    #[serde(default)]
    #[ts(optional)]
    pub parent: Option<String>,
    /// Text in the run's id, topology, scenario, answer or source file (any case).
    #[serde(default)]
    #[ts(optional)]
    pub search: Option<String>,
    /// At most this many runs (100 when absent).
    #[serde(default)]
    #[ts(optional)]
    pub limit: Option<u32>,
    /// Skip this many of the newest first.
    #[serde(default)]
    #[ts(optional)]
    pub offset: Option<u32>,
}

/// One page of a [`RunQuery`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct RunPage {
    pub runs: Vec<RunSummary>,
    /// How many runs match, over all pages.
    pub total: u32,
    /// Every topology name with runs in the store (for the filter), sorted.
    pub topologies: Vec<String>,
}

/// `LIKE` pattern matching `text` anywhere, with `\` escaping the wildcards.
fn contains(text: &str) -> String {
    let mut p = String::from("%");
    for c in text.to_lowercase().chars() {
        if matches!(c, '%' | '_' | '\\') {
            p.push('\\');
        }
        p.push(c);
    }
    p.push('%');
    p
}

impl Reader<'_> {
    pub async fn search_runs(&mut self, q: &RunQuery) -> Result<RunPage, StoreError> {
        let mut conds: Vec<String> = vec![];
        let mut binds: Vec<String> = vec![];
        // Its identity, or (runs saved before it had one) its name: the store's own
        // `OF_TOPOLOGY`, whose two parameters come first.
        if let (Some(id), Some(name)) = (&q.topology_id, &q.topology) {
            binds.extend([id.clone(), name.clone()]);
            conds.push(super::read::OF_TOPOLOGY.to_owned());
        }
        let mut bind = |conds: &mut Vec<String>, sql: &str, v: String| {
            binds.push(v);
            conds.push(sql.replace('?', &format!("${}", binds.len())));
        };
        match (&q.topology_id, &q.topology) {
            (Some(_), Some(_)) => {}
            (Some(id), None) => bind(&mut conds, "topology_id = ?", id.clone()),
            (None, Some(t)) => bind(&mut conds, "topology = ?", t.clone()),
            (None, None) => {}
        }
        if let Some(p) = &q.parent {
            bind(&mut conds, "parent_run = ?", p.clone());
        }
        if let Some(s) = q.status {
            bind(&mut conds, "status = ?", s.as_str().to_owned());
        }
        match q.origin {
            Some(RunOrigin::Native) => conds.push("source IS NULL".into()),
            Some(RunOrigin::Captured) => conds.push(r#"source LIKE '%"captured":true%'"#.into()),
            Some(RunOrigin::Imported) => {
                conds.push(r#"source IS NOT NULL AND source NOT LIKE '%"captured":true%'"#.into())
            }
            None => {}
        }
        match q.lost {
            Some(true) => conds.push("lost_facts > 0".into()),
            Some(false) => conds.push("lost_facts = 0".into()),
            None => {}
        }
        if let Some(j) = q.judgement {
            bind(&mut conds, "judgement = ?", j.as_str().to_owned());
        }
        if let Some(t) = q.since.as_deref().filter(|t| !t.trim().is_empty()) {
            bind(&mut conds, "started_at >= ?", t.trim().to_owned());
        }
        if let Some(t) = q.until.as_deref().filter(|t| !t.trim().is_empty()) {
            bind(&mut conds, "started_at < ?", t.trim().to_owned());
        }
        if let Some(s) = q.search.as_deref().filter(|s| !s.trim().is_empty()) {
            bind(
                &mut conds,
                "LOWER(id || ' ' || topology || ' ' || scenario || ' ' || COALESCE(final_output, '') || ' ' || \
                 COALESCE(source, '')) LIKE ? ESCAPE '\\'",
                contains(s.trim()),
            );
        }
        let filter = if conds.is_empty() { String::new() } else { format!("WHERE {}", conds.join(" AND ")) };
        let n = binds.len();
        let page = format!(
            "SELECT {RUN_COLUMNS} FROM runs {filter} ORDER BY started_at DESC, id DESC LIMIT ${} OFFSET ${}",
            n + 1,
            n + 2
        );
        let mut rows = sqlx::query(sqlx::AssertSqlSafe(page));
        for b in &binds {
            rows = rows.bind(b.clone());
        }
        let rows = rows
            .bind(i64::from(q.limit.unwrap_or(100)))
            .bind(i64::from(q.offset.unwrap_or(0)))
            .fetch_all(&mut *self.c)
            .await?;
        let runs = rows.iter().map(summary).collect::<Result<Vec<_>, _>>()?;
        let mut count =
            sqlx::query_scalar::<_, i64>(sqlx::AssertSqlSafe(format!("SELECT COUNT(*) FROM runs {filter}")));
        for b in &binds {
            count = count.bind(b.clone());
        }
        let total = count.fetch_one(&mut *self.c).await? as u32;
        // Each name by one index probe from the last (a loose index scan): not a pass over every run.
        let topologies: Vec<String> = sqlx::query_scalar(
            "WITH RECURSIVE t(name) AS (SELECT MIN(topology) FROM runs UNION ALL \
             SELECT (SELECT MIN(topology) FROM runs WHERE topology > t.name) FROM t WHERE t.name IS NOT NULL) \
             SELECT name FROM t WHERE name IS NOT NULL ORDER BY name",
        )
        .fetch_all(&mut *self.c)
        .await?;
        Ok(RunPage { runs, total, topologies })
    }
}

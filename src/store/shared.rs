//! The capture state several collectors share through one store (`baton collect --shared`): each
//! trace's arrival across every instance (`capture_traces`) and which acknowledged requests hold
//! its spans (`capture_inbox_traces`), so that whichever instance finds a trace quiet assembles
//! it from every instance's requests and saves it, one instance at a time (PostgreSQL's
//! `FOR UPDATE SKIP LOCKED`; SQLite's write lock). Times are the database's clock, so instances on
//! machines whose clocks differ agree on what is quiet.

use super::write::ImportTx;
use super::{Backend, Store, StoreError};
use sqlx::Row;

/// Spans of one trace in one request.
pub struct Arrival {
    pub trace_id: String,
    pub spans: i64,
    pub root: bool,
}

/// A trace an instance took to save or to show.
pub struct Claimed {
    pub trace_id: String,
    /// When its first span reached any instance (ms since the epoch).
    pub first_at: i64,
    pub spans: i64,
    /// Spans its run held when it was last saved (0: never saved).
    pub saved_spans: i64,
    /// It was shown as a running run before.
    pub shown: bool,
}

/// The database's clock in ms since the epoch.
fn now_ms(b: Backend) -> &'static str {
    match b {
        Backend::Sqlite => "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)",
        Backend::Postgres => "CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)",
    }
}

impl Store {
    /// Keeps an accepted request and the arrival of each trace it holds spans of, in one
    /// transaction (committed before the request is acknowledged); the request's inbox id.
    pub async fn shared_put(&self, encoding: &str, body: &[u8], arrivals: &[Arrival]) -> Result<i64, StoreError> {
        let put = async {
            let mut tx = self.write_tx().await?;
            let now = now_ms(self.backend());
            let row = sqlx::query(sqlx::AssertSqlSafe(format!(
                "INSERT INTO capture_inbox (received_at, encoding, body) VALUES ({now}, $1, $2) RETURNING id"
            )))
            .bind(encoding.to_owned())
            .bind(body.to_vec())
            .fetch_one(&mut *tx)
            .await?;
            let id: i64 = row.try_get("id")?;
            for a in arrivals {
                sqlx::query(sqlx::AssertSqlSafe(format!(
                    "INSERT INTO capture_traces (trace_id, first_at, last_at, spans, root_seen) VALUES ($1, {now}, {now}, $2, $3) \
                     ON CONFLICT (trace_id) DO UPDATE SET last_at = excluded.last_at, \
                     spans = capture_traces.spans + excluded.spans, \
                     root_seen = CASE WHEN excluded.root_seen > capture_traces.root_seen THEN excluded.root_seen ELSE capture_traces.root_seen END"
                )))
                .bind(a.trace_id.clone())
                .bind(a.spans)
                .bind(i64::from(a.root))
                .execute(&mut *tx)
                .await?;
                sqlx::query("INSERT INTO capture_inbox_traces (inbox_id, trace_id) VALUES ($1, $2)")
                    .bind(id)
                    .bind(a.trace_id.clone())
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await?;
            Ok::<_, sqlx::Error>(id)
        };
        put.await.map_err(|e| self.locate(e.into()))
    }

    /// Forgets traces saved at least `keep_ms` ago with no span since, and the requests that
    /// held only such traces.
    pub async fn shared_expire(&self, keep_ms: i64) -> Result<(), StoreError> {
        let expire = async {
            let mut tx = self.write_tx().await?;
            let now = now_ms(self.backend());
            sqlx::query(sqlx::AssertSqlSafe(format!(
                "DELETE FROM capture_traces WHERE saved_spans = spans AND saved_at <= {now} - $1"
            )))
            .bind(keep_ms)
            .execute(&mut *tx)
            .await?;
            sqlx::query(
                "DELETE FROM capture_inbox WHERE id IN (SELECT x.inbox_id FROM capture_inbox_traces x \
                 LEFT JOIN capture_traces t ON t.trace_id = x.trace_id GROUP BY x.inbox_id HAVING COUNT(t.trace_id) = 0)",
            )
            .execute(&mut *tx)
            .await?;
            sqlx::query("DELETE FROM capture_inbox_traces WHERE inbox_id NOT IN (SELECT id FROM capture_inbox)")
                .execute(&mut *tx)
                .await?;
            tx.commit().await
        };
        expire.await.map_err(|e| self.locate(e.into()))
    }
}

impl ImportTx {
    /// Takes at most `limit` traces to save: spans not in their run yet, quiet for `quiet_ms`
    /// after their root arrived (or `rootless_ms` without it). Another instance's transaction
    /// skips them until this one ends.
    pub async fn claim_due(&mut self, quiet_ms: i64, rootless_ms: i64, limit: i64) -> Result<Vec<Claimed>, StoreError> {
        let now = now_ms(self.store.backend());
        let sql = format!(
            "SELECT trace_id, first_at, spans, saved_spans, shown_at FROM capture_traces WHERE saved_spans < spans \
             AND ((root_seen = 1 AND last_at <= {now} - $1) OR last_at <= {now} - $2) ORDER BY last_at LIMIT $3{}",
            self.skip_locked()
        );
        self.claim(sql, vec![quiet_ms, rootless_ms, limit]).await
    }

    /// Takes at most `limit` traces to show as running: spans still arriving (within `quiet_ms`)
    /// over at least `every_ms`, not shown for `every_ms`.
    pub async fn claim_running(
        &mut self,
        quiet_ms: i64,
        every_ms: i64,
        limit: i64,
    ) -> Result<Vec<Claimed>, StoreError> {
        let now = now_ms(self.store.backend());
        let sql = format!(
            "SELECT trace_id, first_at, spans, saved_spans, shown_at FROM capture_traces WHERE saved_spans < spans \
             AND last_at > {now} - $1 AND last_at - first_at >= $2 AND (shown_at IS NULL OR shown_at <= {now} - $2) \
             ORDER BY last_at LIMIT $3{}",
            self.skip_locked()
        );
        self.claim(sql, vec![quiet_ms, every_ms, limit]).await
    }

    fn skip_locked(&self) -> &'static str {
        match self.store.backend() {
            Backend::Postgres => " FOR UPDATE SKIP LOCKED",
            Backend::Sqlite => "",
        }
    }

    async fn claim(&mut self, sql: String, binds: Vec<i64>) -> Result<Vec<Claimed>, StoreError> {
        let mut q = sqlx::query(sqlx::AssertSqlSafe(sql));
        for b in binds {
            q = q.bind(b);
        }
        let rows = q.fetch_all(&mut *self.tx).await.map_err(|e| self.store.locate(e.into()))?;
        rows.iter()
            .map(|r| {
                Ok(Claimed {
                    trace_id: r.try_get("trace_id")?,
                    first_at: r.try_get("first_at")?,
                    spans: r.try_get("spans")?,
                    saved_spans: r.try_get("saved_spans")?,
                    shown: r.try_get::<Option<i64>, _>("shown_at")?.is_some(),
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(|e| self.store.locate(e.into()))
    }

    /// The bytes of the requests that hold spans of `trace_id` (what [`Self::trace_bodies`] reads).
    pub async fn trace_body_bytes(&mut self, trace_id: &str) -> Result<i64, StoreError> {
        sqlx::query_scalar(
            "SELECT CAST(COALESCE(SUM(LENGTH(b.body)), 0) AS BIGINT) FROM capture_inbox b \
             JOIN capture_inbox_traces x ON x.inbox_id = b.id WHERE x.trace_id = $1",
        )
        .bind(trace_id.to_owned())
        .fetch_one(&mut *self.tx)
        .await
        .map_err(|e| self.store.locate(e.into()))
    }

    /// The requests (encoding, body) that hold spans of `trace_id`, whichever instance took them.
    pub async fn trace_bodies(&mut self, trace_id: &str) -> Result<Vec<(String, Vec<u8>)>, StoreError> {
        let rows = sqlx::query(
            "SELECT b.encoding, b.body FROM capture_inbox b JOIN capture_inbox_traces x ON x.inbox_id = b.id \
             WHERE x.trace_id = $1 ORDER BY b.id",
        )
        .bind(trace_id.to_owned())
        .fetch_all(&mut *self.tx)
        .await
        .map_err(|e| self.store.locate(e.into()))?;
        rows.iter()
            .map(|r| Ok((r.try_get("encoding")?, r.try_get("body")?)))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(|e| self.store.locate(e.into()))
    }

    /// Records that `trace_id`'s run now holds `spans` spans (or that it was refused).
    pub async fn mark_saved(&mut self, trace_id: &str, spans: i64) -> Result<(), StoreError> {
        let now = now_ms(self.store.backend());
        let sql = format!("UPDATE capture_traces SET saved_spans = $1, saved_at = {now} WHERE trace_id = $2");
        sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(spans)
            .bind(trace_id.to_owned())
            .execute(&mut *self.tx)
            .await
            .map_err(|e| self.store.locate(e.into()))?;
        Ok(())
    }

    /// Records that `trace_id` was just shown as a running run.
    pub async fn mark_shown(&mut self, trace_id: &str) -> Result<(), StoreError> {
        let now = now_ms(self.store.backend());
        let sql = format!("UPDATE capture_traces SET shown_at = {now} WHERE trace_id = $1");
        sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(trace_id.to_owned())
            .execute(&mut *self.tx)
            .await
            .map_err(|e| self.store.locate(e.into()))?;
        Ok(())
    }
}

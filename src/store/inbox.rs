//! The capture inbox: the bodies of accepted OTLP requests, written (and committed) before the
//! request is acknowledged, deleted once every trace they touched is saved as a run. A collector
//! that restarts after a crash replays what is left.

use super::{Store, StoreError};
use sqlx::Row;

impl Store {
    /// Keeps one accepted request's body (`encoding`: `protobuf` or `json`); its id.
    pub async fn inbox_put(&self, encoding: &str, body: &[u8]) -> Result<i64, StoreError> {
        let mut tx = self.write_tx().await.map_err(|e| self.locate(e.into()))?;
        let at = humantime::format_rfc3339_micros(std::time::SystemTime::now()).to_string();
        let row =
            sqlx::query("INSERT INTO capture_inbox (received_at, encoding, body) VALUES ($1, $2, $3) RETURNING id")
                .bind(at)
                .bind(encoding.to_owned())
                .bind(body.to_vec())
                .fetch_one(&mut *tx)
                .await
                .map_err(|e| self.locate(e.into()))?;
        tx.commit().await.map_err(|e| self.locate(e.into()))?;
        row.try_get::<i64, _>("id").map_err(|e| self.locate(e.into()))
    }

    /// Every body left in the inbox, oldest first: (id, encoding, body); not those of collectors
    /// that share the store (`Store::shared_put`), which never replay a request.
    pub async fn inbox_all(&self) -> Result<Vec<(i64, String, Vec<u8>)>, StoreError> {
        let rows = sqlx::query("SELECT id, encoding, body FROM capture_inbox WHERE id NOT IN (SELECT inbox_id FROM capture_inbox_traces) ORDER BY id")
            .fetch_all(self.pool())
            .await
            .map_err(|e| self.locate(e.into()))?;
        rows.iter()
            .map(|r| Ok((r.try_get("id")?, r.try_get("encoding")?, r.try_get("body")?)))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(|e| self.locate(e.into()))
    }

    /// Forgets bodies whose traces are all saved.
    pub async fn inbox_delete(&self, ids: &[i64]) -> Result<(), StoreError> {
        if ids.is_empty() {
            return Ok(());
        }
        let mut tx = self.write_tx().await.map_err(|e| self.locate(e.into()))?;
        for id in ids {
            sqlx::query("DELETE FROM capture_inbox WHERE id = $1")
                .bind(*id)
                .execute(&mut *tx)
                .await
                .map_err(|e| self.locate(e.into()))?;
        }
        tx.commit().await.map_err(|e| self.locate(e.into()))?;
        Ok(())
    }
}

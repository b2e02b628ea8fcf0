//! Keeping a store healthy: `check` (the database's own integrity check, what it holds, rows
//! that point at nothing) and `backup` (a consistent copy of a SQLite store, taken while it is in
//! use). PostgreSQL is checked for orphans and counted; its backups belong to `pg_dump`.

use super::{Backend, Store, StoreError};
use serde::Serialize;
use std::path::Path;

/// What `baton store check` found.
#[derive(Debug, Clone, Serialize)]
pub struct StoreCheck {
    pub url: String,
    pub backend: &'static str,
    /// The newest migration applied (the store's schema version).
    pub schema_version: i64,
    /// The database's own integrity check: `ok`, what it reported, or why it was not run.
    pub integrity: String,
    /// Rows per table.
    pub counts: Vec<(String, i64)>,
    /// Rows that point at a run or topology that is not there, per kind.
    pub orphans: Vec<(String, i64)>,
}

impl StoreCheck {
    /// Whether nothing is wrong.
    pub fn healthy(&self) -> bool {
        (self.integrity == "ok" || self.integrity.starts_with("not run")) && self.orphans.iter().all(|(_, n)| *n == 0)
    }
}

const TABLES: &[&str] = &[
    "runs",
    "topologies",
    "items",
    "run_items",
    "steps",
    "snapshots",
    "transfers",
    "fact_checks",
    "capture_inbox",
    "capture_traces",
    "capture_inbox_traces",
];

/// Rows of one table whose run (or topology) is not in the store.
const ORPHANS: &[(&str, &str)] = &[
    (
        "steps without their run",
        "SELECT COUNT(*) FROM steps s WHERE NOT EXISTS (SELECT 1 FROM runs r WHERE r.id = s.run_id)",
    ),
    (
        "run items without their run",
        "SELECT COUNT(*) FROM run_items s WHERE NOT EXISTS (SELECT 1 FROM runs r WHERE r.id = s.run_id)",
    ),
    (
        "snapshots without their run",
        "SELECT COUNT(*) FROM snapshots s WHERE NOT EXISTS (SELECT 1 FROM runs r WHERE r.id = s.run_id)",
    ),
    (
        "transfers without their run",
        "SELECT COUNT(*) FROM transfers s WHERE NOT EXISTS (SELECT 1 FROM runs r WHERE r.id = s.run_id)",
    ),
    (
        "fact checks without their run",
        "SELECT COUNT(*) FROM fact_checks s WHERE NOT EXISTS (SELECT 1 FROM runs r WHERE r.id = s.run_id)",
    ),
    (
        "run items naming a missing item",
        "SELECT COUNT(*) FROM run_items s WHERE NOT EXISTS (SELECT 1 FROM items i WHERE i.id = s.item_id)",
    ),
    (
        "runs naming a missing topology",
        "SELECT COUNT(*) FROM runs r WHERE r.topology_hash IS NOT NULL AND NOT EXISTS \
         (SELECT 1 FROM topologies t WHERE t.hash = r.topology_hash)",
    ),
];

impl Store {
    /// Checks the store: integrity (SQLite's `PRAGMA integrity_check`), counts, orphans.
    pub async fn check(&self) -> Result<StoreCheck, StoreError> {
        let pool = self.pool();
        let schema_version: i64 =
            sqlx::query_scalar("SELECT COALESCE(MAX(version), 0) FROM _sqlx_migrations WHERE success = TRUE")
                .fetch_one(pool)
                .await
                .map_err(|e| self.locate(e.into()))?;
        let integrity = match self.backend() {
            Backend::Sqlite => {
                let lines: Vec<String> = sqlx::query_scalar("PRAGMA integrity_check")
                    .fetch_all(pool)
                    .await
                    .map_err(|e| self.locate(e.into()))?;
                lines.join("; ")
            }
            Backend::Postgres => "not run by Baton on PostgreSQL (use pg_amcheck)".to_owned(),
        };
        let mut counts = vec![];
        for t in TABLES {
            let n: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT COUNT(*) FROM {t}")))
                .fetch_one(pool)
                .await
                .map_err(|e| self.locate(e.into()))?;
            counts.push(((*t).to_owned(), n));
        }
        let mut orphans = vec![];
        for (what, sql) in ORPHANS {
            let n: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(*sql))
                .fetch_one(pool)
                .await
                .map_err(|e| self.locate(e.into()))?;
            orphans.push(((*what).to_owned(), n));
        }
        Ok(StoreCheck {
            url: self.url().to_owned(),
            backend: match self.backend() {
                Backend::Sqlite => "sqlite",
                Backend::Postgres => "postgres",
            },
            schema_version,
            integrity,
            counts,
            orphans,
        })
    }

    /// Writes a consistent copy of a SQLite store to `to` (a new file), while it may be in use;
    /// returns its size. PostgreSQL stores are refused: `pg_dump` is the tool for them.
    pub async fn backup(&self, to: &Path) -> Result<u64, StoreError> {
        if self.backend() == Backend::Postgres {
            return Err(StoreError::Open {
                url: self.url().to_owned(),
                detail: "Baton backs up SQLite stores; back up a PostgreSQL store with pg_dump".into(),
            });
        }
        if to.exists() {
            return Err(StoreError::Open {
                url: self.url().to_owned(),
                detail: format!("{} exists already; name a new file for the backup", to.display()),
            });
        }
        let target = to.to_str().ok_or_else(|| StoreError::Open {
            url: self.url().to_owned(),
            detail: format!("{} is not a UTF-8 path", to.display()),
        })?;
        // VACUUM INTO writes a transactionally consistent, compacted copy (SQLite 3.27+).
        sqlx::query("VACUUM INTO $1")
            .bind(target.to_owned())
            .execute(self.pool())
            .await
            .map_err(|e| self.locate(e.into()))?;
        Ok(std::fs::metadata(to).map(|m| m.len()).unwrap_or(0))
    }
}

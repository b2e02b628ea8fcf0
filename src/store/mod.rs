//! The trace store shared by the CLI and the app: SQLite by default (WAL, in the user's data
//! directory), PostgreSQL for a team. Items are stored once by content hash and snapshots as
//! deltas; events are written as they happen, one transaction per batch.

mod inbox;
mod load;
mod maintain;
mod read;
mod rows;
mod search;
mod shared;
mod snapshot;
mod write;

pub use maintain::StoreCheck;
pub use read::{ContextPage, ItemWindow, OutcomeBrief, RunOverview, RunSummary, RunTail, StepView, TransferView};
pub use search::{RunOrigin, RunPage, RunQuery};
pub use shared::{Arrival, Claimed};
pub use write::{CommitHook, ImportTx, Recorder, WriteStats, new_run_id, trace_events};

use sqlx::any::{AnyPoolOptions, install_default_drivers};
use sqlx::{AnyConnection, AnyPool, Connection, Executor};
use std::path::PathBuf;

/// Which parts of a run [`Store::load_trace_parts`] reads back besides its steps, transfers and
/// items. A report over a long run asks for neither: a 100,020-step run's contexts are ~1 GB.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TraceParts {
    /// Every step's context (without: only the first step's and those where a delegation
    /// returned).
    pub contexts: bool,
    /// Each step's provider exchange (request and response bodies).
    pub exchanges: bool,
}

impl TraceParts {
    /// Everything: the trace as it was saved.
    pub const WHOLE: TraceParts = TraceParts { contexts: true, exchanges: true };
    /// What the suspects report and a judge of the ending read: outputs, transfers, items, and
    /// the contexts of the first step and of the returns.
    pub const REPORT: TraceParts = TraceParts { contexts: false, exchanges: false };
}

/// How long a SQLite writer waits for another to finish before it reports the store busy.
const BUSY_TIMEOUT: &str = "PRAGMA busy_timeout = 30000";

static SQLITE_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("migrations/sqlite");
static POSTGRES_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("migrations/postgres");

/// Everything that can go wrong with the store, with what to do about it.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error(
        "the store at {url} was written by a newer Baton (schema version {found}, this Baton knows up to {known}); upgrade Baton to open it. Nothing was changed"
    )]
    NewerSchema { url: String, found: i64, known: i64 },
    #[error(
        "the store at {url} is locked by another process; close the other Baton (or wait) and try again. Nothing was changed"
    )]
    Locked { url: String },
    #[error(
        "{url} is not a Baton store (corrupt or not a SQLite database: {detail}); point --db elsewhere. Nothing was changed"
    )]
    Corrupt { url: String, detail: String },
    #[error("cannot open the store at {url}: {detail}")]
    Open { url: String, detail: String },
    #[error("unsupported store URL '{0}': use a SQLite path or sqlite://PATH, or postgres://USER@HOST/DB")]
    Url(String),
    #[error("no run with id '{0}' in the store; `baton runs list` shows the runs")]
    NoRun(String),
    #[error("run '{run}' has no step {step} (it has {count})")]
    NoStep { run: String, step: u32, count: u32 },
    #[error("run '{0}' is still being written by a running Baton; wait for it to end (or cancel it), then delete it")]
    RunActive(String),
    #[error("the store's data is damaged: {0}")]
    Damaged(String),
    #[error("the store failed: {0}{hint}", hint = db_hint(.0))]
    Db(#[from] sqlx::Error),
    #[error("the store at {url} failed: {source}{hint}", hint = db_hint(source))]
    DbAt { url: String, source: sqlx::Error },
}

impl crate::error::Coded for StoreError {
    fn code(&self) -> crate::error::ErrorCode {
        use crate::error::ErrorCode as C;
        match self {
            StoreError::NewerSchema { .. } => C::StoreNewerSchema,
            StoreError::Locked { .. } => C::StoreLocked,
            StoreError::Corrupt { .. } => C::StoreCorrupt,
            StoreError::Open { .. } => C::StoreOpen,
            StoreError::Url(_) => C::StoreUrl,
            StoreError::NoRun(_) => C::StoreNoRun,
            StoreError::NoStep { .. } => C::StoreNoStep,
            StoreError::RunActive(_) => C::StoreRunActive,
            StoreError::Damaged(_) => C::StoreDamaged,
            StoreError::Db(_) | StoreError::DbAt { .. } => C::StoreDb,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// An open store.
#[derive(Clone)]
pub struct Store {
    pool: AnyPool,
    backend: Backend,
    url: String,
    read_only: bool,
}

/// The default store: `$BATON_DB`, else `~/.local/share/baton/baton.db` (XDG data dir).
pub fn default_url() -> String {
    if let Some(u) = std::env::var("BATON_DB").ok().filter(|u| !u.is_empty()) {
        return u;
    }
    let dir = dirs::data_dir().unwrap_or_else(|| PathBuf::from(".")).join("baton");
    dir.join("baton.db").display().to_string()
}

fn classify(url: &str, e: sqlx::Error) -> StoreError {
    let detail = e.to_string();
    let lower = detail.to_lowercase();
    if lower.contains("locked") || lower.contains("busy") {
        StoreError::Locked { url: url.into() }
    } else if lower.contains("not a database") || lower.contains("malformed") || lower.contains("corrupt") {
        StoreError::Corrupt { url: url.into(), detail }
    } else {
        StoreError::Open { url: url.into(), detail }
    }
}

impl Store {
    /// Opens (creating when missing) the store at `url`: a path or `sqlite://PATH` for SQLite,
    /// `postgres://…` for PostgreSQL. Applies migrations; marks runs whose process died as
    /// interrupted. A newer, locked or corrupt store is refused without changing it.
    ///
    /// A SQLite store that cannot be written (its folder or file is read-only, its disk mounted
    /// read-only) is opened for reading: runs can be listed, shown and exported; a write fails
    /// saying the store is read-only.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        let opened = match Self::open_writable(url).await {
            Err(e) if cannot_write(&e) => match sqlite_file(url) {
                Some(path) if path.is_file() => Self::open_read_only(url, &path).await.map_err(|_| e),
                _ => Err(e),
            },
            other => other,
        };
        // The backend only: a PostgreSQL URL may carry a password.
        match &opened {
            Ok(s) => tracing::info!(backend = ?s.backend, "store opened"),
            Err(_) => tracing::warn!(
                backend = if url.starts_with("postgres") { "postgres" } else { "sqlite" },
                "store not opened"
            ),
        }
        opened
    }

    /// Opens an existing, current SQLite store without writing to it: first read-only, then (when
    /// SQLite cannot even create the shared-memory file a WAL reader needs) as immutable.
    async fn open_read_only(url: &str, path: &std::path::Path) -> Result<Store, StoreError> {
        let mut last = None;
        for mode in ["mode=ro", "immutable=true"] {
            let conn_url = format!("sqlite://{}?{mode}", path.display());
            let attempt = async {
                let mut probe = AnyConnection::connect(&conn_url).await.map_err(|e| classify(url, e))?;
                probe.execute(BUSY_TIMEOUT).await.map_err(|e| classify(url, e))?;
                check_schema(&mut probe, Backend::Sqlite, url).await?;
                let applied: Option<i64> = sqlx::query_scalar("SELECT MAX(version) FROM _sqlx_migrations")
                    .fetch_one(&mut probe)
                    .await
                    .map_err(|e| classify(url, e))?;
                let known = SQLITE_MIGRATIONS.iter().map(|m| m.version).max().unwrap_or(0);
                if applied != Some(known) {
                    return Err(StoreError::Open {
                        url: url.into(),
                        detail: "it is read-only and was written by an older Baton; open it once where it can be written so it is upgraded".into(),
                    });
                }
                let _ = probe.close().await;
                let pool = AnyPoolOptions::new()
                    .acquire_timeout(std::time::Duration::from_secs(10))
                    .max_connections(4)
                    .after_connect(|conn, _| Box::pin(async move { conn.execute(BUSY_TIMEOUT).await.map(|_| ()) }))
                    .connect(&conn_url)
                    .await
                    .map_err(|e| classify(url, e))?;
                Ok(Store { pool, backend: Backend::Sqlite, url: url.to_owned(), read_only: true })
            };
            match attempt.await {
                Ok(store) => return Ok(store),
                Err(e) => last = Some(e),
            }
        }
        Err(last.expect("two attempts"))
    }

    /// Whether the store was opened for reading only (see [`Store::open`]).
    pub fn read_only(&self) -> bool {
        self.read_only
    }

    async fn open_writable(url: &str) -> Result<Store, StoreError> {
        install_default_drivers();
        let (backend, conn_url) = if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            (Backend::Postgres, url.to_owned())
        } else if let Some(path) = url.strip_prefix("sqlite://").or(Some(url)).filter(|p| !p.contains("://")) {
            let p = PathBuf::from(path);
            if let Some(parent) = p.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(parent).map_err(|e| StoreError::Open {
                    url: url.into(),
                    detail: format!("cannot create {}: {e}", parent.display()),
                })?;
            }
            (Backend::Sqlite, format!("sqlite://{}?mode=rwc", p.display()))
        } else {
            return Err(StoreError::Url(url.into()));
        };
        let sqlite = backend == Backend::Sqlite;
        // Processes opening a fresh store at once take turns: the first creates and migrates
        // it, the others then find it current. (PostgreSQL: sqlx's migrator takes an advisory
        // lock itself.)
        let _migration_lock = if sqlite { Some(file_lock(url, &conn_url)?) } else { None };
        // One probing connection first: it reports the real reason a store cannot be opened
        // (a pool would only time out) and refuses a newer or foreign store before any write.
        {
            let mut probe = AnyConnection::connect(&conn_url).await.map_err(|e| classify(url, e))?;
            if sqlite {
                probe.execute(BUSY_TIMEOUT).await.map_err(|e| classify(url, e))?;
            }
            check_schema(&mut probe, backend, url).await?;
            let _ = probe.close().await;
        }
        let pool = AnyPoolOptions::new()
            .acquire_timeout(std::time::Duration::from_secs(10))
            .max_connections(if sqlite { 4 } else { 8 })
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    if sqlite {
                        conn.execute(BUSY_TIMEOUT).await?;
                        conn.execute("PRAGMA foreign_keys = ON").await?;
                        conn.execute("PRAGMA synchronous = NORMAL").await?;
                    }
                    Ok(())
                })
            })
            .connect(&conn_url)
            .await
            .map_err(|e| classify(url, e))?;
        let store = Store { pool, backend, url: url.to_owned(), read_only: false };
        if sqlite {
            // Switching to WAL writes the header: only after the checks above passed.
            sqlx::query("PRAGMA journal_mode = WAL").execute(&store.pool).await.map_err(|e| classify(url, e))?;
        }
        let migrator = if sqlite { &SQLITE_MIGRATIONS } else { &POSTGRES_MIGRATIONS };
        migrator.run(&store.pool).await.map_err(|e| match e {
            sqlx::migrate::MigrateError::Execute(e) => classify(url, e),
            other => StoreError::Open { url: url.into(), detail: other.to_string() },
        })?;
        store.mark_interrupted().await.map_err(|e| store.locate(e))?;
        Ok(store)
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    pub fn url(&self) -> &str {
        &self.url
    }

    /// The same error, naming this store (what a user needs to find the file or server).
    pub(crate) fn locate(&self, e: StoreError) -> StoreError {
        match e {
            StoreError::Db(source) => StoreError::DbAt { url: self.url.clone(), source },
            other => other,
        }
    }

    pub(crate) fn pool(&self) -> &AnyPool {
        &self.pool
    }

    /// A write transaction. SQLite's starts with `BEGIN IMMEDIATE`: it takes the write lock at
    /// once (waiting up to the busy timeout) instead of failing later when a read upgrades.
    pub(crate) async fn write_tx(&self) -> Result<sqlx::Transaction<'static, sqlx::Any>, sqlx::Error> {
        match self.backend {
            Backend::Sqlite => self.pool.begin_with("BEGIN IMMEDIATE").await,
            Backend::Postgres => self.pool.begin().await,
        }
    }

    /// Runs left `running` by a process on this host that no longer exists become interrupted.
    async fn mark_interrupted(&self) -> Result<(), StoreError> {
        let rows: Vec<(String, Option<i64>, Option<String>, i64)> =
            sqlx::query_as("SELECT id, pid, host, step_count FROM runs WHERE status = 'running'")
                .fetch_all(&self.pool)
                .await?;
        let host = hostname();
        for (id, pid, run_host, steps) in rows {
            let alive = pid.is_some_and(process_alive);
            if run_host.as_deref() == Some(host.as_str()) && !alive {
                let reason = format!(
                    "the process running it (pid {}) stopped mid-run; the {steps} steps saved before that are kept",
                    pid.unwrap_or(0)
                );
                sqlx::query("UPDATE runs SET status = 'interrupted', reason = $1 WHERE id = $2 AND status = 'running'")
                    .bind(reason)
                    .bind(id)
                    .execute(&self.pool)
                    .await?;
            }
        }
        Ok(())
    }

    /// Bytes the store occupies on disk (SQLite: the file plus its WAL), for benchmarks.
    pub async fn size_bytes(&self) -> Result<u64, StoreError> {
        match self.backend {
            Backend::Sqlite => {
                sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)").execute(&self.pool).await?;
                let pages: i64 = sqlx::query_scalar("PRAGMA page_count").fetch_one(&self.pool).await?;
                let size: i64 = sqlx::query_scalar("PRAGMA page_size").fetch_one(&self.pool).await?;
                Ok((pages * size) as u64)
            }
            Backend::Postgres => {
                let n: i64 = sqlx::query_scalar("SELECT pg_database_size(current_database())::BIGINT")
                    .fetch_one(&self.pool)
                    .await?;
                Ok(n as u64)
            }
        }
    }

    pub async fn close(self) {
        self.pool.close().await;
    }
}

/// Refuses a store from a newer Baton and a file that is not a database, before any write.
async fn check_schema(conn: &mut AnyConnection, backend: Backend, url: &str) -> Result<(), StoreError> {
    let probe = if backend == Backend::Sqlite {
        "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = '_sqlx_migrations'"
    } else {
        "SELECT COUNT(*) FROM information_schema.tables WHERE table_name = '_sqlx_migrations'"
    };
    let n: i64 = sqlx::query_scalar(probe).fetch_one(&mut *conn).await.map_err(|e| classify(url, e))?;
    if n == 0 {
        return Ok(());
    }
    let found: Option<i64> = sqlx::query_scalar("SELECT MAX(version) FROM _sqlx_migrations")
        .fetch_one(&mut *conn)
        .await
        .map_err(|e| classify(url, e))?;
    let migrator = if backend == Backend::Sqlite { &SQLITE_MIGRATIONS } else { &POSTGRES_MIGRATIONS };
    let known = migrator.iter().map(|m| m.version).max().unwrap_or(0);
    match found {
        Some(f) if f > known => Err(StoreError::NewerSchema { url: url.into(), found: f, known }),
        _ => Ok(()),
    }
}

/// The file of a SQLite store URL (a path or `sqlite://PATH`); `None` for other stores.
fn sqlite_file(url: &str) -> Option<PathBuf> {
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        return None;
    }
    url.strip_prefix("sqlite://").or(Some(url)).filter(|p| !p.contains("://")).map(PathBuf::from)
}

/// Whether opening failed because the store's file or folder cannot be written.
fn cannot_write(e: &StoreError) -> bool {
    let d = e.to_string().to_lowercase();
    ["permission denied", "read-only file system", "readonly", "read-only", "unable to open"]
        .iter()
        .any(|m| d.contains(m))
}

/// An exclusive lock on `<store>.lock` beside a SQLite store, held while it is opened.
fn file_lock(url: &str, conn_url: &str) -> Result<std::fs::File, StoreError> {
    let path = conn_url.trim_start_matches("sqlite://").split('?').next().unwrap_or_default();
    let lock = format!("{path}.lock");
    let f = std::fs::OpenOptions::new().create(true).truncate(false).write(true).open(&lock).map_err(|e| {
        StoreError::Open { url: url.into(), detail: format!("cannot create the lock file {lock}: {e}") }
    })?;
    f.lock().map_err(|e| StoreError::Open { url: url.into(), detail: format!("cannot lock {lock}: {e}") })?;
    Ok(f)
}

/// What to do about a database error, by its SQLite (or PostgreSQL) cause.
fn db_hint(e: &sqlx::Error) -> &'static str {
    let d = e.to_string().to_lowercase();
    if d.contains("readonly") || d.contains("read-only") {
        " — the store's file or folder is read-only; fix its permissions or point --db (or $BATON_DB) elsewhere"
    } else if d.contains("disk is full") || d.contains("database or disk is full") || d.contains("no space") {
        " — the disk is full; free space and try again (nothing was half-written: the transaction was rolled back)"
    } else if d.contains("malformed") || d.contains("not a database") {
        " — the store file is damaged; restore it from a backup or point --db elsewhere"
    } else if d.contains("locked") || d.contains("busy") {
        " — another process holds the store; wait for it and try again"
    } else if d.contains("unable to open") {
        " — the store cannot be opened; check that its folder exists and is writable"
    } else if d.contains("connection") || d.contains("timed out") {
        " — the database server did not answer; check that it runs and the URL is right"
    } else {
        ""
    }
}

/// Whether an error is another writer holding the store (worth waiting and trying again).
pub(crate) fn is_busy(e: &sqlx::Error) -> bool {
    let d = e.to_string().to_lowercase();
    d.contains("database is locked")
        || d.contains("busy")
        || d.contains("deadlock")
        || d.contains("could not serialize")
}

pub(crate) fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|s| s.trim().to_owned())
        .unwrap_or_else(|_| "localhost".into())
}

pub(crate) fn process_alive(pid: i64) -> bool {
    std::path::Path::new(&format!("/proc/{pid}")).exists()
}

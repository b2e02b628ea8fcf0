//! The host-agnostic command layer: every operation the CLI, the desktop app and `baton serve`
//! offer, declared once in [`commands`] with typed arguments and results, errors as
//! `{code, message}`. Hosts only carry a command's name and JSON arguments to
//! [`Api::dispatch`]; the CLI calls the same typed methods directly.

mod about;
pub mod bindings;
mod capture;
mod code;
pub mod commands;
mod designer;
mod files;
mod forking;
mod importing;
mod live;
mod matrix;
mod runs;
mod settings;
mod suspecting;
mod testing;
mod whatif;

pub use crate::error::{ApiError, Category, ErrorCode};
pub use about::{About, COMPOSITING_VAR, COMPOSITING_WHY_VAR};
pub use code::{CodeInterpretersArgs, ImportCodeArgs, ImportedCode, Interpreter, read_code};
pub use commands::COMMAND_NAMES;
pub use designer::{
    ExportArgs, LintArgs, NewTopologyArgs, OpenedTopology, PathArgs, RefactorArgs, SaveArgs, WriteTextArgs,
    open_topology,
};
pub use files::{FileAccess, FileEntry};
pub use forking::{ForkArgs, ForkedRun};
pub use importing::{ImportArgs, ImportHow, ImportProgress, ImportedRun, UploadArgs};
pub use live::{LiveEvent, LiveRun};
pub use matrix::{MatrixArgs, Vary};
pub use runs::{
    FactArgs, ListRunsArgs, RunEvents, RunEventsArgs, RunIdArgs, RunRequest, StartRunArgs, StartedRun, StepArgs,
    StepContextArgs, TransferArgs,
};
pub use settings::{Catalog, Choice, DeleteKeyArgs, SetKeyArgs};
pub use suspecting::{MarkArgs, ProveArgs, ProveJob, ProveState, ProveStatusArgs, SHOWN_PER_TRANSFER, prove_trace};
pub use testing::TestArgs;
pub use whatif::run_facts;

use crate::store::Store;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// The arguments of a command that takes none.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct NoArgs {}

/// One host's session: which files it may touch, its store, its live runs.
pub struct Api {
    files: FileAccess,
    store_url: String,
    store: tokio::sync::OnceCell<Store>,
    runs: Mutex<HashMap<String, Arc<LiveRun>>>,
    initial_file: Option<String>,
    capture: tokio::sync::Mutex<Option<capture::Capture>>,
    proofs: Mutex<HashMap<String, Arc<suspecting::ProofJob>>>,
    /// The last suspects report of an ended run, and the lock that lets one report be built at a
    /// time (on a long run each takes seconds and hundreds of MB).
    reports: tokio::sync::Mutex<Option<suspecting::CachedReport>>,
}

impl Api {
    pub fn new(files: FileAccess, store_url: String) -> Arc<Api> {
        Api::with_initial_file(files, store_url, None)
    }

    /// A session that opens `initial_file` at start (the desktop app's command line).
    pub fn with_initial_file(files: FileAccess, store_url: String, initial_file: Option<String>) -> Arc<Api> {
        Arc::new(Api {
            files,
            store_url,
            store: tokio::sync::OnceCell::new(),
            runs: Mutex::new(HashMap::new()),
            initial_file,
            capture: tokio::sync::Mutex::new(None),
            proofs: Mutex::new(HashMap::new()),
            reports: tokio::sync::Mutex::new(None),
        })
    }

    pub fn files(&self) -> &FileAccess {
        &self.files
    }

    /// The store, opened on first use.
    pub async fn store(&self) -> Result<&Store, ApiError> {
        self.store.get_or_try_init(|| Store::open(&self.store_url)).await.map_err(ApiError::from)
    }

    pub async fn initial_file(self: &Arc<Self>, _: NoArgs) -> Result<Option<String>, ApiError> {
        Ok(self.initial_file.clone())
    }
}

/// Runs blocking work (file I/O, parsing) off the async workers, so one slow file never stalls
/// the other requests of a host.
pub(crate) async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| ApiError::new(ErrorCode::ApiInternal, format!("a background task failed: {e}")))?
}

//! Options several commands share: the store, the output format, and the session they open.

use baton::api::{Api, ApiError, ErrorCode, FileAccess};
use clap::ValueEnum;
use std::sync::Arc;

#[derive(Clone, Copy, ValueEnum, Default, PartialEq, Eq)]
pub enum OutFormat {
    /// Readable text.
    #[default]
    Text,
    /// JSON, for scripts.
    Json,
}

#[derive(clap::Args, Clone)]
pub struct DbArg {
    /// Store URL: a SQLite path or sqlite://PATH, or postgres://…
    /// (default: $BATON_DB, else ~/.local/share/baton/baton.db).
    #[arg(long = "db")]
    pub db: Option<String>,
}

impl DbArg {
    pub fn url(&self) -> String {
        self.db.clone().unwrap_or_else(baton::store::default_url)
    }

    /// A session of the command layer for a CLI user (who may name any file).
    pub fn api(&self) -> Arc<Api> {
        Api::new(FileAccess::Any, self.url())
    }
}

/// The runtime every async command runs on.
pub fn runtime() -> Result<tokio::runtime::Runtime, ApiError> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| ApiError::new(ErrorCode::ApiInternal, format!("cannot start the async runtime: {e}")))
}

/// Reads a topology file named on the command line.
pub fn load(file: &std::path::Path) -> Result<baton::topology::Topology, ApiError> {
    Ok(baton::config::load(file)?)
}

/// Writes text to a file, or to standard output.
pub fn write_out(output: Option<&std::path::Path>, text: &str) -> Result<(), ApiError> {
    match output {
        Some(p) => Ok(baton::config::write_atomic(p, text.as_bytes())?),
        None => {
            print!("{text}");
            Ok(())
        }
    }
}

//! `baton store check` and `baton store backup PATH`: the store's health (its integrity check,
//! what it holds, rows that point at nothing) and a consistent copy of a SQLite store.

use super::Outcome;
use super::args::{DbArg, OutFormat, runtime};
use baton::api::{ApiError, ErrorCode};
use baton::store::Store;
use std::path::PathBuf;

#[derive(clap::Subcommand)]
pub enum Cmd {
    /// Check the store: the database's integrity check, rows per table, rows pointing at nothing.
    /// Exit 1 when something is wrong.
    Check {
        #[arg(long, value_enum, default_value_t)]
        format: OutFormat,
        #[command(flatten)]
        db: DbArg,
    },
    /// Write a consistent copy of a SQLite store to a new file (safe while Baton uses the store).
    Backup {
        /// The new file.
        path: PathBuf,
        #[command(flatten)]
        db: DbArg,
    },
}

fn open(db: &DbArg) -> Result<(tokio::runtime::Runtime, Store), ApiError> {
    let rt = runtime()?;
    let url = db.url();
    let store = rt.block_on(Store::open(&url)).map_err(|e| ApiError::new(ErrorCode::StoreOpen, e.to_string()))?;
    Ok((rt, store))
}

pub fn run(c: Cmd) -> Outcome {
    match c {
        Cmd::Check { format, db } => {
            let (rt, store) = open(&db)?;
            let check = rt.block_on(store.check()).map_err(ApiError::from)?;
            match format {
                OutFormat::Json => println!("{}", serde_json::to_string_pretty(&check).expect("serializes")),
                OutFormat::Text => {
                    println!("store {} ({}, schema version {})", check.url, check.backend, check.schema_version);
                    println!("integrity: {}", check.integrity);
                    for (table, n) in &check.counts {
                        println!("  {table:<14} {n}");
                    }
                    let bad: Vec<_> = check.orphans.iter().filter(|(_, n)| *n > 0).collect();
                    if bad.is_empty() {
                        println!("orphans: none");
                    }
                    for (what, n) in bad {
                        println!("orphans: {n} {what}");
                    }
                }
            }
            Ok(if check.healthy() { 0 } else { 1 })
        }
        Cmd::Backup { path, db } => {
            let (rt, store) = open(&db)?;
            let bytes = rt.block_on(store.backup(&path)).map_err(ApiError::from)?;
            println!("backed up {} to {} ({bytes} bytes)", store.url(), path.display());
            Ok(0)
        }
    }
}

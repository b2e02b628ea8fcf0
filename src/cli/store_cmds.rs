//! `baton runs list | show | delete` and the store options shared by commands that touch it.

use super::Failure;
use super::topology_cmds::OutFormat;
use baton::store::Store;
use clap::{Args, Subcommand};

#[derive(Args, Clone)]
pub struct DbArg {
    /// Store URL: a SQLite path or sqlite://PATH, or postgres://…
    /// (default: $BATON_DB, else ~/.local/share/baton/baton.db).
    #[arg(long = "db")]
    pub db: Option<String>,
}

impl DbArg {
    pub async fn open(&self) -> Result<Store, Failure> {
        let url = self.db.clone().unwrap_or_else(baton::store::default_url);
        Store::open(&url).await.map_err(Failure::input)
    }
}

#[derive(Subcommand)]
pub enum RunsCmd {
    /// List saved runs, newest first.
    List {
        /// Only runs of this topology (by name).
        #[arg(long)]
        topology: Option<String>,
        #[arg(long, value_enum, default_value_t)]
        format: OutFormat,
        #[command(flatten)]
        db: DbArg,
    },
    /// Show a saved run's timeline.
    Show {
        run: String,
        #[arg(long, value_enum, default_value_t)]
        format: OutFormat,
        #[command(flatten)]
        db: DbArg,
    },
    /// Delete a saved run.
    Delete {
        run: String,
        #[command(flatten)]
        db: DbArg,
    },
}

pub fn runtime() -> Result<tokio::runtime::Runtime, Failure> {
    tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().map_err(Failure::input)
}

pub fn runs(c: RunsCmd) -> Result<i32, Failure> {
    runtime()?.block_on(async move {
        match c {
            RunsCmd::List { topology, format, db } => {
                let store = db.open().await?;
                let runs = store.list_runs(topology.as_deref()).await.map_err(Failure::input)?;
                match format {
                    OutFormat::Json => println!("{}", serde_json::to_string(&runs).expect("serializes")),
                    OutFormat::Text => {
                        if runs.is_empty() {
                            println!("no runs in {}", store.url());
                        }
                        for r in &runs {
                            println!(
                                "{}  {:<20} {:<16} {:<11} {:>5} steps {:>3} transfers {:>2} lost  {}",
                                r.id,
                                r.topology,
                                r.scenario,
                                r.outcome.status.as_str(),
                                r.steps,
                                r.transfers,
                                r.lost_facts,
                                r.started_at
                            );
                        }
                    }
                }
                Ok(0)
            }
            RunsCmd::Show { run, format, db } => {
                let store = db.open().await?;
                let trace = store.load_trace(&run).await.map_err(Failure::input)?;
                super::run_cmds::print_trace(&trace, format);
                Ok(0)
            }
            RunsCmd::Delete { run, db } => {
                let store = db.open().await?;
                store.delete_run(&run).await.map_err(Failure::input)?;
                println!("deleted run {run}");
                Ok(0)
            }
        }
    })
}

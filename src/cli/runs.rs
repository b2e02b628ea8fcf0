//! `baton runs list | show | delete`: the runs saved in the store.

use super::Outcome;
use super::args::{DbArg, OutFormat, runtime};
use baton::api::{ListRunsArgs, RunIdArgs};

#[derive(clap::Subcommand)]
pub enum Cmd {
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
    /// Show a saved run's timeline (the same as `baton trace show RUN`).
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

pub fn run(c: Cmd) -> Outcome {
    match c {
        Cmd::List { topology, format, db } => {
            let api = db.api();
            let runs = runtime()?.block_on(api.list_runs(ListRunsArgs { topology }))?;
            super::print::runs(&runs, &db.url(), format);
            Ok(0)
        }
        Cmd::Show { run, format, db } => super::trace::show(&run, format, &db),
        Cmd::Delete { run, db } => {
            let api = db.api();
            runtime()?.block_on(api.delete_run(RunIdArgs { run_id: run.clone() }))?;
            println!("deleted run {run}");
            Ok(0)
        }
    }
}

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
        /// At most this many runs, newest first.
        #[arg(long, default_value_t = 1000)]
        limit: u32,
        /// Skip this many of the newest first (the next page).
        #[arg(long, default_value_t = 0)]
        offset: u32,
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
        Cmd::List { topology, limit, offset, format, db } => {
            let api = db.api();
            // One more than asked tells whether there is a next page.
            let page = ListRunsArgs { topology, limit: Some(limit.saturating_add(1)), offset: Some(offset) };
            let mut runs = runtime()?.block_on(api.list_runs(page))?;
            let more = runs.len() > limit as usize;
            runs.truncate(limit as usize);
            super::print::runs(&runs, &db.url(), format);
            if more && format == OutFormat::Text {
                println!("… more runs: `baton runs list --offset {}` shows the next {limit}", offset + limit);
            }
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

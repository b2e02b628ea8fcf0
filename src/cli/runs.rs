//! `baton runs list | show | mark | delete | prune`: the runs saved in the store.

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
    /// Mark a saved run good or bad (what `baton suspects` and the Runs home read).
    Mark {
        run: String,
        /// The run ended well.
        #[arg(long, conflicts_with_all = ["bad", "clear"])]
        good: bool,
        /// The run ended badly.
        #[arg(long, conflicts_with = "clear")]
        bad: bool,
        /// Remove the mark.
        #[arg(long)]
        clear: bool,
        /// Why, in words (kept with the mark).
        #[arg(long)]
        why: Option<String>,
        #[command(flatten)]
        db: DbArg,
    },
    /// Delete a saved run.
    Delete {
        run: String,
        #[command(flatten)]
        db: DbArg,
    },
    /// Delete every run that started longer ago than a duration (retention); running runs stay.
    Prune {
        /// How old a run must be to go: `30d`, `12h`, `2weeks` (humantime's units).
        #[arg(long, value_parser = humantime::parse_duration)]
        older_than: std::time::Duration,
        #[command(flatten)]
        db: DbArg,
    },
}

pub fn run(c: Cmd) -> Outcome {
    match c {
        Cmd::List { topology, limit, offset, format, db } => {
            let api = db.api();
            // One more than asked tells whether there is a next page.
            let page = ListRunsArgs {
                topology,
                limit: Some(limit.saturating_add(1)),
                offset: Some(offset),
                ..Default::default()
            };
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
        Cmd::Mark { run, good, bad, clear, why, db } => {
            use baton::trace::Judgement;
            let judgement = match (good, bad, clear) {
                (true, _, _) => Some(Judgement::Good),
                (_, true, _) => Some(Judgement::Bad),
                (_, _, true) => None,
                _ => {
                    return Err(baton::error::ApiError::new(
                        baton::error::ErrorCode::ApiArgs,
                        "say how the run ended: --good, --bad, or --clear to remove the mark",
                    ));
                }
            };
            let api = db.api();
            let m = runtime()?.block_on(api.mark_run(baton::api::MarkArgs { run_id: run.clone(), judgement, why }))?;
            match m {
                Some(m) => println!(
                    "marked run {run} {}{}",
                    m.judgement.as_str(),
                    m.why.map(|w| format!(": {w}")).unwrap_or_default()
                ),
                None => println!("cleared the mark of run {run}"),
            }
            Ok(0)
        }
        Cmd::Delete { run, db } => {
            let api = db.api();
            runtime()?.block_on(api.delete_run(RunIdArgs { run_id: run.clone() }))?;
            println!("deleted run {run}");
            Ok(0)
        }
        Cmd::Prune { older_than, db } => {
            let cutoff = std::time::SystemTime::now().checked_sub(older_than).ok_or_else(|| {
                baton::error::ApiError::new(
                    baton::error::ErrorCode::ApiArgs,
                    "--older-than reaches before 1970: give a shorter duration",
                )
            })?;
            let before = humantime::format_rfc3339_micros(cutoff).to_string();
            let url = db.url();
            let n = runtime()?.block_on(async {
                let store = baton::store::Store::open(&url).await?;
                store.prune_runs(&before).await
            });
            let n = n.map_err(|e| baton::error::ApiError::new(baton::error::ErrorCode::StoreDb, e.to_string()))?;
            println!("deleted {n} run(s) that started before {before} from {url}");
            Ok(0)
        }
    }
}

//! `baton trace show | import | export`: a saved run or a trace file; traces of other
//! frameworks into the store (through the core's one import loop); runs out as JSON or OTLP.

use super::Outcome;
use super::args::{DbArg, OutFormat, load, runtime, write_out};
use baton::api::ImportedRun;
use baton::import::{SourceFormat, TraceFormat};
use std::path::PathBuf;

#[derive(clap::Subcommand)]
pub enum Cmd {
    /// Print the timeline of a saved run (by id) or of a trace file.
    Show {
        /// A run id from `baton runs list`, or a trace file.
        run: String,
        #[arg(long, value_enum, default_value_t)]
        format: OutFormat,
        #[command(flatten)]
        db: DbArg,
    },
    /// Import a trace recorded by another framework into the store.
    Import {
        file: PathBuf,
        /// The file's format (auto tells it from the content).
        #[arg(long, value_enum, default_value_t)]
        from: TraceFormat,
        /// text: each run's timeline; json: the native traces (a JSON array).
        #[arg(long, value_enum, default_value_t)]
        format: OutFormat,
        /// A topology whose pinned facts (held by agents of the same names) are checked at
        /// every transfer.
        #[arg(long)]
        facts: Option<PathBuf>,
        /// Print only the summary.
        #[arg(long)]
        quiet: bool,
        /// Import even when the same file was imported before.
        #[arg(long)]
        again: bool,
        #[command(flatten)]
        db: DbArg,
    },
    /// Export a saved run.
    Export {
        run: String,
        #[arg(long = "to", value_enum)]
        to: TraceExport,
        #[arg(short = 'o', long = "output")]
        output: Option<PathBuf>,
        #[command(flatten)]
        db: DbArg,
    },
}

#[derive(Clone, Copy, clap::ValueEnum)]
pub enum TraceExport {
    /// The native trace format.
    Json,
    /// OTLP JSON with the OpenTelemetry GenAI conventions.
    Otlp,
}

/// A saved run or a trace file, printed (`trace show` and `runs show`).
pub fn show(run: &str, format: OutFormat, db: &DbArg) -> Outcome {
    let api = db.api();
    for trace in runtime()?.block_on(api.traces_of(run))? {
        super::print::trace(&trace, format);
    }
    Ok(0)
}

pub fn run(c: Cmd) -> Outcome {
    match c {
        Cmd::Show { run, format, db } => show(&run, format, &db),
        Cmd::Import { file, from, format, facts, quiet, again, db } => {
            let facts = facts.map(|f| load(&f)).transpose()?;
            let api = db.api();
            let bar = super::print::bytes_bar(std::fs::metadata(&file).map(|m| m.len()).unwrap_or(0), "importing");
            let bar2 = bar.clone();
            let progress: baton::api::ImportProgress = Box::new(move |done, _| {
                if let Some(b) = &bar2 {
                    b.set_position(done);
                }
            });
            let mut printed = 0usize;
            let mut on_run = |r: ImportedRun<'_>| {
                if !quiet {
                    match format {
                        OutFormat::Text => {
                            print!("{}", baton::trace::render_timeline(r.trace));
                            super::print::notes(r.trace);
                            // Its id is printed once the import commits (all or nothing).
                        }
                        OutFormat::Json => print!(
                            "{}{}",
                            if printed == 0 { "[" } else { "," },
                            serde_json::to_string(r.trace).expect("serializes")
                        ),
                    }
                }
                printed += 1;
            };
            let rt = runtime()?;
            let result = rt.block_on(api.import_file(
                file.clone(),
                baton::api::ImportHow { from, again, label: None },
                facts,
                Some(progress),
                &mut on_run,
            ));
            if let Some(b) = &bar {
                b.finish_and_clear();
            }
            let (ids, summary) = result?;
            match format {
                OutFormat::Json if !quiet => println!("]"),
                OutFormat::Text if !quiet => ids.iter().for_each(|id| println!("imported as run {id}")),
                _ => {}
            }
            eprintln!(
                "imported {} run(s) from {} ({}, {} records, {} bytes) into {}",
                summary.runs,
                file.display(),
                summary.format.map(SourceFormat::name).unwrap_or("?"),
                summary.records,
                summary.bytes,
                db.url()
            );
            for why in &summary.skipped {
                eprintln!("left out: {why}");
            }
            Ok(0)
        }
        Cmd::Export { run, to, output, db } => {
            let api = db.api();
            let trace = runtime()?.block_on(api.load_trace(&run))?;
            let text = match to {
                TraceExport::Json => super::print::json(&trace) + "\n",
                TraceExport::Otlp => super::print::json(&baton::trace::to_otlp(&trace)) + "\n",
            };
            write_out(output.as_deref(), &text)?;
            Ok(0)
        }
    }
}

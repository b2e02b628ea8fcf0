//! `baton run` and `baton trace show | export`: run a topology's scenario (optionally saving it
//! to the store) and print its timeline or native trace; show or export a saved run or file.

use super::Failure;
use super::store_cmds::{DbArg, runtime};
use super::topology_cmds::OutFormat;
use baton::engine::{EventSink, RunEvent, RunOptions};
use baton::trace::{OutcomeStatus, Trace, render_timeline};
use clap::{Args, Subcommand};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

#[derive(Args)]
pub struct RunArgs {
    /// Topology file (YAML or JSON).
    file: PathBuf,
    /// Scenario to run (default: the first).
    #[arg(long)]
    scenario: Option<String>,
    /// Also write the native trace (JSON) here.
    #[arg(long)]
    out: Option<PathBuf>,
    /// text: a readable timeline; json: the native trace.
    #[arg(long, value_enum, default_value_t)]
    format: OutFormat,
    /// Save the run to the store and print its id.
    #[arg(long)]
    save: bool,
    /// Use each agent's configured provider (keys from the environment or the OS keyring)
    /// instead of the scenario's mock scripts.
    #[arg(long)]
    live: bool,
    /// Simulated latency of each mock model call, in milliseconds.
    #[arg(long, value_name = "MS")]
    mock_delay_ms: Option<u64>,
    #[command(flatten)]
    db: DbArg,
}

#[derive(Subcommand)]
pub enum TraceCmd {
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
        /// auto, openai-agents, otlp or adk.
        #[arg(long, default_value = "auto")]
        from: String,
        /// text: each run's timeline; json: the native trace (an array when the file holds
        /// several runs).
        #[arg(long, value_enum, default_value_t)]
        format: OutFormat,
        /// A topology whose pinned facts (held by agents of the same names) are checked at
        /// every transfer.
        #[arg(long)]
        facts: Option<PathBuf>,
        /// Print only the summary.
        #[arg(long)]
        quiet: bool,
        #[command(flatten)]
        db: DbArg,
    },
    /// Export a saved run.
    Export {
        run: String,
        /// json: the native trace format; otlp: OTLP JSON with the OpenTelemetry GenAI conventions.
        #[arg(long = "to")]
        to: String,
        #[arg(short = 'o', long = "output")]
        output: Option<PathBuf>,
        #[command(flatten)]
        db: DbArg,
    },
}

fn progress() -> Option<EventSink> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new_spinner();
    bar.set_style(indicatif::ProgressStyle::with_template("{spinner} {elapsed} {msg}").expect("valid template"));
    bar.enable_steady_tick(std::time::Duration::from_millis(120));
    let mut steps = 0u64;
    Some(Box::new(move |e: &RunEvent| match e {
        RunEvent::Step(s) => {
            steps += 1;
            bar.set_message(format!("step {steps}: {} {}", s.agent, s.kind.as_str()));
        }
        RunEvent::Finished { .. } => bar.finish_and_clear(),
        _ => {}
    }))
}

/// Two sinks as one.
fn tee(a: Option<EventSink>, b: Option<EventSink>) -> Option<EventSink> {
    match (a, b) {
        (Some(mut a), Some(mut b)) => Some(Box::new(move |e: &RunEvent| {
            a(e);
            b(e);
        })),
        (a, None) => a,
        (None, b) => b,
    }
}

pub fn run(a: RunArgs) -> Result<i32, Failure> {
    let t = baton::config::load(&a.file).map_err(Failure::input)?;
    runtime()?.block_on(async move {
        let mut opts = RunOptions {
            scenario: a.scenario.clone(),
            mock_delay: a.mock_delay_ms.map(std::time::Duration::from_millis),
            providers: t.agents.iter().map(|ag| (ag.id.clone(), "mock".to_string())).collect(),
            ..Default::default()
        };
        let live = if a.live {
            let scenario = t.scenario(a.scenario.as_deref());
            let models =
                baton::providers::LiveModels::new(&t, scenario, opts.cancel.clone()).map_err(Failure::input)?;
            opts.providers = models.labels.clone();
            Some(models)
        } else {
            None
        };
        let mut recorder = None;
        if a.save {
            let store = a.db.open().await?;
            // Crash tests watch what is committed: BATON_REPORT_COMMITS=1 prints it to stderr.
            let hook: Option<baton::store::CommitHook> = std::env::var_os("BATON_REPORT_COMMITS")
                .map(|_| Box::new(|steps: u64| eprintln!("committed {steps} steps")) as baton::store::CommitHook);
            let id = baton::store::new_run_id();
            let (sink, rec) =
                store.record(&t, id.clone(), &opts.providers, None, hook).await.map_err(Failure::input)?;
            opts.run_id = Some(id);
            opts.sink = Some(sink);
            recorder = Some(rec);
        }
        opts.sink = tee(opts.sink.take(), progress());
        let cancel = opts.cancel.clone();
        let ctrl_c = tokio::spawn(async move {
            if tokio::signal::ctrl_c().await.is_ok() {
                cancel.cancel();
            }
        });
        let trace = match &live {
            Some(models) => baton::engine::run(&t, models, opts).await,
            None => baton::engine::run_mock(&t, opts).await,
        }
        .map_err(Failure::input);
        ctrl_c.abort();
        let trace = trace?;
        if let Some(rec) = recorder {
            let id = rec.run_id.clone();
            rec.finish().await.map_err(Failure::input)?;
            if a.format == OutFormat::Text {
                eprintln!("saved run {id}");
            }
        }
        emit(&trace, a.format, a.out.as_deref())
    })
}

pub fn print_trace(trace: &Trace, format: OutFormat) {
    match format {
        OutFormat::Text => print!("{}", render_timeline(trace)),
        OutFormat::Json => println!("{}", serde_json::to_string_pretty(trace).expect("traces serialize")),
    }
}

fn emit(trace: &Trace, format: OutFormat, out: Option<&Path>) -> Result<i32, Failure> {
    if let Some(p) = out {
        let json = serde_json::to_string_pretty(trace).expect("traces serialize");
        baton::config::write_atomic(p, json.as_bytes()).map_err(Failure::input)?;
    }
    print_trace(trace, format);
    if let (Some(id), OutFormat::Text) = (&trace.run_id, format) {
        println!("run id: {id}");
    }
    Ok(if trace.outcome.status == OutcomeStatus::Failed { 1 } else { 0 })
}

fn read_trace_file(file: &Path) -> Result<Trace, Failure> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| Failure::input(format!("{}: cannot read the file: {e}", file.display())))?;
    Trace::from_json(&text).map_err(|e| Failure::input(format!("{}: {e}", file.display())))
}

pub fn trace(c: TraceCmd) -> Result<i32, Failure> {
    match c {
        TraceCmd::Import { file, from, format, facts, quiet, db } => {
            super::import_cmd::import(file, &from, format, facts, quiet, db)
        }
        TraceCmd::Show { run, format, db } => {
            let trace = if Path::new(&run).exists() {
                read_trace_file(Path::new(&run))?
            } else {
                runtime()?.block_on(async { db.open().await?.load_trace(&run).await.map_err(Failure::input) })?
            };
            print_trace(&trace, format);
            Ok(0)
        }
        TraceCmd::Export { run, to, output, db } => {
            let trace =
                runtime()?.block_on(async { db.open().await?.load_trace(&run).await.map_err(Failure::input) })?;
            let text = match to.as_str() {
                "json" => serde_json::to_string_pretty(&trace).expect("traces serialize") + "\n",
                "otlp" => serde_json::to_string_pretty(&baton::trace::to_otlp(&trace)).expect("serializes") + "\n",
                other => {
                    return Err(Failure::input(format!("unknown trace format '{other}'; choose: json, otlp")));
                }
            };
            match output {
                Some(p) => baton::config::write_atomic(&p, text.as_bytes()).map_err(Failure::input)?,
                None => print!("{text}"),
            }
            Ok(0)
        }
    }
}

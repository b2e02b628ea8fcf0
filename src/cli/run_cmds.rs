//! `baton run` and `baton trace show`: run a topology's scenario and print its timeline or its
//! native trace; show a saved trace.

use super::Failure;
use super::topology_cmds::OutFormat;
use baton::engine::{RunEvent, RunOptions};
use baton::trace::{OutcomeStatus, Trace, render_timeline};
use clap::{Args, Subcommand};
use std::io::IsTerminal;
use std::path::PathBuf;

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
}

#[derive(Subcommand)]
pub enum TraceCmd {
    /// Print the timeline of a trace file.
    Show {
        file: PathBuf,
        #[arg(long, value_enum, default_value_t)]
        format: OutFormat,
    },
}

fn progress() -> Option<baton::engine::EventSink> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new_spinner();
    bar.set_style(
        indicatif::ProgressStyle::with_template("{spinner} {elapsed} {msg}")
            .expect("valid template"),
    );
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

pub fn run(a: RunArgs) -> Result<i32, Failure> {
    let t = baton::config::load(&a.file).map_err(Failure::input)?;
    let opts = RunOptions {
        scenario: a.scenario.clone(),
        sink: progress(),
        ..Default::default()
    };
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(Failure::input)?;
    let cancel = opts.cancel.clone();
    let trace = rt
        .block_on(async {
            tokio::select! {
                r = baton::engine::run_mock(&t, opts) => r,
                _ = async { let _ = tokio::signal::ctrl_c().await; cancel.cancel(); std::future::pending().await } => unreachable!(),
            }
        })
        .map_err(Failure::input)?;
    emit(&trace, a.format, a.out.as_ref())
}

fn emit(trace: &Trace, format: OutFormat, out: Option<&PathBuf>) -> Result<i32, Failure> {
    let json = || serde_json::to_string_pretty(trace).expect("traces serialize");
    if let Some(p) = out {
        baton::config::write_atomic(p, json().as_bytes()).map_err(Failure::input)?;
    }
    match format {
        OutFormat::Text => print!("{}", render_timeline(trace)),
        OutFormat::Json => println!("{}", json()),
    }
    Ok(if trace.outcome.status == OutcomeStatus::Failed {
        1
    } else {
        0
    })
}

pub fn trace(c: TraceCmd) -> Result<i32, Failure> {
    match c {
        TraceCmd::Show { file, format } => {
            let text = std::fs::read_to_string(&file).map_err(|e| {
                Failure::input(format!("{}: cannot read the file: {e}", file.display()))
            })?;
            let trace = Trace::from_json(&text)
                .map_err(|e| Failure::input(format!("{}: {e}", file.display())))?;
            match format {
                OutFormat::Text => print!("{}", render_timeline(&trace)),
                OutFormat::Json => println!(
                    "{}",
                    serde_json::to_string_pretty(&trace).expect("serializes")
                ),
            }
            Ok(0)
        }
    }
}

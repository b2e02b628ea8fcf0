//! `baton run FILE`: runs a scenario through the core's one run loop, optionally saving it,
//! and prints its timeline or native trace. The trace file is written and the run printed
//! before any store error is reported, so a store problem never loses a run's output.

use super::Outcome;
use super::args::{DbArg, OutFormat, load, runtime};
use baton::api::RunRequest;
use baton::engine::RunEvent;
use baton::trace::OutcomeStatus;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
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
    /// Call each agent's real provider (keys from the environment or the OS keyring) instead
    /// of answering from the scenario's mock scripts.
    #[arg(long)]
    live: bool,
    /// Simulated latency of each mock model call, in milliseconds.
    #[arg(long, value_name = "MS")]
    mock_delay_ms: Option<u64>,
    #[command(flatten)]
    db: DbArg,
}

pub fn run(a: Args) -> Outcome {
    let t = load(&a.file)?;
    let api = a.db.api();
    let mut req = RunRequest::new(t);
    req.scenario = a.scenario.clone();
    req.mock_delay = a.mock_delay_ms.map(std::time::Duration::from_millis);
    req.real_providers = a.live;
    req.save = a.save;
    // Crash tests watch what is committed: BATON_REPORT_COMMITS=1 prints it to stderr.
    if std::env::var_os("BATON_REPORT_COMMITS").is_some() {
        req.on_commit = Some(Box::new(|steps: u64| eprintln!("committed {steps} steps")));
    }
    let cancel = req.cancel.clone();
    runtime()?.block_on(async move {
        let mut prepared = api.prepare_run(req).await?;
        if let Some(bar) = super::print::spinner() {
            let mut steps = 0u64;
            prepared.tee(Box::new(move |e: &RunEvent| match e {
                RunEvent::Step(s) => {
                    steps += 1;
                    bar.set_message(format!("step {steps}: {} {}", s.agent, s.kind.as_str()));
                }
                RunEvent::Finished { .. } => bar.finish_and_clear(),
                _ => {}
            }));
        }
        let ctrl_c = tokio::spawn(async move {
            if tokio::signal::ctrl_c().await.is_ok() {
                cancel.cancel();
            }
        });
        let result = prepared.run().await;
        ctrl_c.abort();
        let result = result?;
        let trace = result.trace;
        if let Some(p) = &a.out {
            baton::config::write_atomic(p, super::print::json(&trace).as_bytes())?;
        }
        super::print::trace(&trace, a.format);
        match result.saved {
            Some(Ok(id)) if a.format == OutFormat::Text => {
                eprintln!("saved run {id}");
                println!("run id: {id}");
            }
            Some(Err(e)) => return Err(e.with_suffix(" (the run itself ended; its output is above)")),
            _ => {}
        }
        Ok(if trace.outcome.status == OutcomeStatus::Failed { 1 } else { 0 })
    })
}

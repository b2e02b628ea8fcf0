//! The `baton` command line: clap arguments, one module per command, one printer. Every
//! command calls the core's typed functions (`baton::api`), the same the desktop app and
//! `baton serve` reach. Exit codes: 0 success; 1 the command ran and found problems (lint
//! errors, a failed run); otherwise the error's category: 2 bad input, 3 not found, 4 busy
//! (a locked store), 5 internal.

mod args;
mod collect;
mod crash;
mod diff;
mod export;
mod fork;
mod import_code;
mod lint;
mod matrix;
mod print;
mod providers;
mod refactor;
mod run;
mod runs;
mod serve;
mod store;
mod suspects;
mod test;
mod trace;
mod validate;
mod whatif;

use baton::api::ApiError;
use clap::{Parser, Subcommand};

/// `baton --version`: the release and the commit it was built from.
const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (commit ", env!("BATON_COMMIT"), ")");

#[derive(Parser)]
#[command(name = "baton", version = VERSION, about = "Design, run and debug multi-agent topologies")]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check that a topology file parses and that its references resolve.
    Validate(validate::Args),
    /// Static checks: loops, unreachable agents, tool clashes, trust-versus-verify.
    Lint(lint::Args),
    /// Export a topology to config, code or a drawing.
    Export(export::Args),
    /// Read the topology an OpenAI Agents SDK or Google ADK module builds (or ADK Agent Config YAML).
    ImportCode(import_code::Args),
    /// Rewrite a topology.
    #[command(subcommand)]
    Refactor(refactor::Cmd),
    /// Print the JSON Schema of the topology format.
    Schema,
    /// Run a scenario of a topology (mock provider by default) and print its timeline or trace.
    Run(run::Args),
    /// List, show and delete saved runs.
    #[command(subcommand)]
    Runs(runs::Cmd),
    /// Serve the UI and the command layer over HTTP on 127.0.0.1 (browser tests, development).
    Serve(serve::Args),
    /// Listen for OpenTelemetry traces (OTLP/HTTP) from a running system and save its runs.
    Collect(collect::Args),
    /// Check model providers; manage their keys in the OS keyring.
    #[command(subcommand)]
    Providers(providers::Cmd),
    /// Work with traces: show, import from other frameworks, export.
    #[command(subcommand)]
    Trace(trace::Cmd),
    /// Every context policy at one handoff of a run: what the receiver would get (no model call).
    Whatif(whatif::Args),
    /// Re-run a recorded run from a step with a policy, model, instructions or context changed.
    Fork(fork::Args),
    /// Two runs lined up by transfer (from, to, occurrence), with the first divergence named.
    Diff(diff::Args),
    /// What did not reach each transfer's receiver, ranked by evidence that it mattered; the verdict.
    Suspects(suspects::Args),
    /// Run every scenario's `expect:` (mock by default); JUnit XML for CI; exit 1 on a failure.
    Test(test::Args),
    /// The same topology across models: every combination on every scenario, with cost and latency.
    Matrix(matrix::Args),
    /// Check the store's health, or back it up.
    #[command(subcommand)]
    Store(store::Cmd),
}

/// What a command returns: its exit code, or the error to report.
pub type Outcome = Result<i32, ApiError>;

pub fn main() -> i32 {
    crash::install();
    // A deliberate crash, to see where reports go and what they hold.
    if std::env::var_os("BATON_CRASH_TEST").is_some() {
        panic!("deliberate crash (BATON_CRASH_TEST is set)");
    }
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    // The long-running hosts log what they do by default; other commands only when asked.
    let _log = match &cli.command {
        Command::Serve(_) => baton::log::init("baton-serve", Some(baton::log::DEFAULT)),
        Command::Collect(_) => baton::log::init("baton-collect", Some(baton::log::DEFAULT)),
        _ => baton::log::init("baton", None),
    };
    let result = match cli.command {
        Command::Validate(a) => validate::run(a),
        Command::Lint(a) => lint::run(a),
        Command::Export(a) => export::run(a),
        Command::ImportCode(a) => import_code::run(a),
        Command::Refactor(c) => refactor::run(c),
        Command::Run(a) => run::run(a),
        Command::Trace(c) => trace::run(c),
        Command::Whatif(a) => whatif::run(a),
        Command::Fork(a) => fork::run(a),
        Command::Diff(a) => diff::run(a),
        Command::Suspects(a) => suspects::run(a),
        Command::Test(a) => test::run_cmd(a),
        Command::Matrix(a) => matrix::run(a),
        Command::Store(c) => store::run(c),
        Command::Runs(c) => runs::run(c),
        Command::Serve(a) => serve::run(a),
        Command::Collect(a) => collect::run(a),
        Command::Providers(c) => providers::run(c),
        Command::Schema => {
            print!("{}", baton::config::topology_schema());
            Ok(0)
        }
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {}", e.message);
            e.category().exit_code()
        }
    }
}

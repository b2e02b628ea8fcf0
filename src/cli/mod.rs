//! Argument parsing and output formatting for the `baton` CLI. Exit codes: 0 success, 1 the
//! command ran and found errors (lint errors, a failed run), 2 bad input (unreadable file,
//! parse error, bad arguments).

mod import_cmd;
mod provider_cmds;
mod run_cmds;
mod serve_cmd;
mod store_cmds;
mod topology_cmds;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "baton", version, about = "Design, run and debug multi-agent topologies")]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check that a topology file parses and that its references resolve.
    Validate(topology_cmds::ValidateArgs),
    /// Static checks: loops, unreachable agents, tool clashes, trust-versus-verify.
    Lint(topology_cmds::LintArgs),
    /// Export a topology to config, code or a drawing.
    Export(topology_cmds::ExportArgs),
    /// Rewrite a topology.
    #[command(subcommand)]
    Refactor(topology_cmds::RefactorCmd),
    /// Print the JSON Schema of the topology format.
    Schema,
    /// Run a scenario of a topology (mock provider by default) and print its timeline or trace.
    Run(run_cmds::RunArgs),
    /// List, show and delete saved runs.
    #[command(subcommand)]
    Runs(store_cmds::RunsCmd),
    /// Serve the UI and the command layer over HTTP on 127.0.0.1 (browser tests, development).
    Serve(serve_cmd::ServeArgs),
    /// Check model providers; manage their keys in the OS keyring.
    #[command(subcommand)]
    Providers(provider_cmds::ProvidersCmd),
    /// Work with traces.
    #[command(subcommand)]
    Trace(run_cmds::TraceCmd),
}

/// A failure to report: message on stderr, and the exit code.
pub struct Failure {
    pub code: i32,
    pub message: String,
}

impl Failure {
    pub fn input(message: impl std::fmt::Display) -> Failure {
        Failure { code: 2, message: message.to_string() }
    }
}

pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    let result = match cli.command {
        Command::Validate(a) => topology_cmds::validate(a),
        Command::Lint(a) => topology_cmds::lint(a),
        Command::Export(a) => topology_cmds::export(a),
        Command::Refactor(c) => topology_cmds::refactor(c),
        Command::Run(a) => run_cmds::run(a),
        Command::Trace(c) => run_cmds::trace(c),
        Command::Runs(c) => store_cmds::runs(c),
        Command::Serve(a) => serve_cmd::serve(a),
        Command::Providers(c) => provider_cmds::providers(c),
        Command::Schema => {
            print!("{}", baton::config::topology_schema());
            Ok(0)
        }
    };
    match result {
        Ok(code) => code,
        Err(f) => {
            eprintln!("error: {}", f.message);
            f.code
        }
    }
}

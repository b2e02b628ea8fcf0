//! `baton refactor supervisor FILE`: a handoff chain becomes a supervisor that delegates.

use super::Outcome;
use super::args::{load, write_out};
use std::path::PathBuf;

#[derive(clap::Subcommand)]
pub enum Cmd {
    /// Turn a chain of handoffs into a supervisor that delegates and keeps ownership.
    Supervisor {
        file: PathBuf,
        /// Handoff edge ids of the chain, in order (default: the longest chain from the entry).
        #[arg(long = "edge")]
        edges: Vec<String>,
        /// Write the result here (default: standard output, in the input's format).
        #[arg(short = 'o', long = "output")]
        output: Option<PathBuf>,
    },
}

pub fn run(c: Cmd) -> Outcome {
    let Cmd::Supervisor { file, edges, output } = c;
    let t = load(&file)?;
    let chain = (!edges.is_empty()).then_some(edges.as_slice());
    let done = baton::refactor::supervisor_refactor_preview(&t, chain)?;
    let format = baton::config::Format::from_path(output.as_deref().unwrap_or(&file));
    write_out(output.as_deref(), &baton::config::to_string(&done.topology, format)?)?;
    // What changed goes to stderr, so standard output stays the topology.
    let scope = if done.chosen { "the given edges" } else { "the longest handoff chain from the entry" };
    eprintln!("refactored {scope}: {}", done.chain.join(", "));
    for c in &done.changes {
        eprintln!("  - {}", c.text);
    }
    Ok(0)
}

//! `baton validate FILE`: the file parses and every reference resolves.

use super::Outcome;
use super::args::load;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// Topology file (YAML or JSON).
    file: PathBuf,
}

pub fn run(a: Args) -> Outcome {
    let t = load(&a.file)?;
    if let Err(e) = t.validate() {
        eprintln!("{}: {e}", a.file.display());
        return Ok(1);
    }
    println!(
        "{}: ok ({} agents, {} edges, {} scenarios)",
        a.file.display(),
        t.agents.len(),
        t.edges.len(),
        t.scenarios.len()
    );
    Ok(0)
}

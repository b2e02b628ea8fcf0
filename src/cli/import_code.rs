//! `baton import-code PATH`: the topology an Agents SDK, ADK, LangGraph or CrewAI module builds (or
//! ADK Agent Config YAML), printed as YAML or written with `-o` (YAML or JSON by the extension, as
//! `save` does).

use super::Outcome;
use super::args::write_out;
use baton::import_code::CodeOptions;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// A `.py` module, an ADK agent folder, or ADK Agent Config YAML (`root_agent.yaml`).
    path: PathBuf,
    /// The framework the module uses; by default, whichever it builds agents of.
    #[arg(long, value_parser = baton::import_code::Framework::NAMES)]
    framework: Option<String>,
    /// The agent a run starts at (by default `root_agent`, or the only top-level agent no other
    /// agent points to).
    #[arg(long)]
    entry: Option<String>,
    /// The Python interpreter that has the module's dependencies (by default the `.venv` beside
    /// the module, then `$BATON_PYTHON`, then `python3`).
    #[arg(long)]
    python: Option<PathBuf>,
    /// Run the module even where Baton's OS sandbox (bubblewrap on Linux) cannot start: its code
    /// then runs with your rights, only Python-level network calls blocked.
    #[arg(long)]
    trust_code: bool,
    /// Write the topology here (`.yaml`, `.yml` or `.json`) instead of printing YAML.
    #[arg(short = 'o', long = "output")]
    output: Option<PathBuf>,
}

pub fn run(a: Args) -> Outcome {
    let opts = CodeOptions { framework: a.framework, entry: a.entry, python: a.python, trust_code: a.trust_code };
    let imported = baton::api::read_code(&a.path, &opts)?;
    for n in &imported.notes {
        eprintln!("note: {n}");
    }
    let t = &imported.topology;
    match &a.output {
        Some(p) => baton::config::save(t, p)?,
        None => write_out(None, &baton::config::to_string(t, baton::config::Format::Yaml)?)?,
    }
    eprintln!(
        "{}: {} agents, {} edges ({} handoffs, {} delegations), entry {}{}",
        a.path.display(),
        t.agents.len(),
        t.edges.len(),
        t.edges.iter().filter(|e| e.kind == baton::topology::EdgeKind::Handoff).count(),
        t.edges.iter().filter(|e| e.kind == baton::topology::EdgeKind::Delegation).count(),
        t.entry,
        a.output.as_ref().map(|p| format!("; written to {}", p.display())).unwrap_or_default()
    );
    // On stderr: standard output may be the topology itself.
    for f in &imported.findings {
        let at = f.source.as_ref().map(|s| format!(" (defined at {s})")).unwrap_or_default();
        eprintln!("{}[{}]: {}{at}", f.severity.as_str(), f.code, f.message);
    }
    Ok(0)
}

//! `baton validate | lint | export | refactor`: commands over topology files.

use super::Failure;
use baton::api;
use baton::lint::{Severity, has_errors};
use clap::{Args, Subcommand, ValueEnum};
use std::path::PathBuf;

#[derive(Clone, Copy, ValueEnum, Default, PartialEq, Eq)]
pub enum OutFormat {
    #[default]
    Text,
    Json,
}

#[derive(Args)]
pub struct ValidateArgs {
    /// Topology file (YAML or JSON).
    file: PathBuf,
}

#[derive(Args)]
pub struct LintArgs {
    file: PathBuf,
    #[arg(long, value_enum, default_value_t)]
    format: OutFormat,
}

#[derive(Args)]
pub struct ExportArgs {
    file: PathBuf,
    /// yaml, json, openai-agents-py, mermaid or dot.
    #[arg(long = "to")]
    to: String,
    /// Write here instead of standard output.
    #[arg(short = 'o', long = "output")]
    output: Option<PathBuf>,
}

#[derive(Subcommand)]
pub enum RefactorCmd {
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

fn open(file: &std::path::Path) -> Result<baton::topology::Topology, Failure> {
    baton::config::load(file).map_err(Failure::input)
}

pub fn validate(a: ValidateArgs) -> Result<i32, Failure> {
    let t = open(&a.file)?;
    t.validate().map_err(|e| Failure { code: 1, message: format!("{}: {e}", a.file.display()) })?;
    println!(
        "{}: ok ({} agents, {} edges, {} scenarios)",
        a.file.display(),
        t.agents.len(),
        t.edges.len(),
        t.scenarios.len()
    );
    Ok(0)
}

pub fn lint(a: LintArgs) -> Result<i32, Failure> {
    let t = open(&a.file)?;
    let findings = api::lint_topology(&t);
    match a.format {
        OutFormat::Json => {
            println!("{}", serde_json::json!({ "findings": findings }));
        }
        OutFormat::Text => {
            if findings.is_empty() {
                println!("{}: no findings", a.file.display());
            }
            for f in &findings {
                let mark = match f.severity {
                    Severity::Error => "error",
                    Severity::Warning => "warning",
                    Severity::Info => "info",
                };
                let mut at = vec![];
                if !f.agents.is_empty() {
                    at.push(format!("agents: {}", f.agents.join(", ")));
                }
                if !f.edges.is_empty() {
                    at.push(format!("edges: {}", f.edges.join(", ")));
                }
                println!("{}: {mark}[{}]: {}", a.file.display(), f.code, f.message);
                if !at.is_empty() {
                    println!("    {}", at.join("; "));
                }
            }
        }
    }
    Ok(if has_errors(&findings) { 1 } else { 0 })
}

fn write_out(output: Option<&PathBuf>, text: &str) -> Result<(), Failure> {
    match output {
        Some(p) => baton::config::write_atomic(p, text.as_bytes()).map_err(Failure::input),
        None => {
            print!("{text}");
            Ok(())
        }
    }
}

pub fn export(a: ExportArgs) -> Result<i32, Failure> {
    let t = open(&a.file)?;
    let text = api::export_topology(&t, &a.to).map_err(Failure::input)?;
    write_out(a.output.as_ref(), &text)?;
    Ok(0)
}

pub fn refactor(c: RefactorCmd) -> Result<i32, Failure> {
    match c {
        RefactorCmd::Supervisor { file, edges, output } => {
            let t = open(&file)?;
            let out = api::refactor_supervisor(&t, &edges).map_err(Failure::input)?;
            let format = baton::config::Format::from_path(output.as_deref().unwrap_or(&file));
            let text = baton::config::to_string(&out, format).map_err(Failure::input)?;
            write_out(output.as_ref(), &text)?;
            Ok(0)
        }
    }
}

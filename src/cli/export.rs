//! `baton export FILE --to FORMAT`: config, code or a drawing of a topology.

use super::Outcome;
use super::args::{load, write_out};
use baton::export::ExportFormat;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    file: PathBuf,
    #[arg(long = "to", value_enum)]
    to: ExportFormat,
    /// Write here instead of standard output (for adk-yaml: the folder its files go in, whose
    /// name is the Python package its tools are referenced from).
    #[arg(short = 'o', long = "output")]
    output: Option<PathBuf>,
}

pub fn run(a: Args) -> Outcome {
    let t = load(&a.file)?;
    for w in baton::export::warnings(&t, a.to) {
        eprintln!("warning: {w}");
    }
    if let (ExportFormat::AdkYaml, Some(dir)) = (a.to, a.output.as_deref()) {
        let package = dir.file_name().and_then(|n| n.to_str()).unwrap_or("agent").to_owned();
        let files = baton::export::to_adk_yaml_files(&t, &package)?;
        std::fs::create_dir_all(dir).map_err(|e| {
            baton::api::ApiError::new(
                baton::api::ErrorCode::ConfigWrite,
                format!("cannot create {}: {e}", dir.display()),
            )
        })?;
        for (name, text) in &files {
            baton::config::write_atomic(&dir.join(name), text.as_bytes())?;
        }
        eprintln!("wrote {} files to {}", files.len(), dir.display());
        return Ok(0);
    }
    let text = baton::export::export(&t, a.to)?;
    write_out(a.output.as_deref(), &text)?;
    Ok(0)
}

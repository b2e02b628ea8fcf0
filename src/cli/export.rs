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
    /// Write here instead of standard output.
    #[arg(short = 'o', long = "output")]
    output: Option<PathBuf>,
}

pub fn run(a: Args) -> Outcome {
    let t = load(&a.file)?;
    let text = baton::export::export(&t, a.to)?;
    write_out(a.output.as_deref(), &text)?;
    Ok(0)
}

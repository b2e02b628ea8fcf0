//! `baton lint FILE`: every lint rule's findings; exit 1 when one is an error.

use super::Outcome;
use super::args::{OutFormat, load};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    file: PathBuf,
    #[arg(long, value_enum, default_value_t)]
    format: OutFormat,
}

pub fn run(a: Args) -> Outcome {
    let t = load(&a.file)?;
    let findings = baton::lint::lint(&t);
    super::print::findings(&a.file.display().to_string(), &findings, a.format);
    Ok(if baton::lint::has_errors(&findings) { 1 } else { 0 })
}

//! The host-agnostic command layer: every operation the CLI, the desktop app and the browser
//! test server offer, with errors as `{code, message}`. Hosts only translate arguments.

pub mod bindings;
mod error;

pub use error::ApiError;

use crate::config::{self, Format};
use crate::export::{self, ExportFormat};
use crate::lint::{self, Finding};
use crate::refactor;
use crate::topology::Topology;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// A topology as opened from a file, with its lint findings.
#[derive(Debug, Clone, Serialize, Deserialize, ts_rs::TS)]
pub struct OpenedTopology {
    pub path: String,
    pub topology: Topology,
    pub findings: Vec<Finding>,
}

/// Reads a topology file and lints it.
pub fn open_topology(path: &Path) -> Result<OpenedTopology, ApiError> {
    let topology = config::load(path)?;
    let findings = lint::lint(&topology);
    Ok(OpenedTopology {
        path: path.display().to_string(),
        topology,
        findings,
    })
}

/// Parses topology text (YAML or JSON).
pub fn parse_topology(text: &str, json: bool) -> Result<Topology, ApiError> {
    Ok(config::parse(
        text,
        if json { Format::Json } else { Format::Yaml },
        "<input>",
    )?)
}

/// Saves a topology where the user chose; the format follows the extension.
pub fn save_topology(t: &Topology, path: &Path) -> Result<(), ApiError> {
    Ok(config::save(t, path)?)
}

/// Lint findings for a topology.
pub fn lint_topology(t: &Topology) -> Vec<Finding> {
    lint::lint(t)
}

/// Renders an export.
pub fn export_topology(t: &Topology, format: &str) -> Result<String, ApiError> {
    let f = ExportFormat::parse(format).ok_or_else(|| {
        ApiError::new(
            "export.format",
            format!(
                "unknown export format '{format}'; choose one of: {}",
                ExportFormat::ALL
                    .iter()
                    .map(|f| f.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )
    })?;
    Ok(export::export(t, f)?)
}

/// Applies the supervisor refactor to a handoff chain (edge ids; the longest from the entry
/// when empty).
pub fn refactor_supervisor(t: &Topology, chain: &[String]) -> Result<Topology, ApiError> {
    let chain = (!chain.is_empty()).then_some(chain);
    Ok(refactor::supervisor_refactor(t, chain)?.0)
}

//! The designer's commands: open, create, save, lint, export and refactor topologies.

use super::{Api, NoArgs, blocking};
use crate::config;
use crate::error::{ApiError, ErrorCode};
use crate::export::{self, ExportFormat};
use crate::lint::{self, Finding};
use crate::refactor;
use crate::topology::Topology;
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::sync::Arc;

/// A topology as opened from a file, with its lint findings.
#[derive(Debug, Clone, Serialize, Deserialize, ts_rs::TS)]
pub struct OpenedTopology {
    pub path: String,
    pub topology: Topology,
    pub findings: Vec<Finding>,
}

/// A file path as the host shows it (relative to `baton serve`'s root).
#[derive(Debug, Clone, Serialize, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct PathArgs {
    pub path: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct NewTopologyArgs {
    pub name: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct SaveArgs {
    pub topology: Topology,
    pub path: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct WriteTextArgs {
    pub path: String,
    pub text: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct LintArgs {
    pub topology: Topology,
}

#[derive(Debug, Clone, Serialize, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct ExportArgs {
    pub topology: Topology,
    pub format: ExportFormat,
}

#[derive(Debug, Clone, Serialize, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct RefactorArgs {
    pub topology: Topology,
    /// Handoff edge ids of the chain, in order; the longest chain from the entry when empty.
    #[serde(default)]
    #[ts(as = "Option<Vec<String>>", optional)]
    pub chain: Vec<String>,
}

/// Reads a topology file and lints it.
pub fn open_topology(path: &Path) -> Result<OpenedTopology, ApiError> {
    let topology = config::load(path)?;
    let findings = lint::lint(&topology);
    Ok(OpenedTopology { path: path.display().to_string(), topology, findings })
}

impl Api {
    pub async fn list_files(self: &Arc<Self>, _: NoArgs) -> Result<Vec<super::FileEntry>, ApiError> {
        let api = self.clone();
        blocking(move || api.files.list()).await
    }

    pub async fn open_topology(self: &Arc<Self>, a: PathArgs) -> Result<OpenedTopology, ApiError> {
        let api = self.clone();
        blocking(move || {
            let path = api.files.resolve(&a.path)?;
            let mut opened = open_topology(&path)?;
            opened.path = api.files.display(&path);
            Ok(opened)
        })
        .await
    }

    pub async fn new_topology(self: &Arc<Self>, a: NewTopologyArgs) -> Result<Topology, ApiError> {
        // A topology drawn in the app has its identity from the start.
        Ok(Topology { id: Some(crate::topology::new_topology_id()), ..Topology::new(&a.name) })
    }

    pub async fn save_topology(self: &Arc<Self>, mut a: SaveArgs) -> Result<(), ApiError> {
        a.topology.normalize();
        let api = self.clone();
        let t = a.topology.clone();
        blocking(move || {
            // A topology is YAML or JSON; any other name would get YAML under a misleading extension.
            let ext = std::path::Path::new(&a.path).extension().and_then(|x| x.to_str()).map(str::to_ascii_lowercase);
            if !matches!(ext.as_deref(), Some("yaml" | "yml" | "json")) {
                return Err(ApiError::new(
                    ErrorCode::ConfigWrite,
                    format!(
                        "cannot save a topology as '{}': name it .yaml, .yml or .json (the extension picks the format)",
                        a.path
                    ),
                ));
            }
            let path = api.files.resolve_for_write(&a.path)?;
            Ok(config::save(&a.topology, &path)?)
        })
        .await?;
        // Every saved version is kept in the store too (best effort: a store problem must not
        // stop the user from saving a file).
        if let Ok(store) = self.store().await {
            let _ = store.save_topology(&t).await;
        }
        Ok(())
    }

    pub async fn write_text(self: &Arc<Self>, a: WriteTextArgs) -> Result<(), ApiError> {
        let api = self.clone();
        blocking(move || {
            let path = api.files.resolve_for_write(&a.path)?;
            Ok(config::write_atomic(&path, a.text.as_bytes())?)
        })
        .await
    }

    pub async fn lint_topology(self: &Arc<Self>, mut a: LintArgs) -> Result<Vec<Finding>, ApiError> {
        a.topology.normalize();
        blocking(move || Ok(lint::lint(&a.topology))).await
    }

    pub async fn fact_flow(self: &Arc<Self>, mut a: LintArgs) -> Result<Vec<lint::EdgeFlow>, ApiError> {
        a.topology.normalize();
        blocking(move || Ok(lint::fact_flow(&a.topology))).await
    }

    pub async fn export_topology(self: &Arc<Self>, mut a: ExportArgs) -> Result<String, ApiError> {
        a.topology.normalize();
        blocking(move || Ok(export::export(&a.topology, a.format)?)).await
    }

    pub async fn refactor_supervisor(self: &Arc<Self>, mut a: RefactorArgs) -> Result<refactor::Refactored, ApiError> {
        a.topology.normalize();
        let chain = (!a.chain.is_empty()).then_some(a.chain.as_slice());
        Ok(refactor::supervisor_refactor_preview(&a.topology, chain)?)
    }
}

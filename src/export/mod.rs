//! Exports of a topology to config and code: YAML, JSON, an OpenAI Agents SDK module, a Google
//! ADK module or Agent Config YAML, a LangGraph module, and Mermaid and Graphviz drawings in which
//! handoffs and delegations never look alike.

mod adk;
mod diagram;
mod langgraph_py;
mod openai_py;

pub use adk::{adk_warnings, to_adk_py, to_adk_yaml, to_adk_yaml_files};
pub use diagram::{to_dot, to_mermaid};
pub use langgraph_py::{langgraph_warnings, to_langgraph_py};
pub use openai_py::to_openai_agents_py;

use crate::config::{self, ConfigError, Format};
use crate::topology::Topology;

/// Every export format, with its CLI name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, ts_rs::TS, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum ExportFormat {
    Yaml,
    Json,
    OpenaiAgentsPy,
    AdkPy,
    AdkYaml,
    LanggraphPy,
    Mermaid,
    Dot,
}

impl ExportFormat {
    pub const ALL: [ExportFormat; 8] = [
        ExportFormat::Yaml,
        ExportFormat::Json,
        ExportFormat::OpenaiAgentsPy,
        ExportFormat::AdkPy,
        ExportFormat::AdkYaml,
        ExportFormat::LanggraphPy,
        ExportFormat::Mermaid,
        ExportFormat::Dot,
    ];

    pub fn name(self) -> &'static str {
        match self {
            ExportFormat::Yaml => "yaml",
            ExportFormat::Json => "json",
            ExportFormat::OpenaiAgentsPy => "openai-agents-py",
            ExportFormat::AdkPy => "adk-py",
            ExportFormat::AdkYaml => "adk-yaml",
            ExportFormat::LanggraphPy => "langgraph-py",
            ExportFormat::Mermaid => "mermaid",
            ExportFormat::Dot => "dot",
        }
    }

    /// The usual file extension for a saved export.
    pub fn extension(self) -> &'static str {
        match self {
            ExportFormat::Yaml => "yaml",
            ExportFormat::Json => "json",
            ExportFormat::OpenaiAgentsPy | ExportFormat::AdkPy | ExportFormat::LanggraphPy => "py",
            ExportFormat::AdkYaml => "yaml",
            ExportFormat::Mermaid => "mmd",
            ExportFormat::Dot => "dot",
        }
    }

    /// How the UI names it.
    pub fn label(self) -> &'static str {
        match self {
            ExportFormat::Yaml => "YAML",
            ExportFormat::Json => "JSON",
            ExportFormat::OpenaiAgentsPy => "OpenAI Agents SDK (Python)",
            ExportFormat::AdkPy => "Google ADK (Python)",
            ExportFormat::AdkYaml => "Google ADK Agent Config (YAML files)",
            ExportFormat::LanggraphPy => "LangGraph (Python)",
            ExportFormat::Mermaid => "Mermaid",
            ExportFormat::Dot => "Graphviz DOT",
        }
    }
}

/// Renders a topology in the given format.
pub fn export(t: &Topology, format: ExportFormat) -> Result<String, ConfigError> {
    Ok(match format {
        ExportFormat::Yaml => config::to_string(t, Format::Yaml)?,
        ExportFormat::Json => config::to_string(t, Format::Json)?,
        ExportFormat::OpenaiAgentsPy => to_openai_agents_py(t)?,
        ExportFormat::AdkPy => to_adk_py(t)?,
        ExportFormat::AdkYaml => to_adk_yaml(t)?,
        ExportFormat::LanggraphPy => to_langgraph_py(t)?,
        ExportFormat::Mermaid => to_mermaid(t),
        ExportFormat::Dot => to_dot(t),
    })
}

/// What the export cannot express, one sentence per edge or agent (printed as warnings; the
/// code says the same in comments).
pub fn warnings(t: &Topology, format: ExportFormat) -> Vec<String> {
    match format {
        ExportFormat::AdkPy | ExportFormat::AdkYaml => adk_warnings(t),
        ExportFormat::LanggraphPy => langgraph_warnings(t),
        _ => vec![],
    }
}

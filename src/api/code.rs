//! `import_code`: a topology read from the user's agent code (Agents SDK, ADK, LangGraph or CrewAI
//! module, ADK Agent Config YAML), returned with its lint findings and what could not be carried over. The
//! hosts open it unsaved; nothing is written.

use super::{Api, blocking};
use crate::error::{ApiError, ErrorCode};
use crate::import_code::{CodeOptions, candidates, import_code};
use crate::lint::{self, Finding};
use crate::topology::Topology;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

#[derive(Debug, Clone, Serialize, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct ImportCodeArgs {
    /// A `.py` module, an ADK agent folder, or ADK Agent Config YAML.
    pub path: String,
    /// `openai-agents`, `adk`, `langgraph` or `crewai`; by default, whichever the module builds.
    #[serde(default)]
    #[ts(optional)]
    pub framework: Option<String>,
    /// The agent a run starts at, when the module does not say.
    #[serde(default)]
    #[ts(optional)]
    pub entry: Option<String>,
    /// Run the module without an OS sandbox where none can start (the user trusts its code).
    #[serde(default)]
    #[ts(optional)]
    pub trust_code: Option<bool>,
    /// The interpreter: one of those `code_interpreters` lists for this path (a window never
    /// names any other executable); by default the first.
    #[serde(default)]
    #[ts(optional)]
    pub python: Option<String>,
}

/// Which module's interpreters to list.
#[derive(Debug, Clone, Serialize, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct CodeInterpretersArgs {
    /// A `.py` module, an ADK agent folder, or ADK Agent Config YAML.
    pub path: String,
}

/// A Python interpreter Baton found for a module.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct Interpreter {
    pub path: String,
    /// Where it was found: beside the module, above it, `$BATON_PYTHON`, PATH.
    pub found: String,
}

/// The topology read from code.
#[derive(Debug, Clone, Serialize, Deserialize, ts_rs::TS)]
pub struct ImportedCode {
    pub topology: Topology,
    pub findings: Vec<Finding>,
    /// What the framework has that the topology does not carry (hosted tools, output keys…).
    pub notes: Vec<String>,
}

/// Reads the code at `path` (the interpreter by `opts`) into a topology, with its findings.
pub fn read_code(path: &std::path::Path, opts: &CodeOptions) -> Result<ImportedCode, ApiError> {
    let imported = import_code(path, opts)?;
    let findings = lint::lint(&imported.topology);
    Ok(ImportedCode { topology: imported.topology, findings, notes: imported.notes })
}

impl Api {
    pub async fn import_code(self: &Arc<Self>, a: ImportCodeArgs) -> Result<ImportedCode, ApiError> {
        let api = self.clone();
        blocking(move || {
            let path = api.files.resolve(&a.path)?;
            // The interpreter is one Baton found for the module (a venv beside or above it,
            // $BATON_PYTHON, python3): a window never names another executable to run.
            let python = match a.python {
                None => None,
                Some(chosen) => Some(
                    candidates(&path).into_iter().map(|(p, _)| p).find(|p| p.to_string_lossy() == chosen).ok_or_else(
                        || {
                            ApiError::new(
                                ErrorCode::CodePython,
                                format!(
                                    "{chosen} is not an interpreter Baton found for this module; pick one of those \
                                     listed (a virtual environment beside or above it, $BATON_PYTHON, python3), or \
                                     run `baton import-code --python PATH` from a terminal"
                                ),
                            )
                        },
                    )?,
                ),
            };
            let opts = CodeOptions {
                framework: a.framework,
                entry: a.entry,
                python,
                trust_code: a.trust_code.unwrap_or(false),
            };
            read_code(&path, &opts)
        })
        .await
    }

    /// The interpreters `import_code` may use for a module, the default first.
    pub async fn code_interpreters(self: &Arc<Self>, a: CodeInterpretersArgs) -> Result<Vec<Interpreter>, ApiError> {
        let api = self.clone();
        blocking(move || {
            let path = api.files.resolve(&a.path)?;
            Ok(candidates(&path)
                .into_iter()
                .map(|(p, found)| Interpreter { path: p.to_string_lossy().into_owned(), found: found.into() })
                .collect())
        })
        .await
    }
}

//! `baton import-code`: the agents people already wrote, read from their code. A Python module
//! (OpenAI Agents SDK, Google ADK, LangGraph, CrewAI) is imported under `introspect.py` in the
//! user's own interpreter; ADK Agent Config YAML is read here, without Python. Both give a
//! [`CodeModel`] that `map` turns into a topology whose agents remember where they were defined.

mod adk_yaml;
mod crewai;
mod map;
mod model;
mod python;
mod sandbox;

pub use map::{Imported, model_ref};
pub use model::{CodeModel, Framework};
pub use python::candidates;

use crate::error::{Coded, ErrorCode};
use std::path::{Path, PathBuf};

/// Why a module could not be read. Nothing is written in any case.
#[derive(Debug, thiserror::Error)]
pub enum CodeError {
    #[error("{0}")]
    Read(String),
    #[error("{0}")]
    Python(String),
    #[error("{0}")]
    Module(String),
    #[error("{0}")]
    NoAgents(String),
    #[error("{0}")]
    Entry(String),
    #[error("{0}")]
    Output(String),
    #[error("{0}")]
    Sandbox(String),
}

impl Coded for CodeError {
    fn code(&self) -> ErrorCode {
        match self {
            CodeError::Read(_) => ErrorCode::CodeRead,
            CodeError::Python(_) => ErrorCode::CodePython,
            CodeError::Module(_) => ErrorCode::CodeModule,
            CodeError::NoAgents(_) => ErrorCode::CodeNoAgents,
            CodeError::Entry(_) => ErrorCode::CodeEntry,
            CodeError::Output(_) => ErrorCode::CodePython,
            CodeError::Sandbox(_) => ErrorCode::CodeSandbox,
        }
    }
}

/// How to read the code.
#[derive(Debug, Clone, Default)]
pub struct CodeOptions {
    /// `openai-agents`, `adk`, `langgraph` or `crewai`; by default, whichever the module builds.
    pub framework: Option<String>,
    /// The agent a run starts at, when the module does not say.
    pub entry: Option<String>,
    /// The interpreter; by default the `.venv` beside the module, `$BATON_PYTHON`, `python3`.
    pub python: Option<PathBuf>,
    /// Run the module without an OS sandbox when none works here (its code is trusted).
    pub trust_code: bool,
}

/// Reads the agents `path` defines (a `.py` module, an ADK agent folder, or ADK Agent Config
/// YAML) and builds their topology.
pub fn import_code(path: &Path, opts: &CodeOptions) -> Result<Imported, CodeError> {
    let path =
        std::fs::canonicalize(path).map_err(|e| CodeError::Read(format!("cannot read {}: {e}", path.display())))?;
    if let Some(f) = opts.framework.as_deref()
        && !Framework::NAMES.contains(&f)
    {
        return Err(CodeError::Read(format!("unknown framework '{f}'; use {}", Framework::NAMES.join(", "))));
    }
    let yaml = matches!(path.extension().and_then(|e| e.to_str()), Some("yaml" | "yml"));
    let mut sandbox_note = None;
    let model = if yaml {
        adk_yaml::read(&path)?
    } else if path.is_dir() && path.join("root_agent.yaml").is_file() && !path.join("agent.py").is_file() {
        adk_yaml::read(&path.join("root_agent.yaml"))?
    } else {
        if !path.is_dir() && path.extension().and_then(|e| e.to_str()) != Some("py") {
            return Err(CodeError::Read(format!(
                "{} is not a Python module (.py), an ADK agent folder or ADK Agent Config YAML",
                path.display()
            )));
        }
        let (python, _) = python::interpreter(&path, opts.python.as_deref());
        let (model, confinement) = python::introspect(&path, &python, opts.framework.as_deref(), opts.trust_code)?;
        sandbox_note = Some(confinement.describe());
        model
    };
    let name = path
        .file_stem()
        .and_then(|s| s.to_str())
        .map(|s| if s == "agent" || s == "root_agent" || s == "__init__" { None } else { Some(s) })
        .unwrap_or(None)
        .or_else(|| path.parent().and_then(|p| p.file_name()).and_then(|s| s.to_str()))
        .unwrap_or("imported")
        .replace('_', "-");
    let mut imported = map::to_topology(&model, opts.entry.as_deref(), &name)?;
    imported.notes.extend(sandbox_note.map(str::to_owned));
    Ok(imported)
}

/// The error for a module the script could not read: what failed, the last frame of the user's
/// code, and a hint.
fn failure(module: &Path, python: &Path, e: model::ScriptError) -> CodeError {
    let at = match (&e.file, e.line) {
        (Some(f), Some(l)) => format!(" at {f}:{l}"),
        _ => String::new(),
    };
    let frame = e.frame.as_deref().map(|f| format!("\n  {f}")).unwrap_or_default();
    match e.kind.as_str() {
        "missing_module" => {
            let missing = e.module.clone().unwrap_or_else(|| "the missing package".into());
            let pkg = Framework::install_name(&missing);
            CodeError::Module(format!(
                "{} imports {missing}, which {} cannot find{at}: {}{frame}\nInstall it into that interpreter \
                 (`{} -m pip install {pkg}`), or use the interpreter your app uses: `--python` on the command \
                 line; in the window, pick it in the Python field (the virtual environments beside or above the \
                 module, $BATON_PYTHON and python3 are offered)",
                module.display(),
                python.display(),
                e.message,
                python.display()
            ))
        }
        "syntax" => CodeError::Module(format!(
            "{} has a syntax error{at}: {}{frame}\nFix it and import again",
            module.display(),
            e.message
        )),
        "no_agents" => CodeError::NoAgents(format!(
            "{} builds no agent at import time ({}); define the agents at module level, or check --framework",
            module.display(),
            e.message
        )),
        _ => CodeError::Module(format!(
            "importing {} raised {}{at}{frame}\nBaton imports the module the way Python does; make it importable \
             without side effects (put run code under `if __name__ == \"__main__\":`)",
            module.display(),
            e.message
        )),
    }
}

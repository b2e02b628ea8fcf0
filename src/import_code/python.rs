//! Runs the introspection script in the user's Python: the interpreter given, else the `.venv`
//! beside the module (or above it), else `$BATON_PYTHON`, else `python3`. The script reads the
//! agents the module builds and prints them; it never runs an agent nor opens a connection.

use super::CodeError;
use super::model::{CodeModel, ScriptFailure};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const SCRIPT: &str = include_str!("introspect.py");
/// Importing a module with heavy dependencies (ADK pulls in google-genai, CrewAI chromadb) takes
/// seconds.
const TIMEOUT: Duration = Duration::from_secs(120);
const MAX_OUTPUT: u64 = 64 << 20;

/// The interpreter to use for `module`, and why it was chosen.
pub fn interpreter(module: &Path, given: Option<&Path>) -> (PathBuf, &'static str) {
    if let Some(p) = given {
        return (p.to_path_buf(), "--python");
    }
    let start = if module.is_dir() { Some(module) } else { module.parent() };
    for dir in start.into_iter().flat_map(Path::ancestors) {
        let venv = dir.join(".venv/bin/python");
        if venv.is_file() {
            return (venv, "the .venv beside the module");
        }
    }
    match std::env::var_os("BATON_PYTHON") {
        Some(p) if !p.is_empty() => (PathBuf::from(p), "$BATON_PYTHON"),
        _ => (PathBuf::from("python3"), "python3 on PATH"),
    }
}

/// Runs the script on `module` and parses what it prints.
pub fn introspect(module: &Path, python: &Path, framework: Option<&str>) -> Result<CodeModel, CodeError> {
    // The script runs in the module's folder: a relative interpreter path is the caller's.
    let python = if python.is_relative() && python.components().count() > 1 {
        std::env::current_dir().map(|d| d.join(python)).unwrap_or_else(|_| python.to_path_buf())
    } else {
        python.to_path_buf()
    };
    let python = python.as_path();
    let mut cmd = Command::new(python);
    cmd.arg("-").arg(module);
    if let Some(f) = framework {
        cmd.args(["--framework", f]);
    }
    if let Some(dir) = module.parent() {
        cmd.current_dir(if module.is_dir() { module } else { dir });
    }
    // No output buffering surprises; no bytecode written into the user's folders.
    cmd.env("PYTHONUNBUFFERED", "1").env("PYTHONDONTWRITEBYTECODE", "1");
    let mut child = cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().map_err(|e| {
        CodeError::Python(format!(
            "cannot start the Python interpreter {}: {e}; give one with --python (a venv's bin/python that has your \
             framework installed)",
            python.display()
        ))
    })?;
    let mut stdin = child.stdin.take().expect("piped");
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(SCRIPT.as_bytes());
    });
    let mut out_pipe = child.stdout.take().expect("piped");
    let mut err_pipe = child.stderr.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut out = vec![];
        let _ = (&mut out_pipe).take(MAX_OUTPUT).read_to_end(&mut out);
        out
    });
    let err_reader = std::thread::spawn(move || {
        let mut err = vec![];
        let _ = (&mut err_pipe).take(1 << 20).read_to_end(&mut err);
        err
    });
    let started = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().map_err(|e| CodeError::Python(e.to_string()))? {
            break s;
        }
        if started.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            return Err(CodeError::Module(format!(
                "importing {} took more than {} s; does it run something at import time (a server, a prompt)? Put \
                 that under `if __name__ == \"__main__\":`",
                module.display(),
                TIMEOUT.as_secs()
            )));
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let _ = writer.join();
    let out = reader.join().unwrap_or_default();
    let err = String::from_utf8_lossy(&err_reader.join().unwrap_or_default()).into_owned();
    let text = String::from_utf8_lossy(&out);
    // The JSON is the last line: a module may print at import.
    let last = text.lines().rev().find(|l| l.trim_start().starts_with('{')).unwrap_or("");
    if status.code() == Some(2)
        && let Ok(f) = serde_json::from_str::<ScriptFailure>(last)
    {
        return Err(super::failure(module, python, f.error));
    }
    if !status.success() {
        let tail: Vec<&str> = err.lines().rev().take(6).collect::<Vec<_>>().into_iter().rev().collect();
        let hint = if ["agents", "google.adk", "langgraph", "langchain", "crewai"]
            .iter()
            .any(|m| err.contains(&format!("No module named '{m}'")))
        {
            "; that Python lacks the framework: give the one your app uses with --python".to_owned()
        } else {
            String::new()
        };
        return Err(CodeError::Python(format!(
            "{} ended with {status} while reading {}: {}{hint}",
            python.display(),
            module.display(),
            tail.join(" | ")
        )));
    }
    serde_json::from_str(last).map_err(|e| {
        CodeError::Python(format!(
            "the introspection of {} printed no agent list Baton understands ({e}); is {} the interpreter your app uses?",
            module.display(),
            python.display()
        ))
    })
}

//! Runs the introspection script in the user's Python: the interpreter given, else the `.venv`
//! beside the module (or above it), else `$BATON_PYTHON`, else `python3`. The script reads the
//! agents the module builds and writes them to a pipe with a per-run nonce; it never runs an agent
//! nor opens a connection, and it runs in the [`sandbox`].

use super::CodeError;
use super::model::{CodeModel, ScriptFailure};
use super::sandbox::{self, Confinement};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
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
    candidates(module).into_iter().next().expect("python3 is always a candidate")
}

/// Folders a project keeps its virtual environment in, by the names `venv`, uv, Poetry (in
/// project) and PDM give it.
const VENV_NAMES: [&str; 3] = [".venv", "venv", "env"];

/// Every interpreter Baton would consider for `module`, the default first, each with where it was
/// found: the virtual environments beside the module or in a folder above it (nearest first),
/// `$BATON_PYTHON`, then `python3` on PATH. Nothing is run to find them.
pub fn candidates(module: &Path) -> Vec<(PathBuf, &'static str)> {
    let mut out: Vec<(PathBuf, &'static str)> = vec![];
    let start = if module.is_dir() { Some(module) } else { module.parent() };
    for dir in start.into_iter().flat_map(Path::ancestors) {
        for name in VENV_NAMES {
            let python = dir.join(name).join(if cfg!(windows) { "Scripts/python.exe" } else { "bin/python" });
            if python.is_file() {
                let at = if Some(dir) == start {
                    "a virtual environment beside the module"
                } else {
                    "a virtual environment above the module"
                };
                out.push((python, at));
            }
        }
    }
    if let Some(p) = std::env::var_os("BATON_PYTHON").filter(|p| !p.is_empty()) {
        out.push((PathBuf::from(p), "$BATON_PYTHON"));
    }
    out.push((PathBuf::from("python3"), "python3 on PATH"));
    out
}

/// Runs the script on `module` (confined by [`sandbox`] unless `trust`) and reads its answer
/// from the result pipe.
pub fn introspect(
    module: &Path,
    python: &Path,
    framework: Option<&str>,
    trust: bool,
) -> Result<(CodeModel, Confinement), CodeError> {
    // The script runs in the module's folder: a relative interpreter path is the caller's.
    let python = if python.is_relative() && python.components().count() > 1 {
        std::env::current_dir().map(|d| d.join(python)).unwrap_or_else(|_| python.to_path_buf())
    } else {
        python.to_path_buf()
    };
    let python = python.as_path();
    let workdir = if module.is_dir() { module } else { module.parent().unwrap_or(module) };
    let (mut cmd, confinement) = sandbox::command(python, workdir, module, trust)?;
    cmd.arg("-").arg(module);
    if let Some(f) = framework {
        cmd.args(["--framework", f]);
    }
    // No output buffering surprises; no bytecode written into the user's folders.
    cmd.env("PYTHONUNBUFFERED", "1").env("PYTHONDONTWRITEBYTECODE", "1");
    let nonce = nonce();
    let (result_read, result_write) =
        std::io::pipe().map_err(|e| CodeError::Python(format!("cannot open the result pipe: {e}")))?;
    cmd.env("BATON_RESULT_FD", RESULT_FD.to_string()).env("BATON_RESULT_NONCE", &nonce);
    pass_as_fd3(&mut cmd, &result_write);
    // Its own process group: whatever it starts is ended with it.
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    let spawned = cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn();
    drop(cmd);
    drop(result_write);
    let mut child = spawned.map_err(|e| {
        CodeError::Python(format!(
            "cannot start the Python interpreter {}: {e}; give one with --python (a venv's bin/python that has your \
             framework installed)",
            python.display()
        ))
    })?;
    let mut stdin = child.stdin.take().expect("piped");
    std::thread::spawn(move || {
        let _ = stdin.write_all(SCRIPT.as_bytes());
    });
    let result = drain(result_read, MAX_OUTPUT);
    let stdout = drain(child.stdout.take().expect("piped"), MAX_OUTPUT);
    let stderr = drain(child.stderr.take().expect("piped"), 1 << 20);
    let status = wait_or_kill(&mut child, module)?;
    kill_group(&child);
    let err = String::from_utf8_lossy(&collect(stderr)).into_owned();
    let answer = if cfg!(unix) { collect(result) } else { collect(stdout) };
    let answer = String::from_utf8_lossy(&answer);
    let Some(last) = answer.lines().rev().find_map(|l| l.strip_prefix(nonce.as_str()).map(str::trim_start)) else {
        return Err(no_answer(module, python, status, &err));
    };
    if status.code() == Some(2)
        && let Ok(f) = serde_json::from_str::<ScriptFailure>(last)
    {
        return Err(super::failure(module, python, f.error));
    }
    if !status.success() {
        return Err(no_answer(module, python, status, &err));
    }
    let model = serde_json::from_str(last).map_err(|e| {
        CodeError::Python(format!(
            "the introspection of {} printed no agent list Baton understands ({e}); is {} the interpreter your app uses?",
            module.display(),
            python.display()
        ))
    })?;
    Ok((model, confinement))
}

/// The fd the script writes its answer to.
const RESULT_FD: i32 = 3;

/// A per-run secret that prefixes the script's answer: nothing the module prints or writes can
/// pass for it.
fn nonce() -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the OS random source");
    hex::encode(bytes)
}

/// Makes `pipe`'s write end the child's fd 3 (inherited through bubblewrap).
#[cfg(unix)]
fn pass_as_fd3(cmd: &mut Command, pipe: &std::io::PipeWriter) {
    use std::os::fd::AsRawFd;
    use std::os::unix::process::CommandExt;
    let fd = pipe.as_raw_fd();
    // SAFETY: only async-signal-safe calls (dup2, fcntl) between fork and exec.
    unsafe {
        cmd.pre_exec(move || {
            if fd == RESULT_FD {
                let flags = libc::fcntl(fd, libc::F_GETFD);
                if flags < 0 || libc::fcntl(fd, libc::F_SETFD, flags & !libc::FD_CLOEXEC) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
            } else if libc::dup2(fd, RESULT_FD) < 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

/// Reads up to `cap` bytes of `from` on its own thread.
fn drain(from: impl Read + Send + 'static, cap: u64) -> mpsc::Receiver<Vec<u8>> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut out = vec![];
        let _ = from.take(cap).read_to_end(&mut out);
        let _ = tx.send(out);
    });
    rx
}

/// What a reader got; a pipe a stray process still holds open is given up on after a moment.
fn collect(rx: mpsc::Receiver<Vec<u8>>) -> Vec<u8> {
    rx.recv_timeout(Duration::from_secs(2)).unwrap_or_default()
}

fn wait_or_kill(child: &mut Child, module: &Path) -> Result<ExitStatus, CodeError> {
    let started = Instant::now();
    loop {
        if let Some(s) = child.try_wait().map_err(|e| CodeError::Python(e.to_string()))? {
            return Ok(s);
        }
        if started.elapsed() > TIMEOUT {
            kill_group(child);
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
    }
}

/// Elsewhere the script writes its nonce-prefixed answer to standard output.
#[cfg(not(unix))]
fn pass_as_fd3(cmd: &mut Command, _pipe: &std::io::PipeWriter) {
    cmd.env_remove("BATON_RESULT_FD");
}

#[cfg(not(unix))]
fn kill_group(child: &Child) {
    let _ = child;
}

/// Ends every process left in the child's group (threads and forks the module started).
#[cfg(unix)]
fn kill_group(child: &Child) {
    if let Ok(pid) = i32::try_from(child.id()) {
        // SAFETY: signals the process group this child leads; no memory is touched.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
}

/// The module ended Python before the script answered (os._exit, exec, a signal) or the
/// interpreter failed.
fn no_answer(module: &Path, python: &Path, status: ExitStatus, err: &str) -> CodeError {
    let tail: Vec<&str> = err.lines().rev().take(6).collect::<Vec<_>>().into_iter().rev().collect();
    let hint = if ["agents", "google.adk", "langgraph", "langchain", "crewai"]
        .iter()
        .any(|m| err.contains(&format!("No module named '{m}'")))
    {
        "; that Python lacks the framework: give the one your app uses with --python"
    } else {
        "; the module ended the interpreter before Baton's introspection answered (os._exit, exec or a signal at \
         import time?)"
    };
    CodeError::Python(format!(
        "{} ended with {status} while reading {} and gave no answer: {}{hint}",
        python.display(),
        module.display(),
        tail.join(" | ")
    ))
}

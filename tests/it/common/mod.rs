//! Helpers shared by the integration tests: paths, the CLI binary, the pinned Python venv.
#![allow(dead_code)]

pub mod serve;
pub mod server;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn example(name: &str) -> PathBuf {
    root().join("examples").join(name)
}

pub fn examples() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join("examples"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    v.sort();
    v
}

/// Runs the `baton` binary built for these tests.
pub fn baton(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_baton")).args(args).output().expect("run baton")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The venv's python with the pinned openai-agents (created by scripts/pyenv.sh on first use).
pub fn python() -> &'static Path {
    static PY: OnceLock<PathBuf> = OnceLock::new();
    PY.get_or_init(|| {
        let out = Command::new(root().join("scripts/pyenv.sh")).output().expect("run pyenv.sh");
        assert!(out.status.success(), "pyenv.sh failed: {}", stderr(&out));
        PathBuf::from(stdout(&out).trim())
    })
}

/// The pinned venv of one framework's fixtures and senders (`scripts/pyenv.sh NAME`, made on
/// first use from `tests/import/requirements-NAME.txt`).
pub fn framework_python(name: &str) -> PathBuf {
    let out = Command::new(root().join("scripts/pyenv.sh")).arg(name).output().expect("run pyenv.sh");
    assert!(out.status.success(), "pyenv.sh {name} failed: {}", stderr(&out));
    PathBuf::from(stdout(&out).trim())
}

/// A fresh, empty PostgreSQL database on the loopback server `scripts/pg.sh` starts.
pub fn pg_database() -> String {
    static ADMIN: OnceLock<String> = OnceLock::new();
    let admin = ADMIN.get_or_init(|| {
        let out = Command::new(root().join("scripts/pg.sh")).output().expect("run pg.sh");
        assert!(out.status.success(), "pg.sh failed: {}", stderr(&out));
        stdout(&out).trim().to_owned()
    });
    static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let name = format!("baton_test_{}_{}", std::process::id(), N.fetch_add(1, std::sync::atomic::Ordering::SeqCst));
    let out = Command::new("psql").args([admin.as_str(), "-qc", &format!("CREATE DATABASE {name}")]).output().unwrap();
    assert!(out.status.success(), "createdb: {}", stderr(&out));
    admin.rsplit_once('/').map(|(base, _)| format!("{base}/{name}")).unwrap()
}

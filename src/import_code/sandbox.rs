//! The OS sandbox `import-code` runs the user's module in. Importing a module runs its code, so on
//! Linux it runs under bubblewrap: a network namespace with only its own loopback (no route out,
//! no host loopback, no DNS), its own PID namespace (every process it starts dies with it), the
//! whole file system read-only with a private `/tmp` as `HOME`, `/run` hidden (no host sockets),
//! a new session (no terminal injection), and an environment without the user's keys. Without a
//! working sandbox Baton refuses to run the module unless the user trusts it (`--trust-code`).

use super::CodeError;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// What confined the module, said in the import's notes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Confinement {
    /// bubblewrap: no network, read-only files, its own PID namespace.
    Bubblewrap,
    /// Run as the user asked (`--trust-code`), with Baton's in-process network block only.
    Trusted,
}

impl Confinement {
    pub fn describe(self) -> &'static str {
        match self {
            Confinement::Bubblewrap => {
                "the module ran in Baton's sandbox (bubblewrap: no network, read-only files, private /tmp and HOME, \
                 every process it started ended with it)"
            }
            Confinement::Trusted => {
                "the module ran without an OS sandbox (--trust-code): only Python-level network calls were blocked"
            }
        }
    }
}

/// The private home inside the sandbox (on its own `/tmp`).
const HOME: &str = "/tmp/baton-home";

/// Environment variables the module keeps; everything else (keys, tokens, cloud credentials) is
/// left out. Provider key variables are set to a placeholder so clients built at import work.
const KEPT_ENV: &[&str] = &[
    "PATH",
    "LANG",
    "LANGUAGE",
    "LC_ALL",
    "LC_CTYPE",
    "TZ",
    "PYTHONPATH",
    "PYTHONHOME",
    "VIRTUAL_ENV",
    "CONDA_PREFIX",
];
const PLACEHOLDER_KEY: &str = "baton-import-code-placeholder";

/// The command that runs `python` confined, or (only when `trust` and no sandbox works here) not,
/// and how.
pub fn command(python: &Path, workdir: &Path, module: &Path, trust: bool) -> Result<(Command, Confinement), CodeError> {
    let mut cmd = match bubblewrap() {
        Ok(bwrap) => {
            let mut c = Command::new(bwrap);
            c.args(BWRAP_ARGS);
            for dir in tmp_roots(&[python, workdir, module]) {
                c.arg("--ro-bind").arg(&dir).arg(&dir);
            }
            c.args(["--dir", HOME, "--setenv", "HOME", HOME, "--setenv", "TMPDIR", "/tmp", "--chdir"]);
            c.arg(workdir).arg("--").arg(python);
            (c, Confinement::Bubblewrap)
        }
        Err(_) if trust => (Command::new(python), Confinement::Trusted),
        Err(why) => return Err(CodeError::Sandbox(refusal(&why))),
    };
    cmd.0.current_dir(workdir);
    confine_env(&mut cmd.0);
    Ok(cmd)
}

fn refusal(why: &str) -> String {
    format!(
        "import-code runs your module's code, and Baton's sandbox cannot start here ({why}). Install bubblewrap \
         (Debian: apt-get install bubblewrap) and allow user namespaces, or, if you trust this code, pass \
         --trust-code to run it without an OS sandbox"
    )
}

/// Namespaces and mounts; the private home, the user's temp folders and the working folder are
/// added per run.
const BWRAP_ARGS: &[&str] = &[
    "--die-with-parent",
    "--new-session",
    "--unshare-net",
    "--unshare-pid",
    "--unshare-ipc",
    "--unshare-uts",
    "--unshare-cgroup-try",
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    "--tmpfs",
    "/tmp",
    "--tmpfs",
    "/run",
];

/// bubblewrap's path when it is installed and can create the namespaces (checked once).
fn bubblewrap() -> Result<&'static Path, String> {
    static FOUND: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    FOUND.get_or_init(probe).as_ref().map(PathBuf::as_path).map_err(Clone::clone)
}

fn probe() -> Result<PathBuf, String> {
    if !cfg!(target_os = "linux") {
        return Err(format!("no OS sandbox is implemented on {}", std::env::consts::OS));
    }
    let path = match std::env::var_os("BATON_BWRAP") {
        Some(p) if !p.is_empty() => Some(PathBuf::from(p)).filter(|p| p.is_file()),
        _ => ["/usr/bin/bwrap", "/bin/bwrap", "/usr/local/bin/bwrap"].iter().map(PathBuf::from).find(|p| p.is_file()),
    }
    .ok_or("bubblewrap (bwrap) is not installed, or $BATON_BWRAP names no file")?;
    let out = Command::new(&path)
        .args(BWRAP_ARGS)
        .arg("--")
        .arg("/bin/true")
        .output()
        .map_err(|e| format!("cannot start {}: {e}", path.display()))?;
    if out.status.success() {
        Ok(path)
    } else {
        let err = String::from_utf8_lossy(&out.stderr);
        Err(format!("bubblewrap failed: {}", err.trim().lines().next().unwrap_or("no message")))
    }
}

/// Folders directly under `/tmp` that hold the interpreter, the module or its folder: the sandbox's
/// private `/tmp` would hide them, so they are bound back read-only.
fn tmp_roots(paths: &[&Path]) -> Vec<PathBuf> {
    let mut roots: Vec<PathBuf> = vec![];
    for p in paths {
        let abs = if p.is_absolute() { p.to_path_buf() } else { continue };
        for candidate in [abs.clone(), std::fs::canonicalize(&abs).unwrap_or(abs)] {
            let mut parts = candidate.components();
            let (Some(root), Some(tmp), Some(top)) = (parts.next(), parts.next(), parts.next()) else { continue };
            if tmp.as_os_str() == "tmp" {
                let dir = Path::new(root.as_os_str()).join("tmp").join(top.as_os_str());
                if dir.is_dir() && !roots.contains(&dir) {
                    roots.push(dir);
                }
            }
        }
    }
    roots
}

/// Clears the environment to the variables a module needs to import; provider keys become a
/// placeholder, so a client constructed at import does not fail and no real key is readable.
fn confine_env(cmd: &mut Command) {
    cmd.env_clear();
    for name in KEPT_ENV {
        if let Some(v) = std::env::var_os(name) {
            cmd.env(name, v);
        }
    }
    for p in <crate::topology::Provider as clap::ValueEnum>::value_variants() {
        for var in crate::providers::keys::key_vars(*p) {
            cmd.env(var, PLACEHOLDER_KEY);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_under_tmp_are_bound_back_once() {
        let dir = tempfile::Builder::new().prefix("baton-sbx").tempdir_in("/tmp").unwrap();
        let module = dir.path().join("pkg/agent.py");
        let roots = tmp_roots(&[&module, dir.path(), Path::new("/usr/bin/python3"), Path::new("rel/x.py")]);
        assert_eq!(roots, vec![dir.path().to_path_buf()]);
    }
}

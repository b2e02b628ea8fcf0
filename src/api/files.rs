//! Which files a host may read and write: `baton serve` confines every path to its root
//! directory; the desktop app reaches the paths its user chose in a native dialog.

use crate::error::{ApiError, ErrorCode};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex};

/// A topology file a host offers to open.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct FileEntry {
    pub path: String,
    pub name: String,
}

#[derive(Debug, Clone)]
pub enum FileAccess {
    /// Any path (the CLI: the user names the file on the command line).
    Any,
    /// Paths are relative to this directory and may not leave it.
    Root(PathBuf),
    /// Only paths the user chose in a native dialog (or gave on the command line), the bundled
    /// examples, and the app's data directory.
    Chosen { examples: Option<PathBuf>, data_dir: Option<PathBuf>, allowed: Arc<Mutex<HashSet<PathBuf>>> },
}

fn denied(path: &str) -> ApiError {
    ApiError::new(
        ErrorCode::FilesDenied,
        format!("'{path}' is outside the directory Baton serves; use a path inside it"),
    )
}

impl FileAccess {
    /// Access to the paths a user chooses, starting with `allowed`.
    pub fn chosen(
        examples: Option<PathBuf>,
        data_dir: Option<PathBuf>,
        allowed: impl IntoIterator<Item = PathBuf>,
    ) -> FileAccess {
        FileAccess::Chosen { examples, data_dir, allowed: Arc::new(Mutex::new(allowed.into_iter().collect())) }
    }

    /// Records a path the user chose (in a dialog, or as an argument).
    pub fn allow(&self, path: &Path) {
        if let FileAccess::Chosen { allowed, .. } = self {
            allowed.lock().expect("allowed lock").insert(path.to_path_buf());
        }
    }

    /// The paths allowed so far (the app persists them, so recent files stay openable).
    pub fn allowed(&self) -> Vec<PathBuf> {
        match self {
            FileAccess::Chosen { allowed, .. } => allowed.lock().expect("allowed lock").iter().cloned().collect(),
            FileAccess::Root(_) | FileAccess::Any => vec![],
        }
    }

    /// The path to read.
    pub fn resolve(&self, path: &str) -> Result<PathBuf, ApiError> {
        match self {
            FileAccess::Any => Ok(PathBuf::from(path)),
            FileAccess::Chosen { examples, data_dir, allowed } => {
                let p = PathBuf::from(path);
                let under = |dir: &Option<PathBuf>| {
                    dir.as_ref().is_some_and(|d| {
                        p.is_absolute()
                            && !p.components().any(|c| matches!(c, Component::ParentDir))
                            && p.starts_with(d)
                    })
                };
                if allowed.lock().expect("allowed lock").contains(&p) || under(examples) || under(data_dir) {
                    Ok(p)
                } else {
                    Err(ApiError::new(
                        ErrorCode::FilesDenied,
                        format!(
                            "Baton only opens and saves files you choose: pick '{path}' with File → Open or Save As"
                        ),
                    ))
                }
            }
            FileAccess::Root(root) => {
                let rel = Path::new(path);
                if rel.is_absolute() || rel.components().any(|c| matches!(c, Component::ParentDir)) {
                    return Err(denied(path));
                }
                let full = root.join(rel);
                let canon = full.canonicalize().unwrap_or(full.clone());
                let root_c = root.canonicalize().unwrap_or(root.clone());
                if !canon.starts_with(&root_c) {
                    return Err(denied(path));
                }
                Ok(full)
            }
        }
    }

    /// The path to write (its file may not exist yet).
    pub fn resolve_for_write(&self, path: &str) -> Result<PathBuf, ApiError> {
        let full = self.resolve(path)?;
        if let FileAccess::Root(root) = self {
            let parent = full.parent().unwrap_or(root).canonicalize().map_err(|e| {
                ApiError::new(ErrorCode::ConfigWrite, format!("cannot write '{path}': its folder does not exist ({e})"))
            })?;
            if !parent.starts_with(root.canonicalize().unwrap_or(root.clone())) {
                return Err(denied(path));
            }
        }
        Ok(full)
    }

    /// How a path is shown back to the host (relative under a root).
    pub fn display(&self, p: &Path) -> String {
        match self {
            FileAccess::Root(root) => p.strip_prefix(root).unwrap_or(p).display().to_string(),
            FileAccess::Chosen { .. } | FileAccess::Any => p.display().to_string(),
        }
    }

    /// Files on offer: YAML, JSON and JSON Lines (topologies, traces) and Python modules (agent
    /// code to import) under the root (three levels deep), or the bundled examples.
    pub fn list(&self) -> Result<Vec<FileEntry>, ApiError> {
        let dir = match self {
            FileAccess::Root(r) => Some(r.clone()),
            FileAccess::Chosen { examples, .. } => examples.clone(),
            FileAccess::Any => None,
        };
        let Some(dir) = dir else { return Ok(vec![]) };
        let mut out = vec![];
        let root = dir.canonicalize().unwrap_or(dir.clone());
        walk(&dir, &root, 0, &mut out);
        out.sort();
        Ok(out
            .into_iter()
            .map(|p| {
                let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                FileEntry { path: self.display(&p), name }
            })
            .collect())
    }
}

fn walk(dir: &Path, root: &Path, depth: usize, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        let hidden = p.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.'));
        if hidden {
            continue;
        }
        // A symlink is offered only when it points inside the root, and never as a folder to
        // walk into (a link to `/` would list the whole disk).
        let link = e.file_type().is_ok_and(|t| t.is_symlink());
        if link && !p.canonicalize().is_ok_and(|t| t.starts_with(root) && t.is_file()) {
            continue;
        }
        if !link
            && p.is_dir()
            && depth < 3
            && !["node_modules", "target", "venv", "__pycache__", "site-packages"].iter().any(|d| p.ends_with(d))
        {
            walk(&p, root, depth + 1, out);
        } else if p.extension().is_some_and(|x| x == "yaml" || x == "yml" || x == "json" || x == "jsonl" || x == "py") {
            out.push(p);
        }
    }
}

//! Where the app finds its bundled examples, and the list of files the user chose (persisted
//! in the app's data directory so recent files stay openable after a restart).

use std::path::{Path, PathBuf};

/// The examples folder: beside the executable when installed, else the source tree's.
pub fn examples_dir<R: tauri::Runtime>(app: &tauri::App<R>) -> Option<PathBuf> {
    use tauri::Manager;
    let bundled = app.path().resource_dir().ok().map(|d| d.join("examples"));
    let source = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../examples"));
    [bundled, Some(source)].into_iter().flatten().find(|d| d.is_dir()).map(|d| d.canonicalize().unwrap_or(d))
}

fn allowed_file(data_dir: &Path) -> PathBuf {
    data_dir.join("chosen-files.json")
}

pub fn load_allowed(data_dir: &Path) -> Vec<PathBuf> {
    std::fs::read_to_string(allowed_file(data_dir))
        .ok()
        .and_then(|s| serde_json::from_str::<Vec<PathBuf>>(&s).ok())
        .unwrap_or_default()
}

pub fn save_allowed(data_dir: &Path, paths: &[PathBuf]) {
    let mut paths = paths.to_vec();
    paths.sort();
    if std::fs::create_dir_all(data_dir).is_ok() {
        let text = serde_json::to_string_pretty(&paths).unwrap_or_default();
        let _ = baton::config::write_atomic(&allowed_file(data_dir), text.as_bytes());
    }
}

//! The Tauri shell: window, dialogs and IPC. Every core command reaches the core's declared
//! command list through one Tauri command (`call`), as `baton serve`'s HTTP routes do.

mod commands;
mod paths;

use baton::api::{Api, FileAccess};
use tauri::Manager;

/// Builds and runs the app.
pub fn run() {
    let initial = std::env::args().nth(1).map(std::path::PathBuf::from).map(|p| p.canonicalize().unwrap_or(p));
    tauri::Builder::default()
        .plugin(tauri_plugin_dialog::init())
        .setup(move |app| {
            let data_dir = app.path().app_data_dir().ok();
            let examples = paths::examples_dir(app);
            let mut allowed = data_dir.as_deref().map(paths::load_allowed).unwrap_or_default();
            allowed.extend(initial.clone());
            let files = FileAccess::chosen(examples, data_dir.clone(), allowed);
            let initial_file = initial.clone().map(|p| p.display().to_string());
            app.manage(Api::with_initial_file(files, baton::store::default_url(), initial_file));
            Ok(())
        })
        .invoke_handler(tauri::generate_handler![
            commands::call,
            commands::choose_open_path,
            commands::choose_save_path,
        ])
        .run(tauri::generate_context!())
        .expect("error while running Baton");
}

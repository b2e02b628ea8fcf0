//! The Tauri shell: window, dialogs and IPC. Every command is a one-liner over the core's
//! command layer (`baton::api`), the same one `baton serve` exposes over HTTP.

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
            let api = Api::new(files, baton::store::default_url());
            app.manage(api);
            app.manage(commands::InitialFile(initial.clone().map(|p| p.display().to_string())));
            Ok(())
        })
        .invoke_handler(tauri::generate_handler![
            commands::list_files,
            commands::open_topology,
            commands::new_topology,
            commands::save_topology,
            commands::write_text,
            commands::lint_topology,
            commands::export_topology,
            commands::refactor_supervisor,
            commands::start_run,
            commands::cancel_run,
            commands::resume_run,
            commands::list_runs,
            commands::run_overview,
            commands::step_view,
            commands::transfer_view,
            commands::fact_lost_steps,
            commands::delete_run,
            commands::choose_open_path,
            commands::choose_save_path,
            commands::initial_file,
            commands::provider_status,
            commands::set_provider_key,
            commands::delete_provider_key,
            commands::import_trace,
        ])
        .run(tauri::generate_context!())
        .expect("error while running Baton");
}

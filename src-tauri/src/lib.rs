//! The Tauri shell: window, dialogs and IPC. Every core command reaches the core's declared
//! command list through one Tauri command (`call`), as `baton serve`'s HTTP routes do.

mod commands;
mod paths;

use baton::api::{Api, FileAccess};
use tauri::Manager;

/// Builds and runs the app.
pub fn run() {
    baton::crash::install_for_app();
    let _log = baton::log::init("baton-app", Some(baton::log::DEFAULT));
    decide_compositing();
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
            if std::env::var_os("BATON_CRASH_TEST").is_some() {
                panic!("deliberate crash (BATON_CRASH_TEST is set)");
            }
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

/// WebKitGTK's accelerated compositing needs a GPU: without one (no `/dev/dri`, as under Xvfb or
/// in a VM) it renders through a slow software path (issue #32 measured a step's frame p95 at
/// 402–552 ms with it, 62–151 ms without). Turned off there, before WebKit starts; a user's own
/// `WEBKIT_DISABLE_COMPOSITING_MODE`, or `BATON_COMPOSITING=on|off`, decides instead. Settings →
/// About says which, and why.
fn decide_compositing() {
    use baton::api::{COMPOSITING_VAR, COMPOSITING_WHY_VAR};
    if !cfg!(target_os = "linux") || std::env::var_os(COMPOSITING_VAR).is_some() {
        return;
    }
    let why = match std::env::var("BATON_COMPOSITING").as_deref() {
        Ok("on") => return,
        Ok("off") => "BATON_COMPOSITING=off",
        _ if !std::path::Path::new("/dev/dri").exists() => "no GPU: /dev/dri is missing",
        _ => return,
    };
    // SAFETY: at the start of main, before WebKit or any other thread exists.
    unsafe {
        std::env::set_var(COMPOSITING_VAR, "1");
        std::env::set_var(COMPOSITING_WHY_VAR, why);
    }
}

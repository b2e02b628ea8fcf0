//! The app's Tauri commands. Every core command goes through one: `call`, which hands the
//! command's name and JSON arguments to the core's declared command list (`baton::api`), the
//! same list `baton serve` exposes over HTTP. Only what needs the window lives here: the native
//! file dialogs.

use crate::paths;
use baton::api::{Api, ApiError};
use serde_json::Value;
use std::sync::Arc;
use tauri::{AppHandle, Manager, State};
use tauri_plugin_dialog::DialogExt;

type ApiState<'a> = State<'a, Arc<Api>>;

/// Any command of the core's list, by name; the result goes to the window as the JSON text the
/// core wrote (no `Value` in between).
#[tauri::command(rename_all = "snake_case")]
pub async fn call(api: ApiState<'_>, command: String, args: Value) -> Result<tauri::ipc::Response, ApiError> {
    Ok(tauri::ipc::Response::new(api.dispatch_json(&command, args).await?))
}

/// Remembers a path the user chose, for this session and the next.
fn allow(app: &AppHandle, api: &Api, path: &std::path::Path) {
    api.files().allow(path);
    if let Ok(dir) = app.path().app_data_dir() {
        paths::save_allowed(&dir, &api.files().allowed());
    }
}

/// The native open dialog; the chosen file becomes readable and writable.
#[tauri::command(rename_all = "snake_case")]
pub async fn choose_open_path(
    app: AppHandle,
    api: ApiState<'_>,
    extensions: Vec<String>,
    label: Option<String>,
) -> Result<Option<String>, ApiError> {
    let exts: Vec<&str> = extensions.iter().map(String::as_str).collect();
    let label = label.unwrap_or_else(|| "Topology".into());
    let picked = app.dialog().file().add_filter(&label, &exts).blocking_pick_file();
    let path = picked.and_then(|p| p.into_path().ok());
    Ok(path.map(|p| {
        allow(&app, &api, &p);
        p.display().to_string()
    }))
}

/// The native save dialog; the chosen file becomes writable.
#[tauri::command(rename_all = "snake_case")]
pub async fn choose_save_path(
    app: AppHandle,
    api: ApiState<'_>,
    default_name: String,
    extensions: Vec<String>,
) -> Result<Option<String>, ApiError> {
    let exts: Vec<&str> = extensions.iter().map(String::as_str).collect();
    let picked = app.dialog().file().set_file_name(&default_name).add_filter("File", &exts).blocking_save_file();
    let path = picked.and_then(|p| p.into_path().ok());
    Ok(path.map(|p| {
        allow(&app, &api, &p);
        p.display().to_string()
    }))
}

//! Tauri commands: one-liners over `baton::api::Api`. Arguments keep the names the HTTP host
//! uses (`run_id`, not `runId`), so the UI's two adapters send the same objects.

use crate::paths;
use baton::api::{Api, ApiError, LiveEvent, StartRunArgs};
use serde_json::{Value, json};
use std::sync::Arc;
use tauri::ipc::Channel;
use tauri::{AppHandle, Manager, State};
use tauri_plugin_dialog::DialogExt;

type Api_<'a> = State<'a, Arc<Api>>;
type Res = Result<Value, ApiError>;

/// The file given on the command line, if any.
pub struct InitialFile(pub Option<String>);

#[tauri::command(rename_all = "snake_case")]
pub async fn list_files(api: Api_<'_>) -> Res {
    api.dispatch("list_files", json!({})).await
}

#[tauri::command(rename_all = "snake_case")]
pub async fn open_topology(api: Api_<'_>, path: String) -> Res {
    api.dispatch("open_topology", json!({ "path": path })).await
}

#[tauri::command(rename_all = "snake_case")]
pub async fn new_topology(api: Api_<'_>, name: String) -> Res {
    api.dispatch("new_topology", json!({ "name": name })).await
}

#[tauri::command(rename_all = "snake_case")]
pub async fn save_topology(api: Api_<'_>, topology: Value, path: String) -> Res {
    api.dispatch("save_topology", json!({ "topology": topology, "path": path })).await
}

#[tauri::command(rename_all = "snake_case")]
pub async fn write_text(api: Api_<'_>, path: String, text: String) -> Res {
    api.dispatch("write_text", json!({ "path": path, "text": text })).await
}

#[tauri::command(rename_all = "snake_case")]
pub async fn lint_topology(api: Api_<'_>, topology: Value) -> Res {
    api.dispatch("lint_topology", json!({ "topology": topology })).await
}

#[tauri::command(rename_all = "snake_case")]
pub async fn export_topology(api: Api_<'_>, topology: Value, format: String) -> Res {
    api.dispatch("export_topology", json!({ "topology": topology, "format": format })).await
}

#[tauri::command(rename_all = "snake_case")]
pub async fn refactor_supervisor(api: Api_<'_>, topology: Value, chain: Option<Vec<String>>) -> Res {
    api.dispatch("refactor_supervisor", json!({ "topology": topology, "chain": chain })).await
}

#[tauri::command(rename_all = "snake_case")]
pub async fn start_run(api: Api_<'_>, args: StartRunArgs, on_event: Channel<LiveEvent>) -> Result<String, ApiError> {
    api.start_run(args, Some(Box::new(move |e: &LiveEvent| drop(on_event.send(e.clone()))))).await
}

#[tauri::command(rename_all = "snake_case")]
pub async fn cancel_run(api: Api_<'_>, run_id: String) -> Res {
    api.dispatch("cancel_run", json!({ "run_id": run_id })).await
}

#[tauri::command(rename_all = "snake_case")]
pub async fn resume_run(api: Api_<'_>, run_id: String) -> Res {
    api.dispatch("resume_run", json!({ "run_id": run_id })).await
}

#[tauri::command(rename_all = "snake_case")]
pub async fn list_runs(api: Api_<'_>, topology: Option<String>) -> Res {
    api.dispatch("list_runs", json!({ "topology": topology })).await
}

#[tauri::command(rename_all = "snake_case")]
pub async fn run_overview(api: Api_<'_>, run_id: String) -> Res {
    api.dispatch("run_overview", json!({ "run_id": run_id })).await
}

#[tauri::command(rename_all = "snake_case")]
pub async fn step_view(api: Api_<'_>, run_id: String, step: u32) -> Res {
    api.dispatch("step_view", json!({ "run_id": run_id, "step": step })).await
}

#[tauri::command(rename_all = "snake_case")]
pub async fn transfer_view(api: Api_<'_>, run_id: String, index: u32) -> Res {
    api.dispatch("transfer_view", json!({ "run_id": run_id, "index": index })).await
}

#[tauri::command(rename_all = "snake_case")]
pub async fn fact_lost_steps(api: Api_<'_>, run_id: String, fact: String) -> Res {
    api.dispatch("fact_lost_steps", json!({ "run_id": run_id, "fact": fact })).await
}

#[tauri::command(rename_all = "snake_case")]
pub async fn delete_run(api: Api_<'_>, run_id: String) -> Res {
    api.dispatch("delete_run", json!({ "run_id": run_id })).await
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
    api: Api_<'_>,
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
    api: Api_<'_>,
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

/// The file given on the command line (the UI opens it at start).
#[tauri::command(rename_all = "snake_case")]
pub fn initial_file(initial: State<'_, InitialFile>) -> Option<String> {
    initial.0.clone()
}

#[tauri::command(rename_all = "snake_case")]
pub async fn provider_status(api: Api_<'_>) -> Res {
    api.dispatch("provider_status", json!({})).await
}

#[tauri::command(rename_all = "snake_case")]
pub async fn set_provider_key(api: Api_<'_>, provider: String, key: String) -> Res {
    api.dispatch("set_provider_key", json!({ "provider": provider, "key": key })).await
}

#[tauri::command(rename_all = "snake_case")]
pub async fn delete_provider_key(api: Api_<'_>, provider: String) -> Res {
    api.dispatch("delete_provider_key", json!({ "provider": provider })).await
}

#[tauri::command(rename_all = "snake_case")]
pub async fn import_trace(api: Api_<'_>, path: String, from: Option<String>) -> Res {
    api.dispatch("import_trace", json!({ "path": path, "from": from })).await
}

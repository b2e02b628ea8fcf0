//! `baton serve`: the UI and the command layer over HTTP on loopback, so the whole UI runs in a
//! plain browser (browser tests, development) against the real core and store.

use super::Failure;
use super::store_cmds::DbArg;
use axum::extract::{Path as UrlPath, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use baton::api::{Api, ApiError, FileAccess};
use clap::Args;
use std::path::PathBuf;
use std::sync::Arc;

#[derive(Args)]
pub struct ServeArgs {
    /// Port on 127.0.0.1 (0 picks a free one).
    #[arg(long, default_value_t = 4317)]
    port: u16,
    /// Directory whose topology files the UI may open and save (default: the current one).
    #[arg(long)]
    root: Option<PathBuf>,
    /// The built UI (ui/dist).
    #[arg(long, default_value = "ui/dist")]
    ui: PathBuf,
    #[command(flatten)]
    db: DbArg,
}

fn status_for(e: &ApiError) -> StatusCode {
    match e.code.as_str() {
        c if c.starts_with("api.") || c.starts_with("config.") || c.starts_with("topology.") => StatusCode::BAD_REQUEST,
        c if c.starts_with("files.") => StatusCode::FORBIDDEN,
        "store.no_run" | "store.no_step" | "run.not_live" => StatusCode::NOT_FOUND,
        c if c.starts_with("run.") || c.starts_with("export.") || c.starts_with("refactor.") => StatusCode::BAD_REQUEST,
        _ => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

async fn command(
    State(api): State<Arc<Api>>,
    UrlPath(cmd): UrlPath<String>,
    body: Option<Json<serde_json::Value>>,
) -> Response {
    let args = body.map(|Json(v)| v).unwrap_or(serde_json::Value::Object(Default::default()));
    match api.dispatch(&cmd, args).await {
        Ok(v) => Json(v).into_response(),
        Err(e) => (status_for(&e), Json(e)).into_response(),
    }
}

pub fn serve(a: ServeArgs) -> Result<i32, Failure> {
    let root = match a.root {
        Some(r) => r,
        None => std::env::current_dir().map_err(Failure::input)?,
    };
    if !root.is_dir() {
        return Err(Failure::input(format!("--root {}: not a directory", root.display())));
    }
    if !a.ui.join("index.html").is_file() {
        return Err(Failure::input(format!(
            "--ui {}: no index.html there; build the UI first (cd ui && npm ci && npm run build)",
            a.ui.display()
        )));
    }
    let url = a.db.db.clone().unwrap_or_else(baton::store::default_url);
    super::store_cmds::runtime()?.block_on(async move {
        let api = Api::new(FileAccess::Root(root.clone()), url);
        let index = a.ui.join("index.html");
        let static_files =
            tower_http::services::ServeDir::new(&a.ui).fallback(tower_http::services::ServeFile::new(index));
        let app = Router::new().route("/api/{cmd}", post(command)).with_state(api).fallback_service(static_files);
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", a.port)).await.map_err(Failure::input)?;
        let addr = listener.local_addr().map_err(Failure::input)?;
        println!("Baton serving http://{addr} (files under {})", root.display());
        axum::serve(listener, app).await.map_err(Failure::input)?;
        Ok(0)
    })
}

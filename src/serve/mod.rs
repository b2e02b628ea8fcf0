//! `baton serve`'s HTTP host: the built UI and the command layer (`POST /api/<command>`) on
//! loopback, locked to its own page (see [`guard`]). Routes come from the command declaration:
//! every command is reached through [`Api::dispatch`].

pub mod guard;

use crate::api::Api;
use crate::error::{ApiError, ErrorCode};
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Path as UrlPath, Request, State};
use axum::http::StatusCode;
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
pub use guard::{Guard, Token};
use std::path::Path;
use std::sync::Arc;

/// The largest request body the command layer takes (a topology, a trace path).
pub const MAX_BODY: usize = 16 << 20;

/// The default port of `baton serve` (off the OTLP ports 4317 and 4318).
pub const DEFAULT_PORT: u16 = 4790;

#[derive(Clone)]
struct Shared {
    api: Arc<Api>,
    token: Token,
}

fn refuse(e: ApiError) -> Response {
    let status = StatusCode::from_u16(e.category().http_status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    (status, Json(e)).into_response()
}

async fn command(State(s): State<Shared>, UrlPath(cmd): UrlPath<String>, body: Bytes) -> Response {
    let args = if body.iter().all(u8::is_ascii_whitespace) {
        serde_json::Value::Object(Default::default())
    } else {
        match serde_json::from_slice(&body) {
            Ok(v) => v,
            Err(e) => return refuse(ApiError::new(ErrorCode::ApiArgs, format!("{cmd}: the body is not JSON: {e}"))),
        }
    };
    match s.api.dispatch_json(&cmd, args).await {
        Ok(json) => ([(axum::http::header::CONTENT_TYPE, "application/json")], json).into_response(),
        Err(e) => refuse(e),
    }
}

async fn check_token(State(s): State<Shared>, req: Request, next: Next) -> Response {
    match s.token.check(req.headers()) {
        Ok(()) => next.run(req).await,
        Err(e) => refuse(e),
    }
}

async fn check_host(State(g): State<Arc<Guard>>, req: Request, next: Next) -> Response {
    match g.check(req.headers()) {
        Ok(()) => next.run(req).await,
        Err(e) => refuse(e),
    }
}

/// The whole app: `/api/<command>` (token required) and the UI's files, every request checked
/// against `guard`.
pub fn router(api: Arc<Api>, token: Token, guard: Guard, ui: &Path) -> Router {
    let shared = Shared { api, token };
    let index = ui.join("index.html");
    let static_files = tower_http::services::ServeDir::new(ui).fallback(tower_http::services::ServeFile::new(index));
    let api_routes = Router::new()
        .route("/api/{cmd}", post(command))
        .layer(middleware::from_fn_with_state(shared.clone(), check_token))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(shared);
    api_routes.fallback_service(static_files).layer(middleware::from_fn_with_state(Arc::new(guard), check_host))
}

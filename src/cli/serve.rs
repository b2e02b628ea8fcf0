//! `baton serve`: the UI and the command layer over HTTP on loopback, locked to its own page
//! (Host and Origin checked, a per-launch token on `/api`), so the whole UI runs in a plain
//! browser against the real core and store.

use super::Outcome;
use super::args::{DbArg, runtime};
use baton::api::{Api, ApiError, ErrorCode, FileAccess};
use baton::serve::{DEFAULT_PORT, Guard, Token, router};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// Port on 127.0.0.1 (0 picks a free one).
    #[arg(long, default_value_t = DEFAULT_PORT)]
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

fn bad(m: String) -> ApiError {
    ApiError::new(ErrorCode::ConfigRead, m)
}

pub fn run(a: Args) -> Outcome {
    let root = match a.root {
        Some(r) => r,
        None => std::env::current_dir().map_err(|e| bad(format!("cannot read the current directory: {e}")))?,
    };
    if !root.is_dir() {
        return Err(bad(format!("--root {}: not a directory", root.display())));
    }
    if !a.ui.join("index.html").is_file() {
        return Err(bad(format!(
            "--ui {}: no index.html there; build the UI first (cd ui && npm ci && npm run build)",
            a.ui.display()
        )));
    }
    // Tests that restart a server on the same page give the token: BATON_SERVE_TOKEN.
    let token = match std::env::var("BATON_SERVE_TOKEN").ok() {
        Some(t) if t.len() >= 16 => Token::fixed(t),
        Some(_) => return Err(bad("the token must be at least 16 characters".into())),
        None => Token::random(),
    };
    let url = a.db.url();
    runtime()?.block_on(async move {
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", a.port))
            .await
            .map_err(|e| bad(format!("cannot listen on 127.0.0.1:{}: {e}; choose another --port", a.port)))?;
        let addr = listener.local_addr().map_err(|e| bad(e.to_string()))?;
        let api = Api::new(FileAccess::Root(root.clone()), url);
        let app = router(api, token.clone(), Guard::for_addr(addr, &[]), &a.ui);
        println!("Baton serving http://{addr}/?token={} (files under {})", token.as_str(), root.display());
        axum::serve(listener, app).await.map_err(|e| bad(format!("the server stopped: {e}")))?;
        Ok(0)
    })
}

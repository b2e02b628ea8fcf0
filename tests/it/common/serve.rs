//! `baton serve`'s router on real loopback TCP over a temp folder holding copies of examples,
//! with its own store and a launch token: what the HTTP tests talk to.

use baton::api::{Api, FileAccess};
use baton::serve::{Guard, Token, router};
use serde_json::Value;

pub struct Served {
    pub base: String,
    pub token: String,
    pub root: tempfile::TempDir,
    _ui: tempfile::TempDir,
}

/// Serves a folder holding copies of these examples.
pub async fn serve(examples: &[&str]) -> Served {
    let root = tempfile::tempdir().unwrap();
    for f in examples {
        std::fs::copy(super::example(f), root.path().join(f)).unwrap();
    }
    let ui = tempfile::tempdir().unwrap();
    std::fs::write(ui.path().join("index.html"), "<!doctype html><title>Baton</title>").unwrap();
    let db = root.path().join("runs.db").display().to_string();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let token = Token::random();
    let api = Api::new(FileAccess::Root(root.path().to_path_buf()), db);
    let app = router(api, token.clone(), Guard::for_addr(addr, &[]), ui.path());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    Served { base: format!("http://{addr}"), token: token.as_str().to_owned(), root, _ui: ui }
}

impl Served {
    /// POSTs a command with the given headers (none: no token).
    pub async fn post(&self, cmd: &str, body: Value, headers: &[(&str, &str)]) -> (u16, Value) {
        let mut req = reqwest::Client::new().post(format!("{}/api/{cmd}", self.base)).json(&body);
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        let res = req.send().await.unwrap();
        let status = res.status().as_u16();
        (status, res.json().await.unwrap_or(Value::Null))
    }

    /// POSTs a command with the launch token.
    pub async fn call(&self, cmd: &str, body: Value) -> (u16, Value) {
        let auth = format!("Bearer {}", self.token);
        self.post(cmd, body, &[("authorization", &auth)]).await
    }
}

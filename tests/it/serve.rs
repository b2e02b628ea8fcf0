//! `baton serve`'s HTTP host on real loopback TCP: it answers only its own page (Host, Origin,
//! the launch token), maps each error code's category to its HTTP status, and a refused request
//! runs nothing and writes nothing.

use crate::common;

use serde_json::{Value, json};
use std::path::Path;

type Server = common::serve::Served;

async fn start() -> Server {
    common::serve::serve(&["ticket-reopen.yaml"]).await
}

trait Runs {
    async fn runs(&self) -> usize;
}

impl Runs for Server {
    async fn runs(&self) -> usize {
        let (status, runs) = self.call("list_runs", json!({})).await;
        assert_eq!(status, 200, "{runs}");
        runs.as_array().unwrap().len()
    }
}

fn topology() -> Value {
    serde_json::to_value(baton::config::load(&common::example("ticket-reopen.yaml")).unwrap()).unwrap()
}

#[tokio::test]
async fn the_own_page_with_the_token_is_answered() {
    let s = start().await;
    let (status, files) = s.call("list_files", json!({})).await;
    assert_eq!(status, 200);
    assert_eq!(files[0]["name"], "ticket-reopen.yaml");
    // The UI's files are public (they hold no data); the page carries the token to /api.
    let page = reqwest::get(format!("{}/?token={}", s.base, s.token)).await.unwrap();
    assert_eq!(page.status().as_u16(), 200);
}

#[tokio::test]
async fn a_missing_or_wrong_token_gets_403_and_nothing_runs() {
    let s = start().await;
    let body = json!({ "topology": topology() });
    let (status, err) = s.post("start_run", body.clone(), &[]).await;
    assert_eq!(status, 403, "{err}");
    assert_eq!(err["code"], "api.forbidden");
    let (status, _) = s.post("start_run", body, &[("authorization", "Bearer 0000000000000000")]).await;
    assert_eq!(status, 403);
    assert_eq!(s.runs().await, 0, "a refused start_run must not run");
}

#[tokio::test]
async fn a_foreign_origin_gets_403_and_nothing_is_written() {
    let s = start().await;
    let auth = format!("Bearer {}", s.token);
    let body = json!({ "path": "evil.yaml", "text": "pwned" });
    let (status, err) =
        s.post("write_text", body, &[("authorization", &auth), ("origin", "https://evil.example")]).await;
    assert_eq!(status, 403, "{err}");
    assert!(err["message"].as_str().unwrap().contains("evil.example"), "{err}");
    assert!(!s.root.path().join("evil.yaml").exists(), "a refused write must not write");
    // The page's own origin is fine.
    let own = s.base.clone();
    let body = json!({ "path": "ok.yaml", "text": "fine" });
    let (status, _) = s.post("write_text", body, &[("authorization", &auth), ("origin", &own)]).await;
    assert_eq!(status, 200);
    assert!(s.root.path().join("ok.yaml").exists());
}

#[tokio::test]
async fn a_foreign_host_gets_403_even_with_the_token() {
    // DNS rebinding: a page on evil.example resolves its name to 127.0.0.1; the browser then
    // sends `Host: evil.example:PORT`, and, being same-origin to itself, no foreign Origin.
    let s = start().await;
    let auth = format!("Bearer {}", s.token);
    let port = s.base.rsplit(':').next().unwrap().to_owned();
    let host = format!("evil.example:{port}");
    let body = json!({ "topology": topology() });
    let (status, err) = s.post("start_run", body, &[("authorization", &auth), ("host", &host)]).await;
    assert_eq!(status, 403, "{err}");
    assert_eq!(s.runs().await, 0);
    let page = reqwest::Client::new().get(format!("{}/", s.base)).header("host", host).send().await.unwrap();
    assert_eq!(page.status().as_u16(), 403, "even the page is refused to a foreign Host");
    // localhost is the same server.
    let local = format!("localhost:{port}");
    let (status, _) = s.post("list_files", json!({}), &[("authorization", &auth), ("host", &local)]).await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn statuses_follow_each_codes_category() {
    let s = start().await;
    // A bad file is the user's input: 400, not 500.
    std::fs::write(s.root.path().join("bad.jsonl"), "{\"resourceSpans\": [\n").unwrap();
    let (status, err) = s.call("import_trace", json!({ "path": "bad.jsonl" })).await;
    assert_eq!(status, 400, "{err}");
    assert_eq!(err["code"], "import.parse");
    let (status, err) = s.call("run_overview", json!({ "run_id": "nope" })).await;
    assert_eq!((status, err["code"].as_str()), (404, Some("store.no_run")));
    let (status, err) = s.call("no_such_command", json!({})).await;
    assert_eq!((status, err["code"].as_str()), (404, Some("api.unknown_command")));
    // Typed arguments: a mistyped key is refused with the command and the key named.
    let (status, err) = s.call("step_view", json!({ "run": "x", "step": 1 })).await;
    assert_eq!((status, err["code"].as_str()), (400, Some("api.args")), "{err}");
    assert!(err["message"].as_str().unwrap().contains("step_view"), "{err}");
    let (status, err) = s.call("open_topology", json!({ "path": "../etc/passwd" })).await;
    assert_eq!((status, err["code"].as_str()), (403, Some("files.denied")));
}

#[tokio::test]
async fn a_body_past_the_limit_gets_413() {
    let s = start().await;
    let big = "x".repeat(baton::serve::MAX_BODY + 1);
    let (status, _) = s.call("write_text", json!({ "path": "big.txt", "text": big })).await;
    assert_eq!(status, 413);
    assert!(!Path::new(&s.root.path().join("big.txt")).exists());
}

#[tokio::test]
async fn a_topology_saved_under_another_extension_is_refused_and_nothing_is_written() {
    let s = start().await;
    let (status, err) = s.call("save_topology", json!({ "topology": topology(), "path": "notes.txt" })).await;
    assert_eq!(status, 400, "{err}");
    assert_eq!(err["code"], "config.write");
    assert!(err["message"].as_str().unwrap().contains(".yaml, .yml or .json"), "{err}");
    assert!(!s.root.path().join("notes.txt").exists());
    let (status, _) = s.call("save_topology", json!({ "topology": topology(), "path": "copy.YML" })).await;
    assert_eq!(status, 200);
    // A new file gets the mode the umask gives new files (022 here: 0644), not 0600.
    use std::os::unix::fs::PermissionsExt;
    let mask = unsafe { libc::umask(0o022) };
    unsafe { libc::umask(mask) };
    let mode = std::fs::metadata(s.root.path().join("copy.YML")).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o666 & !mask);
}

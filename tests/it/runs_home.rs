//! The Runs home over `baton serve`'s real HTTP: every run in the store (Baton's own of two
//! topologies, an imported file, an upload), found by filters and text and paged with a total;
//! a trace's content uploaded from the window is imported under its own name, and bad uploads
//! get their error and import nothing.

use crate::common;
use serde_json::{Value, json};

type Server = common::serve::Served;

async fn start() -> Server {
    common::serve::serve(&["ticket-reopen.yaml", "ticket-supervisor.yaml"]).await
}

trait Calls {
    async fn ok(&self, cmd: &str, body: Value) -> Value;
    async fn run(&self, file: &str) -> String;
    async fn search(&self, q: Value) -> (Vec<String>, u64);
}

impl Calls for Server {
    async fn ok(&self, cmd: &str, body: Value) -> Value {
        let (status, v) = self.call(cmd, body).await;
        assert_eq!(status, 200, "{cmd}: {v}");
        v
    }

    /// Runs a topology on its first scenario (mock) and waits for its end.
    async fn run(&self, file: &str) -> String {
        let opened = self.ok("open_topology", json!({ "path": file })).await;
        let started = self.ok("start_run", json!({ "topology": opened["topology"] })).await;
        let id = started["run_id"].as_str().unwrap().to_owned();
        let mut from = 0;
        loop {
            let ev = self.ok("run_events", json!({ "run_id": id, "from": from })).await;
            from += ev["events"].as_array().unwrap().len();
            if ev["finished"].as_bool() == Some(true) {
                return id;
            }
        }
    }

    async fn search(&self, q: Value) -> (Vec<String>, u64) {
        let page = self.ok("search_runs", q).await;
        let ids = page["runs"].as_array().unwrap().iter().map(|r| r["id"].as_str().unwrap().to_owned()).collect();
        (ids, page["total"].as_u64().unwrap())
    }
}

fn fixture_text(name: &str) -> String {
    std::fs::read_to_string(common::root().join("tests/import/fixtures").join(name)).unwrap()
}

#[tokio::test]
async fn every_run_is_found_by_its_filters_and_pages() {
    let s = start().await;
    let reopen = [s.run("ticket-reopen.yaml").await, s.run("ticket-reopen.yaml").await];
    let supervisor = s.run("ticket-supervisor.yaml").await;
    let uploaded = s
        .ok(
            "import_trace_upload",
            json!({ "name": "handoff.jsonl", "text": fixture_text("openai_agents_handoff.jsonl") }),
        )
        .await;
    let uploaded = uploaded[0].as_str().unwrap().to_owned();

    // All four, by when they started, newest first: the upload's run started when its trace
    // did (2025-01-01), so it is last; with the topologies on offer.
    let page = s.ok("search_runs", json!({})).await;
    assert_eq!(page["total"], 4);
    assert_eq!(page["runs"][3]["id"], uploaded.as_str());
    assert_eq!(page["runs"][0]["id"], supervisor.as_str());
    let topologies = page["topologies"].as_array().unwrap();
    assert!(topologies.contains(&json!("ticket-reopen")) && topologies.contains(&json!("ticket-supervisor")));

    // ticket-reopen loses its pinned fact at the handoff to verification; the supervisor keeps it.
    let (lost, n) = s.search(json!({ "lost": true })).await;
    assert_eq!(n, 2);
    assert!(reopen.iter().all(|r| lost.contains(r)));
    let (kept, _) = s.search(json!({ "lost": false, "origin": "native" })).await;
    assert_eq!(kept, vec![supervisor.clone()]);

    // Origin: the upload is an imported run named by its file, not by a temporary path.
    let (imported, _) = s.search(json!({ "origin": "imported" })).await;
    assert_eq!(imported, vec![uploaded.clone()]);
    let summary = &s.ok("search_runs", json!({ "origin": "imported" })).await["runs"][0];
    assert_eq!(summary["source"]["file"], "handoff.jsonl");
    assert_eq!(summary["origin"], "imported");
    let (by_topology, _) = s.search(json!({ "topology": "ticket-supervisor" })).await;
    assert_eq!(by_topology, vec![supervisor.clone()]);

    // Text: any case, in the topology name or the source file; wildcards are literal.
    let (hits, _) = s.search(json!({ "search": "SUPERVISOR" })).await;
    assert_eq!(hits, vec![supervisor.clone()]);
    let (hits, _) = s.search(json!({ "search": "handoff.jsonl" })).await;
    assert_eq!(hits, vec![uploaded.clone()]);
    let (hits, n) = s.search(json!({ "search": "%" })).await;
    assert_eq!((hits.len(), n), (0, 0), "a % is a character, not a wildcard");

    // Status and dates.
    let (done, _) = s.search(json!({ "status": "completed", "origin": "native" })).await;
    assert_eq!(done.len(), 3);
    let (none, n) = s.search(json!({ "since": "2999-01-01" })).await;
    assert_eq!((none.len(), n), (0, 0));

    // Pages: two at a time over the same order, with the total each time.
    let (first, n1) = s.search(json!({ "limit": 2 })).await;
    let (second, n2) = s.search(json!({ "limit": 2, "offset": 2 })).await;
    assert_eq!((n1, n2), (4, 4));
    assert_eq!(first.len() + second.len(), 4);
    assert!(first.iter().all(|r| !second.contains(r)));

    // An unknown filter value is refused with the field named.
    let (status, err) = s.call("search_runs", json!({ "origin": "somewhere" })).await;
    assert_eq!(status, 400, "{err}");
    assert_eq!(err["code"], "api.args");
}

#[tokio::test]
async fn a_bad_upload_says_why_and_imports_nothing() {
    let s = start().await;
    let (status, err) = s.call("import_trace_upload", json!({ "name": "empty.json", "text": "  \n" })).await;
    assert_eq!(status, 400, "{err}");
    assert_eq!(err["code"], "import.read");
    assert!(err["message"].as_str().unwrap().contains("empty.json"), "{err}");
    let (status, err) = s.call("import_trace_upload", json!({ "name": "notes.json", "text": "{\"hello\": 1}" })).await;
    assert!(status >= 400, "{err}");
    let message = err["message"].as_str().unwrap();
    assert!(
        message.contains("notes.json") && !message.contains("/tmp"),
        "names the file, not where it was staged: {message}"
    );
    // A name with folders is only a name: nothing is written outside the staging folder.
    let evil = s
        .ok(
            "import_trace_upload",
            json!({ "name": "../../x/evil.jsonl", "text": fixture_text("openai_agents_handoff.jsonl") }),
        )
        .await;
    let page = s.ok("search_runs", json!({})).await;
    assert_eq!(page["total"], 1);
    assert_eq!(page["runs"][0]["id"], evil[0]);
    assert_eq!(page["runs"][0]["source"]["file"], "evil.jsonl");
}

//! Nothing lost: several processes and a `baton serve`-style session writing one store at once
//! (every run accounted for, none left "running"), an import killed midway (all or nothing),
//! a delete refused while its run is being written, and fresh stores opened by many at once.

use crate::common::{self, stderr, stdout};
use serde_json::json;
use std::process::{Command, Stdio};

fn baton() -> Command {
    Command::new(env!("CARGO_BIN_EXE_baton"))
}

fn runs_of(db: &str) -> Vec<serde_json::Value> {
    let o = baton().args(["runs", "list", "--limit", "100000", "--format", "json", "--db", db]).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    serde_json::from_str(&stdout(&o)).unwrap()
}

/// Writers on one store: `procs` CLI processes running `per_proc` saved runs each, plus
/// `in_session` runs started through the command layer at the same time.
fn writers_on_one_store(db: &str, procs: usize, per_proc: usize, in_session: usize) {
    let example = common::example("ticket-reopen.yaml");
    let children: Vec<_> = (0..procs)
        .map(|i| {
            let (db, example) = (db.to_owned(), example.clone());
            std::thread::spawn(move || {
                let mut ok = 0;
                for _ in 0..per_proc {
                    // Long and short runs interleave (a mock delay on odd processes).
                    let delay = if i % 2 == 1 { "20" } else { "0" };
                    let o = baton()
                        .args(["run", example.to_str().unwrap(), "--save", "--mock-delay-ms", delay, "--db", &db])
                        .stdout(Stdio::null())
                        .output()
                        .unwrap();
                    assert!(o.status.success(), "a run failed: {}", stderr(&o));
                    ok += 1;
                }
                ok
            })
        })
        .collect();
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    rt.block_on(async {
        let api = baton::api::Api::new(baton::api::FileAccess::Any, db.to_owned());
        let t = baton::config::load(&example).unwrap();
        let mut ids = vec![];
        for _ in 0..in_session {
            let r = api.dispatch("start_run", json!({ "topology": t, "mock_delay_ms": 5 })).await.unwrap();
            ids.push(r["run_id"].as_str().unwrap().to_owned());
        }
        for id in ids {
            let mut from = 0;
            loop {
                let ev = api.dispatch("run_events", json!({ "run_id": id, "from": from })).await.unwrap();
                from += ev["events"].as_array().unwrap().len();
                let store_errors: Vec<_> =
                    ev["events"].as_array().unwrap().iter().filter(|e| e["type"] == "store_error").collect();
                assert!(store_errors.is_empty(), "{store_errors:?}");
                if ev["finished"].as_bool().unwrap() {
                    break;
                }
            }
        }
    });
    let done: usize = children.into_iter().map(|c| c.join().unwrap()).sum();
    assert_eq!(done, procs * per_proc);
    // What one run of the example has, run alone.
    let alone = rt.block_on(baton::engine::run_mock(
        &baton::config::load(&example).unwrap(),
        baton::engine::RunOptions::default(),
    ));
    let steps = alone.unwrap().steps.len();
    let runs = runs_of(db);
    assert_eq!(runs.len(), procs * per_proc + in_session, "every run is in the store");
    for r in &runs {
        assert_eq!(r["outcome"]["status"], "completed", "{r}");
        assert_eq!(r["steps"], steps, "a whole run, not a partial one: {r}");
    }
}

#[test]
fn concurrent_writers_on_one_sqlite_store_lose_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("shared.db").display().to_string();
    writers_on_one_store(&db, 4, 8, 10);
}

#[test]
fn concurrent_writers_on_one_postgres_store_lose_nothing() {
    let db = common::pg_database();
    writers_on_one_store(&db, 3, 5, 6);
}

#[test]
fn fresh_stores_opened_by_many_at_once_migrate_once() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("fresh.db").display().to_string();
    let children: Vec<_> = (0..6)
        .map(|_| {
            baton().args(["runs", "list", "--db", &db]).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap()
        })
        .collect();
    for c in children {
        let o = c.wait_with_output().unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
    }
}

/// A big OTLP JSON Lines file: `n` copies of the GenAI fixture's trace under new trace ids.
fn big_otlp(n: usize) -> String {
    let one = std::fs::read_to_string(common::root().join("tests/import/fixtures/otlp_genai.jsonl")).unwrap();
    let mut out = String::with_capacity(one.len() * n);
    for i in 0..n {
        let copy = one.replace("5a898d6aa0f44e294865e01ca3b1129a", &format!("{:032x}", i + 1));
        out.push_str(&copy.replace("\"conversation-1\"", &format!("\"conversation-{}\"", i + 1)));
    }
    out
}

#[test]
fn an_import_killed_midway_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("store.db").display().to_string();
    let file = dir.path().join("big.jsonl");
    std::fs::write(&file, big_otlp(4000)).unwrap();
    let mut child = baton()
        .args(["trace", "import", file.to_str().unwrap(), "--quiet", "--db", &db])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    assert!(child.try_wait().unwrap().is_none(), "the import finished before it could be killed: grow the file");
    child.kill().unwrap();
    child.wait().unwrap();
    // Reopened after the kill: the store works and holds none of the import.
    assert_eq!(runs_of(&db).len(), 0);
    let o = baton().args(["trace", "import", file.to_str().unwrap(), "--quiet", "--db", &db]).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(runs_of(&db).len(), 4000, "a whole import afterwards");
}

#[test]
fn a_run_being_written_cannot_be_deleted() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("store.db").display().to_string();
    let example = common::example("ticket-reopen.yaml");
    let child = baton()
        .args(["run", example.to_str().unwrap(), "--save", "--mock-delay-ms", "400", "--db", &db])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let id = loop {
        std::thread::sleep(std::time::Duration::from_millis(100));
        if let Some(r) = runs_of(&db).first() {
            break r["id"].as_str().unwrap().to_owned();
        }
    };
    let del = baton().args(["runs", "delete", &id, "--db", &db]).output().unwrap();
    assert_eq!(del.status.code(), Some(4), "busy: {}", stderr(&del));
    assert!(stderr(&del).contains("still being written"), "{}", stderr(&del));
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains(&id));
    assert_eq!(runs_of(&db)[0]["outcome"]["status"], "completed");
    assert!(baton().args(["runs", "delete", &id, "--db", &db]).output().unwrap().status.success());
}

/// A store that fails after it was opened says which store (the URL) and what to do.
#[test]
fn a_store_error_after_opening_names_the_store() {
    let db = common::pg_database();
    assert!(baton().args(["runs", "list", "--db", &db]).output().unwrap().status.success());
    let drop = Command::new("psql").args([db.as_str(), "-qc", "DROP TABLE fact_checks; DROP TABLE transfers; DROP TABLE steps; DROP TABLE snapshots; DROP TABLE run_items; DROP TABLE runs"]).output().unwrap();
    assert!(drop.status.success(), "{}", stderr(&drop));
    let o = baton().args(["runs", "list", "--db", &db]).output().unwrap();
    assert_eq!(o.status.code(), Some(5), "internal: {}", stderr(&o));
    assert!(stderr(&o).contains(&format!("the store at {db} failed")), "{}", stderr(&o));
}

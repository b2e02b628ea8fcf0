//! The trace store on a real SQLite file and a real PostgreSQL server: runs round-trip, the
//! debugger's queries answer from the store, items are stored once, deletion collects garbage,
//! and bad stores (newer, locked, corrupt) are refused without being changed.

use crate::common;

use baton::engine::{RunOptions, run_mock};
use baton::error::Coded;
use baton::store::{Store, StoreError};
use baton::trace::{OutcomeStatus, Trace};
use common::*;

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap()
}

async fn run_saved(store: &Store, example_name: &str) -> Trace {
    let t = baton::config::load(&example(example_name)).unwrap();
    let id = baton::store::new_run_id();
    let (sink, rec) = store.record(&t, id.clone(), &Default::default(), None, None).await.unwrap();
    let trace = run_mock(&t, RunOptions { sink: Some(sink), run_id: Some(id), ..Default::default() }).await.unwrap();
    rec.finish().await.unwrap();
    trace
}

/// Distinct items across every run in the store.
async fn item_count(store: &Store) -> usize {
    let mut ids = std::collections::HashSet::new();
    for r in store.list_runs(None).await.unwrap() {
        ids.extend(store.load_trace(&r.id).await.unwrap().items.iter().map(|i| i.id));
    }
    ids.len()
}

async fn exercise(store: Store) {
    let trace = run_saved(&store, "ticket-reopen.yaml").await;
    let id = trace.run_id.clone().unwrap();
    // The whole run comes back as the engine made it.
    let back = store.load_trace(&id).await.unwrap();
    assert_eq!(serde_json::to_value(&back.steps).unwrap(), serde_json::to_value(&trace.steps).unwrap());
    assert_eq!(back.transfers, trace.transfers);
    assert_eq!(back.outcome, trace.outcome);
    assert_eq!(back.usage, trace.usage);
    let ids = |t: &Trace| t.items.iter().map(|i| i.id).collect::<Vec<_>>();
    assert_eq!(ids(&back), ids(&trace));
    assert_eq!(back.definition, trace.definition);

    // Stepping: context at every step, the diff at transfers, neighbours, lost facts.
    for s in &trace.steps {
        let v = store.step_view(&id, s.index).await.unwrap();
        assert_eq!(v.context.iter().map(|i| i.id).collect::<Vec<_>>(), s.context, "step {}", s.index);
        assert_eq!(v.output.iter().map(|i| i.id).collect::<Vec<_>>(), s.output);
        assert_eq!(v.step_count as usize, trace.steps.len());
        assert_eq!(v.transfer.is_some(), s.transfer.is_some());
    }
    // The timeline's briefs, as the engine's steps say.
    let briefs: Vec<baton::trace::StepBrief> = trace.steps.iter().map(baton::trace::StepBrief::from).collect();
    assert_eq!(store.run_overview(&id).await.unwrap().steps.briefs(), briefs);
    // A followed run's end (issue #32): the briefs from step 5 and transfer 1 on, as the engine
    // made them, each transfer with its own fact checks.
    let tail = store.run_tail(&id, 5, 1).await.unwrap();
    assert_eq!(tail.steps.briefs(), briefs[5..]);
    assert_eq!(tail.steps.first, 5);
    let ends: Vec<(u32, String, String)> =
        tail.transfers.iter().map(|t| (t.step, t.from.clone(), t.to.clone())).collect();
    let want: Vec<(u32, String, String)> =
        trace.transfers[1..].iter().map(|t| (t.step, t.from.clone(), t.to.clone())).collect();
    assert_eq!(ends, want);
    for (t, x) in tail.transfers.iter().zip(&trace.transfers[1..]) {
        assert_eq!(t.facts.len(), x.facts.len(), "transfer {}", t.index);
    }
    assert!(store.run_tail(&id, 999, 999).await.unwrap().steps.is_empty());
    let v = store.step_view(&id, 5).await.unwrap();
    let tv = v.transfer.unwrap();
    assert_eq!((tv.transfer.from.as_str(), tv.transfer.to.as_str()), ("resolution", "verification"));
    assert_eq!(tv.transfer.facts[0].status, baton::context::FactStatus::Lost);
    let transformed = tv.items.iter().find(|i| i.id == tv.transfer.transformed[0]).unwrap();
    assert!(tv.items.iter().any(|i| i.id == transformed.derived_from[0]), "sources come with the diff");
    assert_eq!(store.neighbour_transfers(&id, 3).await.unwrap(), (Some(1), Some(5)));
    assert_eq!(store.neighbour_transfers(&id, 0).await.unwrap(), (None, Some(1)));
    assert_eq!(store.neighbour_transfers(&id, 8).await.unwrap(), (Some(5), None));
    assert_eq!(store.fact_lost_steps(&id, "resolved-meaning").await.unwrap(), [5]);
    let e = store.step_view(&id, 999).await.unwrap_err();
    assert!(matches!(e, StoreError::NoStep { count: 12, .. }), "{e}");

    // Runs list, by topology.
    let sup = run_saved(&store, "ticket-supervisor.yaml").await;
    let all = store.list_runs(None).await.unwrap();
    assert_eq!(all.len(), 2);
    let reopen = store.list_runs(Some("ticket-reopen")).await.unwrap();
    assert_eq!(reopen.len(), 1);
    assert_eq!(reopen[0].id, id);
    assert_eq!((reopen[0].outcome.status, reopen[0].lost_facts, reopen[0].transfers), (OutcomeStatus::Completed, 1, 2));
    assert!(store.fact_lost_steps(sup.run_id.as_deref().unwrap(), "resolved-meaning").await.unwrap().is_empty());

    // Content addressing: the same run again stores no new items.
    let before = item_count(&store).await;
    let again = run_saved(&store, "ticket-reopen.yaml").await;
    assert_eq!(item_count(&store).await, before, "identical items are stored once");
    // Deleting one of the two identical runs keeps the shared items for the other.
    store.delete_run(&id).await.unwrap();
    assert!(matches!(store.load_trace(&id).await.unwrap_err(), StoreError::NoRun(_)));
    let kept = store.load_trace(again.run_id.as_deref().unwrap()).await.unwrap();
    assert_eq!(kept.items.len(), trace.items.len());
    store.delete_run(again.run_id.as_deref().unwrap()).await.unwrap();
    store.delete_run(sup.run_id.as_deref().unwrap()).await.unwrap();
    assert!(store.list_runs(None).await.unwrap().is_empty());
    assert!(matches!(store.delete_run("nope").await.unwrap_err(), StoreError::NoRun(_)));
    import_round_trip(&store).await;
}

/// An import writes its runs in large multi-row statements, flushed many times along the way:
/// every run comes back as the importer made it, with its counts, through the same reads.
async fn import_round_trip(store: &Store) {
    let mut traces = vec![];
    for name in ["ticket-reopen.yaml", "support-triage.yaml", "handoff-loop.yaml"] {
        let t = baton::config::load(&example(name)).unwrap();
        traces.push(run_mock(&t, RunOptions::default()).await.unwrap());
    }
    let mut import = store.import_tx().await.unwrap();
    let mut ids = vec![];
    for i in 0..400 {
        let mut t = traces[i % traces.len()].clone();
        t.run_id = None;
        ids.push((import.add(&t).await.unwrap(), i % traces.len()));
    }
    assert_eq!(import.commit().await.unwrap(), 400);
    for (id, k) in &ids {
        let (want, back) = (&traces[*k], store.load_trace(id).await.unwrap());
        assert_eq!(serde_json::to_value(&back.steps).unwrap(), serde_json::to_value(&want.steps).unwrap(), "{id}");
        assert_eq!(back.transfers, want.transfers);
        assert_eq!(back.outcome, want.outcome);
        assert_eq!(back.usage, want.usage);
        assert_eq!(
            back.items.iter().map(|i| i.id).collect::<Vec<_>>(),
            want.items.iter().map(|i| i.id).collect::<Vec<_>>()
        );
        let s = store.run_summary(id).await.unwrap();
        let lost = want
            .transfers
            .iter()
            .flat_map(|t| &t.facts)
            .filter(|f| f.status == baton::context::FactStatus::Lost)
            .count();
        assert_eq!(
            (s.steps as usize, s.transfers as usize, s.lost_facts as usize),
            (want.steps.len(), want.transfers.len(), lost)
        );
    }
}

#[test]
fn sqlite_store_round_trips_and_answers_the_debugger() {
    let dir = tempfile::tempdir().unwrap();
    let url = dir.path().join("nested/dir/baton.db").display().to_string();
    rt().block_on(async { exercise(Store::open(&url).await.unwrap()).await });
}

#[test]
fn postgres_store_round_trips_and_answers_the_debugger() {
    let url = pg_database();
    rt().block_on(async { exercise(Store::open(&url).await.unwrap()).await });
}

fn file_hash(p: &std::path::Path) -> blake3::Hash {
    blake3::hash(&std::fs::read(p).unwrap())
}

#[test]
fn a_newer_store_is_refused_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("b.db");
    let url = path.display().to_string();
    rt().block_on(async {
        let s = Store::open(&url).await.unwrap();
        sqlx::query("INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time) VALUES (99, 'future', TRUE, x'00', 0)")
            .execute(&sqlx::SqlitePool::connect(&format!("sqlite://{url}")).await.unwrap())
            .await
            .unwrap();
        s.size_bytes().await.unwrap();
        s.close().await;
    });
    let before = file_hash(&path);
    let e = rt().block_on(Store::open(&url)).err().unwrap();
    assert!(matches!(e, StoreError::NewerSchema { found: 99, .. }), "{e}");
    assert!(e.to_string().contains("newer Baton"));
    assert_eq!(file_hash(&path), before, "the store is unchanged");
}

#[test]
fn a_corrupt_file_is_refused_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("b.db");
    let junk: Vec<u8> = (0..8192u32).map(|i| (i * 7919 % 251) as u8).collect();
    std::fs::write(&path, &junk).unwrap();
    let e = rt().block_on(Store::open(&path.display().to_string())).err().unwrap();
    assert!(matches!(e, StoreError::Corrupt { .. }), "{e}");
    assert_eq!(e.code().as_str(), "store.corrupt");
    assert_eq!(std::fs::read(&path).unwrap(), junk, "the file is unchanged");
}

#[test]
fn a_locked_store_is_refused_with_a_clear_error() {
    use sqlx::Connection;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("b.db");
    let url = path.display().to_string();
    rt().block_on(async {
        Store::open(&url).await.unwrap().close().await;
        let mut holder = sqlx::SqliteConnection::connect(&format!("sqlite://{url}")).await.unwrap();
        sqlx::query("PRAGMA journal_mode = DELETE").execute(&mut holder).await.unwrap();
        sqlx::query("BEGIN EXCLUSIVE").execute(&mut holder).await.unwrap();
        let e = Store::open(&url).await.err().unwrap();
        assert!(matches!(e, StoreError::Locked { .. }), "{e}");
        assert!(e.to_string().contains("locked by another process"));
        sqlx::query("ROLLBACK").execute(&mut holder).await.unwrap();
    });
}

#[test]
fn a_run_killed_midway_keeps_every_committed_event() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("crash.db");
    let topo = dir.path().join("long.yaml");
    std::fs::write(
        &topo,
        "version: 1\nname: long\nentry: a\nagents:\n  - id: a\n    name: A\n    tools: [{name: poll, mock_result: still waiting}]\nguards: {max_turns: 100000}\nscenarios:\n  - name: s\n    input: wait for it\n    scripts:\n      a: [{calls: [{tool: poll}]}]\n",
    )
    .unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_baton"))
        .args(["run", topo.to_str().unwrap(), "--save", "--db", db.to_str().unwrap(), "--mock-delay-ms", "1"])
        .env("BATON_REPORT_COMMITS", "1")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut committed = 0u64;
    for line in BufReader::new(child.stderr.take().unwrap()).lines() {
        let line = line.unwrap();
        if let Some(n) = line.strip_prefix("committed ").and_then(|r| r.strip_suffix(" steps")) {
            committed = n.parse().unwrap();
            if committed >= 300 {
                child.kill().unwrap(); // SIGKILL
                break;
            }
        }
    }
    child.wait().unwrap();
    assert!(committed >= 300);
    rt().block_on(async {
        let store = Store::open(db.to_str().unwrap()).await.unwrap();
        let runs = store.list_runs(None).await.unwrap();
        assert_eq!(runs.len(), 1);
        let r = &runs[0];
        assert_eq!(r.outcome.status, OutcomeStatus::Interrupted, "{:?}", r.outcome);
        assert!(r.outcome.reason.contains("stopped mid-run"), "{}", r.outcome.reason);
        assert!(r.steps as u64 >= committed, "{} steps stored, {committed} reported committed", r.steps);
        let trace = store.load_trace(&r.id).await.unwrap();
        assert_eq!(trace.steps.len() as u32, r.steps);
        for (i, s) in trace.steps.iter().enumerate() {
            assert_eq!(s.index as usize, i, "steps are contiguous");
            for id in s.context.iter().chain(&s.output) {
                assert!(trace.item(*id).is_some(), "step {i} references a stored item");
            }
        }
        let last = store.step_view(&r.id, r.steps - 1).await.unwrap();
        assert!(!last.context.is_empty());
    });
}

#[test]
fn the_cli_saves_lists_shows_exports_and_deletes_runs() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("cli.db");
    let db = db.to_str().unwrap();
    let o = baton(&["run", example("ticket-reopen.yaml").to_str().unwrap(), "--save", "--db", db]);
    assert!(o.status.success(), "{}", stderr(&o));
    let id = stdout(&o).lines().last().unwrap().strip_prefix("run id: ").unwrap().to_owned();
    let list = baton(&["runs", "list", "--format", "json", "--db", db]);
    let v: serde_json::Value = serde_json::from_slice(&list.stdout).unwrap();
    let r = &v[0];
    assert_eq!(r["id"], id);
    for key in ["id", "topology", "scenario", "started_at"] {
        assert!(r[key].is_string(), "{key}");
    }
    assert_eq!(r["outcome"]["status"], "completed");
    assert!(r["outcome"]["reason"].is_string());
    let shown = baton(&["trace", "show", &id, "--db", db]);
    assert!(stdout(&shown).contains("!! fact LOST: resolved-meaning"));
    let out = dir.path().join("t.json");
    assert!(baton(&["trace", "export", &id, "--to", "json", "-o", out.to_str().unwrap(), "--db", db]).status.success());
    let t = Trace::from_file(&out).unwrap();
    assert_eq!(t.run_id.as_deref(), Some(id.as_str()));
    assert_eq!(t.transfers.len(), 2);
    assert!(baton(&["runs", "delete", &id, "--db", db]).status.success());
    let list = baton(&["runs", "list", "--format", "json", "--db", db]);
    assert_eq!(stdout(&list).trim(), "[]");
    let missing = baton(&["runs", "show", &id, "--db", db]);
    assert_eq!(missing.status.code(), Some(3));
    assert!(stderr(&missing).contains("no run with id"));
}

/// A store in a folder the user cannot write (a shared, read-only copy; a read-only mount) is
/// still readable: runs list, show and export; a save is refused saying why, and nothing in the
/// folder changes. Root can write anywhere, so as root the check runs as `nobody` (setpriv).
#[test]
fn a_store_in_a_read_only_folder_can_still_be_read() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let store_dir = dir.path().join("shared");
    std::fs::create_dir(&store_dir).unwrap();
    let db = store_dir.join("baton.db");
    let db_s = db.to_str().unwrap();
    let saved =
        common::baton(&["run", common::example("ticket-reopen.yaml").to_str().unwrap(), "--save", "--db", db_s]);
    assert!(saved.status.success(), "{}", common::stderr(&saved));
    let id = common::stdout(&saved).lines().find_map(|l| l.strip_prefix("run id: ")).unwrap().trim().to_owned();
    // As a clean shutdown leaves it: everything checkpointed into the file, no -wal or -shm
    // (a WAL reader would need to create the shared-memory file, which the folder forbids).
    rt().block_on(async {
        use sqlx::Connection;
        let mut c = sqlx::SqliteConnection::connect(&format!("sqlite://{db_s}")).await.unwrap();
        sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)").execute(&mut c).await.unwrap();
        c.close().await.unwrap();
    });
    for side in ["baton.db-wal", "baton.db-shm", "baton.db.lock"] {
        let _ = std::fs::remove_file(store_dir.join(side));
    }
    std::fs::set_permissions(&store_dir, std::fs::Permissions::from_mode(0o555)).unwrap();
    let listing = || std::fs::read_dir(&store_dir).unwrap().map(|e| e.unwrap().file_name()).collect::<Vec<_>>();
    let before = (listing(), file_hash(&db));
    let as_user = |args: &[&str]| {
        let mut c = if is_root() {
            let mut c = std::process::Command::new("setpriv");
            c.args(["--reuid=65534", "--regid=65534", "--clear-groups", env!("CARGO_BIN_EXE_baton")]);
            c
        } else {
            std::process::Command::new(env!("CARGO_BIN_EXE_baton"))
        };
        c.args(args).env("HOME", dir.path()).output().unwrap()
    };
    let list = as_user(&["runs", "list", "--db", db_s]);
    assert!(list.status.success(), "{}", common::stderr(&list));
    assert!(common::stdout(&list).contains(&id), "{}", common::stdout(&list));
    let show = as_user(&["runs", "show", &id, "--db", db_s]);
    assert!(show.status.success() && common::stdout(&show).contains("Verification"), "{}", common::stderr(&show));
    let save = as_user(&["run", common::example("ticket-reopen.yaml").to_str().unwrap(), "--save", "--db", db_s]);
    assert!(!save.status.success());
    assert!(common::stderr(&save).contains("read-only"), "{}", common::stderr(&save));
    assert_eq!((listing(), file_hash(&db)), before, "nothing in the folder changed");
    std::fs::set_permissions(&store_dir, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// Whether this process runs as root (uid 0), read from /proc.
fn is_root() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("Uid:"))
        .and_then(|v| v.split_whitespace().next().map(|u| u == "0"))
        .unwrap()
}

/// Runs of `t` recorded as the engine makes them (live writer) or saved whole (import path).
async fn run_as(store: &Store, t: &baton::topology::Topology, live: bool) -> String {
    let id = baton::store::new_run_id();
    if live {
        let (sink, rec) = store.record(t, id.clone(), &Default::default(), None, None).await.unwrap();
        run_mock(t, RunOptions { sink: Some(sink), run_id: Some(id.clone()), ..Default::default() }).await.unwrap();
        rec.finish().await.unwrap();
        id
    } else {
        let trace = run_mock(t, RunOptions::default()).await.unwrap();
        store.save_trace(&trace).await.unwrap()
    }
}

/// A topology's runs follow its identity: a rename keeps them, a Save As copy (new identity,
/// same name) starts its own history, runs saved before identities existed match by name.
async fn identity(store: Store) {
    let mut t = baton::config::load(&example("ticket-reopen.yaml")).unwrap();
    t.name = "identity-check".into();
    t.id = Some("0190-original".into());
    let before_rename = run_as(&store, &t, true).await;
    t.name = "identity-check-renamed".into();
    let after_rename = run_as(&store, &t, false).await;
    let copy = baton::topology::Topology { id: Some("0190-copy".into()), name: "identity-check".into(), ..t.clone() };
    let of_copy = run_as(&store, &copy, true).await;
    let legacy = baton::topology::Topology { id: None, name: "identity-check-renamed".into(), ..t.clone() };
    let old = run_as(&store, &legacy, false).await;
    let ids = |runs: Vec<baton::store::RunSummary>| {
        let mut v: Vec<String> = runs.into_iter().map(|r| r.id).collect();
        v.sort();
        v
    };
    let sorted = |mut v: Vec<String>| {
        v.sort();
        v
    };
    let listed = ids(store.list_runs_of("0190-original", "identity-check-renamed", 100, 0).await.unwrap());
    assert_eq!(listed, sorted(vec![before_rename.clone(), after_rename.clone(), old.clone()]));
    assert_eq!(ids(store.list_runs_of("0190-copy", "identity-check", 100, 0).await.unwrap()), vec![of_copy]);
    let q = baton::store::RunQuery {
        topology: Some("identity-check-renamed".into()),
        topology_id: Some("0190-original".into()),
        ..Default::default()
    };
    let page = store.search_runs(&q).await.unwrap();
    assert_eq!(page.total, 3);
    assert_eq!(ids(page.runs), sorted(vec![before_rename, after_rename, old]));
}

#[test]
fn a_topologys_runs_follow_its_identity_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let url = dir.path().join("baton.db").display().to_string();
    rt().block_on(async { identity(Store::open(&url).await.unwrap()).await });
}

#[test]
fn a_topologys_runs_follow_its_identity_on_postgres() {
    let url = pg_database();
    rt().block_on(async { identity(Store::open(&url).await.unwrap()).await });
}

/// `baton store check` says what the store holds and finds rows pointing at a deleted run;
/// `baton store backup` writes a consistent copy that opens as a store with the same runs.
#[test]
fn store_check_counts_finds_orphans_and_backup_copies() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("s.db");
    let url = db.display().to_string();
    let (first, second) = rt().block_on(async {
        let store = Store::open(&url).await.unwrap();
        let a = run_saved(&store, "ticket-reopen.yaml").await.run_id.unwrap();
        let b = run_saved(&store, "support-triage.yaml").await.run_id.unwrap();
        (a, b)
    });
    let check = |db: &str| {
        let o = baton(&["store", "check", "--format", "json", "--db", db]);
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap_or_else(|_| panic!("{}", stderr(&o)));
        (o.status.code(), v)
    };
    let (code, v) = check(&url);
    assert_eq!(code, Some(0), "{v}");
    assert_eq!(v["integrity"], "ok");
    // The schema version is the newest migration shipped (a person counts the files).
    let newest = std::fs::read_dir(root().join("migrations/sqlite"))
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.split('_').next()?.parse::<i64>().ok())
        .max()
        .unwrap();
    assert_eq!(v["schema_version"], newest);
    let count = |v: &serde_json::Value, table: &str| {
        v["counts"].as_array().unwrap().iter().find(|c| c[0] == table).map(|c| c[1].as_i64().unwrap()).unwrap()
    };
    assert_eq!(count(&v, "runs"), 2);
    assert!(v["orphans"].as_array().unwrap().iter().all(|o| o[1] == 0), "{v}");

    // A consistent copy, while the store is open.
    let copy = dir.path().join("copy.db");
    let o = baton(&["store", "backup", copy.to_str().unwrap(), "--db", &url]);
    assert!(o.status.success(), "{}", stderr(&o));
    let listed = baton(&["runs", "list", "--format", "json", "--db", copy.to_str().unwrap()]);
    let ids: Vec<String> = serde_json::from_slice::<Vec<serde_json::Value>>(&listed.stdout)
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(ids.len(), 2);
    assert!(ids.contains(&first) && ids.contains(&second));
    let again = baton(&["store", "backup", copy.to_str().unwrap(), "--db", &url]);
    assert_eq!(again.status.code(), Some(2));
    assert!(stderr(&again).contains("exists already"), "{}", stderr(&again));

    // A run deleted behind Baton's back (foreign keys off) leaves its steps pointing at nothing.
    rt().block_on(async {
        use sqlx::{ConnectOptions, Connection};
        let opts = sqlx::sqlite::SqliteConnectOptions::new().filename(&db).foreign_keys(false);
        let mut c = opts.connect().await.unwrap();
        sqlx::query("DELETE FROM runs WHERE id = ?").bind(&first).execute(&mut c).await.unwrap();
        c.close().await.unwrap();
    });
    let (code, v) = check(&url);
    assert_eq!(code, Some(1), "{v}");
    let orphan =
        |what: &str| v["orphans"].as_array().unwrap().iter().find(|o| o[0] == what).unwrap()[1].as_i64().unwrap();
    assert!(orphan("steps without their run") > 0, "{v}");
    let text = baton(&["store", "check", "--db", &url]);
    assert!(stdout(&text).contains("steps without their run"), "{}", stdout(&text));
}

/// A store written by an earlier build (schema 6, `tests/data/stores/README.md`) opens in this
/// one, is migrated, and reads as that build read it: the same runs listed, the same trace.
#[test]
fn a_store_from_an_earlier_build_opens_migrates_and_reads_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let data = root().join("tests/data/stores");
    let db = dir.path().join("schema6.db");
    std::fs::copy(data.join("schema6.db"), &db).unwrap();
    let db = db.to_str().unwrap();
    let json = |o: std::process::Output| -> serde_json::Value {
        assert!(o.status.success(), "{}", stderr(&o));
        serde_json::from_slice(&o.stdout).unwrap()
    };
    let want = |f: &str| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(data.join(f)).unwrap()).unwrap()
    };
    assert_eq!(json(baton(&["runs", "list", "--format", "json", "--db", db])), want("schema6.runs.json"));
    let run = "01a23c2f-7932-76a1-bb36-5b2e4514641b";
    assert_eq!(json(baton(&["trace", "export", run, "--to", "json", "--db", db])), want("schema6.reopen-trace.json"));
    let check = json(baton(&["store", "check", "--format", "json", "--db", db]));
    assert_eq!(check["integrity"], "ok");
    assert!(check["schema_version"].as_i64().unwrap() > 6, "{check}");
    assert!(check["orphans"].as_array().unwrap().iter().all(|o| o[1] == 0), "{check}");
}

/// The same on PostgreSQL: a store the build of 90a4d01 wrote (schema 6, restored from its
/// `pg_dump`) opens in this build, is migrated, and reads as that build read it.
#[test]
fn a_postgres_store_from_an_earlier_build_opens_migrates_and_reads_the_same() {
    let url = pg_database();
    let data = root().join("tests/data/stores");
    let restore = std::process::Command::new("psql")
        .args([url.as_str(), "-q", "-v", "ON_ERROR_STOP=1", "-f"])
        .arg(data.join("schema6.pg.sql"))
        .output()
        .unwrap();
    assert!(restore.status.success(), "{}", stderr(&restore));
    let json = |o: std::process::Output| -> serde_json::Value {
        assert!(o.status.success(), "{}", stderr(&o));
        serde_json::from_slice(&o.stdout).unwrap()
    };
    let want = |f: &str| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(data.join(f)).unwrap()).unwrap()
    };
    assert_eq!(json(baton(&["runs", "list", "--format", "json", "--db", &url])), want("schema6.pg.runs.json"));
    let run = "01a23d6c-0a0e-70e5-ae48-783b2134fe20";
    assert_eq!(
        json(baton(&["trace", "export", run, "--to", "json", "--db", &url])),
        want("schema6.pg.reopen-trace.json")
    );
    let check = json(baton(&["store", "check", "--format", "json", "--db", &url]));
    assert!(check["schema_version"].as_i64().unwrap() > 6, "{check}");
    assert!(check["orphans"].as_array().unwrap().iter().all(|o| o[1] == 0), "{check}");
}

/// Retention (`baton runs prune --older-than`): a trace recorded on 2025-01-01 (its spans'
/// `startTimeUnixNano` 1735694600…, read in the file) goes; a run made now stays, whole; nothing
/// is left pointing at the pruned run.
#[test]
fn runs_prune_deletes_the_runs_older_than_asked_and_keeps_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("store.db").display().to_string();
    let fixture = root().join("tests/import/fixtures/otlp_genai.json").display().to_string();
    assert!(baton(&["trace", "import", &fixture, "--db", &db]).status.success());
    let example = root().join("examples/ticket-reopen.yaml").display().to_string();
    assert!(baton(&["run", &example, "--save", "--db", &db]).status.success());
    let before = stdout(&baton(&["runs", "list", "--db", &db]));
    assert_eq!(before.lines().filter(|l| !l.trim().is_empty()).count(), 2, "{before}");

    let out = baton(&["runs", "prune", "--older-than", "30d", "--db", &db]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).starts_with("deleted 1 run(s) that started before "), "{}", stdout(&out));
    let after = stdout(&baton(&["runs", "list", "--db", &db]));
    let left: Vec<&str> = after.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(left.len(), 1, "{after}");
    assert!(left[0].contains("ticket-reopen"), "{after}");
    let check = stdout(&baton(&["store", "check", "--format", "json", "--db", &db]));
    let v: serde_json::Value = serde_json::from_str(&check).unwrap();
    for o in v["orphans"].as_array().unwrap() {
        assert_eq!(o[1], 0, "{check}");
    }
    // a duration that is not one says so
    let bad = baton(&["runs", "prune", "--older-than", "soon", "--db", &db]);
    assert!(!bad.status.success());
    assert!(stderr(&bad).contains("--older-than"), "{}", stderr(&bad));
}

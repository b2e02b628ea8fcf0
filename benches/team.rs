//! A team's store (issue #34): collectors sharing one PostgreSQL (`baton collect --shared`),
//! measured with one and with three instances side by side in one run; then a store of
//! 1,000,000 runs, where the Runs home's first page and filtered searches are timed.
//!
//! Instances run in this process, each with its own connection pool, HTTP listener and saving
//! loop, as separate processes would; the sender spreads each trace's five spans over the
//! instances (no affinity). Needs `scripts/pg.sh` (skipped with a line when it cannot start).
//! `--quick`: fewer traces and 100,000 runs; `--runs-only`: the runs phase alone.

#[path = "support/otlp_traffic.rs"]
mod traffic;

use baton::collect::{Live, keep_saving, router};
use baton::serve::Guard;
use baton::store::{RunQuery, Store};
use opentelemetry_proto::tonic::trace::v1::Span;
use std::sync::Arc;
use std::time::{Duration, Instant};

const QUIET_MS: u64 = 300;
/// Traces per block: each of a block's five requests holds one span of each.
const BLOCK: u64 = 20;

/// A fresh database on the loopback PostgreSQL; None when it cannot start.
fn database(name: &str) -> Option<String> {
    let out = std::process::Command::new("scripts/pg.sh").output().ok().filter(|o| o.status.success())?;
    let admin = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    for sql in [format!("DROP DATABASE IF EXISTS {name}"), format!("CREATE DATABASE {name}")] {
        std::process::Command::new("psql").args([admin.as_str(), "-qc", &sql]).output().ok()?;
    }
    admin.rsplit_once('/').map(|(b, _)| format!("{b}/{name}"))
}

/// Starts one shared instance on `url`; its endpoint.
async fn instance(url: &str, stop: tokio::sync::watch::Receiver<bool>) -> String {
    let store = Store::open(url).await.unwrap();
    let live = Arc::new(Live::new(Duration::from_millis(QUIET_MS), "bench".into()).with_inbox(store.clone()).shared());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(axum::serve(listener, router(live.clone(), Guard::for_addr(addr, &[]))).into_future());
    let mut stopped = stop.clone();
    tokio::spawn(keep_saving(
        live,
        store,
        Duration::from_millis(250),
        async move {
            let _ = stopped.changed().await;
        },
        |_| {},
    ));
    format!("http://{addr}/v1/traces")
}

/// Sends `traces` traces spread over `n` instances; spans/s from the first request to the last
/// run saved.
async fn collectors(n: usize, traces: u64) {
    let Some(url) = database(&format!("baton_team_{n}")) else {
        println!("team: no PostgreSQL (scripts/pg.sh): skipped");
        return;
    };
    let (stop_tx, stop) = tokio::sync::watch::channel(false);
    let mut endpoints = vec![];
    for _ in 0..n {
        endpoints.push(instance(&url, stop.clone()).await);
    }
    let store = Store::open(&url).await.unwrap();
    let http = reqwest::Client::new();
    let t0 = Instant::now();
    let mut sends = vec![];
    for block in 0..traces / BLOCK {
        let spans: Vec<Vec<Span>> = (block * BLOCK..(block + 1) * BLOCK).map(traffic::trace).collect();
        for k in 0..5 {
            let body = traffic::encode(spans.iter().map(|t| t[k].clone()).collect());
            let to = endpoints[(block as usize + k) % n].clone();
            let http = http.clone();
            sends.push(tokio::spawn(async move {
                let r = http.post(to).header("content-type", "application/x-protobuf").body(body).send().await.unwrap();
                let status = r.status();
                assert_eq!(status, 200, "{}", r.text().await.unwrap_or_default());
            }));
            if sends.len() >= 8 {
                sends.remove(0).await.unwrap();
            }
        }
    }
    for s in sends {
        s.await.unwrap();
    }
    let sent = t0.elapsed();
    loop {
        let page = store.search_runs(&RunQuery { limit: Some(1), ..Default::default() }).await.unwrap();
        if u64::from(page.total) >= traces {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let dt = t0.elapsed().as_secs_f64();
    let _ = stop_tx.send(true);
    println!(
        "team: {n} shared instance(s) on one PostgreSQL: {} spans of {traces} traces (each spread over the instances) \
         acknowledged in {:.1} s, all saved as runs after {dt:.1} s = {:.0} spans/s (quiet period {QUIET_MS} ms)",
        traces * 5,
        sent.as_secs_f64(),
        (traces * 5) as f64 / dt
    );
}

/// Fills `runs` with `n` rows (50 topologies, a year of start times, every fifth failed).
async fn fill(url: &str, n: u64) {
    let sql = format!(
        "INSERT INTO runs (id, topology, scenario, providers, started_at, status, reason, owner, final_output, step_count) \
         SELECT 'run-' || lpad(g::text, 8, '0'), 'topology-' || (g % 50), 'default', '[]', \
         to_char(timestamp '2026-01-01' + (g * interval '31 seconds'), 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"'), \
         CASE WHEN g % 5 = 0 THEN 'failed' ELSE 'completed' END, 'bench', 'agent', 'answer ' || g, 12 \
         FROM generate_series(1, {n}) g"
    );
    let out = std::process::Command::new("psql").args([url, "-qc", &sql, "-c", "ANALYZE runs"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// The median of 11 answers to `q`.
async fn timed(store: &Store, q: RunQuery) -> (f64, u32) {
    let mut ms = vec![];
    let mut total = 0;
    for _ in 0..11 {
        let t0 = Instant::now();
        total = store.search_runs(&q).await.unwrap().total;
        ms.push(t0.elapsed().as_secs_f64() * 1e3);
    }
    ms.sort_by(f64::total_cmp);
    (ms[5], total)
}

async fn million(n: u64) {
    let Some(url) = database("baton_team_runs") else { return };
    Store::open(&url).await.unwrap();
    let t0 = Instant::now();
    fill(&url, n).await;
    println!("runs home: {n} runs written in {:.1} s", t0.elapsed().as_secs_f64());
    let store = Store::open(&url).await.unwrap();
    let page = |q: RunQuery| RunQuery { limit: Some(100), ..q };
    let cases = [
        ("first page (newest 100, total, topology list)", page(RunQuery::default())),
        ("one topology", page(RunQuery { topology: Some("topology-7".into()), ..Default::default() })),
        ("failed runs", page(RunQuery { status: Some(baton::trace::OutcomeStatus::Failed), ..Default::default() })),
        (
            "a month",
            page(RunQuery { since: Some("2026-03-01".into()), until: Some("2026-04-01".into()), ..Default::default() }),
        ),
        ("text search", page(RunQuery { search: Some("answer 123456".into()), ..Default::default() })),
    ];
    for (what, q) in cases {
        let (ms, total) = timed(&store, q).await;
        println!("runs home, {n} runs on PostgreSQL: {what}: median {ms:.0} ms ({total} match) (target < 300 ms)");
    }
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    rt.block_on(async {
        let traces = if quick { 400 } else { 2_000 };
        if !std::env::args().any(|a| a == "--runs-only") {
            collectors(1, traces).await;
            collectors(3, traces).await;
        }
        million(if quick { 100_000 } else { 1_000_000 }).await;
    });
}

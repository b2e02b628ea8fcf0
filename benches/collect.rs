//! Live capture benchmark: a load generator sends real OTLP protobuf requests over loopback to
//! the `baton collect` receiver (in process, SQLite store, transfer diffs computed) as fast as it
//! can for `--seconds` (default 20; `--quick` 5). Prints the sustained ingest in spans/s (from
//! the first request to the last run saved) and the latency from a trace's last span being
//! acknowledged to its run being readable through the store (p50, p99, max), with the quiet
//! period it ran with. A third phase sends the same paced traffic with deep chains beside it
//! (each second a chain nested as deep as Baton reads, and one twenty times deeper that is
//! refused): the ordinary traces' latency must not grow, since large traces have a lane of their
//! own.

#[path = "support/otlp_traffic.rs"]
mod traffic;

use baton::collect::{Live, keep_saving, router};
use baton::import::MAX_NESTING;
use baton::serve::Guard;
use baton::store::Store;
use opentelemetry_proto::tonic::trace::v1::Span;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

const QUIET_MS: u64 = 200;
const TRACES_PER_REQUEST: u64 = 20;

/// A chain of `depth` nested spans, agent and chat in turn (each chat answers and hands on), the
/// `n`-th such chain: trace ids are marked 2 in their ninth byte, apart from ordinary traces.
fn deep_chain(n: u64, depth: u64) -> Vec<Span> {
    let mut tid = [0u8; 16];
    tid[..8].copy_from_slice(&n.to_be_bytes());
    tid[8] = 2;
    let sid = |k: u64| (k + 1).to_be_bytes().to_vec();
    let t0 = 1_700_000_000_000_000_000u64 + n * 1_000_000_000;
    (0..depth)
        .map(|k| {
            let attrs = if k % 2 == 0 {
                vec![traffic::kv("gen_ai.operation.name", "invoke_agent"), traffic::kv("gen_ai.agent.name", &format!("agent{}", k % 7))]
            } else {
                let out = format!(
                    r#"[{{"role":"assistant","parts":[{{"type":"text","content":"step {k}"}},{{"type":"tool_call","id":"c{k}","name":"transfer_to_agent{}","arguments":{{}}}}]}}]"#,
                    (k + 1) % 7
                );
                vec![traffic::kv("gen_ai.operation.name", "chat"), traffic::kv("gen_ai.output.messages", &out)]
            };
            Span {
                trace_id: tid.to_vec(),
                span_id: sid(k),
                parent_span_id: if k == 0 { vec![] } else { sid(k - 1) },
                name: if k % 2 == 0 { "invoke_agent".into() } else { "chat".into() },
                start_time_unix_nano: t0 + k,
                end_time_unix_nano: t0 + 2 * depth - k,
                attributes: attrs,
                ..Default::default()
            }
        })
        .collect()
}

fn request(first: u64) -> Vec<u8> {
    traffic::encode((first..first + TRACES_PER_REQUEST).flat_map(traffic::trace).collect())
}

/// What a phase measured.
struct Measured {
    spans: u64,
    all_saved: f64,
    /// Ordinary traces, acknowledged -> saved, in ms, sorted.
    lat: Vec<f64>,
    retries: u64,
    /// Deep chains read (acknowledged -> saved, ms) and refused.
    deep_saved: Vec<f64>,
    deep_refused: usize,
}

/// Sends for `seconds` (at `rate` spans/s, or as fast as possible; with `deep`, two deep chains
/// each second beside), waits for every run, and says what it measured.
async fn phase(seconds: u64, rate: Option<f64>, deep: bool) -> Measured {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("capture.db").display().to_string()).await.unwrap();
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0)).await.unwrap();
    let addr = listener.local_addr().unwrap();
    let url = format!("http://{addr}/v1/traces");
    // As `baton collect` runs: every request kept in the store's inbox before it is acknowledged.
    let live = Arc::new(Live::new(Duration::from_millis(QUIET_MS), url.clone()).with_inbox(store.clone()));
    let app = router(live.clone(), Guard::for_addr(addr, &[]));
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    let saved: Arc<std::sync::Mutex<Vec<(String, Instant)>>> = Arc::default();
    let refused: Arc<std::sync::Mutex<usize>> = Arc::default();
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let saver = {
        let (live, store, saved, refused) = (live.clone(), store.clone(), saved.clone(), refused.clone());
        tokio::spawn(async move {
            keep_saving(
                live,
                store,
                Duration::from_millis(50),
                async {
                    let _ = stop_rx.await;
                },
                move |r| match r {
                    Ok(s) => saved.lock().unwrap().push((s.trace_id, Instant::now())),
                    Err(_) => *refused.lock().unwrap() += 1,
                },
            )
            .await
        })
    };
    let http = reqwest::Client::new();
    let post = |body: Vec<u8>| http.post(&url).header("content-type", "application/x-protobuf").body(body).send();
    let start = Instant::now();
    let mut acked: HashMap<u64, Instant> = HashMap::new();
    let mut deep_acked: HashMap<u64, Instant> = HashMap::new();
    let (mut next, mut retries, mut chains) = (0u64, 0u64, 0u64);
    while start.elapsed() < Duration::from_secs(seconds) {
        if deep && start.elapsed() >= Duration::from_secs(chains / 2) {
            // One chain as deep as Baton reads (saved), one twenty times deeper (refused).
            let depth = if chains % 2 == 0 { MAX_NESTING as u64 } else { 20 * MAX_NESTING as u64 };
            let r = post(traffic::encode(deep_chain(chains, depth))).await.unwrap();
            assert!(r.status().is_success(), "{}", r.status());
            deep_acked.insert(chains, Instant::now());
            chains += 1;
        }
        if let Some(rate) = rate {
            // Paced: the n-th span is due at n / rate seconds.
            let due = Duration::from_secs_f64((next * 5) as f64 / rate);
            if let Some(wait) = due.checked_sub(start.elapsed()) {
                tokio::time::sleep(wait).await;
            }
        }
        let r = post(request(next)).await.unwrap();
        if r.status() == 503 {
            retries += 1;
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        }
        assert!(r.status().is_success(), "{}", r.status());
        acked.insert(next, Instant::now());
        next += TRACES_PER_REQUEST;
    }
    // Every ordinary trace and every chain at the bound is saved; the deeper chains are refused.
    let expected = next + chains.div_ceil(2);
    while (saved.lock().unwrap().len() as u64) < expected || (*refused.lock().unwrap() as u64) < chains / 2 {
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert!(start.elapsed() < Duration::from_secs(seconds * 30 + 60), "runs stopped arriving");
    }
    let all_saved = start.elapsed().as_secs_f64();
    let _ = stop_tx.send(());
    let _ = saver.await;
    assert_eq!(store.list_runs_page(None, 1, 0).await.unwrap().len(), 1);
    // Latency: each run against the acknowledgement of the request that carried its trace.
    let (mut lat, mut deep_saved) = (vec![], vec![]);
    for (tid, t) in saved.lock().unwrap().iter() {
        let n = u64::from_str_radix(&tid[..16], 16).unwrap();
        if &tid[16..18] == "02" {
            deep_saved.push(t.saturating_duration_since(deep_acked[&n]).as_secs_f64() * 1000.0);
        } else {
            lat.push(t.saturating_duration_since(acked[&(n - n % TRACES_PER_REQUEST)]).as_secs_f64() * 1000.0);
        }
    }
    lat.sort_by(|a, b| a.partial_cmp(b).unwrap());
    deep_saved.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let deep_refused = *refused.lock().unwrap();
    Measured { spans: next * 5, all_saved, lat, retries, deep_saved, deep_refused }
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let seconds: u64 = if quick { 5 } else { 20 };
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    rt.block_on(async move {
        let pct = |lat: &[f64], p: f64| lat[((lat.len() as f64 - 1.0) * p) as usize];
        let m = phase(seconds, None, false).await;
        println!(
            "collect, unpaced: {} spans ({TRACES_PER_REQUEST} traces of 5 spans per protobuf request) all saved after {:.1} s: \
             {:.0} spans/s sustained into SQLite with transfer diffs ({} requests told to retry)",
            m.spans,
            m.all_saved,
            m.spans as f64 / m.all_saved,
            m.retries
        );
        let rate = 20_000.0;
        for deep in [false, true] {
            let m = phase(seconds, Some(rate), deep).await;
            let beside = if deep { " with deep chains beside" } else { "" };
            println!(
                "collect, paced at {rate:.0} spans/s{beside}: {} spans all saved after {:.1} s; acknowledged -> run saved \
                 (quiet period {QUIET_MS} ms): p50 {:.0} ms, p99 {:.0} ms, max {:.0} ms ({} retries)",
                m.spans,
                m.all_saved,
                pct(&m.lat, 0.5),
                pct(&m.lat, 0.99),
                m.lat.last().unwrap(),
                m.retries
            );
            if deep {
                println!(
                    "  deep chains: {} of {MAX_NESTING} nested spans saved (acknowledged -> saved p50 {:.0} ms, max {:.0} ms); \
                     {} of {} nested spans refused",
                    m.deep_saved.len(),
                    pct(&m.deep_saved, 0.5),
                    m.deep_saved.last().unwrap(),
                    m.deep_refused,
                    20 * MAX_NESTING
                );
            }
        }
    });
}

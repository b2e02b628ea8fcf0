//! Live capture benchmark: a load generator sends real OTLP protobuf requests over loopback to
//! the `baton collect` receiver (in process, SQLite store, transfer diffs computed) as fast as it
//! can for `--seconds` (default 20; `--quick` 5). Prints the sustained ingest in spans/s (from
//! the first request to the last run saved) and the latency from a trace's last span being
//! acknowledged to its run being readable through the store (p50, p99, max), with the quiet
//! period it ran with.

use baton::collect::{Live, keep_saving, router};
use baton::serve::Guard;
use baton::store::Store;
use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::{AnyValue, KeyValue, any_value};
use opentelemetry_proto::tonic::trace::v1::{ResourceSpans, ScopeSpans, Span};
use prost::Message;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

const QUIET_MS: u64 = 200;
const TRACES_PER_REQUEST: u64 = 20;

fn kv(k: &str, v: &str) -> KeyValue {
    KeyValue {
        key: k.into(),
        value: Some(AnyValue { value: Some(any_value::Value::StringValue(v.into())) }),
        ..Default::default()
    }
}

/// One trace of a GenAI handoff: triage's agent span and chat (it calls transfer_to_billing),
/// then billing's agent span and chat. Five spans.
fn trace(n: u64) -> Vec<Span> {
    let tid = {
        let mut t = [0u8; 16];
        t[..8].copy_from_slice(&n.to_be_bytes());
        t[8] = 1;
        t.to_vec()
    };
    let sid = |k: u8| {
        let mut s = [0u8; 8];
        s[..7].copy_from_slice(&n.to_be_bytes()[1..]);
        s[7] = k;
        s.to_vec()
    };
    let t0 = 1_700_000_000_000_000_000u64 + n * 1_000_000;
    let span = |k: u8, parent: Option<u8>, name: &str, at: u64, attrs: Vec<KeyValue>| Span {
        trace_id: tid.clone(),
        span_id: sid(k),
        parent_span_id: parent.map(sid).unwrap_or_default(),
        name: name.into(),
        start_time_unix_nano: t0 + at,
        end_time_unix_nano: t0 + at + 900,
        attributes: attrs,
        ..Default::default()
    };
    let user = r#"[{"role":"user","parts":[{"type":"text","content":"I was double charged on invoice 88."}]}]"#;
    let triage_out = r#"[{"role":"assistant","parts":[{"type":"text","content":"Routing you to billing."},{"type":"tool_call","id":"call_1","name":"transfer_to_billing","arguments":{}}]}]"#;
    let billing_in = r#"[{"role":"user","parts":[{"type":"text","content":"I was double charged on invoice 88."}]},{"role":"assistant","parts":[{"type":"text","content":"Routing you to billing."},{"type":"tool_call","id":"call_1","name":"transfer_to_billing","arguments":{}}]},{"role":"tool","parts":[{"type":"tool_call_response","id":"call_1","response":"{\"assistant\": \"Billing\"}"}]}]"#;
    let billing_out =
        r#"[{"role":"assistant","parts":[{"type":"text","content":"Refund issued for the duplicate charge."}]}]"#;
    vec![
        span(1, None, "invoke_workflow support", 0, vec![kv("gen_ai.operation.name", "invoke_workflow")]),
        span(
            2,
            Some(1),
            "invoke_agent triage",
            10,
            vec![kv("gen_ai.operation.name", "invoke_agent"), kv("gen_ai.agent.name", "triage")],
        ),
        span(
            3,
            Some(2),
            "chat gpt-4o",
            20,
            vec![
                kv("gen_ai.operation.name", "chat"),
                kv("gen_ai.input.messages", user),
                kv("gen_ai.output.messages", triage_out),
            ],
        ),
        span(
            4,
            Some(1),
            "invoke_agent billing",
            40,
            vec![kv("gen_ai.operation.name", "invoke_agent"), kv("gen_ai.agent.name", "billing")],
        ),
        span(
            5,
            Some(4),
            "chat gpt-4o",
            50,
            vec![
                kv("gen_ai.operation.name", "chat"),
                kv("gen_ai.input.messages", billing_in),
                kv("gen_ai.output.messages", billing_out),
            ],
        ),
    ]
}

fn request(first: u64) -> Vec<u8> {
    let spans = (first..first + TRACES_PER_REQUEST).flat_map(trace).collect();
    ExportTraceServiceRequest {
        resource_spans: vec![ResourceSpans {
            scope_spans: vec![ScopeSpans { spans, ..Default::default() }],
            ..Default::default()
        }],
    }
    .encode_to_vec()
}

/// Sends for `seconds` (at `rate` spans/s, or as fast as possible), waits for every run, and
/// returns (spans sent, seconds until all were saved, latencies in ms, requests told to retry).
async fn phase(seconds: u64, rate: Option<f64>) -> (u64, f64, Vec<f64>, u64) {
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
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let saver = {
        let (live, store, saved) = (live.clone(), store.clone(), saved.clone());
        tokio::spawn(async move {
            keep_saving(
                live,
                store,
                Duration::from_millis(50),
                async {
                    let _ = stop_rx.await;
                },
                |r| {
                    if let Ok(s) = r {
                        saved.lock().unwrap().push((s.trace_id, Instant::now()));
                    }
                },
            )
            .await
        })
    };
    let http = reqwest::Client::new();
    let start = Instant::now();
    let mut acked: HashMap<u64, Instant> = HashMap::new();
    let mut next = 0u64;
    let mut retries = 0u64;
    while start.elapsed() < Duration::from_secs(seconds) {
        if let Some(rate) = rate {
            // Paced: the n-th span is due at n / rate seconds.
            let due = Duration::from_secs_f64((next * 5) as f64 / rate);
            if let Some(wait) = due.checked_sub(start.elapsed()) {
                tokio::time::sleep(wait).await;
            }
        }
        let r =
            http.post(&url).header("content-type", "application/x-protobuf").body(request(next)).send().await.unwrap();
        if r.status() == 503 {
            retries += 1;
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        }
        assert!(r.status().is_success(), "{}", r.status());
        acked.insert(next, Instant::now());
        next += TRACES_PER_REQUEST;
    }
    while (saved.lock().unwrap().len() as u64) < next {
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert!(start.elapsed() < Duration::from_secs(seconds * 30 + 60), "runs stopped arriving");
    }
    let all_saved = start.elapsed().as_secs_f64();
    let _ = stop_tx.send(());
    let _ = saver.await;
    assert_eq!(store.list_runs_page(None, 1, 0).await.unwrap().len(), 1);
    // Latency: each run against the acknowledgement of the request that carried its trace.
    let mut lat: Vec<f64> = saved
        .lock()
        .unwrap()
        .iter()
        .map(|(tid, t)| {
            let n = u64::from_str_radix(&tid[..16], 16).unwrap();
            t.saturating_duration_since(acked[&(n - n % TRACES_PER_REQUEST)]).as_secs_f64() * 1000.0
        })
        .collect();
    lat.sort_by(|a, b| a.partial_cmp(b).unwrap());
    (next * 5, all_saved, lat, retries)
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let seconds: u64 = if quick { 5 } else { 20 };
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    rt.block_on(async move {
        let pct = |lat: &[f64], p: f64| lat[((lat.len() as f64 - 1.0) * p) as usize];
        let (spans, secs, _, retries) = phase(seconds, None).await;
        println!(
            "collect, unpaced: {spans} spans ({TRACES_PER_REQUEST} traces of 5 spans per protobuf request) all saved after {secs:.1} s: \
             {:.0} spans/s sustained into SQLite with transfer diffs ({retries} requests told to retry)",
            spans as f64 / secs
        );
        let rate = 20_000.0;
        let (spans, secs, lat, retries) = phase(seconds, Some(rate)).await;
        println!(
            "collect, paced at {rate:.0} spans/s: {spans} spans all saved after {secs:.1} s; acknowledged -> run saved \
             (quiet period {QUIET_MS} ms): p50 {:.0} ms, p99 {:.0} ms, max {:.0} ms ({retries} retries)",
            pct(&lat, 0.5),
            pct(&lat, 0.99),
            lat.last().unwrap()
        );
    });
}

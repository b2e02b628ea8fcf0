//! Store benchmark: stored bytes of a 10,000-step run (per-step snapshots) against its native
//! trace JSON, insert throughput, and step latency at random steps of a 100,000-step run.

use baton::engine::{RunOptions, run};
use baton::providers::{Model, ModelError, ModelRequest, ModelResponse, OutputItem, SameModel, Usage};
use baton::store::Store;
use baton::topology::Topology;
use baton::trace::Trace;
use futures::future::BoxFuture;
use std::time::Instant;

/// Polls a tool nine times, then hands off to the other agent (contexts grow, then shrink).
struct Poller;
impl Model for Poller {
    fn respond<'a>(&'a self, req: ModelRequest<'a>) -> BoxFuture<'a, Result<ModelResponse, ModelError>> {
        let call = if req.call_number.is_multiple_of(10) {
            let target = if req.agent.id == "a" { "transfer_to_b" } else { "transfer_to_a" };
            OutputItem::Call { name: target.into(), arguments: "{}".into(), call_id: format!("h{}", req.turn) }
        } else {
            OutputItem::Call {
                name: "poll".into(),
                arguments: format!("{{\"n\":{}}}", req.turn),
                call_id: format!("c{}", req.turn),
            }
        };
        let out = vec![OutputItem::Reasoning(format!("turn {} of {}", req.turn, req.agent.name)), call];
        Box::pin(std::future::ready(Ok(ModelResponse {
            output: out,
            refs: vec![],
            usage: Usage::default(),
            exchange: None,
        })))
    }
}

fn topology(turns: u32) -> Topology {
    let y = format!(
        "version: 1\nname: long\nentry: a\nagents:\n  - {{id: a, name: A, instructions: poll, tools: [{{name: poll, mock_result: still waiting for the deploy}}]}}\n  - {{id: b, name: B, instructions: poll too, tools: [{{name: poll, mock_result: still waiting for the deploy}}]}}\nedges:\n  - {{kind: handoff, from: a, to: b, policy: {{last_n: 12}}}}\n  - {{kind: handoff, from: b, to: a, policy: {{last_n: 12}}}}\nguards: {{max_turns: {turns}}}\nfacts: [{{id: f, text: the deploy is manual, holders: [a]}}]\nscenarios: [{{name: s, input: wait for the deploy}}]\n"
    );
    baton::config::parse(&y, baton::config::Format::Yaml, "<bench>").unwrap()
}

async fn make_trace(steps: usize) -> Trace {
    // Each turn is a model call plus a tool call or a handoff: two steps.
    let t = topology((steps / 2) as u32);
    let trace = run(&t, &SameModel(Poller), RunOptions::default()).await.unwrap();
    assert!(trace.steps.len() >= steps, "{} steps", trace.steps.len());
    trace
}

fn events(t: &Trace) -> usize {
    2 + t.items.len() + t.steps.len() + t.transfers.len()
}

async fn measure(label: &str, url: &str, quick: bool) {
    let store = Store::open(url).await.unwrap();
    let trace = make_trace(10_000).await;
    let json = serde_json::to_string(&trace).unwrap().len();
    let t0 = Instant::now();
    let id = store.save_trace(&trace).await.unwrap();
    let dt = t0.elapsed().as_secs_f64();
    let bytes = store.size_bytes().await.unwrap();
    println!(
        "[{label}] 10,000-step run: trace JSON {:.2} MB, stored {:.2} MB, ratio {:.2}x (target <= 1.5x)",
        json as f64 / 1e6,
        bytes as f64 / 1e6,
        bytes as f64 / json as f64
    );
    println!("[{label}] insert: {} events in {:.2} s = {:.0} events/s", events(&trace), dt, events(&trace) as f64 / dt);
    store.delete_run(&id).await.unwrap();

    let big = if quick { 20_000 } else { 100_000 };
    let trace = make_trace(big).await;
    let t0 = Instant::now();
    let id = store.save_trace(&trace).await.unwrap();
    let dt = t0.elapsed().as_secs_f64();
    println!("[{label}] {big}-step run saved in {:.1} s ({:.0} events/s)", dt, events(&trace) as f64 / dt);
    let mut lat = vec![];
    let mut x: u64 = 0x9e3779b97f4a7c15;
    for _ in 0..300 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let k = (x % trace.steps.len() as u64) as u32;
        let t0 = Instant::now();
        let v = store.step_view(&id, k).await.unwrap();
        lat.push(t0.elapsed().as_secs_f64() * 1e3);
        assert_eq!(v.step.index, k);
    }
    lat.sort_by(f64::total_cmp);
    println!(
        "[{label}] step latency over 300 random steps: p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms (target < 16 ms)",
        lat[150], lat[297], lat[299]
    );
    store.delete_run(&id).await.unwrap();
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    rt.block_on(async {
        let dir = tempfile::tempdir().unwrap();
        measure("sqlite", &dir.path().join("bench.db").display().to_string(), quick).await;
        let pg = std::process::Command::new("scripts/pg.sh").output().ok().filter(|o| o.status.success());
        if let Some(out) = pg {
            {
                let admin = String::from_utf8_lossy(&out.stdout).trim().to_owned();
                let _ = std::process::Command::new("psql")
                    .args([admin.as_str(), "-qc", "DROP DATABASE IF EXISTS baton_bench"])
                    .output();
                let _ = std::process::Command::new("psql")
                    .args([admin.as_str(), "-qc", "CREATE DATABASE baton_bench"])
                    .output();
                let url = admin.rsplit_once('/').map(|(b, _)| format!("{b}/baton_bench")).unwrap();
                measure("postgres", &url, quick).await;
            }
        }
    });
}

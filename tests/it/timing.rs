//! Step timings and context sizes, which the debugger's charts draw: an imported trace's calls
//! keep the times its spans recorded (offsets from the run's start, read from the files by a
//! person), through the store to the overview; a native run times its model calls.

use crate::common::{example, root};
use baton::engine::{RunOptions, run_mock};
use baton::import::import_file;
use baton::store::Store;
use baton::trace::{StepBrief, StepKind, Trace};

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap()
}

fn import(name: &str) -> Trace {
    let mut out = vec![];
    import_file(&root().join("tests/import/fixtures").join(name), None, None, None, &mut |t, _| {
        out.push(t);
        Ok(())
    })
    .unwrap();
    assert_eq!(out.len(), 1, "{name}");
    out.remove(0)
}

/// (start_ms, duration_ms) of the steps of one kind, in step order.
fn times(steps: &[StepBrief], kind: StepKind) -> Vec<(f64, f64)> {
    steps.iter().filter(|s| s.kind == kind).map(|s| (s.start_ms.unwrap(), s.duration_ms.unwrap())).collect()
}

async fn overview(trace: &Trace) -> Vec<StepBrief> {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("runs.db").display().to_string()).await.unwrap();
    let id = store.save_trace(trace).await.unwrap();
    store.run_overview(&id).await.unwrap().steps.briefs()
}

#[test]
fn an_agents_sdk_trace_keeps_its_spans_times() {
    // openai_agents_handoff.jsonl: the trace's first span starts at 00:16:40.003; its three
    // `response` spans run 009–011, 021–023 and 037–039, its `function` span 013–015 (ms).
    let trace = import("openai_agents_handoff.jsonl");
    let steps = rt().block_on(overview(&trace));
    assert_eq!(times(&steps, StepKind::ModelCall), vec![(6.0, 2.0), (18.0, 2.0), (34.0, 2.0)]);
    assert_eq!(times(&steps, StepKind::ToolCall), vec![(10.0, 2.0)]);
    // Transfers are not timed calls.
    assert!(steps.iter().filter(|s| s.kind == StepKind::Handoff).all(|s| s.start_ms.is_none()));
}

#[test]
fn an_otlp_trace_keeps_its_spans_times() {
    // otlp_genai.json: `invoke_workflow support` starts at …001 ms; `chat` spans run 003–004,
    // 007–008, 013–014; `execute_tool lookup_invoice` 005–006 (transfer_to_billing is the handoff).
    let trace = import("otlp_genai.json");
    let steps = rt().block_on(overview(&trace));
    assert_eq!(times(&steps, StepKind::ModelCall), vec![(2.0, 1.0), (6.0, 1.0), (12.0, 1.0)]);
    assert_eq!(times(&steps, StepKind::ToolCall), vec![(4.0, 1.0)]);
}

#[test]
fn a_native_run_times_its_steps_and_counts_what_each_agent_sees() {
    let t = baton::config::load(&example("ticket-reopen.yaml")).unwrap();
    let trace = rt().block_on(run_mock(&t, RunOptions::default())).unwrap();
    let steps = rt().block_on(overview(&trace));
    let starts: Vec<f64> = steps.iter().map(|s| s.start_ms.expect("every native step is timed")).collect();
    assert!(starts.windows(2).all(|w| w[0] <= w[1]), "steps start in order: {starts:?}");
    assert!(steps.iter().all(|s| s.duration_ms.unwrap() >= 0.0));
    // The handoff to Verification passes fields(ticket, status): Verification sees its own
    // instructions and the one handover message, and nothing of the 9 items Resolution held.
    let to_verification = steps.iter().find(|s| s.kind == StepKind::Handoff && s.agent == "verification").unwrap();
    assert_eq!(to_verification.context_len, Some(2));
    let before = &steps[to_verification.index as usize - 1];
    assert_eq!(before.agent, "resolution");
    assert!(before.context_len.unwrap() > 2);
}

//! A real small model (SmolLM2-135M behind llama.cpp's OpenAI-compatible server on loopback,
//! started by scripts/llama.sh) runs the support-triage story. The test asserts what a real
//! model guarantees — a real response, well-formed tool calls under a forced choice, a run that
//! ends with a reason — not the model's judgement.

use crate::common;

use baton::engine::{RunOptions, run};
use baton::providers::LiveModels;
use baton::topology::Provider;
use baton::trace::{OutcomeStatus, StepKind};
use common::*;

fn llama_url() -> String {
    let out = std::process::Command::new(root().join("scripts/llama.sh")).output().expect("run scripts/llama.sh");
    assert!(out.status.success(), "scripts/llama.sh failed: {}", stderr(&out));
    stdout(&out).trim().to_owned()
}

#[test]
fn support_triage_on_a_real_small_model() {
    let base = llama_url();
    let mut t = baton::config::load(&example("support-triage.yaml")).unwrap();
    for a in t.agents.iter_mut() {
        let m = a.model.as_mut().unwrap();
        m.provider = Provider::OpenaiCompatible;
        m.name = "smollm2".into();
        m.base_url = Some(base.clone());
        m.max_tokens = Some(48);
        m.temperature = Some(0.0);
    }
    // Triage must hand off: force its transfer tool (llama.cpp rejects "required").
    t.agents[0].model.as_mut().unwrap().tool_choice = Some("transfer_to_billing".into());
    t.guards.max_turns = 4;
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let trace = rt.block_on(async {
        let models = LiveModels::new(&t, t.scenario(None), Default::default()).unwrap();
        let opts = RunOptions { providers: models.labels.clone(), ..Default::default() };
        run(&t, &models, opts).await.unwrap()
    });
    // A real response, with the provider's own token counts and the bodies recorded.
    let first = trace.steps.iter().find(|s| s.kind == StepKind::ModelCall).unwrap();
    assert!(first.usage.unwrap().input_tokens > 0, "{:?}", first.usage);
    let exchange = first.exchange.as_ref().expect("the exchange is recorded");
    assert_eq!(exchange["response"]["model"], "smollm2");
    // The forced call is well formed and made the handoff.
    let call = trace.items.iter().find(|i| i.name.as_deref() == Some("transfer_to_billing")).expect("a forced call");
    serde_json::from_str::<serde_json::Value>(call.arguments.as_deref().unwrap()).expect("arguments are JSON");
    assert_eq!((trace.transfers[0].from.as_str(), trace.transfers[0].to.as_str()), ("triage", "billing"));
    // The run ends, with a reason, whatever the small model does next.
    assert_ne!(trace.outcome.status, OutcomeStatus::Running);
    assert!(!trace.outcome.reason.is_empty());
    assert!(
        matches!(trace.outcome.status, OutcomeStatus::Completed | OutcomeStatus::Stopped | OutcomeStatus::Failed),
        "{:?}",
        trace.outcome
    );
    assert_eq!(trace.providers["billing"], "openai-compatible:smollm2");
}

/// A fork of an imported Agents SDK trace (a real SDK run with a fake model: Triage hands off to
/// Billing) with every agent moved to the real small model: the replay leaves the recording at
/// the first call, llama.cpp answers the rest, and the fork ends with a reason.
#[test]
fn a_fork_of_an_imported_trace_runs_on_the_real_small_model() {
    let base = llama_url();
    let mut traces = vec![];
    baton::import::import_file(
        &root().join("tests/import/fixtures/openai_agents_handoff.jsonl"),
        None,
        None,
        None,
        &mut |t, _| {
            traces.push(t);
            Ok(())
        },
    )
    .unwrap();
    let trace = &traces[0];
    let agents: Vec<String> = trace.definition.as_ref().unwrap().agents.iter().map(|a| a.id.clone()).collect();
    let spec = baton::fork::ForkSpec {
        at: 0,
        models: agents.iter().map(|a| (a.clone(), format!("openai-compatible:smollm2@{base}"))).collect(),
        max_turns: Some(3),
        then: baton::fork::Then::Live,
        ..Default::default()
    };
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let f = rt.block_on(baton::fork::fork(trace, "", &spec, RunOptions::default())).unwrap();
    let d = f.fork.as_ref().unwrap().divergence.clone().expect("the changed model leaves the recording");
    assert_eq!(d.call, 1);
    assert!(d.reason.contains("model was changed"), "{}", d.reason);
    assert!(f.steps.iter().any(|s| s.kind == StepKind::ModelCall && s.exchange.is_some()), "llama.cpp answered");
    assert_ne!(f.outcome.status, OutcomeStatus::Running);
    assert!(!f.outcome.reason.is_empty());
    assert!(f.providers.values().all(|p| p == "openai-compatible:smollm2"), "{:?}", f.providers);
}

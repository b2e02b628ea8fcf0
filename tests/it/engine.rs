//! The run engine as users rely on it: the seeds' stories behave as the articles tell, guards
//! end runs with a reason, every policy builds the receiver's input it promises, events stream
//! in order, and runs can be cancelled.

use crate::common;

use baton::context::{FactStatus, ItemKind};
use baton::engine::{RunEvent, RunOptions, run_mock};
use baton::providers::{Model, ModelError, ModelRequest, ModelResponse, SameModel};
use baton::topology::{OnRevisit, Topology};
use baton::trace::{OutcomeStatus, StepKind, Trace};
use common::*;
use std::sync::{Arc, Mutex};

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap()
}

fn load(name: &str) -> Topology {
    baton::config::load(&example(name)).unwrap()
}

fn run(t: &Topology, scenario: Option<&str>) -> Trace {
    rt().block_on(run_mock(t, RunOptions { scenario: scenario.map(str::to_owned), ..Default::default() })).unwrap()
}

fn fact(trace: &Trace, transfer: usize, id: &str) -> FactStatus {
    trace.transfers[transfer].facts.iter().find(|f| f.id == id).unwrap().status
}

#[test]
fn ticket_reopen_loses_the_fact_at_the_second_handoff_and_reopens() {
    let trace = run(&load("ticket-reopen.yaml"), None);
    assert_eq!(trace.outcome.status, OutcomeStatus::Completed);
    assert_eq!(trace.outcome.owner, "verification");
    assert!(trace.outcome.final_output.as_deref().unwrap().starts_with("Reopened ticket 4812"));
    assert_eq!(trace.transfers.len(), 2);
    let (first, second) = (&trace.transfers[0], &trace.transfers[1]);
    assert_eq!((first.from.as_str(), first.to.as_str()), ("triage", "resolution"));
    assert_eq!(fact(&trace, 0, "resolved-meaning"), FactStatus::Added, "resolution holds the fact itself");
    assert_eq!((second.from.as_str(), second.to.as_str()), ("resolution", "verification"));
    assert_eq!(fact(&trace, 1, "resolved-meaning"), FactStatus::Lost);
    // The structured handoff carries the fields, transformed from the transfer call.
    assert_eq!(second.policy, "fields(ticket,status)");
    assert_eq!(second.transformed.len(), 1);
    let input = trace.item(second.transformed[0]).unwrap();
    assert_eq!(input.text, "Handoff from Resolution:\nticket: 4812\nstatus: resolved");
    let source = trace.item(input.derived_from[0]).unwrap();
    assert_eq!((source.kind, source.name.as_deref()), (ItemKind::TransferCall, Some("transfer_to_verification")));
    // What was dropped includes the fact and the reasoning that gave "resolved" its meaning.
    let dropped: Vec<ItemKind> = second.dropped.iter().map(|id| trace.item(*id).unwrap().kind).collect();
    assert!(dropped.contains(&ItemKind::PinnedFact) && dropped.contains(&ItemKind::Reasoning), "{dropped:?}");
    let reopened =
        trace.items.iter().any(|i| i.kind == ItemKind::ToolCall && i.name.as_deref() == Some("reopen_ticket"));
    assert!(reopened, "verification reopens the ticket");
}

#[test]
fn ticket_supervisor_never_loses_the_fact_and_closes_pending_rollout() {
    let trace = run(&load("ticket-supervisor.yaml"), None);
    assert_eq!(trace.outcome.status, OutcomeStatus::Completed);
    assert_eq!(trace.outcome.owner, "supervisor");
    let out = trace.outcome.final_output.as_deref().unwrap();
    assert!(out.contains("closed as resolved, pending manual rollout"), "{out}");
    assert_eq!(trace.transfers.len(), 3);
    for (i, t) in trace.transfers.iter().enumerate() {
        assert_eq!(t.kind, baton::topology::EdgeKind::Delegation);
        assert_eq!(fact(&trace, i, "resolved-meaning"), FactStatus::Carried, "transfer {i}");
    }
    // Each worker gets only its tool input, transformed from the supervisor's call.
    let worker_input = trace.item(trace.transfers[1].transformed[0]).unwrap();
    assert_eq!(worker_input.text, "Fix ticket 4812 (checkout, Safari).");
    assert!(trace.steps.iter().any(|s| s.kind == StepKind::DelegationReturn && s.depth == 0));
    assert!(trace.steps.iter().filter(|s| s.kind == StepKind::ModelCall).any(|s| s.depth == 1));
}

#[test]
fn the_refactored_ticket_reopen_keeps_the_fact() {
    let (t, sup) = baton::refactor::supervisor_refactor(&load("ticket-reopen.yaml"), None).unwrap();
    let trace = run(&t, None);
    assert_eq!(trace.outcome.status, OutcomeStatus::Completed, "{:?}", trace.outcome);
    assert_eq!(trace.outcome.owner, sup);
    assert!(!trace.transfers.is_empty());
    assert!(trace.transfers.iter().all(|tr| tr.facts.iter().all(|f| f.status != FactStatus::Lost)));
}

/// The refactor of one selected edge (the `verify-handoff` finding's resolution → verification):
/// Triage's handoff is retargeted and its script follows, so the run completes; the preview
/// words each change a person reads off the example.
#[test]
fn the_refactor_of_a_selected_edge_rewrites_every_script_and_runs() {
    let t = load("ticket-reopen.yaml");
    let done =
        baton::refactor::supervisor_refactor_preview(&t, Some(&["resolution->verification".to_owned()])).unwrap();
    assert!(done.chosen);
    assert_eq!(done.chain, ["resolution->verification"]);
    let texts: Vec<&str> = done.changes.iter().map(|c| c.text.as_str()).collect();
    for want in [
        "Adds the supervisor Supervisor (id supervisor)",
        "Triage's handoff to Resolution now goes to Supervisor",
        "Removes the handoff Resolution → Verification",
        "Adds the delegation Supervisor → Verification (its result is verified)",
        "Scenario flagged-fix: Triage's script calls transfer_to_supervisor instead of transfer_to_resolution",
        "Scenario flagged-fix: Resolution's script no longer calls transfer_to_verification",
        "The pinned fact resolved-meaning is also held by Supervisor",
    ] {
        assert!(texts.contains(&want), "missing {want:?} in {texts:#?}");
    }
    let findings = baton::lint::lint(&done.topology);
    assert!(findings.iter().all(|f| f.severity != baton::lint::Severity::Error), "{findings:#?}");
    let trace = run(&done.topology, None);
    assert_eq!(trace.outcome.status, OutcomeStatus::Completed, "{:?}", trace.outcome);
    assert!(trace.transfers.iter().all(|tr| tr.facts.iter().all(|f| f.status != FactStatus::Lost)));
}

#[test]
fn handoff_loop_escalates_at_the_first_revisit() {
    let t = load("handoff-loop.yaml");
    let trace = run(&t, None);
    assert_eq!(trace.outcome.status, OutcomeStatus::Escalated);
    assert_eq!(trace.outcome.owner, "human");
    assert!(trace.outcome.reason.contains("already owned the conversation"), "{}", trace.outcome.reason);
    let guards: Vec<_> = trace.steps.iter().filter(|s| s.kind == StepKind::Guard).collect();
    assert_eq!(guards.len(), 1);
    // triage → billing → technical, then technical's hand-back to billing is caught.
    let path: Vec<(&str, &str)> = trace.transfers.iter().map(|t| (t.from.as_str(), t.to.as_str())).collect();
    assert_eq!(path, [("triage", "billing"), ("billing", "technical"), ("technical", "human")]);

    let mut stop = t.clone();
    stop.guards.on_revisit = OnRevisit::Stop;
    let trace = run(&stop, None);
    assert_eq!((trace.outcome.status, trace.outcome.guard.as_deref()), (OutcomeStatus::Stopped, Some("revisit")));
    assert_eq!(trace.outcome.owner, "technical");

    let mut capped = t.clone();
    capped.guards.on_revisit = OnRevisit::Allow;
    capped.guards.max_handoffs = Some(4);
    let trace = run(&capped, None);
    assert_eq!(trace.outcome.guard.as_deref(), Some("max_handoffs"));
    assert_eq!(trace.transfers.len(), 4);

    let mut unguarded = t;
    unguarded.guards.on_revisit = OnRevisit::Allow;
    unguarded.guards.max_handoffs = None;
    let trace = run(&unguarded, None);
    assert_eq!(trace.outcome.guard.as_deref(), Some("max_turns"));
    assert_eq!(trace.outcome.reason, "Max turns (10) exceeded");
    assert_eq!(trace.steps.iter().filter(|s| s.kind == StepKind::ModelCall).count(), 10);
}

#[test]
fn support_triage_routes_each_scenario() {
    let t = load("support-triage.yaml");
    for (scenario, owner) in [("double-charge", "billing"), ("app-error", "technical")] {
        let trace = run(&t, Some(scenario));
        assert_eq!(trace.outcome.status, OutcomeStatus::Completed, "{scenario}");
        assert_eq!(trace.outcome.owner, owner, "{scenario}");
        assert_eq!(trace.transfers[0].to, owner);
    }
}

/// Runs all-policies with a scripted handoff from the hub over `tool`, and returns the
/// receiver's input (history items only) and the trace.
fn policy_run(tool: &str, args: serde_json::Value) -> (Trace, Vec<baton::context::Item>) {
    let mut t = baton::config::load(&root().join("tests/data/all-policies.yaml")).unwrap();
    let yaml = format!(
        "name: p\nhistory:\n  - {{role: user, content: earlier question}}\n  - {{role: assistant, content: earlier answer}}\ninput: please help\nscripts:\n  hub:\n    - when: {{call: 1}}\n      calls: [{{tool: lookup, args: {{q: x}}}}]\n    - reasoning: why I route\n      say: routing\n      calls: [{{tool: {tool}, args: {args}}}]\n"
    );
    t.scenarios = vec![serde_norway::from_str(&yaml).unwrap()];
    for a in t.agents.iter().map(|a| a.id.clone()).collect::<Vec<_>>() {
        if a != "hub" {
            t.scenarios[0].scripts.insert(a, vec![serde_norway::from_str("say: done").unwrap()]);
        }
    }
    let trace = run(&t, None);
    let tr = trace.transfers.iter().find(|tr| tr.from == "hub").unwrap().clone();
    let items = tr.receiver.iter().map(|id| trace.item(*id).unwrap().clone()).filter(|i| !i.kind.is_own()).collect();
    (trace, items)
}

fn kinds(items: &[baton::context::Item]) -> Vec<ItemKind> {
    items.iter().map(|i| i.kind).collect()
}

#[test]
fn each_policy_builds_the_receiver_input_it_promises() {
    use ItemKind::*;
    let (_, full) = policy_run("transfer_to_full_target", serde_json::json!({}));
    assert_eq!(
        kinds(&full),
        [
            UserMessage,
            AssistantMessage,
            UserMessage,
            ToolCall,
            ToolResult,
            Reasoning,
            AssistantMessage,
            TransferCall,
            TransferOutput
        ]
    );
    let (_, no_tools) = policy_run("transfer_to_no_tools", serde_json::json!({}));
    assert_eq!(kinds(&no_tools), [UserMessage, AssistantMessage, UserMessage, AssistantMessage]);
    let (_, last) = policy_run("transfer_to_last_n", serde_json::json!({}));
    assert_eq!(kinds(&last), [TransferCall, TransferOutput]);
    let (_, none) = policy_run("transfer_to_blank", serde_json::json!({}));
    assert_eq!(none.len(), 1);
    assert_eq!(none[0].text, "please help");
    let (trace, nested) = policy_run("transfer_to_nested", serde_json::json!({}));
    assert_eq!(kinds(&nested), [AssistantMessage, AssistantMessage, AssistantMessage]);
    assert!(nested[0].text.contains("1. user: earlier question\n2. assistant: earlier answer\n3. user: please help"));
    assert_eq!(nested[1].text, "routing", "the sender's message in the handoff response is forwarded");
    let tr = trace.transfers.iter().find(|t| t.to == "nested").unwrap();
    assert_eq!(tr.transformed.len(), 2, "both summaries are transformed items");
    let (trace, form) =
        policy_run("transfer_to_form", serde_json::json!({"ticket": 7, "status": "open", "secret": "x"}));
    assert_eq!(form.len(), 1);
    assert_eq!(form[0].text, "Handoff from Hub:\nticket: 7\nstatus: open", "only the named fields cross");
    let tr = trace.transfers.iter().find(|t| t.to == "form").unwrap();
    assert_eq!((tr.transformed.len(), tr.carried.len()), (1, 0));
}

#[test]
fn handoff_to_a_human_escalates() {
    let mut t = baton::config::load(&root().join("tests/data/all-policies.yaml")).unwrap();
    t.entry = "full".into();
    t.scenarios = vec![
        serde_norway::from_str("name: s\ninput: help\nscripts:\n  full:\n    - calls: [{tool: escalate}]\n").unwrap(),
    ];
    let trace = run(&t, None);
    assert_eq!(trace.outcome.status, OutcomeStatus::Escalated);
    assert_eq!(trace.outcome.reason, "escalated to a human: Person");
}

#[test]
fn script_and_tool_errors_fail_the_run_with_a_reason_and_keep_the_trace() {
    let mut t = load("support-triage.yaml");
    t.scenarios[0].scripts.remove("billing");
    let trace = run(&t, None);
    assert_eq!(trace.outcome.status, OutcomeStatus::Failed);
    assert!(trace.outcome.reason.contains("no rule for agent 'billing'"), "{}", trace.outcome.reason);
    assert_eq!(trace.transfers.len(), 1, "the partial trace is kept");

    let mut t = load("support-triage.yaml");
    t.scenarios[0].scripts.get_mut("triage").unwrap()[0].then.calls[0].tool = "transfer_to_nobody".into();
    let trace = run(&t, None);
    assert_eq!(trace.outcome.status, OutcomeStatus::Failed);
    assert_eq!(trace.outcome.reason, "Tool transfer_to_nobody not found in agent Triage");
}

#[test]
fn a_failed_delegation_returns_the_sdk_error_and_the_caller_goes_on() {
    let mut t = load("ticket-supervisor.yaml");
    let s = &mut t.scenarios[0];
    s.scripts.insert("triage".into(), vec![]);
    let trace = run(&t, None);
    let ret = trace.steps.iter().find(|s| s.kind == StepKind::DelegationReturn).unwrap();
    let out = trace.item(ret.output[0]).unwrap();
    assert_eq!(out.text, "An error occurred while running the tool. Please try again.");
    assert!(ret.detail.contains("failed"));
    assert!(trace.steps.iter().filter(|s| s.kind == StepKind::DelegationReturn).count() >= 2, "the supervisor went on");
}

#[test]
fn events_stream_in_order_and_match_the_trace() {
    let events = Arc::new(Mutex::new(vec![]));
    let sink = events.clone();
    let opts = RunOptions {
        sink: Some(Box::new(move |e: &RunEvent| {
            sink.lock().unwrap().push(match e {
                RunEvent::Started { .. } => "start".to_string(),
                RunEvent::Item(_) => "item".into(),
                RunEvent::Step(s) => format!("step:{}", s.kind.as_str()),
                RunEvent::Transfer(_) => "transfer".into(),
                RunEvent::Paused { .. } => "paused".into(),
                RunEvent::Returned { .. } => "returned".into(),
                RunEvent::Finished { outcome, .. } => format!("end:{}", outcome.status.as_str()),
            })
        })),
        ..Default::default()
    };
    let trace = rt().block_on(run_mock(&load("ticket-reopen.yaml"), opts)).unwrap();
    let ev = events.lock().unwrap().clone();
    assert_eq!(ev.first().unwrap(), "start");
    assert_eq!(ev.last().unwrap(), "end:completed");
    assert_eq!(ev.iter().filter(|e| e.starts_with("step:")).count(), trace.steps.len());
    assert_eq!(ev.iter().filter(|e| *e == "item").count(), trace.items.len());
    for (i, e) in ev.iter().enumerate() {
        if e == "step:handoff" {
            assert_eq!(ev[i - 1], "transfer", "a transfer is emitted before its step");
        }
    }
}

struct Slow;
impl Model for Slow {
    fn respond<'a>(
        &'a self,
        _req: ModelRequest<'a>,
    ) -> futures::future::BoxFuture<'a, Result<ModelResponse, ModelError>> {
        Box::pin(async {
            tokio::time::sleep(std::time::Duration::from_secs(30)).await;
            Err(ModelError::Script("unreachable".into()))
        })
    }
}

#[test]
fn a_run_can_be_cancelled_mid_call() {
    let t = load("support-triage.yaml");
    let opts = RunOptions::default();
    let cancel = opts.cancel.clone();
    let trace = rt().block_on(async {
        tokio::spawn(async move {
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            cancel.cancel();
        });
        baton::engine::run(&t, &SameModel(Slow), opts).await
    });
    let trace = trace.unwrap();
    assert_eq!(trace.outcome.status, OutcomeStatus::Cancelled);
    assert_eq!(trace.outcome.reason, "cancelled by the user");
}

#[test]
fn unknown_scenario_is_a_clear_error() {
    let e = rt().block_on(run_mock(
        &load("support-triage.yaml"),
        RunOptions { scenario: Some("nope".into()), ..Default::default() },
    ));
    let e = e.unwrap_err().to_string();
    assert!(e.contains("'nope'") && e.contains("double-charge, app-error"), "{e}");
}

#[test]
fn traces_round_trip_and_the_cli_prints_them() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("trace.json");
    let o = baton(&["run", example("ticket-reopen.yaml").to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("!! fact LOST: resolved-meaning"), "{text}");
    assert!(text.contains("outcome: completed"));
    let json = std::fs::read_to_string(&out).unwrap();
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    for key in ["version", "topology", "scenario", "steps", "transfers", "outcome", "items"] {
        assert!(v.get(key).is_some(), "trace lacks {key}");
    }
    let tr = &v["transfers"][1];
    for key in ["step", "kind", "from", "to", "policy", "carried", "transformed", "dropped", "added", "facts"] {
        assert!(tr.get(key).is_some(), "transfer lacks {key}");
    }
    assert_eq!(tr["facts"][0], serde_json::json!({"id": "resolved-meaning", "status": "lost"}));
    for key in ["status", "reason", "owner", "final_output"] {
        assert!(v["outcome"].get(key).is_some(), "outcome lacks {key}");
    }
    let trace = Trace::from_json(&json, "trace.json").unwrap();
    assert_eq!(serde_json::to_value(&trace).unwrap(), v, "the trace round-trips");
    let shown = baton(&["trace", "show", out.to_str().unwrap()]);
    assert_eq!(stdout(&shown), text, "trace show prints the same timeline");
    let as_json = baton(&["run", example("ticket-reopen.yaml").to_str().unwrap(), "--format", "json"]);
    let v2: serde_json::Value = serde_json::from_slice(&as_json.stdout).unwrap();
    assert_eq!(v2["transfers"], v["transfers"], "runs are deterministic");
    std::fs::write(&out, "{\"version\": 1}").unwrap();
    let bad = baton(&["trace", "show", out.to_str().unwrap()]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("not a Baton trace"), "{}", stderr(&bad));
}

#[test]
fn simulated_latency_delays_each_mock_call() {
    let t = load("support-triage.yaml");
    let opts = RunOptions { mock_delay: Some(std::time::Duration::from_millis(60)), ..Default::default() };
    let t0 = std::time::Instant::now();
    let trace = rt().block_on(run_mock(&t, opts)).unwrap();
    let calls = trace.steps.iter().filter(|s| s.kind == StepKind::ModelCall).count() as u32;
    assert_eq!(calls, 3);
    assert!(t0.elapsed() >= std::time::Duration::from_millis(60) * calls, "{:?}", t0.elapsed());
}

//! `acceptance: verify` at run time: a verified delegation's result is a claim, checked against
//! the edge's criteria and the caller's pinned facts with the scenario's scripted verdict; the
//! caller's next call sees the verdict; rejections past `guards.max_rejections` stop the run.
//! ticket-supervisor.yaml's story: Resolution's "resolved" is rejected, "not yet: pending rollout".

use crate::common::example;
use baton::context::ItemKind;
use baton::engine::{RunOptions, run_mock};
use baton::trace::{OutcomeStatus, StepKind, Trace};

fn run(t: &baton::topology::Topology) -> Trace {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(run_mock(t, RunOptions::default()))
        .unwrap()
}

#[test]
fn the_supervisor_rejects_resolveds_claim_not_yet_pending_rollout() {
    let t = baton::config::load(&example("ticket-supervisor.yaml")).unwrap();
    let trace = run(&t);
    let back: Vec<_> = trace.steps.iter().filter(|s| s.kind == StepKind::DelegationReturn).collect();
    let resolution = back.iter().find(|s| s.detail.starts_with("Resolution returned")).unwrap();
    assert!(resolution.detail.ends_with("claim rejected: not yet: pending rollout"), "{}", resolution.detail);
    let verdict =
        resolution.output.iter().filter_map(|id| trace.item(*id)).find(|i| i.kind == ItemKind::TransferOutput).unwrap();
    // The check comes back with the worker's answer, in the delegation's tool output.
    assert!(verdict.text.starts_with("Done: ticket 4812 is resolved"), "{}", verdict.text);
    assert!(verdict.text.contains("against: the fix is live in production"), "{}", verdict.text);
    assert!(verdict.text.contains("resolved-meaning"), "the held fact is the evidence: {}", verdict.text);
    assert!(verdict.text.contains("Verdict: rejected — not yet: pending rollout"));
    // The supervisor's next call sees the verdict.
    let next = trace
        .steps
        .iter()
        .find(|s| s.kind == StepKind::ModelCall && s.index > resolution.index && s.agent == "supervisor")
        .unwrap();
    assert!(next.context.contains(&verdict.id));
    // Triage's result is trusted: no check.
    let triage = back.iter().find(|s| s.detail.starts_with("Triage returned")).unwrap();
    assert!(!trace.item(triage.output[0]).unwrap().text.contains("Verification"));
    assert_eq!(trace.outcome.status, OutcomeStatus::Completed);
}

#[test]
fn rejections_past_the_guard_stop_the_run_and_a_missing_verdict_says_so() {
    let y = "version: 1\nname: v\nentry: boss\nagents:\n  - {id: boss, name: Boss, kind: supervisor}\n  - {id: w, name: Worker}\nedges:\n  - {kind: delegation, from: boss, to: w, acceptance: verify, criteria: [it is done]}\nguards: {max_rejections: 2, max_turns: 10}\nscenarios:\n  - name: s\n    input: go\n    verdicts: {boss->w: [{accept: false, reason: no}, {accept: false, reason: still no}, {accept: false, reason: never}]}\n    scripts:\n      boss: [{calls: [{tool: worker, args: {input: do it}}]}]\n      w: [{say: Done.}]\n";
    let t = baton::config::parse(y, baton::config::Format::Yaml, "<t>").unwrap();
    let trace = run(&t);
    assert_eq!((trace.outcome.status, trace.outcome.guard.as_deref()), (OutcomeStatus::Stopped, Some("verification")));
    assert!(
        trace.outcome.reason.contains("rejected Worker's claim 3 times (guards.max_rejections is 2)"),
        "{}",
        trace.outcome.reason
    );
    let rejections = trace.steps.iter().filter(|s| s.detail.contains("claim rejected")).count();
    assert_eq!(rejections, 3);
    // No verdict scripted: the claim passes unverified, and the trace says what is missing.
    let none = y.replace("    verdicts: {boss->w: [{accept: false, reason: no}, {accept: false, reason: still no}, {accept: false, reason: never}]}\n", "").replace("boss: [{calls: [{tool: worker, args: {input: do it}}]}]", "boss: [{when: {call: 1}, calls: [{tool: worker, args: {input: do it}}]}, {say: Closed.}]");
    let trace = run(&baton::config::parse(&none, baton::config::Format::Yaml, "<t>").unwrap());
    assert!(
        trace.steps.iter().any(|s| s.detail.contains("claim not verified: no verdict for claim 1 of boss->w")),
        "{:?}",
        trace.steps.iter().map(|s| &s.detail).collect::<Vec<_>>()
    );
    assert_eq!(trace.outcome.final_output.as_deref(), Some("Closed."));
    // Lint: a verified delegation with no criteria.
    let bare = y.replace(", criteria: [it is done]", "");
    let f = baton::lint::lint(&baton::config::parse(&bare, baton::config::Format::Yaml, "<t>").unwrap());
    assert!(f.iter().any(|f| f.code == "verify-without-criteria"), "{f:?}");
}

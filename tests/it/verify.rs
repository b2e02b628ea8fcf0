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

/// A live caller gives its own verdict: its model (an OpenAI Chat Completions server on
/// loopback) is asked for `{"accept", "reason"}` on the claim, with the criteria and the facts it
/// holds; the verdict goes where a scripted one would.
#[test]
fn a_live_callers_model_gives_the_verdict() {
    use crate::common::server::{MockServer, Reply};
    use serde_json::json;
    let chat = |msg: serde_json::Value| {
        Reply::json(json!({"id": "c", "object": "chat.completion", "created": 1, "model": "boss-test",
            "choices": [{"index": 0, "message": msg, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 30, "completion_tokens": 5, "total_tokens": 35}}))
    };
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    rt.block_on(async {
        let s = MockServer::start().await;
        s.push(chat(json!({"role": "assistant", "content": null, "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "worker", "arguments": "{\"input\": \"ship it\"}"}}]})))
            .push(chat(json!({"role": "assistant", "content": "{\"accept\": false, \"reason\": \"the rollout has not happened\"}"})))
            .push(chat(json!({"role": "assistant", "content": "Not done yet."})));
        let y = format!(
            "version: 1\nname: v\nentry: boss\nagents:\n  - {{id: boss, name: Boss, kind: supervisor, model: {{provider: openai-compatible, name: boss-test, base_url: \"{}/v1\"}}}}\n  - {{id: w, name: Worker}}\nedges:\n  - {{kind: delegation, from: boss, to: w, acceptance: verify, criteria: [the change is rolled out]}}\nfacts:\n  - {{id: rollout, text: Changes ship behind a flag until rollout., holders: [boss]}}\nscenarios:\n  - name: s\n    input: go\n    scripts:\n      w: [{{say: Shipped.}}]\n",
            s.base
        );
        let t = baton::config::parse(&y, baton::config::Format::Yaml, "<t>").unwrap();
        let models = baton::providers::LiveModels::new(&t, t.scenario(None), Default::default()).unwrap();
        let trace = baton::engine::run(&t, &models, RunOptions::default()).await.unwrap();
        let back = trace.steps.iter().find(|s| s.kind == StepKind::DelegationReturn).unwrap();
        assert!(back.detail.ends_with("claim rejected: the rollout has not happened"), "{}", back.detail);
        let reqs = s.requests();
        assert_eq!(reqs.len(), 3);
        let asked = reqs[1].body["messages"].to_string();
        assert!(asked.contains("Shipped.") && asked.contains("the change is rolled out") && asked.contains("until rollout"), "{asked}");
        // The check's call is no step of its own, but its tokens count in the run's usage.
        let steps: u64 = trace.steps.iter().filter_map(|s| s.usage).map(|u| u.input_tokens).sum();
        assert_eq!(trace.usage.input_tokens, steps + 30);
        assert_eq!(trace.outcome.final_output.as_deref(), Some("Not done yet."));
    });
}

/// A check tool the edge names decides when no verdict is scripted: its result "accept…"
/// accepts, anything else rejects with the result as the reason; a tool the caller lacks is named.
#[test]
fn a_check_tool_decides_the_claim() {
    let y = |result: &str, tool: &str| {
        format!(
            "version: 1\nname: vt\nentry: boss\nagents:\n  - id: boss\n    name: Boss\n    kind: supervisor\n    tools: [{{name: is_live, description: Is it live?, mock_result: \"{result}\"}}]\n  - {{id: w, name: Worker}}\nedges:\n  - {{kind: delegation, from: boss, to: w, acceptance: verify, criteria: [live in production], check_tool: {tool}}}\nscenarios:\n  - name: s\n    input: go\n    scripts:\n      boss: [{{when: {{call: 1}}, calls: [{{tool: worker, args: {{input: ship}}}}]}}, {{say: Done.}}]\n      w: [{{say: Shipped.}}]\n"
        )
    };
    let detail = |yaml: &str| {
        let trace = run(&baton::config::parse(yaml, baton::config::Format::Yaml, "<t>").unwrap());
        trace.steps.iter().find(|s| s.kind == StepKind::DelegationReturn).unwrap().detail.clone()
    };
    assert!(
        detail(&y("rejected: the flag is off", "is_live"))
            .ends_with("claim rejected: is_live: rejected: the flag is off")
    );
    assert!(detail(&y("accepted: live since 9:00", "is_live")).ends_with("claim accepted: is_live: live since 9:00"));
    assert!(detail(&y("x", "nope")).contains("claim not verified: the check tool nope is not a tool of Boss"));
}

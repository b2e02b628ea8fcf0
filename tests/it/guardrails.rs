//! Guardrails against the real Agents SDK: the same five cases run in the SDK with a fake model
//! (tests/fidelity/guardrails.py: which model calls happen, whether and which tripwire fires,
//! the final output and agent) and in Baton, and must agree; plus the JSON Schema and regex
//! checks, and lint on guardrails that cannot work.

use crate::common::{python, root, stderr};
use baton::engine::{RunOptions, run_mock};
use baton::trace::{OutcomeStatus, StepKind, Trace};
use serde_json::{Value, json};

fn run(yaml: &str) -> Trace {
    let t = baton::config::parse(yaml, baton::config::Format::Yaml, "<t>").unwrap();
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(run_mock(&t, RunOptions::default()))
        .unwrap()
}

/// Baton's run in the harness's terms.
fn observed(t: &Trace) -> Value {
    let def = t.definition.as_ref().unwrap();
    let name = |id: &str| def.agent(id).map(|a| a.name.clone()).unwrap_or_default();
    let tripped = match t.outcome.guard.as_deref() {
        Some("input_guardrail") => json!("input"),
        Some("output_guardrail") => json!("output"),
        _ => Value::Null,
    };
    let guardrail = t
        .steps
        .iter()
        .filter(|s| s.kind == StepKind::Guardrail && s.detail.contains(": tripped"))
        .map(|s| s.detail.split_whitespace().nth(2).unwrap().trim_end_matches(':').to_owned())
        .next();
    let done = t.outcome.status == OutcomeStatus::Completed;
    json!({
        "tripped": tripped,
        "guardrail": guardrail,
        "model_calls": t.steps.iter().filter(|s| s.kind == StepKind::ModelCall).map(|s| name(&s.agent)).collect::<Vec<_>>(),
        "final_output": t.outcome.final_output,
        "last_agent": if done { json!(name(&t.outcome.owner)) } else { Value::Null },
    })
}

fn solo(guardrails: &str, input: &str, answer: &str) -> String {
    format!(
        "version: 1\nname: solo\nentry: support\nagents: [{{id: support, name: Support, instructions: support}}]\nguardrails:\n{guardrails}\nscenarios:\n  - name: s\n    input: \"{input}\"\n    scripts:\n      support: [{{say: \"{answer}\"}}]\n"
    )
}

const PAIR: &str = "version: 1\nname: pair\nentry: triage\nagents:\n  - {id: triage, name: Triage, instructions: triage}\n  - {id: billing, name: Billing, instructions: billing}\nedges: [{kind: handoff, from: triage, to: billing}]\nguardrails:\n  - {name: no_refund, agent: billing, on: input, check: {contains: refund}}\n  - {name: no_refund, agent: triage, on: output, check: {contains: refund}}\nscenarios:\n  - name: s\n    input: I want a refund\n    scripts:\n      triage: [{calls: [{tool: transfer_to_billing}]}]\n      billing: [{say: Refund issued.}]\n";

#[test]
fn guardrails_trip_where_and_when_the_sdk_trips_them() {
    let out = std::process::Command::new(python()).arg(root().join("tests/fidelity/guardrails.py")).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let sdk: Value = serde_json::from_slice(&out.stdout).unwrap();
    let cases = [
        (
            "blocking_input_trips",
            solo(
                "  - {name: no_refund, agent: support, on: input, check: {contains: refund}, run_in_parallel: false}",
                "I want a refund",
                "Here is your answer.",
            ),
        ),
        (
            "parallel_input_trips",
            solo(
                "  - {name: no_refund, agent: support, on: input, check: {contains: refund}}",
                "I want a refund",
                "Here is your answer.",
            ),
        ),
        (
            "input_passes",
            solo(
                "  - {name: no_refund, agent: support, on: input, check: {contains: refund}}",
                "Where is my parcel?",
                "Here is your answer.",
            ),
        ),
        (
            "output_trips",
            solo(
                "  - {name: no_secret, agent: support, on: output, check: {contains: secret}}",
                "Tell me",
                "The secret code is 42.",
            ),
        ),
        ("receiver_guardrails_do_not_run", PAIR.to_owned()),
    ];
    for (name, yaml) in cases {
        let baton = observed(&run(&yaml));
        assert_eq!(baton, sdk[name], "{name}: Baton {baton} vs the SDK {}", sdk[name]);
    }
}

#[test]
fn schema_and_regex_checks_and_their_steps() {
    let schema = "  - {name: json_answer, on: output, check: {schema: {type: object, required: [answer], properties: {answer: {type: string}}}}}";
    let ok = run(&solo(schema, "hi", "{\\\"answer\\\": \\\"yes\\\"}"));
    assert_eq!(ok.outcome.status, OutcomeStatus::Completed, "{:?}", ok.outcome);
    let step = ok.steps.iter().find(|s| s.kind == StepKind::Guardrail).unwrap();
    assert!(step.detail.starts_with("output guardrail json_answer: passed"), "{}", step.detail);
    let bad = run(&solo(schema, "hi", "{\\\"reply\\\": 3}"));
    assert_eq!((bad.outcome.status, bad.outcome.guard.as_deref()), (OutcomeStatus::Stopped, Some("output_guardrail")));
    assert!(
        bad.outcome.reason.contains("json_answer tripped") && bad.outcome.reason.contains("answer"),
        "{}",
        bad.outcome.reason
    );
    let not_json = run(&solo(schema, "hi", "yes"));
    assert!(not_json.outcome.reason.contains("not JSON"), "{}", not_json.outcome.reason);
    // A run-wide regex guardrail (no agent) checks the input.
    let re = run(&solo(
        "  - {name: no_card, on: input, check: {regex: \"[0-9]{4}( [0-9]{4}){3}\"}, message: a card number}",
        "my card is 4111 1111 1111 1111",
        "ok",
    ));
    assert_eq!(re.outcome.guard.as_deref(), Some("input_guardrail"));
    assert!(re.outcome.reason.contains("a card number"), "{}", re.outcome.reason);
}

#[test]
fn lint_flags_guardrails_that_cannot_work() {
    let y = "version: 1\nname: t\nentry: a\nagents: [{id: a, name: A}, {id: b, name: B}]\nedges: [{kind: handoff, from: a, to: b}]\nguardrails:\n  - {name: g1, agent: ghost, check: {contains: x}}\n  - {name: g2, agent: b, on: input, check: {contains: x}}\n  - {name: g3, check: {regex: \"(\"}}\n";
    let t = baton::config::parse(y, baton::config::Format::Yaml, "<t>").unwrap();
    let f: Vec<_> = baton::lint::lint(&t).into_iter().filter(|f| f.code == "guardrail-unknown").collect();
    assert_eq!(f.len(), 3, "{f:#?}");
    assert!(f.iter().any(|f| f.message.contains("'ghost'") && f.severity == baton::lint::Severity::Error));
    assert!(f.iter().any(|f| f.message.contains("never runs") && f.severity == baton::lint::Severity::Info));
    assert!(f.iter().any(|f| f.message.contains("not a regular expression")));
}

/// The SDK export writes each guardrail as the SDK's own guardrail function: the exported module,
/// run in the real SDK with a fake model, trips (or not) exactly where Baton's run does.
#[test]
fn the_exported_module_runs_the_same_guardrails_in_the_sdk() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            solo(
                "  - {name: no_refund, agent: support, on: input, check: {contains: refund}, run_in_parallel: false}",
                "I want a refund",
                "Here is your answer.",
            ),
            "I want a refund",
            "Here is your answer.",
        ),
        (
            solo(
                "  - {name: no_card, on: input, check: {regex: \"[0-9]{4}( [0-9]{4}){3}\"}}",
                "card 4111 1111 1111 1111",
                "ok",
            ),
            "card 4111 1111 1111 1111",
            "ok",
        ),
        (
            solo(
                "  - {name: no_secret, agent: support, on: output, check: {contains: secret}}",
                "Tell me",
                "The secret code is 42.",
            ),
            "Tell me",
            "The secret code is 42.",
        ),
        (
            solo(
                "  - {name: no_secret, agent: support, on: output, check: {contains: secret}}",
                "Tell me",
                "Nothing to hide.",
            ),
            "Tell me",
            "Nothing to hide.",
        ),
    ];
    for (i, (yaml, input, answer)) in cases.iter().enumerate() {
        let t = baton::config::parse(yaml, baton::config::Format::Yaml, "<t>").unwrap();
        let module = dir.path().join(format!("m{i}.py"));
        std::fs::write(&module, baton::export::to_openai_agents_py(&t).unwrap()).unwrap();
        let out = std::process::Command::new(python())
            .arg(root().join("tests/fidelity/run_guardrails_export.py"))
            .args([module.to_str().unwrap(), input, answer])
            .output()
            .unwrap();
        assert!(out.status.success(), "case {i}: {}", stderr(&out));
        let sdk: Value = serde_json::from_slice(&out.stdout).unwrap();
        let mut baton = observed(&run(yaml));
        baton.as_object_mut().unwrap().remove("last_agent");
        assert_eq!(baton, sdk, "case {i}");
    }
}

fn import_code(path: &std::path::Path) -> (baton::topology::Topology, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_baton"))
        .arg("import-code")
        .arg(path)
        .env("BATON_PYTHON", python())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let t =
        baton::config::parse(&String::from_utf8_lossy(&out.stdout), baton::config::Format::Yaml, "<import>").unwrap();
    (t, stderr(&out))
}

/// Guardrails round-trip through code: exported as the SDK's guardrail functions and read back by
/// `import-code`, they are the same guardrails; a guardrail function of the user's own is kept by
/// name as a custom check, which runs as passing and which lint and the import's notes name.
#[test]
fn guardrails_survive_a_round_trip_through_code_and_custom_ones_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let yaml = "version: 1\nname: g\nentry: support\nagents: [{id: support, name: Support, instructions: support, model: {provider: openai, name: gpt-4o}}]\nguardrails:\n  - {name: no_refund, agent: support, on: input, check: {contains: refund}, run_in_parallel: false, message: refunds go to billing}\n  - {name: no_card, agent: support, on: input, check: {regex: \"[0-9]{16}\"}}\n  - {name: json_answer, agent: support, on: output, check: {schema: {type: object, required: [answer]}}}\n";
    let t = baton::config::parse(yaml, baton::config::Format::Yaml, "<t>").unwrap();
    let module = dir.path().join("g.py");
    std::fs::write(&module, baton::export::to_openai_agents_py(&t).unwrap()).unwrap();
    let (back, _) = import_code(&module);
    assert_eq!(back.guardrails, t.guardrails);

    let own = dir.path().join("own.py");
    std::fs::write(
        &own,
        "from agents import Agent, GuardrailFunctionOutput, input_guardrail\n\n\n@input_guardrail\nasync def no_pii(ctx, agent, inp):\n    return GuardrailFunctionOutput(output_info=None, tripwire_triggered=False)\n\n\nroot_agent = Agent(name=\"Support\", instructions=\"s\", input_guardrails=[no_pii])\n",
    )
    .unwrap();
    let (t, notes) = import_code(&own);
    assert_eq!(t.guardrails.len(), 1);
    assert_eq!(t.guardrails[0].check, baton::topology::GuardrailCheck::Custom { custom: "no_pii".into() });
    assert!(notes.contains("no_pii, which Baton cannot run"), "{notes}");
    let f = baton::lint::lint(&t);
    assert!(f.iter().any(|f| f.code == "guardrail-unknown" && f.message.contains("cannot run")), "{f:?}");
}

/// A guardrail agent (an agent of the topology, scripted here) decides with its structured answer,
/// as the SDK's guardrail functions that run an agent do; an answer that is not the verdict trips.
#[test]
fn a_guardrail_agent_decides_with_its_structured_answer() {
    let y = |answer: &str| {
        format!(
            "version: 1\nname: ga\nentry: support\nagents:\n  - {{id: support, name: Support}}\n  - {{id: moderator, name: Moderator, instructions: Decide whether the message asks for a refund.}}\nguardrails:\n  - {{name: refund_check, agent: support, on: input, check: {{agent: moderator}}}}\nscenarios:\n  - name: s\n    input: I want my money back\n    scripts:\n      support: [{{say: Here you go.}}]\n      moderator: [{{say: '{answer}'}}]\n"
        )
    };
    let tripped = run(&y(r#"{"tripwire_triggered": true, "reason": "a refund request"}"#));
    assert_eq!(tripped.outcome.guard.as_deref(), Some("input_guardrail"));
    assert!(
        tripped.outcome.reason.contains("refund_check tripped: Moderator says a refund request"),
        "{}",
        tripped.outcome.reason
    );
    assert!(!tripped.steps.iter().any(|s| s.kind == StepKind::ModelCall), "Support is never called");
    let passed = run(&y(r#"{"tripwire_triggered": false, "reason": "fine"}"#));
    assert_eq!(passed.outcome.final_output.as_deref(), Some("Here you go."));
    let garbled = run(&y("no idea"));
    assert!(garbled.outcome.reason.contains("not {tripwire_triggered, reason} JSON"), "{}", garbled.outcome.reason);
}

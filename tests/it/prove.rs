//! Proof by counterfactual replay (`baton suspects --prove`, issue #28). The expected side comes
//! from the scenario files themselves: ticket-reopen's Verification keeps the ticket resolved
//! when the `resolved-meaning` fact is present and calls `reopen_ticket` when it is absent (its
//! script's rules); the held-out suite's README names the one item whose loss is causal in each
//! run (checked there by forks its author ran). A sampled model is a real OpenAI-compatible
//! server on loopback that answers by what its request holds.

use crate::common::{baton, example, root, stdout};
use baton::context::ItemKind;
use baton::engine::{RunOptions, run_mock};
use baton::fork::{ForkSpec, Then, fork};
use baton::suspects::{Basis, JudgedBy, ProofStatus, ProveOptions, SuspectReport, prove, report};
use baton::trace::Trace;
use std::collections::BTreeMap;

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap()
}

fn recorded(path: &std::path::Path) -> Trace {
    let t = baton::config::load(path).unwrap();
    rt().block_on(run_mock(&t, RunOptions::default())).unwrap()
}

fn proved(trace: &Trace, opts: &ProveOptions) -> SuspectReport {
    rt().block_on(prove(trace, "", report(trace, None), opts)).unwrap().report
}

fn transfer_index(trace: &Trace, from: &str, to: &str) -> u32 {
    trace.transfers.iter().position(|t| t.from == from && t.to == to).unwrap() as u32
}

#[test]
fn restoring_the_lost_fact_proves_the_cause_and_its_fork_keeps_the_ticket_resolved() {
    let trace = recorded(&example("ticket-reopen.yaml"));
    let r = proved(&trace, &ProveOptions::default());
    let at = transfer_index(&trace, "resolution", "verification");
    assert_eq!(r.verdict.basis, Basis::Proven, "{:?}", r.verdict);
    assert_eq!(r.verdict.transfer, Some(at));
    let cause = trace.item(r.verdict.suspect.unwrap()).unwrap();
    assert_eq!((cause.kind, cause.fact.as_deref()), (ItemKind::PinnedFact, Some("resolved-meaning")));
    let t = &r.transfers[at as usize];
    let proof = t.suspects.iter().find(|s| s.item == cause.id).unwrap().proof.clone().unwrap();
    assert_eq!(proof.status, ProofStatus::Changes { flips: 1, samples: 1, baseline: 0 });
    // The script calls reopen_ticket only when the fact is absent.
    assert!(proof.changed.contains("reopen_ticket"), "{}", proof.changed);
    // The smallest restoring set is the fact alone.
    assert_eq!(t.proof.as_ref().unwrap().minimal, vec![cause.id]);
    // Triage's handoff lost nothing whose restoration changes the ending.
    let first = &r.transfers[transfer_index(&trace, "triage", "resolution") as usize];
    assert!(!first.proof.as_ref().unwrap().status.changes(), "{:?}", first.proof);
    let cost = r.cost.as_ref().unwrap();
    assert!(cost.forks >= 2 && cost.model_calls > 0 && cost.answered_by == "mock", "{cost:?}");
    // The proof's fork, run again by hand, ends as the script's fact-present rule says.
    let spec = ForkSpec {
        at: proof.at,
        put_back: proof.put_back.iter().map(|i| i.to_string()).collect(),
        then: Then::Mock,
        ..Default::default()
    };
    let f = rt().block_on(fork(&trace, "", &spec, RunOptions::default())).unwrap();
    assert!(f.outcome.final_output.as_deref().unwrap().contains("stays resolved"), "{:?}", f.outcome);
}

/// The held-out suite's ground truth: each lossy handoff has exactly one causal item.
fn unseen_truth() -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(root().join("tests/data/suspects-unseen/README.md")).unwrap();
    let start = text.find("```json").unwrap() + "```json".len();
    let end = start + text[start..].find("```").unwrap();
    serde_json::from_str(&text[start..end]).unwrap()
}

#[test]
fn on_the_held_out_suite_the_smallest_restoring_set_is_the_item_its_author_named() {
    let mut checked = 0;
    for t in unseen_truth() {
        let kind = t["lost_kind"].as_str().unwrap_or_default();
        if t["kind"] != "lossy" || !["tool_result", "user_message", "assistant_message", "reasoning"].contains(&kind) {
            continue;
        }
        let file = root().join("tests/data/suspects-unseen").join(t["file"].as_str().unwrap());
        let trace = recorded(&file);
        let r = proved(&trace, &ProveOptions::default());
        let idx = t["transfer"].as_u64().unwrap() as usize;
        let lost = t["lost"].as_str().unwrap().to_lowercase();
        let minimal = &r.transfers[idx].proof.as_ref().unwrap().minimal;
        let texts: Vec<String> =
            minimal.iter().map(|id| trace.item(*id).unwrap().searchable().to_lowercase()).collect();
        assert_eq!(texts.len(), 1, "{}: minimal set {texts:?}", t["file"]);
        assert!(texts[0].contains(&lost), "{}: minimal set {texts:?}, lost {lost}", t["file"]);
        assert_eq!(r.verdict.transfer, Some(idx as u32), "{}: {:?}", t["file"], r.verdict.text);
        assert_eq!(r.verdict.basis, Basis::Proven, "{}", t["file"]);
        checked += 1;
    }
    assert!(checked >= 15, "only {checked} scenarios checked");
}

#[test]
fn a_withheld_or_left_behind_item_is_proven_at_its_delegation() {
    for t in unseen_truth() {
        let kind = t["lost_kind"].as_str().unwrap_or_default();
        if !["withheld", "return"].contains(&kind) {
            continue;
        }
        let file = root().join("tests/data/suspects-unseen").join(t["file"].as_str().unwrap());
        let trace = recorded(&file);
        let r = proved(&trace, &ProveOptions::default());
        let idx = t["transfer"].as_u64().unwrap() as usize;
        let lost = t["lost"].as_str().unwrap().to_lowercase();
        let proven: Vec<_> =
            r.transfers[idx].suspects.iter().filter(|s| s.proof.as_ref().is_some_and(|p| p.status.changes())).collect();
        assert!(
            proven.iter().any(|s| trace.item(s.item).unwrap().searchable().to_lowercase().contains(&lost)),
            "{}: proven {:?}",
            t["file"],
            proven.iter().map(|s| &s.text).collect::<Vec<_>>()
        );
        let want = if kind == "return" { baton::suspects::Loss::LeftBehind } else { baton::suspects::Loss::Withheld };
        assert!(proven.iter().any(|s| s.loss == want), "{}", t["file"]);
    }
}

/// An OpenAI-compatible server on loopback: Verification's model keeps the ticket resolved when
/// its request holds the fact's text, and reopens it otherwise.
async fn verifier() -> (String, std::sync::Arc<std::sync::Mutex<Vec<serde_json::Value>>>) {
    use axum::{Json, routing::post};
    let seen = std::sync::Arc::new(std::sync::Mutex::new(vec![]));
    let log = seen.clone();
    let app = axum::Router::new().route(
        "/v1/chat/completions",
        post(move |Json(body): Json<serde_json::Value>| {
            let log = log.clone();
            async move {
                let has_fact = body.to_string().contains("Resolved means patched behind a feature flag");
                log.lock().unwrap().push(body);
                let text = if has_fact {
                    "The flag is off as expected for a fix pending manual rollout. Ticket 4812 stays resolved."
                } else {
                    "Reopened ticket 4812: the fix is not live."
                };
                Json(serde_json::json!({
                    "id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": "m",
                    "choices": [{"index": 0, "finish_reason": "stop",
                                 "message": {"role": "assistant", "content": text}}],
                    "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
                }))
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (format!("http://{addr}/v1"), seen)
}

#[test]
fn a_sampled_model_flips_the_ending_k_of_n_beside_forks_with_nothing_restored() {
    let trace = recorded(&example("ticket-reopen.yaml"));
    let rt = rt();
    let (url, seen) = rt.block_on(verifier());
    let opts = ProveOptions {
        models: BTreeMap::from([("verification".into(), format!("openai-compatible:m@{url}"))]),
        samples: 3,
        ..Default::default()
    };
    let r = rt.block_on(prove(&trace, "", report(&trace, None), &opts)).unwrap().report;
    let at = transfer_index(&trace, "resolution", "verification") as usize;
    let fact = r.transfers[at].suspects.iter().find(|s| s.kind == ItemKind::PinnedFact).unwrap();
    // Three restored forks all flip the scenario's expect:, the three baseline forks none.
    assert_eq!(fact.proof.as_ref().unwrap().status, ProofStatus::Changes { flips: 3, samples: 3, baseline: 0 });
    assert_eq!(r.verdict.basis, Basis::Proven);
    let cost = r.cost.unwrap();
    assert!(cost.answered_by.contains("openai-compatible:m@"), "{cost:?}");
    assert!(cost.compared.contains("expect"), "{cost:?}");
    let requests = seen.lock().unwrap();
    assert_eq!(requests.len() as u32, cost.model_calls);
    let with = requests.iter().filter(|b| b.to_string().contains("Resolved means patched")).count();
    assert!(with >= 3 && requests.len() - with >= 3, "{with} of {} requests held the fact", requests.len());
}

#[test]
fn what_cannot_be_proven_says_why_and_a_bad_argument_is_refused() {
    let trace = recorded(&example("ticket-reopen.yaml"));
    // A budget of 0: nothing is tested, each says so, and the verdict falls back to the ranking.
    let r = proved(&trace, &ProveOptions { budget_calls: Some(0), ..Default::default() });
    for t in &r.transfers {
        match &t.proof.as_ref().unwrap().status {
            ProofStatus::NotTested { why } => assert!(why.contains("budget") || why.contains("nothing"), "{why}"),
            other => panic!("transfer {} was tested: {other:?}", t.transfer),
        }
    }
    assert_ne!(r.verdict.basis, Basis::Proven);
    // A model that does not answer: not tested, with the failure.
    let opts = ProveOptions {
        models: BTreeMap::from([("*".into(), "openai-compatible:m@http://127.0.0.1:9/v1".into())]),
        samples: 1,
        ..Default::default()
    };
    let r = proved(&trace, &opts);
    let at = transfer_index(&trace, "resolution", "verification") as usize;
    match &r.transfers[at].proof.as_ref().unwrap().status {
        ProofStatus::NotTested { why } => assert!(why.contains("failed"), "{why}"),
        other => panic!("{other:?}"),
    }
    // An imported run has no mock scripts.
    let mut imported = trace.clone();
    imported.source = Some(serde_json::json!({"format": "otlp"}));
    let r = proved(&imported, &ProveOptions::default());
    match &r.transfers[at].proof.as_ref().unwrap().status {
        ProofStatus::NotTested { why } => assert!(why.contains("--model"), "{why}"),
        other => panic!("{other:?}"),
    }
    // No fork per test, no topology: refused.
    let e = rt().block_on(prove(&trace, "", report(&trace, None), &ProveOptions { samples: 0, ..Default::default() }));
    assert!(e.err().unwrap().message.contains("--samples 0"));
    let mut bare = trace.clone();
    bare.definition = None;
    assert!(rt().block_on(prove(&bare, "", report(&bare, None), &ProveOptions::default())).is_err());
}

#[test]
fn the_cli_proves_saves_forks_beside_the_parent_and_leaves_the_parent_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("b.db");
    let db = db.to_str().unwrap();
    let out =
        baton(&["run", example("ticket-reopen.yaml").to_str().unwrap(), "--save", "--db", db, "--format", "json"]);
    let run: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let id = run["run_id"].as_str().unwrap().to_owned();
    let before = stdout(&baton(&["trace", "export", &id, "--to", "json", "--db", db]));
    let out = baton(&["suspects", &id, "--prove", "--save", "--db", db, "--format", "json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v[0]["verdict"]["basis"], "proven");
    let forks: Vec<String> = v[0]["transfers"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|t| t["suspects"].as_array().unwrap().clone())
        .filter_map(|s| s["proof"]["fork_run"].as_str().map(str::to_owned))
        .collect();
    assert!(!forks.is_empty());
    let after = stdout(&baton(&["trace", "export", &id, "--to", "json", "--db", db]));
    assert_eq!(before, after, "the parent run is unchanged");
    let fork_trace: serde_json::Value =
        serde_json::from_str(&stdout(&baton(&["trace", "export", &forks[0], "--to", "json", "--db", db]))).unwrap();
    assert_eq!(fork_trace["fork"]["parent"], id.as_str());
    // Text: each suspect's proof and the cost.
    let out = stdout(&baton(&["suspects", &id, "--prove", "--db", db]));
    assert!(out.contains("verdict: proven cause: transfer 1 (resolution → verification)"), "{out}");
    assert!(out.contains("proof: restoring it changes the ending (1/1)"), "{out}");
    assert!(out.contains("proof cost:"), "{out}");
}

#[test]
fn a_persons_mark_judges_the_ending_and_the_runs_home_filters_by_it() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("b.db");
    let db = db.to_str().unwrap();
    let out =
        baton(&["run", example("support-triage.yaml").to_str().unwrap(), "--save", "--db", db, "--format", "json"]);
    let run: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let id = run["run_id"].as_str().unwrap().to_owned();
    let v: serde_json::Value =
        serde_json::from_str(&stdout(&baton(&["suspects", &id, "--db", db, "--format", "json"]))).unwrap();
    assert_ne!(v[0]["verdict"]["ending"]["by"], "mark");
    let out = baton(&["runs", "mark", &id, "--bad", "--why", "the customer wanted a refund", "--db", db]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value =
        serde_json::from_str(&stdout(&baton(&["suspects", &id, "--db", db, "--format", "json"]))).unwrap();
    assert_eq!(v[0]["verdict"]["ending"]["by"], serde_json::to_value(JudgedBy::Mark).unwrap());
    assert!(v[0]["verdict"]["bad"].as_str().unwrap().contains("the customer wanted a refund"));
    let rt = rt();
    let store = rt.block_on(baton::store::Store::open(db)).unwrap();
    let q = |j| baton::store::RunQuery { judgement: Some(j), ..Default::default() };
    let bad = rt.block_on(store.search_runs(&q(baton::trace::Judgement::Bad))).unwrap();
    assert_eq!(bad.runs.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(), vec![id.as_str()]);
    assert!(rt.block_on(store.search_runs(&q(baton::trace::Judgement::Good))).unwrap().runs.is_empty());
    assert_eq!(bad.runs[0].mark.as_ref().unwrap().judgement, baton::trace::Judgement::Bad);
    // Neither flag is an error that says what to pass; an unknown run is not found.
    let out = baton(&["runs", "mark", &id, "--db", db]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--good, --bad"));
    assert_eq!(baton(&["runs", "mark", "nope", "--good", "--db", db]).status.code(), Some(3));
}

/// The lists show how a run's ending was judged beside how it ended (issue #31): ticket-reopen
/// completes, but it reopens the ticket Resolution acted on, so it is saved judged bad by its
/// structure; support-triage completes and nothing judges it.
#[test]
fn a_saved_run_keeps_its_judged_ending_beside_its_outcome() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("b.db");
    let db = db.to_str().unwrap();
    for ex in ["ticket-reopen.yaml", "support-triage.yaml"] {
        let out = baton(&["run", example(ex).to_str().unwrap(), "--save", "--db", db]);
        assert!(out.status.code().is_some_and(|c| c <= 1), "{ex}");
    }
    let list: serde_json::Value =
        serde_json::from_str(&stdout(&baton(&["runs", "list", "--db", db, "--format", "json"]))).unwrap();
    let by = |topology: &str| list.as_array().unwrap().iter().find(|r| r["topology"] == topology).unwrap().clone();
    let reopen = by("ticket-reopen");
    assert_eq!(reopen["outcome"]["status"], "completed");
    assert_eq!(reopen["ending"]["judgement"], "bad", "{reopen}");
    assert_eq!(reopen["ending"]["by"], "signal");
    let triage = by("support-triage");
    assert_eq!(triage["ending"]["judgement"], serde_json::Value::Null, "{triage}");
}

//! Suspects and the verdict on the examples, with no pinned fact to help: ticket-reopen without
//! its fact must still point at the flag-and-rollout item at resolution → verification and name
//! that transfer; the supervisor version (the owner keeps the fact, rejects the worker's early
//! claim and ends well) gets no verdict; a run that ends well gets no verdict. Expectations read
//! from the example files.

use crate::common::{baton, example, stdout};
use baton::engine::{RunOptions, run_mock};
use baton::suspects::{Confidence, suspects};
use baton::trace::Trace;

fn run(t: &baton::topology::Topology) -> Trace {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(run_mock(t, RunOptions::default()))
        .unwrap()
}

#[test]
fn without_its_pinned_fact_ticket_reopen_still_points_at_the_flag_and_rollout() {
    let mut t = baton::config::load(&example("ticket-reopen.yaml")).unwrap();
    t.facts.clear();
    let trace = run(&t);
    // Verification reopens the ticket (its script's rule for a flag that "is off").
    assert!(trace.outcome.final_output.as_deref().unwrap().starts_with("Reopened ticket 4812"));
    let r = suspects(&trace);
    let at = r.transfers.iter().find(|x| x.from == "resolution" && x.to == "verification").unwrap();
    let top = &at.suspects[0];
    assert!(top.text.contains("FIX_4812") && top.text.contains("rollout"), "{top:?}");
    assert_eq!(top.confidence, Confidence::High);
    assert!(top.evidence.iter().any(|e| e.text.contains("FIX_4812 (step 7")), "{:?}", top.evidence);
    assert!(top.evidence.iter().any(|e| e.text.contains("'resolved'")), "{:?}", top.evidence);
    // The verdict names that transfer, suspected (not proven): Verification reopens ticket 4812,
    // which Resolution had acted on (its transfer call's arguments).
    assert_eq!(r.verdict.transfer, Some(at.transfer));
    assert_eq!(r.verdict.basis, baton::suspects::Basis::Suspected);
    // Without the fact the scenario's own expect: (the fact lost at that handoff) fails.
    assert_eq!(r.verdict.ending.by, baton::suspects::JudgedBy::Expect);
    assert!(r.verdict.bad.as_deref().unwrap().contains("fact_lost_at"), "{:?}", r.verdict.bad);
    // The example as written: its expect: holds, and the run's structure shows the reopen of
    // the ticket Resolution acted on.
    let whole = suspects(&run(&baton::config::load(&example("ticket-reopen.yaml")).unwrap()));
    assert_eq!(whole.verdict.ending.by, baton::suspects::JudgedBy::Signal);
    assert!(whole.verdict.bad.as_deref().unwrap().contains("'reopen' on 4812"), "{:?}", whole.verdict.bad);
    // At Triage's handoff nothing of weight was lost.
    let first = r.transfers.iter().find(|x| x.from == "triage").unwrap();
    assert!(first.suspects.iter().all(|s| s.confidence == Confidence::Low), "{:?}", first.suspects);
}

#[test]
fn the_supervisor_version_and_a_good_run_get_no_verdict() {
    let trace = run(&baton::config::load(&example("ticket-supervisor.yaml")).unwrap());
    let r = suspects(&trace);
    assert!(!r.transfers.is_empty());
    // Resolution never held the fact (the supervisor keeps it): a suspect at that delegation,
    // withheld, ranked on its evidence; the supervisor's rejection of the early claim shows it.
    let at = r.transfers.iter().find(|t| t.to == "resolution").unwrap();
    assert!(
        at.suspects
            .iter()
            .any(|s| s.kind == baton::context::ItemKind::PinnedFact && s.loss == baton::suspects::Loss::Withheld)
    );
    // The last claim was accepted and the supervisor ends well: nothing judges the run bad.
    assert_eq!(r.verdict.bad, None, "{:?}", r.verdict);
    let triage = run(&baton::config::load(&example("support-triage.yaml")).unwrap());
    assert_eq!(suspects(&triage).verdict.bad, None);
    // handoff-loop escalates (ends badly) but lost nothing of weight: no cause is made up.
    let lp = suspects(&run(&baton::config::load(&example("handoff-loop.yaml")).unwrap()));
    assert!(lp.verdict.bad.is_some());
    assert_eq!(lp.verdict.text, "no transfer-related cause found");
}

#[test]
fn the_cli_prints_suspects_and_the_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("run.json");
    let mut t = baton::config::load(&example("ticket-reopen.yaml")).unwrap();
    t.facts.clear();
    std::fs::write(&file, serde_json::to_string(&run(&t)).unwrap()).unwrap();
    let out = baton(&["suspects", file.to_str().unwrap(), "--transfer", "1", "--format", "json"]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v[0]["transfers"].as_array().unwrap().len(), 1);
    assert_eq!(v[0]["verdict"]["transfer"], 1);
    let out = baton(&["run", example("ticket-reopen.yaml").to_str().unwrap()]);
    assert!(
        stdout(&out).contains("verdict: suspected cause: transfer 1 (resolution → verification)"),
        "{}",
        stdout(&out)
    );
    // A missing transfer is not found (3), as `whatif --transfer` says it.
    let out = baton(&["suspects", file.to_str().unwrap(), "--transfer", "9"]);
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(baton(&["whatif", file.to_str().unwrap(), "--transfer", "9"]).status.code(), Some(3));
}

/// The optional judge over real HTTP on loopback (an OpenAI-compatible server speaking Chat
/// Completions): its ranking is read and kept beside the deterministic one, which it never
/// changes; an answer that is not a ranking is reported, not used.
#[test]
fn the_judge_reranks_beside_the_deterministic_ranking() {
    use crate::common::server::{MockServer, Reply};
    let mut t = baton::config::load(&example("ticket-reopen.yaml")).unwrap();
    t.facts.clear();
    let trace = run(&t);
    let r = suspects(&trace);
    let at = r.transfers.iter().find(|x| x.from == "resolution").unwrap().clone();
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    rt.block_on(async {
        let s = MockServer::start().await;
        let reply = |text: &str| {
            Reply::json(serde_json::json!({
                "id": "c1", "object": "chat.completion", "created": 1, "model": "judge-test",
                "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 40, "completion_tokens": 9, "total_tokens": 49}
            }))
        };
        s.push(reply(r#"{"ranking": [2, 1]}"#)).push(reply("The second one, I think."));
        let model = baton::fork::model_ref(&format!("openai-compatible:judge-test@{}/v1", s.base)).unwrap();
        let v = baton::judge::judge(&model, &at, 3).await.unwrap();
        assert_eq!(v.order, vec![1, 0]);
        assert_eq!(v.problem, None);
        let asked = &s.requests()[0].body;
        let prompt = asked["messages"].to_string();
        assert!(prompt.contains("FIX_4812") && prompt.contains("ranking"), "{prompt}");
        let v = baton::judge::judge(&model, &at, 3).await.unwrap();
        assert!(v.order.is_empty() && v.problem.as_deref().unwrap().contains("no JSON object"), "{v:?}");
    });
    // The deterministic ranking is what it was.
    assert_eq!(suspects(&trace), r);
}

/// A judge over real HTTP on loopback that echoes a key: nothing it says is shown with the key
/// (its re-ranking answer, its ending); its `{"ending": "bad"}` judges a run nothing else judges.
#[test]
fn a_judge_that_echoes_a_key_never_shows_it_and_judges_the_ending() {
    use crate::common::server::{MockServer, Reply};
    let canary = "sk-canary0123456789abcdefghijklmnop";
    let trace = run(&baton::config::load(&example("support-triage.yaml")).unwrap());
    assert_eq!(suspects(&trace).verdict.ending.by, baton::suspects::JudgedBy::Nobody);
    let mut t = baton::config::load(&example("ticket-reopen.yaml")).unwrap();
    t.facts.clear();
    let reopen = suspects(&run(&t));
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    rt.block_on(async {
        let s = MockServer::start().await;
        let reply = |text: String| {
            Reply::json(serde_json::json!({
                "id": "c1", "object": "chat.completion", "created": 1, "model": "judge-test",
                "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 40, "completion_tokens": 9, "total_tokens": 49}
            }))
        };
        s.push(reply(format!("Your key is {canary}. {{\"ending\": \"bad\", \"reason\": \"it ignored {canary}\"}}")));
        let model = baton::fork::model_ref(&format!("openai-compatible:judge-test@{}/v1", s.base)).unwrap();
        let says = baton::judge::judge_ending(&model, &trace).await.unwrap().unwrap();
        assert_eq!(says.judgement, baton::trace::Judgement::Bad);
        assert!(!says.reason.contains(canary) && says.reason.contains("[redacted]"), "{}", says.reason);
        let r = baton::suspects::report(&trace, Some(&says));
        assert_eq!(r.verdict.ending.by, baton::suspects::JudgedBy::Judge);
        assert!(!serde_json::to_string(&r).unwrap().contains(canary));
        // The re-ranking judge's answer is redacted too.
        let at = reopen.transfers.iter().find(|x| x.from == "resolution").unwrap().clone();
        s.push(reply(format!("I was told {canary}; no ranking")));
        let v = baton::judge::judge(&model, &at, 3).await.unwrap();
        assert!(!v.answer.contains(canary) && v.answer.contains("[redacted]"), "{}", v.answer);
    });
}

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap()
}

/// Steps whose context the report needs: the first (what the user asked) and each delegation's
/// return (what the caller holds then).
fn needed(trace: &Trace) -> Vec<u32> {
    let mut v: Vec<u32> = trace.transfers.iter().filter_map(|t| t.back.as_ref().map(|b| b.step)).collect();
    v.push(0);
    v.sort();
    v.dedup();
    v
}

#[test]
fn a_stored_run_is_reported_without_its_contexts_and_exchanges_as_the_whole_run_is() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("runs.db").display().to_string();
    let api = baton::api::Api::new(baton::api::FileAccess::Any, db);
    let mut reopen = baton::config::load(&example("ticket-reopen.yaml")).unwrap();
    reopen.facts.clear();
    // ticket-supervisor delegates and takes results back: the return steps' contexts matter.
    let runs = [run(&reopen), run(&baton::config::load(&example("ticket-supervisor.yaml")).unwrap())];
    assert!(runs[1].transfers.iter().any(|t| t.back.is_some()));
    for whole in &runs {
        let (lean, answered) = rt().block_on(async {
            let store = api.store().await.unwrap();
            let id = store.save_trace(whole).await.unwrap();
            let lean = store.load_trace_parts(&id, baton::store::TraceParts::REPORT).await.unwrap();
            (lean, api.suspects(baton::api::RunIdArgs { run_id: id }).await.unwrap())
        });
        // Only the steps the ranking reads keep a context; no exchange is read.
        let with: Vec<u32> = lean.steps.iter().filter(|s| !s.context.is_empty()).map(|s| s.index).collect();
        assert_eq!(with, needed(whole), "{}", whole.topology);
        assert!(lean.steps.iter().all(|s| s.exchange.is_none()));
        for i in needed(whole) {
            assert_eq!(lean.steps[i as usize].context, whole.steps[i as usize].context);
        }
        // The same report as the engine's own trace gets, and the window's copy is that report.
        assert_eq!(suspects(&lean), suspects(whole), "{}", whole.topology);
        assert_eq!(answered, suspects(whole).capped(baton::api::SHOWN_PER_TRANSFER));
    }
}

#[test]
fn a_capped_report_keeps_each_transfers_best_and_the_verdicts_suspect_and_counts_the_rest() {
    let mut t = baton::config::load(&example("ticket-reopen.yaml")).unwrap();
    t.facts.clear();
    let r = suspects(&run(&t));
    let at = r.verdict.transfer.expect("ticket-reopen names a transfer");
    let one = r.clone().capped(1);
    assert_eq!(one.verdict, r.verdict);
    for (full, cut) in r.transfers.iter().zip(&one.transfers) {
        assert_eq!(cut.suspects.first(), full.suspects.first());
        assert_eq!(cut.suspects.len().min(1) + cut.more as usize, full.suspects.len());
    }
    // With none asked for, the verdict's suspect still stays where the verdict names it.
    let none = r.clone().capped(0);
    let kept: Vec<_> =
        none.transfers.iter().flat_map(|t| t.suspects.iter().map(move |s| (t.transfer, s.item))).collect();
    assert_eq!(kept, vec![(at, r.verdict.suspect.unwrap())]);
    let total: usize = r.transfers.iter().map(|t| t.suspects.len()).sum();
    assert_eq!(none.transfers.iter().map(|t| t.more as usize).sum::<usize>(), total - 1);
}

#[test]
fn a_window_asking_again_gets_the_report_of_the_run_as_it_stands_after_a_mark() {
    let dir = tempfile::tempdir().unwrap();
    let api = baton::api::Api::new(baton::api::FileAccess::Any, dir.path().join("runs.db").display().to_string());
    let trace = run(&baton::config::load(&example("ticket-reopen.yaml")).unwrap());
    rt().block_on(async {
        let id = api.store().await.unwrap().save_trace(&trace).await.unwrap();
        let ask = || api.suspects(baton::api::RunIdArgs { run_id: id.clone() });
        // The example as written: its structure judges it (verification reopens the ticket).
        let (first, second) = tokio::join!(ask(), ask());
        let first = first.unwrap();
        assert_eq!(first.verdict.ending.by, baton::suspects::JudgedBy::Signal);
        assert_eq!(second.unwrap(), first);
        let mark = |judgement| baton::api::MarkArgs { run_id: id.clone(), judgement, why: Some("read by hand".into()) };
        api.mark_run(mark(Some(baton::trace::Judgement::Good))).await.unwrap();
        let marked = ask().await.unwrap();
        assert_eq!(marked.verdict.ending.by, baton::suspects::JudgedBy::Mark);
        assert_eq!(marked.verdict.bad, None);
        api.mark_run(mark(None)).await.unwrap();
        assert_eq!(ask().await.unwrap(), first);
    });
}

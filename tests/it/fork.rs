//! Replay and fork: a recorded run replayed unchanged is the same run (every step, item,
//! transfer and fact status; timings aside); a fork of ticket-reopen with the lost fact restored
//! at the handoff leaves the recording exactly at Verification's first call, which the mock then
//! answers by the example's own rule; forks are saved linked to their parent; `baton diff`
//! names the first divergent transfer.

use crate::common::{baton, example, examples, stdout};
use baton::api::{Api, FileAccess, ForkArgs};
use baton::context::FactStatus;
use baton::engine::{RunOptions, run_mock};
use baton::fork::{ForkSpec, Then, fork};
use baton::trace::{OutcomeStatus, Trace};

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap()
}

fn recorded(name: &str) -> Trace {
    let t = baton::config::load(&example(name)).unwrap();
    rt().block_on(run_mock(&t, RunOptions::default())).unwrap()
}

/// A trace as JSON without what a replay may change (timings).
fn comparable(t: &Trace) -> serde_json::Value {
    let mut v = serde_json::to_value(t).unwrap();
    for s in v["steps"].as_array_mut().unwrap() {
        s.as_object_mut().unwrap().remove("timing");
    }
    for k in ["started_at", "ended_at", "fork", "run_id", "providers"] {
        v.as_object_mut().unwrap().remove(k);
    }
    v
}

#[test]
fn a_replay_of_every_example_is_the_same_run() {
    for ex in examples() {
        let name = ex.file_name().unwrap().to_str().unwrap().to_owned();
        let trace = recorded(&name);
        let spec = ForkSpec { at: 0, then: Then::Replay, ..Default::default() };
        let again = rt().block_on(fork(&trace, "", &spec, RunOptions::default())).unwrap();
        assert_eq!(again.fork.as_ref().unwrap().divergence, None, "{name}");
        assert_eq!(comparable(&again), comparable(&trace), "{name}");
    }
}

#[test]
fn restoring_the_lost_fact_diverges_at_verifications_first_call_and_the_mock_takes_over() {
    let trace = recorded("ticket-reopen.yaml");
    // Step 5 is the handoff resolution → verification (fields), where the fact was lost.
    assert_eq!(trace.steps[5].transfer, Some(1));
    let spec = ForkSpec { at: 5, restore: vec!["resolved-meaning".into()], ..Default::default() };
    let f = rt().block_on(fork(&trace, "parent", &spec, RunOptions::default())).unwrap();
    // Everything before the fork point is the recording's.
    assert_eq!(comparable_steps(&f, 5), comparable_steps(&trace, 5));
    assert_eq!(f.transfers[1].facts[0].status, FactStatus::Carried);
    let d = f.fork.as_ref().unwrap().divergence.clone().expect("a divergence");
    assert_eq!((d.agent.as_str(), d.call, d.recorded_step), ("verification", 1, Some(6)));
    // From there the mock answers, by ticket-reopen.yaml's rule for a present fact and a flag "is off".
    assert_eq!(
        f.outcome.final_output.as_deref(),
        Some("The flag is off as expected for a fix pending manual rollout. Ticket 4812 stays resolved.")
    );
    assert!(f.steps.iter().all(|s| s.detail != "reopen_ticket → Ticket 4812 reopened."));

    // `--then replay`: the fork ends where it left the recording, and says so.
    let spec = ForkSpec { then: Then::Replay, ..spec };
    let f = rt().block_on(fork(&trace, "parent", &spec, RunOptions::default())).unwrap();
    assert_eq!(f.outcome.status, OutcomeStatus::Failed);
    assert!(f.outcome.reason.contains("left the recording at call 1 of Verification"), "{}", f.outcome.reason);
}

fn comparable_steps(t: &Trace, n: usize) -> Vec<serde_json::Value> {
    t.steps[..n]
        .iter()
        .map(|s| {
            let mut v = serde_json::to_value(s).unwrap();
            v.as_object_mut().unwrap().remove("timing");
            v
        })
        .collect()
}

#[test]
fn a_policy_fork_diverges_where_the_input_changed_and_bad_changes_are_refused() {
    let trace = recorded("ticket-reopen.yaml");
    let mut spec = ForkSpec { at: 5, ..Default::default() };
    spec.policies.insert("resolution->verification".into(), "full".into());
    let f = rt().block_on(fork(&trace, "", &spec, RunOptions::default())).unwrap();
    assert_eq!(f.transfers[1].policy, "full");
    let d = f.fork.as_ref().unwrap().divergence.clone().unwrap();
    assert_eq!((d.agent.as_str(), d.call), ("verification", 1));
    // The fact lives in Resolution's own context, which `full` does not pass either.
    assert_eq!(f.transfers[1].facts[0].status, FactStatus::Lost);

    let mut bad = ForkSpec { at: 5, ..Default::default() };
    bad.policies.insert("nowhere".into(), "full".into());
    let e = rt().block_on(fork(&trace, "", &bad, RunOptions::default())).unwrap_err();
    assert!(e.message.contains("edge 'nowhere' is not in the run's topology"), "{}", e.message);
    let past = ForkSpec { at: 99, ..Default::default() };
    let e = rt().block_on(fork(&trace, "", &past, RunOptions::default())).unwrap_err();
    assert!(e.message.contains("has 12 steps"), "{}", e.message);
}

#[test]
fn a_saved_fork_keeps_its_lineage_and_diff_names_the_first_divergence() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("runs.db");
    let api = Api::new(FileAccess::Any, db.display().to_string());
    let trace = recorded("ticket-reopen.yaml");
    let (parent, forked) = rt().block_on(async {
        let store = api.store().await.unwrap();
        let parent = store.save_trace(&trace).await.unwrap();
        let spec = ForkSpec { at: 5, restore: vec!["resolved-meaning".into()], ..Default::default() };
        let forked = api.fork_run(ForkArgs { run_id: parent.clone(), fork: spec }).await.unwrap();
        (parent, forked)
    });
    assert_eq!(forked.fork.divergence.as_ref().unwrap().agent, "verification");
    rt().block_on(async {
        let store = api.store().await.unwrap();
        let s = store.run_summary(&forked.run_id).await.unwrap();
        assert_eq!((s.parent.as_deref(), s.forked_at), (Some(parent.as_str()), Some(5)));
        // The list carries what the fork changed and where it left the recording.
        let info = s.fork.expect("the fork's info");
        assert_eq!(info.changes, ["fact resolved-meaning restored at step 5"]);
        assert_eq!(info.divergence.unwrap().agent, "verification");
        let back = store.load_trace(&forked.run_id).await.unwrap();
        assert_eq!(back.fork.unwrap().divergence.unwrap().recorded_step, Some(6));
        assert_eq!(store.run_summary(&parent).await.unwrap().parent, None);
        // The lineage: the parent's forks are found by their parent.
        let q = baton::store::RunQuery { parent: Some(parent.clone()), ..Default::default() };
        let children = store.search_runs(&q).await.unwrap();
        assert_eq!(children.runs.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(), [forked.run_id.as_str()]);
    });
    let out = baton(&["diff", &parent, &forked.run_id, "--db", db.to_str().unwrap()]);
    assert!(out.status.success(), "{}", crate::common::stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("first divergence: resolution → verification (occurrence 1)")
            && text.contains("fact resolved-meaning: lost → carried"),
        "{text}"
    );
}

/// `baton fork` exits as `baton run` does: 1 when the forked run ended failed (here the live
/// model it needs has no key), 0 when it completed.
#[test]
fn a_fork_that_fails_exits_one_like_a_run() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("run.json");
    std::fs::write(&file, serde_json::to_string(&recorded("ticket-reopen.yaml")).unwrap()).unwrap();
    let f = file.to_str().unwrap();
    let ok = baton(&["fork", f, "--at", "5", "--restore", "resolved-meaning"]);
    assert_eq!(ok.status.code(), Some(0), "{}", stdout(&ok));
    let failed = std::process::Command::new(env!("CARGO_BIN_EXE_baton"))
        .args(["fork", f, "--at", "5", "--restore", "resolved-meaning", "--then", "live"])
        .env_remove("OPENAI_API_KEY")
        .env("BATON_NO_KEYRING", "1")
        .output()
        .unwrap();
    assert_eq!(failed.status.code(), Some(1), "{}", String::from_utf8_lossy(&failed.stdout));
    assert!(String::from_utf8_lossy(&failed.stdout).contains("no key is set"));
}

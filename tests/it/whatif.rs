//! What-if at a handoff: each policy's row must be what a real re-run with that policy gives the
//! receiver (the same items, ids included), for every policy, without running a model; and the
//! story's numbers: at ticket-reopen's fields handoff, 13 items on the sender's side, 2 crossing.

use crate::common::{baton, example, stdout};
use baton::engine::{RunOptions, run_mock};
use baton::topology::ContextPolicy;
use baton::trace::Trace;
use baton::whatif::what_if;

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap()
}

fn run(t: &baton::topology::Topology) -> Trace {
    rt().block_on(run_mock(t, RunOptions::default())).unwrap()
}

#[test]
fn every_policy_row_is_what_a_rerun_with_that_policy_gives() {
    let t = baton::config::load(&example("ticket-reopen.yaml")).unwrap();
    let trace = run(&t);
    let w = what_if(&trace, 1, &t.facts).unwrap();
    assert_eq!((w.from.as_str(), w.to.as_str()), ("resolution", "verification"));
    assert_eq!(w.sender.len(), 13);
    let recorded: Vec<_> = w.rows.iter().filter(|r| r.recorded).collect();
    assert_eq!(recorded.len(), 1);
    assert_eq!(recorded[0].policy, "fields(ticket,status)");
    assert_eq!(recorded[0].receiver, trace.transfers[1].receiver);
    assert_eq!(recorded[0].items, 2);
    for row in &w.rows {
        let mut changed = t.clone();
        let e = changed.edges.iter_mut().find(|e| e.id == "resolution->verification").unwrap();
        e.policy = row.spec.clone();
        let rerun = run(&changed);
        let tr = &rerun.transfers[1];
        assert_eq!(tr.policy, row.policy);
        assert_eq!(row.receiver, tr.receiver, "{}: the re-run's receiver", row.policy);
        assert_eq!(row.facts, tr.facts, "{}: fact checks", row.policy);
    }
    // The fact sits in Resolution's own context, which no policy passes: lost under every one.
    assert!(w.rows.iter().all(|r| r.facts[0].status == baton::context::FactStatus::Lost));
    assert!(w.notes.iter().any(|n| n.contains("'resolved-meaning'") && n.contains("own context")), "{:?}", w.notes);
    assert!(w.rows.iter().any(|r| r.spec == ContextPolicy::None));
}

#[test]
fn whatif_on_the_cli_and_its_refusals() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("run.json");
    let t = baton::config::load(&example("ticket-reopen.yaml")).unwrap();
    std::fs::write(&file, serde_json::to_string(&run(&t)).unwrap()).unwrap();
    let out = baton(&["whatif", file.to_str().unwrap(), "--transfer", "1"]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.contains("Resolution → Verification"), "{text}");
    assert!(text.lines().any(|l| l.starts_with("* fields(ticket,status)") && l.contains("lost")), "{text}");
    // Transfer 0 is a handoff too (triage → resolution); 5 does not exist.
    let out = baton(&["whatif", file.to_str().unwrap(), "--transfer", "5"]);
    assert!(!out.status.success());
    assert!(crate::common::stderr(&out).contains("has no transfer 5 (it has 2)"));
    // A delegation is not a what-if of policies.
    let sup = baton::config::load(&example("ticket-supervisor.yaml")).unwrap();
    let trace = run(&sup);
    let d = trace.transfers.iter().position(|t| t.kind == baton::topology::EdgeKind::Delegation).unwrap();
    assert!(what_if(&trace, d as u32, &sup.facts).unwrap_err().to_string().contains("delegation"));
}

/// On a fork that put the lost fact back at the handoff, the run's facts say the receiver had it
/// while the policy row says the policy loses it: what-if says why (the fork put it back), and
/// does not advise forking with it restored.
#[test]
fn on_a_fork_that_restored_the_fact_whatif_says_the_fork_put_it_back() {
    use baton::fork::{ForkSpec, fork};
    let t = baton::config::load(&example("ticket-reopen.yaml")).unwrap();
    let trace = run(&t);
    let spec = ForkSpec { at: 5, restore: vec!["resolved-meaning".into()], ..Default::default() };
    let f = rt().block_on(fork(&trace, "parent", &spec, RunOptions::default())).unwrap();
    assert_eq!(f.transfers[1].facts[0].status, baton::context::FactStatus::Carried);
    let w = what_if(&f, 1, &t.facts).unwrap();
    let row = w.rows.iter().find(|r| r.recorded).unwrap();
    assert_eq!(row.facts[0].status, baton::context::FactStatus::Lost, "fields(ticket,status) does not pass it");
    let said = w.notes.join("\n");
    assert!(said.contains("'resolved-meaning': this run's receiver had it (carried)"), "{said}");
    assert!(said.contains("the fork put it back at step 5"), "{said}");
    assert!(!said.contains("Fork with the item restored"), "{said}");
    // On the parent run the policy and the run agree: no such note, and the advice stands.
    let parent = what_if(&trace, 1, &t.facts).unwrap().notes.join("\n");
    assert!(!parent.contains("this run's receiver had it"), "{parent}");
    assert!(parent.contains("Fork with the item restored"), "{parent}");
}

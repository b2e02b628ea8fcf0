//! Traces other people's frameworks wrote (`../shared/realtraces/`, read where they live):
//! Langfuse exports, the same spans as OTLP in two orders, older ADK sessions. Each file's
//! expectation in `tests/import/real/` was written by a person reading the source file (agents,
//! the agent of each model call, the transfers, the final owner); Baton's import must agree, or
//! refuse the file with the stated reason.

use crate::common;
use baton::import::import_file;
use baton::trace::{StepKind, Trace};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn corpus() -> PathBuf {
    common::root().join("../shared/realtraces")
}

/// Every expectation file under `tests/import/real/<dir>`.
fn expectations(dir: &str) -> Vec<(PathBuf, Value)> {
    let mut out = vec![];
    let mut stack = vec![common::root().join("tests/import/real").join(dir)];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.to_string_lossy().ends_with(".expect.json") {
                let v: Value = serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
                out.push((p, v));
            }
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

fn import(path: &Path) -> Result<Vec<Trace>, String> {
    let mut runs = vec![];
    import_file(path, None, None, None, &mut |t, _| {
        runs.push(t);
        Ok(())
    })
    .map_err(|e| e.to_string())?;
    Ok(runs)
}

/// An agent id's display name in the run's rebuilt topology.
fn name_of(t: &Trace, id: &str) -> String {
    t.definition.as_ref().and_then(|d| d.agent(id)).map(|a| a.name.clone()).unwrap_or_else(|| id.to_owned())
}

/// What the file gives, in the expectation's terms.
struct Got {
    agents: BTreeSet<String>,
    turns: Vec<String>,
    transfers: Vec<(String, String, String)>,
    final_owner: String,
}

fn got(t: &Trace) -> Got {
    let turns = t.steps.iter().filter(|s| s.kind == StepKind::ModelCall).map(|s| name_of(t, &s.agent)).collect();
    let transfers =
        t.transfers.iter().map(|x| (x.kind.as_str().to_owned(), name_of(t, &x.from), name_of(t, &x.to))).collect();
    let agents = t.definition.iter().flat_map(|d| d.agents.iter().map(|a| a.name.clone())).collect();
    Got { agents, turns, transfers, final_owner: name_of(t, &t.outcome.owner) }
}

/// Differences between a run and its expectation (empty when they agree).
fn compare(want: &Value, run: &Trace) -> Vec<String> {
    let g = got(run);
    let mut diffs = vec![];
    let strs = |v: &Value| -> Vec<String> {
        v.as_array().into_iter().flatten().filter_map(|x| x.as_str().map(str::to_owned)).collect()
    };
    let named: Vec<String> = strs(&want["agents"]);
    let turns_named = want["turns"].as_array().is_some_and(|t| t.iter().all(Value::is_string));
    let want_transfers: Vec<(String, String, String)> = want["transfers"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|x| {
            let s = |k: &str| x[k].as_str().unwrap_or_default().to_owned();
            (s("kind"), s("from"), s("to"))
        })
        .collect();
    if named.is_empty() {
        // One unnamed actor: any single label, no transfer.
        let labels: BTreeSet<&String> = g.turns.iter().collect();
        if labels.len() > 1 {
            diffs.push(format!("one actor expected, got model calls by {labels:?}"));
        }
        let n = want["turns"].as_array().map(Vec::len).unwrap_or(0);
        if g.turns.len() != n {
            diffs.push(format!("{} model calls expected, got {}", n, g.turns.len()));
        }
    } else {
        let want_agents: BTreeSet<String> = named.iter().cloned().collect();
        let acting: BTreeSet<String> = g.turns.iter().cloned().chain(g.transfers.iter().map(|t| t.2.clone())).collect();
        if !acting.is_subset(&want_agents) || !want_agents.iter().all(|a| g.agents.contains(a)) {
            diffs.push(format!("agents: expected {want_agents:?}, got {:?} (acting {acting:?})", g.agents));
        }
        if turns_named && strs(&want["turns"]) != g.turns {
            diffs.push(format!("turns: expected {:?}, got {:?}", strs(&want["turns"]), g.turns));
        }
        if let Some(owner) = want["final_owner"].as_str().filter(|o| *o != g.final_owner) {
            diffs.push(format!("final owner: expected {owner}, got {}", g.final_owner));
        }
    }
    if want_transfers != g.transfers {
        diffs.push(format!("transfers: expected {want_transfers:?}, got {:?}", g.transfers));
    }
    diffs
}

/// Checks every expectation of `dir`; returns the files that disagree, with why.
fn check_dir(dir: &str) -> (usize, Vec<String>) {
    let mut failures = vec![];
    let all = expectations(dir);
    for (exp, want) in &all {
        let file = want["file"].as_str().unwrap();
        let source = corpus().join(file);
        let result = import(&source);
        let problem = match (want["expect"].as_str(), result) {
            (Some("refuse"), Ok(runs)) => Some(format!("expected a refusal, got {} run(s)", runs.len())),
            (Some("refuse"), Err(e)) => {
                let reason = want["refuse_reason"].as_str().unwrap_or_default().to_lowercase();
                (!e.to_lowercase().contains(&reason)).then(|| format!("refused, but not for '{reason}': {e}"))
            }
            (_, Err(e)) => Some(format!("refused: {e}")),
            (_, Ok(runs)) => {
                let want_runs = want["runs"].as_array().cloned().unwrap_or_default();
                if runs.len() != want_runs.len() {
                    Some(format!("{} run(s) expected, got {}", want_runs.len(), runs.len()))
                } else {
                    let d: Vec<String> = want_runs.iter().zip(&runs).flat_map(|(w, r)| compare(w, r)).collect();
                    (!d.is_empty()).then(|| d.join("; "))
                }
            }
        };
        if let Some(p) = problem {
            failures.push(format!("{}: {p}", exp.strip_prefix(common::root()).unwrap_or(exp).display()));
        }
    }
    (all.len(), failures)
}

fn assert_dir(dir: &str) {
    let (n, failures) = check_dir(dir);
    assert!(n > 0, "no expectations under tests/import/real/{dir}");
    assert!(
        failures.is_empty(),
        "{} of {n} files disagree with their expectation:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn langfuse_exports_import_as_a_person_read_them() {
    assert_dir("langfuse");
}

#[test]
fn otlp_files_in_either_order_import_as_a_person_read_them() {
    assert_dir("langfuse-derived-otlp");
}

#[test]
fn older_adk_sessions_import_as_a_person_read_them() {
    assert_dir("adk-python");
}

/// The same spans in two orders (children first, or root first) give the same runs.
#[test]
fn both_otlp_orders_give_identical_runs() {
    let dir = corpus().join("langfuse-derived-otlp");
    for e in std::fs::read_dir(dir.join("end-order")).unwrap() {
        let name = e.unwrap().file_name();
        let a = import(&dir.join("end-order").join(&name));
        let b = import(&dir.join("root-first").join(&name));
        match (a, b) {
            (Ok(a), Ok(b)) => {
                assert_eq!(a.len(), b.len(), "{name:?}: run count");
                for (x, y) in a.iter().zip(&b) {
                    assert_eq!(x.steps, y.steps, "{name:?}: steps");
                    assert_eq!(x.transfers, y.transfers, "{name:?}: transfers");
                    assert_eq!(x.outcome, y.outcome, "{name:?}: outcome");
                }
            }
            (Err(a), Err(b)) => assert_eq!(a.replace("end-order", "X"), b.replace("root-first", "X"), "{name:?}"),
            (a, b) => panic!(
                "{name:?}: one order imports, the other does not: {:?} / {:?}",
                a.map(|r| r.len()),
                b.map(|r| r.len())
            ),
        }
    }
}

/// Microsoft Agent Framework on the OpenAI Responses API: the second model call names the first
/// call's response (`gen_ai.conversation.id` = resp_…271…, the first chat span's
/// `gen_ai.response.id`) and records only the tool result as input. The provider kept the rest:
/// that call's model saw the user's question and its own tool call too.
#[test]
fn a_call_that_continues_a_provider_held_conversation_shows_what_the_model_saw() {
    for file in [
        "langfuse/microsoft-agent-2025-12-17.trace.json",
        "langfuse-derived-otlp/end-order/microsoft-agent-2025-12-17.otlp.json",
        "langfuse-derived-otlp/root-first/microsoft-agent-2025-12-17.otlp.json",
    ] {
        let runs = import(&corpus().join(file)).unwrap();
        let t = &runs[0];
        let calls: Vec<_> = t.steps.iter().filter(|s| s.kind == StepKind::ModelCall).collect();
        assert_eq!(calls.len(), 2, "{file}");
        let texts: Vec<String> = calls[1]
            .context
            .iter()
            .map(|id| {
                let i = t.item(*id).unwrap();
                format!("{} {} {}", i.kind.as_str(), i.text, i.call_id.clone().unwrap_or_default())
            })
            .collect();
        assert!(texts.iter().any(|x| x.contains("What's the weather in Tokyo?")), "{file}: {texts:#?}");
        assert!(
            texts.iter().filter(|x| x.contains("call_CwaJHuXTm9dmHFQPlVbqyzJ0")).count() >= 2,
            "{file}: the call and its result: {texts:#?}"
        );
        let notes = t.source.as_ref().unwrap()["notes"].to_string();
        assert!(notes.contains("conversation the provider keeps"), "{file}: {notes}");
    }
}

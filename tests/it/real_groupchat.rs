//! Group chats as other frameworks recorded them: every Who&When file (AG2 group chats and
//! Magentic-One logs, read in place from `../shared/realtraces/who-and-when/`) imports as one
//! run that keeps the group-chat invariants, the 18 files a person read
//! (`tests/import/real/who-and-when/*.expect.json`) match that reading (agents, turns,
//! transfers, final owner, answer, labels), and the AutoGen AgentChat fixtures match what the
//! framework's fake model received (`tests/import/fixtures/autogen_swarm.*.expected.json`).
//! Nothing expected here comes from Baton's own output.

use crate::common;

use baton::context::ItemKind;
use baton::import::{SourceFormat, detect, import_file};
use baton::trace::{StepKind, Trace};
use common::*;
use serde_json::Value;
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

fn corpus() -> PathBuf {
    root().join("../shared/realtraces")
}

fn read_json(p: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display())))
        .unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn import(p: &Path) -> (Option<SourceFormat>, Vec<Trace>) {
    let mut out = vec![];
    let summary = import_file(p, None, None, None, &mut |t, _| {
        out.push(t);
        Ok(())
    })
    .unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    (summary.format, out)
}

/// Agent names by id, from the run's topology.
fn names(t: &Trace) -> HashMap<String, String> {
    t.definition.as_ref().unwrap().agents.iter().map(|a| (a.id.clone(), a.name.clone())).collect()
}

fn name_of(t: &Trace, id: &str) -> String {
    names(t).get(id).cloned().unwrap_or_else(|| panic!("no agent with id {id}"))
}

/// What a person's reading names: agents, turns, transfers and the final owner.
#[derive(Debug, PartialEq)]
struct Shape {
    agents: BTreeSet<String>,
    turns: Vec<String>,
    transfers: Vec<(String, String, String)>,
    final_owner: String,
}

fn shape(t: &Trace) -> Shape {
    Shape {
        agents: t.definition.as_ref().unwrap().agents.iter().map(|a| a.name.clone()).collect(),
        turns: t.steps.iter().filter(|s| s.kind == StepKind::ModelCall).map(|s| name_of(t, &s.agent)).collect(),
        transfers: t
            .transfers
            .iter()
            .map(|x| (x.kind.as_str().to_owned(), name_of(t, &x.from), name_of(t, &x.to)))
            .collect(),
        final_owner: name_of(t, &t.outcome.owner),
    }
}

fn expected_shape(r: &Value) -> Shape {
    let strs = |v: &Value| -> Vec<String> {
        v.as_array().unwrap().iter().map(|x| x.as_str().unwrap().to_owned()).collect::<Vec<_>>()
    };
    Shape {
        agents: strs(&r["agents"]).into_iter().collect(),
        turns: strs(&r["turns"]),
        transfers: r["transfers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| {
                (
                    x["kind"].as_str().unwrap().to_owned(),
                    x["from"].as_str().unwrap().to_owned(),
                    x["to"].as_str().unwrap().to_owned(),
                )
            })
            .collect(),
        final_owner: r["final_owner"].as_str().unwrap().to_owned(),
    }
}

fn expectation_files() -> Vec<PathBuf> {
    let dir = root().join("tests/import/real/who-and-when");
    let mut v = vec![];
    for sub in ["Algorithm-Generated", "Hand-Crafted"] {
        for e in std::fs::read_dir(dir.join(sub)).unwrap() {
            let p = e.unwrap().path();
            if p.to_string_lossy().ends_with(".expect.json") {
                v.push(p);
            }
        }
    }
    v.sort();
    v
}

fn corpus_files() -> Vec<PathBuf> {
    let dir = corpus().join("who-and-when");
    let mut v = vec![];
    for sub in ["Algorithm-Generated", "Hand-Crafted"] {
        for e in std::fs::read_dir(dir.join(sub)).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "json") {
                v.push(p);
            }
        }
    }
    v.sort();
    v
}

#[test]
fn who_and_when_files_match_what_a_person_read() {
    let files = expectation_files();
    assert_eq!(files.len(), 18, "the expectations a person wrote");
    let mut failures = vec![];
    for ef in &files {
        let e = read_json(ef);
        let file = e["file"].as_str().unwrap();
        assert_eq!(e["expect"], "import", "{file}");
        let (format, runs) = import(&corpus().join(file));
        assert_eq!(format, Some(SourceFormat::GroupChat), "{file}: detected as a group chat");
        let want = e["runs"].as_array().unwrap();
        if runs.len() != want.len() {
            failures.push(format!("{file}: {} runs, expected {}", runs.len(), want.len()));
            continue;
        }
        for (t, r) in runs.iter().zip(want) {
            let (got, exp) = (shape(t), expected_shape(r));
            if got != exp {
                failures.push(format!("{file}:\n  got      {got:?}\n  expected {exp:?}"));
            }
            if let Some(sub) = r["final_output_contains"].as_str() {
                let out = t.outcome.final_output.as_deref().unwrap_or("");
                if !out.contains(sub) {
                    failures.push(format!("{file}: final output {:?} lacks {sub:?}", cut(out)));
                }
            }
            let labels = &t.source.as_ref().unwrap()["labels"];
            for k in ["mistake_agent", "mistake_step"] {
                if labels[k] != r[k] {
                    failures.push(format!("{file}: label {k} is {} in source.labels, {} in the file", labels[k], r[k]));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} of {} files differ:\n{}", failures.len(), files.len(), failures.join("\n"));
}

fn cut(s: &str) -> String {
    s.chars().take(200).collect()
}

/// The speakers a history names: AG2 `name`s; Magentic-One roles without their suffix, but
/// `human`.
fn speakers(history: &[Value]) -> BTreeSet<String> {
    history
        .iter()
        .filter_map(|m| match m.get("name").and_then(Value::as_str) {
            Some(n) => Some(n.to_owned()),
            None => {
                let role = m["role"].as_str().unwrap();
                (role != "human").then(|| role.split(" (").next().unwrap().trim().to_owned())
            }
        })
        .collect()
}

#[test]
fn every_who_and_when_file_imports_as_one_group_chat() {
    let files = corpus_files();
    assert_eq!(files.len(), 184, "126 Algorithm-Generated + 58 Hand-Crafted files");
    let mut failures = vec![];
    for p in &files {
        let f = p.strip_prefix(corpus()).unwrap().display().to_string();
        let src = read_json(p);
        let history = src["history"].as_array().unwrap();
        let (format, runs) = import(p);
        if format != Some(SourceFormat::GroupChat) || runs.len() != 1 {
            failures.push(format!("{f}: {format:?}, {} runs", runs.len()));
            continue;
        }
        let t = &runs[0];
        let agents: BTreeSet<String> = names(t).into_values().collect();
        for s in speakers(history) {
            if !agents.contains(&s) {
                failures.push(format!("{f}: {s} speaks but is not an agent of the run ({agents:?})"));
            }
        }
        // Every message but the opening one (AG2) or the human request (Magentic-One) is a turn.
        let turns = t.steps.iter().filter(|s| s.kind == StepKind::ModelCall).count();
        if turns != history.len() - 1 {
            failures.push(format!("{f}: {turns} model calls for {} messages", history.len()));
        }
        // No transfer without a speaker change, no speaker change without a transfer.
        let mut last_speaker: Option<&str> = None;
        let mut moved = false;
        for s in &t.steps {
            match s.kind {
                StepKind::Handoff | StepKind::Delegation => {
                    let x = &t.transfers[s.transfer.unwrap() as usize];
                    if x.from == x.to || last_speaker == Some(x.to.as_str()) {
                        failures.push(format!(
                            "{f}: step {}: a transfer {} → {} with no speaker change",
                            s.index, x.from, x.to
                        ));
                    }
                    moved = true;
                }
                StepKind::DelegationReturn => moved = true,
                StepKind::ModelCall => {
                    if last_speaker.is_some_and(|l| l != s.agent) && !moved {
                        failures.push(format!(
                            "{f}: step {}: {} speaks after {} with no transfer",
                            s.index,
                            s.agent,
                            last_speaker.unwrap()
                        ));
                    }
                    last_speaker = Some(s.agent.as_str());
                    moved = false;
                }
                _ => {}
            }
        }
        if t.outcome.reason.trim().is_empty() {
            failures.push(format!("{f}: the run ends with no reason"));
        }
        let labels = &t.source.as_ref().unwrap()["labels"];
        if labels["mistake_agent"] != src["mistake_agent"] || labels["question"] != src["question"] {
            failures.push(format!("{f}: the benchmark labels are not in source.labels"));
        }
    }
    assert!(failures.is_empty(), "{} problems:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn langfuse_chatml_renderings_are_not_group_chats() {
    for e in std::fs::read_dir(corpus().join("langfuse")).unwrap() {
        let p = e.unwrap().path();
        if p.to_string_lossy().ends_with(".chatml.json") {
            let f = detect(&read_json(&p));
            assert!(!matches!(f, Some(SourceFormat::GroupChat | SourceFormat::Autogen)), "{}: {f:?}", p.display());
        }
    }
}

/// A normalized message list (`{role, parts}`) as comparable atoms.
fn expected_atoms(messages: &Value) -> Vec<String> {
    let mut out = vec![];
    for m in messages.as_array().unwrap() {
        let role = m["role"].as_str().unwrap();
        let texts: Vec<&str> = m["parts"].as_array().unwrap().iter().filter_map(|p| p["text"].as_str()).collect();
        if !texts.is_empty() {
            out.push(format!("{role}: {}", texts.join("\n")));
        }
        for p in m["parts"].as_array().unwrap() {
            match p["type"].as_str() {
                Some("tool_call") => out.push(format!(
                    "call {} {} {}",
                    p["name"].as_str().unwrap(),
                    p["id"].as_str().unwrap(),
                    p["arguments"].as_str().unwrap()
                )),
                Some("tool_result") => {
                    out.push(format!("result {} {}", p["id"].as_str().unwrap(), p["result"].as_str().unwrap()))
                }
                _ => {}
            }
        }
    }
    out
}

fn atoms(t: &Trace, ids: &[baton::context::ItemId]) -> Vec<String> {
    ids.iter()
        .map(|id| t.item(*id).unwrap())
        .filter_map(|i| match i.kind {
            ItemKind::UserMessage => Some(format!("user: {}", i.text)),
            ItemKind::AssistantMessage => Some(format!("assistant: {}", i.text)),
            ItemKind::ToolCall | ItemKind::TransferCall => Some(format!(
                "call {} {} {}",
                i.name.as_deref().unwrap_or(""),
                i.call_id.as_deref().unwrap_or(""),
                i.arguments.as_deref().unwrap_or("")
            )),
            ItemKind::ToolResult | ItemKind::TransferOutput => {
                Some(format!("result {} {}", i.call_id.as_deref().unwrap_or(""), i.text))
            }
            _ => None,
        })
        .collect()
}

#[test]
fn autogen_fixtures_match_what_the_fake_model_received() {
    for f in ["autogen_swarm.task_result.json", "autogen_swarm.team_state.json"] {
        let dir = root().join("tests/import/fixtures");
        let e = read_json(&dir.join(f.replace(".json", ".expected.json")));
        let (format, runs) = import(&dir.join(f));
        assert_eq!(format, Some(SourceFormat::Autogen), "{f}");
        assert_eq!(runs.len(), 1, "{f}: one run");
        let t = &runs[0];
        let agents: Vec<String> = t.definition.as_ref().unwrap().agents.iter().map(|a| a.name.clone()).collect();
        let want: Vec<String> =
            e["agents"].as_array().unwrap().iter().map(|a| a.as_str().unwrap().to_owned()).collect();
        assert_eq!(agents, want, "{f}: agents");
        let transfers: Vec<(String, String, String)> =
            t.transfers.iter().map(|x| (x.kind.as_str().to_owned(), name_of(t, &x.from), name_of(t, &x.to))).collect();
        let want: Vec<(String, String, String)> = e["transfers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| {
                (
                    x["kind"].as_str().unwrap().to_owned(),
                    x["from"].as_str().unwrap().to_owned(),
                    x["to"].as_str().unwrap().to_owned(),
                )
            })
            .collect();
        assert_eq!(transfers, want, "{f}: transfers");
        for (i, x) in e["transfers"].as_array().unwrap().iter().enumerate() {
            assert_eq!(
                atoms(t, &t.transfers[i].receiver),
                expected_atoms(&x["receiver_first_call"]["messages"]),
                "{f}: what the receiver of transfer {i} got"
            );
        }
        // Every model call: who made it, what it saw (without the unrecorded system message), what it said.
        let calls: Vec<_> = t.steps.iter().filter(|s| s.kind == StepKind::ModelCall).collect();
        let want = e["model_calls"].as_array().unwrap();
        assert_eq!(calls.len(), want.len(), "{f}: model calls");
        for (k, (s, w)) in calls.iter().zip(want).enumerate() {
            assert_eq!(name_of(t, &s.agent), w["agent"].as_str().unwrap(), "{f}: model call {k}");
            assert_eq!(atoms(t, &s.context), expected_atoms(&w["messages"]), "{f}: input of model call {k}");
            assert_eq!(atoms(t, &s.output), expected_atoms(&w["output"]), "{f}: output of model call {k}");
        }
        assert_eq!(t.outcome.final_output.as_deref(), e["final_output"].as_str(), "{f}: final output");
        assert_eq!(name_of(t, &t.outcome.owner), e["last_agent"].as_str().unwrap(), "{f}: final owner");
        if f.contains("task_result") {
            assert_eq!(t.outcome.reason, e["stop_reason"].as_str().unwrap(), "{f}: the run ends with its stop reason");
        }
    }
}

fn import_bytes(bytes: &[u8]) -> Result<Vec<Trace>, String> {
    let mut out = vec![];
    baton::import::import_reader(bytes, "test", bytes.len() as u64, None, None, None, &mut |t, _| {
        out.push(t);
        Ok(())
    })
    .map_err(|e| e.to_string())?;
    Ok(out)
}

#[test]
fn a_round_robin_task_result_gives_each_turn_from_the_manager() {
    // AgentChat message dumps as a RoundRobinGroupChat's TaskResult holds them (no handoffs).
    let msg = |source: &str, content: &str| serde_json::json!({"type": "TextMessage", "source": source, "content": content, "models_usage": null});
    let doc = serde_json::json!({"messages": [
        msg("user", "Write a haiku."), msg("writer", "Draft one."), msg("critic", "Shorter."), msg("writer", "Draft two.")
    ], "stop_reason": "Maximum number of turns 3 reached."});
    let runs = import_bytes(doc.to_string().as_bytes()).unwrap();
    let t = &runs[0];
    let s = shape(t);
    let d = |to: &str| ("delegation".to_owned(), "group_chat_manager".to_owned(), to.to_owned());
    assert_eq!(s.transfers, vec![d("writer"), d("critic"), d("writer")]);
    assert_eq!(s.turns, ["writer", "critic", "writer"]);
    assert_eq!(s.final_owner, "group_chat_manager");
    assert_eq!(atoms(t, &t.transfers[1].receiver), ["user: Write a haiku.", "user: Draft one."]);
    assert_eq!(
        atoms(t, &t.transfers[2].receiver),
        ["user: Write a haiku.", "assistant: Draft one.", "user: Shorter."],
        "the writer sees its own draft as its reply, the critic's as a user message"
    );
    assert_eq!(t.outcome.reason, "Maximum number of turns 3 reached.");
}

#[test]
fn broken_group_chats_get_errors_that_name_the_format() {
    let e = import_bytes(br#"{"history": []}"#).unwrap_err();
    assert!(e.contains("group-chat") && e.contains("no messages"), "{e}");
    let e = import_bytes(br#"{"history": [{"content": "hi", "role": "human"}, 7]}"#).unwrap_err();
    assert!(e.contains("history[1] is not an object"), "{e}");
    let e = import_bytes(br#"{"type": "TeamState", "agent_states": {}}"#).unwrap_err();
    assert!(e.contains("autogen") && e.contains("message_thread"), "{e}");
}

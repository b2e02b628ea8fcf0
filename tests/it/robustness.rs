//! Nothing crashes, every run ends with a reason: delegation cycles, fan-out, long chains,
//! hostile provider headers, and random topologies fed to lint and to the runner.

use crate::common::server::{MockServer, Reply};
use crate::common::{self, baton, stdout};
use baton::engine::{RunOptions, run_mock};
use baton::topology::*;
use proptest::prelude::*;
use serde_json::json;

const SELF_DELEGATION: &str = "version: 1\nname: s\nentry: a\nagents:\n  - {id: a, name: A, model: {provider: mock, name: m}}\nedges:\n  - {kind: delegation, from: a, to: a}\nscenarios:\n  - name: s\n    input: hi\n    scripts: {a: [{calls: [{tool: a, args: {input: x}}]}]}\n";

#[test]
fn a_delegation_cycle_stops_at_max_depth_in_the_cli() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("sd.yaml");
    std::fs::write(&f, SELF_DELEGATION).unwrap();
    let o = baton(&["run", f.to_str().unwrap()]);
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{text}");
    assert!(text.contains("outcome: stopped") && text.contains("Delegation depth (8) exceeded"), "{text}");
}

#[tokio::test]
async fn a_delegation_cycle_through_the_api_ends_and_the_server_lives() {
    let dir = tempfile::tempdir().unwrap();
    let api = baton::api::Api::new(baton::api::FileAccess::Any, dir.path().join("runs.db").display().to_string());
    let t = baton::config::parse(SELF_DELEGATION, baton::config::Format::Yaml, "<t>").unwrap();
    let started = api.dispatch("start_run", json!({ "topology": t })).await.unwrap();
    let run_id = started["run_id"].as_str().unwrap().to_owned();
    let mut from = 0;
    loop {
        let ev = api.dispatch("run_events", json!({ "run_id": run_id, "from": from })).await.unwrap();
        from += ev["events"].as_array().unwrap().len();
        if ev["finished"].as_bool().unwrap() {
            let last = ev["events"].as_array().unwrap().last().unwrap().clone();
            assert_eq!(last["outcome"]["status"], "stopped", "{last}");
            assert_eq!(last["outcome"]["guard"], "max_depth");
            break;
        }
    }
    // The same session still answers.
    let runs = api.dispatch("list_runs", json!({})).await.unwrap();
    assert_eq!(runs[0]["outcome"]["status"], "stopped");
}

/// Fan-out: each delegate fans out again; `max_turns` bounds each nested run only, so the
/// run-wide cap is what stops it.
#[tokio::test]
async fn delegation_fan_out_is_bounded_by_max_model_calls() {
    let mut y = String::from("version: 1\nname: fan\nentry: a0\nguards: {max_turns: 4}\nagents:\n");
    for i in 0..4 {
        y.push_str(&format!("  - {{id: a{i}, name: A{i}, model: {{provider: mock, name: m}}}}\n"));
    }
    y.push_str("edges:\n");
    for i in 0..3 {
        y.push_str(&format!("  - {{kind: delegation, from: a{i}, to: a{}}}\n", i + 1));
    }
    y.push_str("scenarios:\n  - name: s\n    input: go\n    scripts:\n");
    for i in 0..3 {
        y.push_str(&format!(
            "      a{i}: [{{calls: [{{tool: a{n}, args: {{input: x}}}}, {{tool: a{n}, args: {{input: y}}}}]}}]\n",
            n = i + 1
        ));
    }
    let t = baton::config::parse(&y, baton::config::Format::Yaml, "<t>").unwrap();
    let codes: Vec<String> = baton::lint::lint(&t).iter().map(|f| f.code.to_string()).collect();
    assert!(codes.contains(&"delegation-fan-out".to_string()), "{codes:?}");
    let trace = run_mock(&t, RunOptions::default()).await.unwrap();
    let calls = trace.steps.iter().filter(|s| s.kind == baton::trace::StepKind::ModelCall).count();
    assert!(calls <= DEFAULT_MAX_MODEL_CALLS as usize, "{calls} model calls");
    assert_eq!(trace.outcome.guard.as_deref(), Some("max_model_calls"), "{}", trace.outcome.reason);
}

fn chain(n: usize) -> Topology {
    let mut t = Topology::new("chain");
    t.agents.clear();
    t.entry = "a0".into();
    for i in 0..n {
        t.agents.push(Agent {
            id: format!("a{i}"),
            name: format!("A{i}"),
            kind: AgentKind::Agent,
            instructions: String::new(),
            model: Some(ModelRef::mock()),
            tools: vec![],
            source: None,
        });
    }
    for i in 0..n - 1 {
        t.edges.push(Edge::new(EdgeKind::Handoff, &format!("a{i}"), &format!("a{}", i + 1)));
    }
    t.normalize();
    t
}

#[test]
fn lint_and_the_refactor_survive_a_100000_agent_chain() {
    // Run on a thread with a small stack: a recursive search would overflow it long before.
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(|| {
            let mut t = chain(100_000);
            t.edges.push(Edge::new(EdgeKind::Handoff, "a99999", "a0"));
            t.normalize();
            let f = baton::lint::lint(&t);
            assert!(f.iter().any(|f| f.code == "handoff-cycle"));
            let t = chain(100_000);
            assert_eq!(TopologyGraph::build(&t).longest_handoff_chain("a0").len(), 99_999);
        })
        .unwrap()
        .join()
        .unwrap();
}

#[tokio::test]
async fn hostile_retry_after_headers_end_in_a_completed_run() {
    let srv = MockServer::start().await;
    // Two retries is the SDKs' default budget; the header forms are all covered by unit tests.
    for v in ["NaN", "1e300"] {
        srv.push(Reply::status(429, "{\"error\": {\"message\": \"slow down\"}}").header("retry-after-ms", v));
    }
    srv.push(Reply::json(json!({
        "id": "c", "object": "chat.completion", "model": "m",
        "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "ok"}}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}
    })));
    let mut t = chain(1);
    t.agents[0].model = Some(ModelRef {
        provider: Provider::OpenaiCompatible,
        name: "m".into(),
        base_url: Some(format!("{}/v1", srv.base)),
        ..ModelRef::mock()
    });
    t.scenarios.push(Scenario {
        name: "s".into(),
        description: String::new(),
        history: vec![],
        input: "hi".into(),
        ..Default::default()
    });
    let cancel = tokio_util::sync::CancellationToken::new();
    let models = baton::providers::LiveModels::new(&t, t.scenarios.first(), cancel.clone()).unwrap();
    let trace = baton::engine::run(&t, &models, RunOptions { cancel, ..Default::default() }).await.unwrap();
    assert_eq!(trace.outcome.status, baton::trace::OutcomeStatus::Completed, "{}", trace.outcome.reason);
    assert_eq!(srv.requests().len(), 3);
}

fn arb_topology() -> impl Strategy<Value = Topology> {
    let edges = prop::collection::vec((0usize..5, 0usize..5, any::<bool>()), 0..8);
    let calls = prop::collection::vec((0usize..5, 0usize..12), 0..10);
    (1usize..5, edges, calls, 0u32..6, prop::option::of(0u32..3)).prop_map(|(n, edges, calls, max_turns, mh)| {
        let mut t = chain(n);
        t.edges.clear();
        for (a, b, handoff) in edges {
            let kind = if handoff { EdgeKind::Handoff } else { EdgeKind::Delegation };
            t.edges.push(Edge::new(kind, &format!("a{}", a % n), &format!("a{}", b % n)));
        }
        t.normalize();
        t.guards.max_turns = max_turns;
        t.guards.max_handoffs = mh;
        let mut scripts: std::collections::BTreeMap<String, Vec<MockRule>> = Default::default();
        for (agent, tool) in calls {
            let agent = format!("a{}", agent % n);
            let names: Vec<String> = t.edges_from(&agent).map(|e| t.tool_name(e)).collect();
            let tool = names.get(tool).cloned().unwrap_or_else(|| format!("tool_{tool}"));
            let rule = MockRule {
                when: MockWhen::default(),
                then: MockAction {
                    calls: vec![MockCall { tool, args: json!({"input": "x"}), id: None }],
                    ..Default::default()
                },
            };
            scripts.entry(agent).or_default().push(rule);
        }
        t.scenarios.push(Scenario {
            name: "s".into(),
            description: String::new(),
            history: vec![],
            input: "hi".into(),
            scripts,
            ..Default::default()
        });
        t
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// Lint never panics, and every run of a random topology ends with an outcome and a reason.
    #[test]
    fn random_topologies_lint_and_run_to_a_reason(t in arb_topology()) {
        let _ = baton::lint::lint(&t);
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let trace = rt.block_on(run_mock(&t, RunOptions::default())).unwrap();
        prop_assert!(!trace.outcome.reason.is_empty());
        prop_assert!(trace.steps.iter().filter(|s| s.kind == baton::trace::StepKind::ModelCall).count() <= DEFAULT_MAX_MODEL_CALLS as usize);
    }
}

#[test]
fn examples_still_lint_clean_of_errors() {
    for f in common::examples() {
        let t = baton::config::load(&f).unwrap();
        assert!(!baton::lint::has_errors(&baton::lint::lint(&t)), "{}", f.display());
    }
}

#[test]
fn deeply_nested_yaml_is_refused_fast_with_the_line() {
    let text = format!("version: 1\nname: deep\nentry: a\nagents: {}{}\n", "[".repeat(100_000), "]".repeat(100_000));
    let t0 = std::time::Instant::now();
    let e = baton::config::parse(&text, baton::config::Format::Yaml, "deep.yaml").unwrap_err();
    assert!(t0.elapsed() < std::time::Duration::from_secs(2), "took {:?}", t0.elapsed());
    assert_eq!(baton::error::Coded::code(&e).as_str(), "config.too_large");
    assert!(e.to_string().contains("deep.yaml:4") && e.to_string().contains("100000 levels"), "{e}");
}

#[test]
fn a_utf8_bom_is_not_part_of_the_text() {
    let text = format!("\u{feff}{}", std::fs::read_to_string(common::example("ticket-reopen.yaml")).unwrap());
    let t = baton::config::parse(&text, baton::config::Format::Yaml, "bom.yaml").unwrap();
    assert_eq!(t.name, "ticket-reopen");
}

#[test]
fn a_fifo_is_refused_without_blocking() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe.yaml");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let e = baton::config::load(&fifo).unwrap_err();
    assert!(e.to_string().contains("not a regular file"), "{e}");
    let o = baton(&["trace", "import", fifo.to_str().unwrap(), "--db", dir.path().join("s.db").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(crate::common::stderr(&o).contains("not a regular file"));
}

#[test]
fn a_file_that_is_not_json_is_refused_from_its_first_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("big.txt");
    std::fs::write(&f, "x".repeat(50 << 20)).unwrap();
    let o = baton(&["trace", "import", f.to_str().unwrap(), "--db", dir.path().join("s.db").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(crate::common::stderr(&o).contains("does not start with JSON"), "{}", crate::common::stderr(&o));
}

#[test]
fn a_crafted_trace_is_refused_before_it_is_used() {
    let t = baton::config::load(&common::example("ticket-reopen.yaml")).unwrap();
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let trace = rt.block_on(run_mock(&t, RunOptions::default())).unwrap();
    let mut v = serde_json::to_value(&trace).unwrap();
    v["steps"][1]["depth"] = json!(4294967295u64);
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("crafted.json");
    std::fs::write(&f, v.to_string()).unwrap();
    let o = baton(&["trace", "show", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(crate::common::stderr(&o).contains("claims depth 4294967295"), "{}", crate::common::stderr(&o));
}

#[test]
fn saving_keeps_the_file_mode_and_new_files_follow_the_umask() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let t = baton::config::load(&common::example("ticket-reopen.yaml")).unwrap();
    let f = dir.path().join("t.yaml");
    std::fs::write(&f, "x").unwrap();
    std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o640)).unwrap();
    baton::config::save(&t, &f).unwrap();
    assert_eq!(std::fs::metadata(&f).unwrap().permissions().mode() & 0o777, 0o640);
    let g = dir.path().join("new.yaml");
    baton::config::save(&t, &g).unwrap();
    let mode = std::fs::metadata(&g).unwrap().permissions().mode() & 0o777;
    assert_ne!(mode, 0o600, "a new file follows the umask, not the temp file's 0600");
}

#[test]
fn list_files_offers_no_name_outside_the_root_through_a_symlink() {
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret.yaml"), "x").unwrap();
    let root = tempfile::tempdir().unwrap();
    std::fs::write(root.path().join("mine.yaml"), "x").unwrap();
    std::os::unix::fs::symlink(outside.path(), root.path().join("link")).unwrap();
    std::os::unix::fs::symlink(outside.path().join("secret.yaml"), root.path().join("s.yaml")).unwrap();
    let files = baton::api::FileAccess::Root(root.path().to_path_buf()).list().unwrap();
    let names: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(names, ["mine.yaml"]);
}

/// A trace grows with its items, not with steps × context: contexts are deltas in the file.
#[test]
fn a_long_run_writes_a_linear_trace_that_reads_back_whole() {
    let calls = vec!["{ tool: poll }"; 19].join(", ");
    let yaml = format!(
        "version: 1\nname: big-loop\nentry: worker\nagents:\n  - id: worker\n    name: Worker\n    model: {{ provider: mock, name: mock }}\n    tools:\n      - {{ name: poll, mock_result: 'queue: 1 item left' }}\nguards: {{ max_turns: 100 }}\nscenarios:\n  - name: forever\n    input: Drain the queue.\n    scripts:\n      worker:\n        - calls: [{calls}]\n"
    );
    let t = baton::config::parse(&yaml, baton::config::Format::Yaml, "<t>").unwrap();
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let trace = rt.block_on(run_mock(&t, RunOptions::default())).unwrap();
    assert_eq!(trace.steps.len(), 2001);
    let text = serde_json::to_string(&trace).unwrap();
    // The whole contexts would be about 2001 × 1000 ids × 36 bytes = 72 MB.
    assert!(text.len() < 3 << 20, "{} bytes", text.len());
    let back = baton::trace::Trace::from_json(&text, "t.json").unwrap();
    assert_eq!(back.steps, trace.steps);
    assert_eq!(back.transfers, trace.transfers);
}

#[test]
fn a_duplicate_yaml_key_is_reported_where_it_repeats() {
    let text = "version: 1\nname: t\nentry: a\nagents:\n  - {id: a, name: A}\nname: again\n";
    let e = baton::config::parse(text, baton::config::Format::Yaml, "dup.yaml").unwrap_err();
    assert!(
        e.to_string().starts_with("dup.yaml:6:1:") && e.to_string().contains("duplicate entry with key \"name\""),
        "{e}"
    );
}

#[test]
fn saving_a_yaml_file_keeps_its_header_comments() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("ticket-reopen.yaml");
    std::fs::copy(common::example("ticket-reopen.yaml"), &f).unwrap();
    let before = std::fs::read_to_string(&f).unwrap();
    let header: Vec<&str> = before.lines().take_while(|l| l.starts_with('#')).collect();
    assert!(!header.is_empty(), "the example starts with comments");
    let mut t = baton::config::load(&f).unwrap();
    t.description = "changed".into();
    baton::config::save(&t, &f).unwrap();
    let after = std::fs::read_to_string(&f).unwrap();
    assert_eq!(after.lines().take(header.len()).collect::<Vec<_>>(), header);
    assert_eq!(baton::config::load(&f).unwrap().description, "changed");
}

/// A file as a person writes it: comments above agents, beside keys, between edges, a `#` inside
/// instructions (text, not a comment), flow mappings. Whatever the designer changes, each comment
/// stays with the key or agent it was written for, and one whose agent is deleted goes with it.
#[test]
fn saving_a_yaml_file_keeps_its_comments_beside_what_they_describe() {
    let text = "\
# Support desk, hand-written.
version: 1
name: desk
entry: triage
agents:
  # Triage only routes; it never answers.
  - id: triage
    name: Triage
    instructions: |
      Route the ticket.
      # this line is part of the instructions
    model: { provider: mock, name: m }  # cheap on purpose
  # Billing was split out in March.
  - id: billing
    name: Billing
    model: { provider: mock, name: m }

  # Legacy: to be removed.
  - id: legacy
    name: Legacy
    model: { provider: mock, name: m }
edges:
  # The only way into billing.
  - { id: to-billing, kind: handoff, from: triage, to: billing }
guards:
  max_turns: 6 # three round trips
# The end.
";
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("desk.yaml");
    std::fs::write(&f, text).unwrap();
    let mut t = baton::config::load(&f).unwrap();
    // What the designer does: add an agent first, rename one, delete one, change a value.
    let mut added = t.agents[1].clone();
    added.id = "intake".into();
    added.name = "Intake".into();
    t.agents.insert(0, added);
    t.agents.retain(|a| a.id != "legacy");
    t.agents.iter_mut().find(|a| a.id == "billing").unwrap().name = "Billing desk".into();
    t.guards.max_turns = 8;
    baton::config::save(&t, &f).unwrap();

    let after = std::fs::read_to_string(&f).unwrap();
    assert_eq!(baton::config::load(&f).unwrap(), t, "the saved file is the new topology:\n{after}");
    let lines: Vec<&str> = after.lines().collect();
    let at = |s: &str| lines.iter().position(|l| l.trim() == s).unwrap_or_else(|| panic!("no line {s:?} in:\n{after}"));
    assert_eq!(lines[0], "# Support desk, hand-written.");
    assert_eq!(at("# Triage only routes; it never answers.") + 1, at("- id: triage"));
    assert_eq!(at("# Billing was split out in March.") + 1, at("- id: billing"));
    assert!(lines[at("- id: billing") + 1].contains("Billing desk"));
    assert_eq!(at("# The only way into billing.") + 1, at("- id: to-billing"));
    at("max_turns: 8  # three round trips");
    assert_eq!(*lines.last().unwrap(), "# The end.");
    assert!(lines[at("- id: triage")..].iter().any(|l| l.trim() == "# this line is part of the instructions"));
    let triage_model = lines[at("- id: triage")..].iter().find(|l| l.trim_start().starts_with("model:")).unwrap();
    assert!(triage_model.ends_with("  # cheap on purpose"), "{after}");
    assert!(!after.contains("Legacy"), "the deleted agent's comment went with it:\n{after}");
    // The new agent gets no comment of another's.
    assert!(!lines[at("- id: intake").saturating_sub(1)].trim_start().starts_with('#'), "{after}");
}

/// Edges written without ids get ids when saved; their comments stay with them by position.
#[test]
fn comments_on_edges_without_ids_survive_their_first_save() {
    let text = "version: 1\nname: t\nentry: a\nagents:\n  - {id: a, name: A}\n  - {id: b, name: B}\nedges:\n  # a hands to b when it is done\n  - {kind: handoff, from: a, to: b}\n";
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("t.yaml");
    std::fs::write(&f, text).unwrap();
    let t = baton::config::load(&f).unwrap();
    baton::config::save(&t, &f).unwrap();
    let after = std::fs::read_to_string(&f).unwrap();
    let lines: Vec<&str> = after.lines().map(str::trim).collect();
    let c = lines.iter().position(|l| *l == "# a hands to b when it is done").unwrap_or_else(|| panic!("{after}"));
    assert!(lines[c + 1].starts_with("- id: "), "{after}");
    assert_eq!(baton::config::load(&f).unwrap(), t);
}

/// 600 MB of whitespace (more than the largest record) is streamed past, not buffered, and the
/// refusal says what the file holds instead of naming a giant "line 1".
#[test]
fn a_trace_of_only_whitespace_is_refused_for_what_it_is() {
    use std::io::Read;
    let spaces = std::io::repeat(b' ').take(600 << 20);
    let err = baton::import::import_reader(spaces, "blank.json", 600 << 20, None, None, None, &mut |_, _| Ok(()))
        .unwrap_err();
    let msg = err.to_string();
    assert!(msg.contains("only whitespace (629145600 bytes)"), "{msg}");
    // Blank lines between JSON Lines records count as lines: the bad record is named where it is.
    let text = "\n\n   \n{\"oops\": }\n";
    let err = baton::import::import_reader(text.as_bytes(), "lines.json", 0, None, None, None, &mut |_, _| Ok(()))
        .unwrap_err();
    assert!(err.to_string().contains("line 4"), "{err}");
}

/// A key read from an endless standard input is refused after a bounded read, with the limit
/// named, instead of growing until the allocator aborts.
#[test]
fn a_key_from_an_endless_stdin_is_refused_with_the_limit() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_baton"))
        .args(["providers", "set-key", "openai"])
        .stdin(std::fs::File::open("/dev/zero").unwrap())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("more than 16384 bytes") && err.contains("on one line"), "{err}");
}

/// A chain of `levels` nested OTLP spans (agent and chat in turn, each chat answering), in a
/// trace whose id repeats `tid` (two hex digits).
fn otlp_chain(tid: &str, levels: usize) -> serde_json::Value {
    let sid = |k: usize| format!("{:016x}", k + 1);
    let kv = |k: &str, v: &str| json!({"key": k, "value": {"stringValue": v}});
    let spans: Vec<serde_json::Value> = (0..levels)
        .map(|k| {
            let attrs = if k % 2 == 0 {
                json!([kv("gen_ai.operation.name", "invoke_agent"), kv("gen_ai.agent.name", &format!("agent{}", k % 5))])
            } else {
                let out = json!([{"role": "assistant", "parts": [{"type": "text", "content": format!("step {k}")}]}]);
                json!([kv("gen_ai.operation.name", "chat"), kv("gen_ai.output.messages", &out.to_string())])
            };
            json!({"traceId": tid.repeat(16), "spanId": sid(k), "parentSpanId": if k == 0 { String::new() } else { sid(k - 1) },
                   "name": if k % 2 == 0 { "invoke_agent" } else { "chat" },
                   "startTimeUnixNano": (1_000_000 + k).to_string(), "endTimeUnixNano": (9_000_000 - k).to_string(),
                   "attributes": attrs})
        })
        .collect();
    json!({"resourceSpans": [{"scopeSpans": [{"spans": spans}]}]})
}

/// The span trees a file brings (OTLP, the Agents SDK's export) nest at most 1,000 levels, as
/// issue #30 asks: a chain that deep is read; one level more is refused with its depth, the bound
/// and what to check, and a file holding it beside an ordinary trace imports the ordinary one and
/// says what it left out. A 100,000-deep chain is refused in one pass, not walked per span.
#[test]
fn span_trees_nested_past_the_bound_are_refused_with_their_depth() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("runs.db").display().to_string();
    let write = |name: &str, text: String| {
        let f = dir.path().join(name);
        std::fs::write(&f, text).unwrap();
        f.display().to_string()
    };
    let at_bound = write("at.json", otlp_chain("a1", 1_000).to_string());
    let o = baton(&["trace", "import", &at_bound, "--db", &db]);
    assert_eq!(o.status.code(), Some(0), "{}", common::stderr(&o));

    let past = write("past.json", otlp_chain("b2", 1_001).to_string());
    let o = baton(&["trace", "import", &past, "--db", &db]);
    assert_eq!(o.status.code(), Some(2));
    let e = common::stderr(&o);
    assert!(
        e.contains("nest 1001 levels deep") && e.contains("at most 1000 levels") && e.contains("nothing was imported"),
        "{e}"
    );

    // One JSON Lines file: the deep trace, then an ordinary one. The ordinary one is imported.
    let mixed = write("mixed.jsonl", format!("{}\n{}\n", otlp_chain("c3", 5_000), otlp_chain("d4", 6)));
    let o = baton(&["trace", "import", &mixed, "--db", &db]);
    assert_eq!(o.status.code(), Some(0), "{}", common::stderr(&o));
    let all = format!("{}{}", stdout(&o), common::stderr(&o));
    assert!(all.contains("imported 1 run(s)") && all.contains("nest 5000 levels deep"), "{all}");

    let huge = write("huge.json", otlp_chain("e5", 100_000).to_string());
    let o = baton(&["trace", "import", &huge, "--db", &db]);
    assert_eq!(o.status.code(), Some(2));
    assert!(common::stderr(&o).contains("nest 100000 levels deep"), "{}", common::stderr(&o));

    // The Agents SDK's own export: custom spans nested 1,001 deep under an agent span.
    let mut lines = vec![];
    for k in 0..1_001 {
        let data = if k == 0 {
            json!({"type": "agent", "name": "A"})
        } else {
            json!({"type": "custom", "name": "step", "data": {}})
        };
        let parent = if k == 0 { serde_json::Value::Null } else { json!(format!("span_{}", k - 1)) };
        lines.push(
            json!({"object": "trace.span", "id": format!("span_{k}"), "trace_id": "trace_deep", "parent_id": parent,
            "started_at": "2026-01-01T00:00:00Z", "ended_at": "2026-01-01T00:00:01Z", "span_data": data})
            .to_string(),
        );
    }
    lines.push(json!({"object": "trace", "id": "trace_deep", "workflow_name": "deep"}).to_string());
    let sdk = write("sdk.jsonl", lines.join("\n"));
    let o = baton(&["trace", "import", &sdk, "--db", &db, "--from", "openai-agents"]);
    let e = common::stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(e.contains("trace trace_deep: its spans nest 1001 levels deep (at span span_1000)"), "{e}");
}

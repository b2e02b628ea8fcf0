//! Trace import and OTLP export: round trips keep steps, transfers and fact statuses; bad input
//! gets a clear error naming the format, the line or byte, and what was expected; JSON Lines
//! stream (runs arrive before the file is read to the end); a failed import saves nothing.

use crate::common;

use baton::context::FactStatus;
use baton::import::{ImportError, SourceFormat, import_reader};
use baton::trace::{StepKind, Trace};
use common::*;
use std::io::Read;

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap()
}

fn run_example(name: &str) -> Trace {
    let t = baton::config::load(&example(name)).unwrap();
    rt().block_on(baton::engine::run_mock(&t, Default::default())).unwrap()
}

fn import_bytes(bytes: &[u8], from: Option<SourceFormat>) -> Result<Vec<Trace>, ImportError> {
    let mut out = vec![];
    import_reader(bytes, "test", bytes.len() as u64, from, None, None, &mut |t, _| {
        out.push(t);
        Ok(())
    })?;
    Ok(out)
}

/// Step kinds, transfers (kind, from, to), and fact statuses per transfer.
type Shape = (Vec<StepKind>, Vec<(String, String, String)>, Vec<Vec<(String, FactStatus)>>);

fn shape(t: &Trace) -> Shape {
    (
        t.steps.iter().map(|s| s.kind).collect(),
        t.transfers.iter().map(|x| (x.kind.as_str().to_owned(), x.from.clone(), x.to.clone())).collect(),
        t.transfers.iter().map(|x| x.facts.iter().map(|f| (f.id.clone(), f.status)).collect()).collect(),
    )
}

#[test]
fn otlp_round_trip_keeps_steps_transfers_and_fact_statuses() {
    for ex in ["ticket-reopen.yaml", "ticket-supervisor.yaml", "support-triage.yaml", "handoff-loop.yaml"] {
        let native = run_example(ex);
        let otlp = serde_json::to_vec(&baton::trace::to_otlp(&native)).unwrap();
        let back = import_bytes(&otlp, None).unwrap();
        assert_eq!(back.len(), 1, "{ex}");
        let back = &back[0];
        let (ks, ts, fs) = shape(&native);
        let (kb, tb, fb) = shape(back);
        // Guard steps are Baton's own; the exported spans carry the transfers they caused.
        let ks: Vec<StepKind> = ks.into_iter().filter(|k| *k != StepKind::Guard).collect();
        assert_eq!(kb, ks, "{ex}: steps");
        assert_eq!(tb, ts, "{ex}: transfers");
        assert_eq!(fb, fs, "{ex}: fact statuses");
        assert_eq!(back.outcome.final_output, native.outcome.final_output, "{ex}");
        for (a, b) in native.transfers.iter().zip(&back.transfers) {
            assert_eq!(a.policy, b.policy, "{ex}: the policy is named");
        }
    }
}

#[test]
fn a_lost_fact_survives_the_round_trip_and_the_diff_has_content() {
    let native = run_example("ticket-reopen.yaml");
    let otlp = serde_json::to_vec(&baton::trace::to_otlp(&native)).unwrap();
    let back = &import_bytes(&otlp, Some(SourceFormat::Otlp)).unwrap()[0];
    let t = &back.transfers[1];
    assert_eq!((t.from.as_str(), t.to.as_str()), ("resolution", "verification"));
    assert_eq!(t.facts[0].status, FactStatus::Lost);
    assert!(t.dropped.iter().any(|id| back.item(*id).unwrap().kind == baton::context::ItemKind::PinnedFact));
    assert!(!t.receiver.is_empty(), "the receiver's recorded input is there");
    let def = back.definition.as_ref().unwrap();
    assert_eq!(def.agents.iter().map(|a| a.id.as_str()).collect::<Vec<_>>(), ["triage", "resolution", "verification"]);
    assert_eq!(def.edges.len(), 2, "the edges actually used");
}

#[test]
fn openai_agents_spans_give_handoffs_and_delegations() {
    // The shape `.export()` writes (trace.span objects, then the trace object at its end).
    let t = "trace_1";
    let span = |id: &str, parent: &str, start: &str, data: serde_json::Value| {
        serde_json::json!({"object": "trace.span", "id": id, "trace_id": t, "parent_id": parent,
            "started_at": format!("2026-11-30T10:00:{start}+00:00"), "ended_at": format!("2026-11-30T10:00:{start}+00:00"),
            "span_data": data, "error": null})
    };
    let records = vec![
        span(
            "s1",
            "",
            "01.000000",
            serde_json::json!({"type": "agent", "name": "Triage", "handoffs": ["Billing"], "tools": [], "output_type": "str"}),
        ),
        span("s2", "s1", "01.100000", serde_json::json!({"type": "response", "response_id": "resp_1"})),
        span(
            "s3",
            "s1",
            "01.200000",
            serde_json::json!({"type": "handoff", "from_agent": "Triage", "to_agent": "Billing"}),
        ),
        span(
            "s4",
            "",
            "02.000000",
            serde_json::json!({"type": "agent", "name": "Billing", "handoffs": [], "tools": ["ask_technical"]}),
        ),
        span("s5", "s4", "02.100000", serde_json::json!({"type": "response", "response_id": "resp_2"})),
        span(
            "s6",
            "s4",
            "02.200000",
            serde_json::json!({"type": "function", "name": "ask_technical", "input": "{\"input\":\"check line\"}", "output": "Line is fine."}),
        ),
        span(
            "s7",
            "s6",
            "02.300000",
            serde_json::json!({"type": "agent", "name": "Technical", "handoffs": [], "tools": []}),
        ),
        span("s8", "s7", "02.400000", serde_json::json!({"type": "response", "response_id": "resp_3"})),
        serde_json::json!({"object": "trace", "id": t, "workflow_name": "Agent workflow", "group_id": null, "metadata": null}),
    ];
    let as_array = serde_json::to_vec(&records).unwrap();
    let as_ingest = serde_json::to_vec(&serde_json::json!({"data": records})).unwrap();
    let as_lines: Vec<u8> = records.iter().map(|r| r.to_string() + "\n").collect::<String>().into_bytes();
    for bytes in [as_array, as_ingest, as_lines] {
        let runs = import_bytes(&bytes, None).unwrap();
        assert_eq!(runs.len(), 1);
        let r = &runs[0];
        let transfers: Vec<(&str, &str, &str)> =
            r.transfers.iter().map(|x| (x.kind.as_str(), x.from.as_str(), x.to.as_str())).collect();
        assert_eq!(transfers, [("handoff", "triage", "billing"), ("delegation", "billing", "technical")]);
        assert_eq!(r.topology, "Agent workflow");
        let notes = r.source.as_ref().unwrap()["notes"].to_string();
        assert!(notes.contains("no message content"), "the importer says what it could not see: {notes}");
        assert!(r.steps.iter().any(|s| s.kind == StepKind::ToolCall && s.detail.starts_with("ask_technical")));
        assert!(r.steps.iter().any(|s| s.kind == StepKind::DelegationReturn));
    }
}

#[test]
fn adk_sessions_in_both_casings() {
    let session = |camel: bool| {
        let (fc, fr, tta, app) = if camel {
            ("functionCall", "functionResponse", "transferToAgent", "appName")
        } else {
            ("function_call", "function_response", "transfer_to_agent", "app_name")
        };
        serde_json::json!({
            "id": "s1", app: "support", "events": [
                {"author": "user", "content": {"role": "user", "parts": [{"text": "I was charged twice"}]}, "timestamp": 1.0},
                {"author": "root", "content": {"role": "model", "parts": [{fc: {"id": "c1", "name": "transfer_to_agent", "args": {"agent_name": "billing"}}}]}, "timestamp": 2.0},
                {"author": "root", "content": {"role": "user", "parts": [{fr: {"id": "c1", "name": "transfer_to_agent", "response": {"result": null}}}]}, "actions": {tta: "billing"}, "timestamp": 3.0},
                {"author": "billing", "content": {"role": "model", "parts": [{"text": "Refunded."}]}, "timestamp": 4.0}
            ]
        })
    };
    for camel in [false, true] {
        let runs = import_bytes(&serde_json::to_vec(&session(camel)).unwrap(), None).unwrap();
        let r = &runs[0];
        assert_eq!(r.transfers.len(), 1, "camel={camel}");
        assert_eq!((r.transfers[0].from.as_str(), r.transfers[0].to.as_str()), ("root", "billing"));
        assert_eq!(r.outcome.final_output.as_deref(), Some("Refunded."));
        // Billing saw root's turn rewritten "For context:", transformed from root's call.
        let t = &r.transfers[0];
        let rewritten =
            t.receiver.iter().map(|id| r.item(*id).unwrap()).find(|i| i.text.starts_with("For context:")).unwrap();
        assert!(rewritten.text.contains("[root] called tool `transfer_to_agent`"), "{}", rewritten.text);
        assert_eq!(r.topology, "support");
    }
}

#[test]
fn bad_input_gets_a_clear_error() {
    let err = |b: &[u8], from| import_bytes(b, from).unwrap_err().to_string();
    let e = err(b"", None);
    assert!(e.contains("empty"), "{e}");
    let e = err(b"{\"hello\": 1}", None);
    assert!(e.contains("cannot tell which format") && e.contains("--from"), "{e}");
    let e = err(b"{\"resourceSpans\": []}\n{\"resourceSpans\": [{\"scopeSpans\": [{\"spans\": [", None);
    assert!(e.contains("line 2") && e.contains("truncated") && e.contains("OTLP"), "{e}");
    let mixed = b"{\"resourceSpans\": []}\n{\"object\": \"trace.span\", \"trace_id\": \"t\"}\n";
    let e = err(mixed, None);
    assert!(e.contains("line 2") && e.contains("openai-agents") && e.contains("otlp"), "{e}");
    let deep = "[".repeat(100_000);
    let e = err(deep.as_bytes(), None);
    assert!(e.contains("line 1"), "deep nesting is an error, not a crash: {e}");
    let e = err(b"{\"resourceSpans\": [\xff\xfe]}\n", Some(SourceFormat::Otlp));
    assert!(e.contains("otlp") || e.contains("OTLP"), "{e}");
    let e = err(b"{\"events\": [{\"content\": {}}]}", Some(SourceFormat::Adk));
    assert!(e.contains("no author") && e.contains("ADK session"), "{e}");
    let e = err(b"[]", None);
    assert!(e.contains("empty JSON array"), "{e}");
}

/// Counts bytes as the importer reads them.
struct Counting<'a> {
    inner: &'a [u8],
    read: std::rc::Rc<std::cell::Cell<usize>>,
}

impl Read for Counting<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read.set(self.read.get() + n);
        Ok(n)
    }
}

#[test]
fn json_lines_stream_run_by_run() {
    let native = run_example("support-triage.yaml");
    let one = serde_json::to_string(&baton::trace::to_otlp(&native)).unwrap();
    // 3,000 runs (distinct trace ids) of about 14 KB each: ~40 MB read in 1 MB buffers.
    let mut file = String::new();
    for i in 0..3000 {
        file.push_str(
            &one.replace(
                &baton::trace::to_otlp(&native)["resourceSpans"][0]["scopeSpans"][0]["spans"][0]["traceId"]
                    .as_str()
                    .unwrap()
                    .to_string(),
                &format!("{i:032x}"),
            ),
        );
        file.push('\n');
    }
    let read = std::rc::Rc::new(std::cell::Cell::new(0));
    let reader = Counting { inner: file.as_bytes(), read: read.clone() };
    let mut runs = 0;
    let mut read_at_first = 0;
    let summary = import_reader(reader, "big.jsonl", file.len() as u64, None, None, None, &mut |t, _| {
        if runs == 0 {
            read_at_first = read.get();
        }
        runs += 1;
        assert_eq!(t.transfers.len(), 1);
        Ok(())
    })
    .unwrap();
    assert_eq!((runs, summary.runs), (3000, 3000));
    assert!(read_at_first < file.len() / 10, "the first run came after {read_at_first} of {} bytes", file.len());
}

#[test]
fn the_cli_imports_into_the_store_all_or_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("s.db");
    let db = db.to_str().unwrap();
    let native = run_example("ticket-reopen.yaml");
    let good = dir.path().join("run.otlp.json");
    std::fs::write(&good, serde_json::to_vec(&baton::trace::to_otlp(&native)).unwrap()).unwrap();
    let o = baton(&["trace", "import", good.to_str().unwrap(), "--format", "json", "--db", db]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v[0]["transfers"][1]["facts"][0]["status"], "lost");
    let id = v[0]["run_id"].as_str().unwrap().to_owned();
    let shown = baton(&["trace", "show", &id, "--db", db]);
    assert!(stdout(&shown).contains("!! fact LOST"), "{}", stdout(&shown));
    let listed = baton(&["runs", "list", "--format", "json", "--db", db]);
    let runs: serde_json::Value = serde_json::from_slice(&listed.stdout).unwrap();
    assert_eq!(runs.as_array().unwrap().len(), 1);
    assert_eq!(runs[0]["topology"], "ticket-reopen");
    // A file whose second run is broken: the first is not kept.
    let bad = dir.path().join("bad.jsonl");
    let line = serde_json::to_string(&baton::trace::to_otlp(&native)).unwrap();
    std::fs::write(&bad, format!("{line}\n{}\n", &line[..line.len() / 2])).unwrap();
    let o = baton(&["trace", "import", bad.to_str().unwrap(), "--db", db]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(e.contains("line 2") && e.contains("nothing was imported"), "{e}");
    let listed = baton(&["runs", "list", "--format", "json", "--db", db]);
    let runs: serde_json::Value = serde_json::from_slice(&listed.stdout).unwrap();
    assert_eq!(runs.as_array().unwrap().len(), 1, "the broken file left nothing behind");
    // And the exported OTLP names GenAI operations Jaeger and Phoenix understand.
    let otlp = baton(&["trace", "export", &id, "--to", "otlp", "--db", db]);
    let doc: serde_json::Value = serde_json::from_slice(&otlp.stdout).unwrap();
    let spans = doc["resourceSpans"][0]["scopeSpans"][0]["spans"].as_array().unwrap();
    let ops: std::collections::BTreeSet<String> = spans
        .iter()
        .flat_map(|s| s["attributes"].as_array().unwrap().iter())
        .filter(|a| a["key"] == "gen_ai.operation.name")
        .map(|a| a["value"]["stringValue"].as_str().unwrap().to_owned())
        .collect();
    for op in ["invoke_agent", "chat", "execute_tool"] {
        assert!(ops.contains(op), "{ops:?}");
    }
}

#[test]
fn fuzz_regressions_import_or_fail_cleanly() {
    // Every input the fuzzers found must finish with runs or a clear error.
    let dir = root().join("tests/import/regressions");
    let mut checked = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "md") {
            continue;
        }
        let mut runs = 0;
        let r = baton::import::import_file(&p, None, None, None, &mut |t, _| {
            runs += 1;
            let _ = baton::trace::render_timeline(&t);
            serde_json::to_string(&t).unwrap();
            Ok(())
        });
        match r {
            Ok(s) => assert_eq!(s.runs, runs, "{}", p.display()),
            Err(e) => assert!(!e.to_string().is_empty()),
        }
        checked += 1;
    }
    assert!(checked >= 2);
}

/// `trace show` reads what `trace import --format json` writes (an array of traces), and the
/// run id the import prints.
#[test]
fn trace_show_reads_the_import_output_and_the_printed_run_id() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("s.db");
    let db = db.to_str().unwrap();
    let src = root().join("tests/import/fixtures/otlp_genai.json");
    let o = baton(&["trace", "import", src.to_str().unwrap(), "--format", "json", "--db", db]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = dir.path().join("imported.json");
    std::fs::write(&out, &o.stdout).unwrap();
    let shown = baton(&["trace", "show", out.to_str().unwrap()]);
    assert!(shown.status.success(), "{}", stderr(&shown));
    assert!(stdout(&shown).contains("transfer"), "{}", stdout(&shown));
    // The same file again: refused, naming the run it gave (exit 4, busy/conflict).
    let twice = baton(&["trace", "import", src.to_str().unwrap(), "--db", db]);
    assert_eq!(twice.status.code(), Some(4), "{}", stderr(&twice));
    assert!(stderr(&twice).contains("already imported as run"), "{}", stderr(&twice));
    let text = baton(&["trace", "import", src.to_str().unwrap(), "--again", "--db", db]);
    assert!(text.status.success(), "{}", stderr(&text));
    let id = stdout(&text).lines().find_map(|l| l.strip_prefix("imported as run ")).unwrap().to_owned();
    let by_id = baton(&["trace", "show", &id, "--db", db]);
    assert!(by_id.status.success(), "{}", stderr(&by_id));
}

/// One GenAI span as OTLP/JSON writes it (string attributes).
fn genai_span(id: &str, parent: &str, name: &str, t: u64, attrs: &[(&str, String)]) -> serde_json::Value {
    serde_json::json!({
        "traceId": "0af7651916cd43dd8448eb211c80319c", "spanId": id, "parentSpanId": parent, "name": name,
        "startTimeUnixNano": (t * 1_000_000).to_string(), "endTimeUnixNano": ((t + 5) * 1_000_000).to_string(),
        "attributes": attrs.iter().map(|(k, v)| serde_json::json!({"key": k, "value": {"stringValue": v}})).collect::<Vec<_>>()
    })
}

/// A handoff where the receiver's model call continues the sender's response on the provider
/// (OpenAI Responses `previous_response_id`, written as `gen_ai.conversation.id`): its recorded
/// input holds only the handoff's result. What the provider kept is the receiver's context, so
/// nothing is dropped; and a continued response that is not in the file is never read as a loss.
#[test]
fn a_handoff_into_a_provider_held_conversation_drops_nothing() {
    let msgs = |v: serde_json::Value| v.to_string();
    let file = |continues: &str| {
        let spans = vec![
            genai_span(
                "a000000000000001",
                "",
                "invoke_agent triage",
                0,
                &[("gen_ai.operation.name", "invoke_agent".into()), ("gen_ai.agent.name", "triage".into())],
            ),
            genai_span(
                "a000000000000002",
                "a000000000000001",
                "chat gpt-4o",
                1,
                &[
                    ("gen_ai.operation.name", "chat".into()),
                    ("gen_ai.response.id", "resp_1".into()),
                    (
                        "gen_ai.input.messages",
                        msgs(serde_json::json!([
                    {"role": "user", "parts": [{"type": "text", "content": "Refund order 9, it arrived broken."}]}])),
                    ),
                    (
                        "gen_ai.output.messages",
                        msgs(serde_json::json!([
                    {"role": "assistant", "parts": [{"type": "tool_call", "id": "call_1", "name": "transfer_to_refunds", "arguments": {}}]}])),
                    ),
                ],
            ),
            genai_span(
                "a000000000000003",
                "",
                "invoke_agent refunds",
                10,
                &[("gen_ai.operation.name", "invoke_agent".into()), ("gen_ai.agent.name", "refunds".into())],
            ),
            genai_span(
                "a000000000000004",
                "a000000000000003",
                "chat gpt-4o",
                11,
                &[
                    ("gen_ai.operation.name", "chat".into()),
                    ("gen_ai.conversation.id", continues.into()),
                    ("gen_ai.response.id", "resp_2".into()),
                    (
                        "gen_ai.input.messages",
                        msgs(serde_json::json!([
                    {"role": "tool", "parts": [{"type": "tool_call_response", "id": "call_1", "response": "{\"assistant\": \"refunds\"}"}]}])),
                    ),
                    (
                        "gen_ai.output.messages",
                        msgs(serde_json::json!([
                    {"role": "assistant", "parts": [{"type": "text", "content": "Order 9 is refunded."}]}])),
                    ),
                ],
            ),
        ];
        serde_json::json!({"resourceSpans": [{"resource": {"attributes": []}, "scopeSpans": [{"spans": spans}]}]})
            .to_string()
    };
    for (continues, known) in [("resp_1", true), ("resp_0", false)] {
        let runs = import_bytes(file(continues).as_bytes(), None).unwrap();
        let t = &runs[0];
        let x = t.transfers.iter().find(|x| x.to == "refunds").expect("a handoff to refunds");
        assert!(x.dropped.is_empty(), "{continues}: the provider kept the earlier items: {:?}", x.dropped);
        let receiver: Vec<String> = x.receiver.iter().map(|id| t.item(*id).unwrap().text.clone()).collect();
        assert_eq!(
            receiver.iter().any(|r| r.contains("Refund order 9")),
            known,
            "{continues}: the user's message is in the receiver's context exactly when the file has it: {receiver:?}"
        );
        let notes = t.source.as_ref().unwrap()["notes"].to_string();
        assert!(notes.contains("conversation the provider keeps"), "{notes}");
    }
}

/// A system prompt that changes between one agent's calls (an ADK `{state}` template, a
/// pydantic-ai dynamic prompt): each step shows the instructions its own call received, never
/// one the model no longer saw.
#[test]
fn a_changed_system_prompt_replaces_the_old_one() {
    let call = |id: &str, t: u64, day: &str, user: &str| {
        genai_span(
            id,
            "b000000000000001",
            "chat gpt-4o",
            t,
            &[
                ("gen_ai.operation.name", "chat".into()),
                (
                    "gen_ai.system_instructions",
                    serde_json::json!([{"type": "text", "content": format!("Today is {day}.")}]).to_string(),
                ),
                (
                    "gen_ai.input.messages",
                    serde_json::json!([{"role": "user", "parts": [{"type": "text", "content": user}]}]).to_string(),
                ),
                (
                    "gen_ai.output.messages",
                    serde_json::json!([{"role": "assistant", "parts": [{"type": "text", "content": "Noted."}]}])
                        .to_string(),
                ),
            ],
        )
    };
    let spans = vec![
        genai_span(
            "b000000000000001",
            "",
            "invoke_agent planner",
            0,
            &[("gen_ai.operation.name", "invoke_agent".into()), ("gen_ai.agent.name", "planner".into())],
        ),
        call("b000000000000002", 1, "Monday", "Plan my week."),
        call("b000000000000003", 10, "Tuesday", "And tomorrow?"),
    ];
    let file = serde_json::json!({"resourceSpans": [{"scopeSpans": [{"spans": spans}]}]}).to_string();
    let t = &import_bytes(file.as_bytes(), None).unwrap()[0];
    let instructions = |n: usize| -> Vec<String> {
        let step = t.steps.iter().filter(|s| s.kind == StepKind::ModelCall).nth(n).unwrap();
        step.context
            .iter()
            .map(|id| t.item(*id).unwrap())
            .filter(|i| i.kind == baton::context::ItemKind::Instructions)
            .map(|i| i.text.clone())
            .collect()
    };
    assert_eq!(instructions(0), vec!["Today is Monday.".to_owned()]);
    assert_eq!(instructions(1), vec!["Today is Tuesday.".to_owned()]);
}

/// An application that puts its key in a span (a header copied into an attribute, a key inside
/// a recorded request): the run Baton keeps never holds it, and its notes say how many values
/// were replaced (issue #30).
#[test]
fn keys_inside_spans_are_redacted_at_import_with_a_count() {
    let key = "sk-proj-canary0123456789abcdefghij";
    let doc = serde_json::json!({"resourceSpans": [{"scopeSpans": [{"spans": [
        {"traceId": "00000000000000000000000000000001", "spanId": "0000000000000001", "name": "invoke_agent A",
         "startTimeUnixNano": "1000", "endTimeUnixNano": "9000",
         "attributes": [
            {"key": "gen_ai.operation.name", "value": {"stringValue": "invoke_agent"}},
            {"key": "gen_ai.agent.name", "value": {"stringValue": "A"}},
            {"key": "http.request.header.authorization", "value": {"stringValue": format!("Bearer {key}")}}]},
        {"traceId": "00000000000000000000000000000001", "spanId": "0000000000000002", "parentSpanId": "0000000000000001",
         "name": "chat", "startTimeUnixNano": "2000", "endTimeUnixNano": "3000",
         "attributes": [
            {"key": "gen_ai.operation.name", "value": {"stringValue": "chat"}},
            {"key": "gen_ai.input.messages", "value": {"stringValue": format!("[{{\"role\":\"user\",\"parts\":[{{\"type\":\"text\",\"content\":\"my key is {key}\"}}]}}]")}},
            {"key": "gen_ai.output.messages", "value": {"stringValue": "[{\"role\":\"assistant\",\"parts\":[{\"type\":\"text\",\"content\":\"noted\"}]}]"}}]}
    ]}]}]});
    let runs = import_bytes(serde_json::to_string(&doc).unwrap().as_bytes(), None).unwrap();
    let all = serde_json::to_string(&runs[0]).unwrap();
    assert!(!all.contains(key), "the key reached the run");
    assert!(all.contains("my key is [redacted]"), "the message is kept, the key replaced");
    let notes = runs[0].source.as_ref().unwrap()["notes"].to_string();
    assert!(notes.contains("2 span value(s) held a key"), "{notes}");
}

/// A file whose later record is bad imports nothing, and no run id is printed for a run that was
/// rolled back (ids are printed after the commit).
#[test]
fn no_run_id_is_printed_for_an_import_that_rolls_back() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("s.db");
    let session: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(root().join("tests/import/fixtures/adk_session.json")).unwrap())
            .unwrap();
    let file = dir.path().join("two.jsonl");
    std::fs::write(&file, format!("{session}\n{{\"events\": oops}}\n")).unwrap();
    let o = baton(&["trace", "import", file.to_str().unwrap(), "--db", db.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("line 2") && stderr(&o).contains("nothing was imported"), "{}", stderr(&o));
    assert!(!stdout(&o).contains("imported as run"), "{}", stdout(&o));
    let listed = baton(&["runs", "list", "--db", db.to_str().unwrap(), "--format", "json"]);
    assert_eq!(stdout(&listed).trim(), "[]", "{}", stderr(&listed));
}

/// A run whose file names no app (ADK's `/run` answer is only events) is called after the agent
/// it began with (the first event's author, as a person reads the file), not after a trace id.
#[test]
fn an_unnamed_run_is_called_after_its_first_agent() {
    let src = root().join("tests/import/fixtures/adk_api_run.json");
    let events: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&src).unwrap()).unwrap();
    let first = events[0]["author"].as_str().unwrap().to_owned();
    let mut names = vec![];
    baton::import::import_file(&src, None, None, None, &mut |t, _| {
        names.push(t.definition.as_ref().unwrap().name.clone());
        Ok(())
    })
    .unwrap();
    assert_eq!(names, vec![format!("{first} (imported)")]);
}

//! `baton collect`, the live OTLP endpoint, as a user runs it: the real Agents SDK instrumented by
//! OpenInference sends through the real OTLP/HTTP protobuf exporter (two senders at once), bad
//! requests get the statuses OTLP/HTTP defines and change nothing, a trace split over many
//! requests in reverse order is one run, a late span amends it, and Ctrl-C saves what is open.

use crate::common::*;
use baton::import::import_file;
use baton::store::Store;
use opentelemetry_proto::tonic::collector::trace::v1::{ExportTraceServiceRequest, ExportTraceServiceResponse};
use opentelemetry_proto::tonic::trace::v1::{ResourceSpans, ScopeSpans, Span};
use prost::Message;
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

struct Collector {
    child: Child,
    port: u16,
    grpc_port: u16,
    lines: mpsc::Receiver<String>,
    db: String,
    /// Taken by `stop` (or `kill`); while held, dropping the collector stops its process.
    _dir: Option<tempfile::TempDir>,
}

impl Collector {
    fn start() -> Collector {
        Collector::start_in(tempfile::tempdir().unwrap(), 300)
    }

    /// A collector on the store in `dir` (a restart reuses it), with a quiet period in ms.
    fn start_in(dir: tempfile::TempDir, quiet_ms: u64) -> Collector {
        let db = dir.path().join("captured.db").display().to_string();
        Collector::start_on(dir, &db, quiet_ms, &[])
    }

    /// A collector on the store `db` with more arguments (`dir`: its folder, kept while it runs).
    fn start_on(dir: tempfile::TempDir, db: &str, quiet_ms: u64, more: &[&str]) -> Collector {
        let db = db.to_owned();
        let quiet = quiet_ms.to_string();
        let mut child = Command::new(env!("CARGO_BIN_EXE_baton"))
            .args(["collect", "--http-port", "0", "--grpc-port", "0", "--quiet-ms", &quiet, "--db", &db])
            .args(more)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let (tx, lines) = mpsc::channel();
        // What it says on stderr ("not saved: …", status lines) joins the same lines.
        let err = child.stderr.take().unwrap();
        let tx_err = tx.clone();
        std::thread::spawn(move || {
            for l in BufReader::new(err).lines().map_while(Result::ok) {
                let _ = tx_err.send(l);
            }
        });
        let out = child.stdout.take().unwrap();
        std::thread::spawn(move || {
            for l in BufReader::new(out).lines().map_while(Result::ok) {
                let _ = tx.send(l);
            }
        });
        let port_in = |l: &str| -> u16 {
            l.split("127.0.0.1:").nth(1).and_then(|r| r.split(['/', ' ']).next()).unwrap().parse().unwrap()
        };
        // Its endpoint lines, among whatever it says on stderr first (a replay, say).
        let (mut http, mut grpc) = (None, None);
        while grpc.is_none() {
            let l = lines.recv_timeout(Duration::from_secs(30)).expect("collect prints its endpoints");
            if l.contains("OTLP/HTTP") {
                http = Some(port_in(&l));
            } else if l.contains("OTLP/gRPC") {
                grpc = Some(port_in(&l));
            }
        }
        let (port, grpc_port) = (http.expect("its HTTP endpoint comes first"), grpc.expect("set above"));
        Collector { child, port, grpc_port, lines, db, _dir: Some(dir) }
    }

    fn url(&self) -> String {
        format!("http://127.0.0.1:{}/v1/traces", self.port)
    }

    /// The next `n` lines that start with `prefix`, within 30 s.
    fn wait_for(&self, prefix: &str, n: usize) -> Vec<String> {
        let mut got = vec![];
        let deadline = std::time::Instant::now() + Duration::from_secs(30);
        while got.len() < n {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            let l = self.lines.recv_timeout(left).unwrap_or_else(|_| panic!("no '{prefix}' line; got {got:?}"));
            if l.starts_with(prefix) {
                got.push(l);
            }
        }
        got
    }

    /// Ctrl-C: it saves what it holds and exits 0. Returns the store (its folder with it).
    fn stop(mut self) -> ((String, tempfile::TempDir), Vec<String>) {
        let pid = self.child.id().to_string();
        assert!(Command::new("kill").args(["-INT", &pid]).status().unwrap().success());
        let status = self.child.wait().unwrap();
        assert!(status.success(), "collect exits 0 on Ctrl-C: {status}");
        let rest: Vec<String> = self.lines.try_iter().collect();
        ((self.db.clone(), self._dir.take().expect("stopped once")), rest)
    }

    /// SIGKILL: the process dies with nothing flushed. Returns the store's folder.
    fn kill(mut self) -> tempfile::TempDir {
        assert!(Command::new("kill").args(["-KILL", &self.child.id().to_string()]).status().unwrap().success());
        let _ = self.child.wait();
        self._dir.take().expect("killed once")
    }
}

/// A test that fails midway never leaves a collector running.
impl Drop for Collector {
    fn drop(&mut self) {
        if self._dir.is_some() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// POSTs an OTLP/JSON body to the collector and expects it acknowledged (200).
fn post_json(url: impl reqwest::IntoUrl, body: impl Into<reqwest::Body>) {
    rt().block_on(async {
        let r = reqwest::Client::new()
            .post(url)
            .header("content-type", "application/json")
            .body(body)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200, "{}", r.text().await.unwrap_or_default());
    })
}

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap()
}

/// Sender A uses the OTLP/HTTP protobuf exporter, sender B the OTLP/gRPC one, at the same time.
#[test]
fn the_agents_sdk_sends_live_runs_and_two_senders_do_not_mix() {
    let c = Collector::start();
    let send = |tag: &str| {
        let (endpoint, protocol) = match tag {
            "A" => (c.url(), "http"),
            _ => (format!("http://127.0.0.1:{}", c.grpc_port), "grpc"),
        };
        Command::new(python())
            .arg(root().join("tests/collect/send_agents_sdk.py"))
            .arg(endpoint)
            .arg(tag)
            .arg(protocol)
            .env_remove("OPENAI_API_KEY")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let (a, b) = (send("A"), send("B"));
    let sent: Vec<(String, Value)> = [("A", a), ("B", b)]
        .into_iter()
        .map(|(tag, p)| {
            let out = p.wait_with_output().unwrap();
            assert!(out.status.success(), "sender {tag}: {}", stderr(&out));
            (tag.to_owned(), serde_json::from_slice(&out.stdout).unwrap())
        })
        .collect();
    let saved = c.wait_for("saved run", 2);
    let ((db, _dir), _) = c.stop();
    rt().block_on(async {
        let store = Store::open(&db).await.unwrap();
        let runs = store.list_runs(None).await.unwrap();
        assert_eq!(runs.len(), 2, "{saved:?}");
        // Received live: the Runs home lists them as captured, apart from imported files.
        assert!(runs.iter().all(|r| r.origin == baton::store::RunOrigin::Captured));
        let q = baton::store::RunQuery { origin: Some(baton::store::RunOrigin::Captured), ..Default::default() };
        assert_eq!(store.search_runs(&q).await.unwrap().total, 2);
        for (tag, truth) in &sent {
            let (triage, billing) = (format!("Triage {tag}"), format!("Billing {tag}"));
            let trace = {
                let mut found = None;
                for r in &runs {
                    let t = store.load_trace(&r.id).await.unwrap();
                    let names: Vec<String> =
                        t.definition.as_ref().unwrap().agents.iter().map(|a| a.name.clone()).collect();
                    if names.contains(&triage) {
                        assert_eq!(names, vec![triage.clone(), billing.clone()], "one run per sender, not mixed");
                        found = Some(t);
                    }
                }
                found.unwrap_or_else(|| panic!("no run of sender {tag}"))
            };
            let def = trace.definition.as_ref().unwrap();
            let name = |id: &str| def.agent(id).unwrap().name.clone();
            let transfers: Vec<(String, String, String)> =
                trace.transfers.iter().map(|x| (x.kind.as_str().to_owned(), name(&x.from), name(&x.to))).collect();
            assert_eq!(transfers, vec![("handoff".to_owned(), triage.clone(), billing.clone())]);
            // What the SDK sent each model (recorded by the transport) is what the run shows.
            let calls: Vec<String> = trace
                .steps
                .iter()
                .filter(|s| s.kind == baton::trace::StepKind::ModelCall)
                .map(|s| name(&s.agent))
                .collect();
            let truth_calls: Vec<String> =
                truth["requests"].as_array().unwrap().iter().map(|r| r["agent"].as_str().unwrap().to_owned()).collect();
            assert_eq!(calls, truth_calls);
            assert_eq!(trace.outcome.final_output.as_deref(), truth["final_output"].as_str());
            assert_eq!(name(&trace.outcome.owner), truth["last_agent"].as_str().unwrap());
            let receiver: Vec<String> =
                trace.transfers[0].receiver.iter().map(|id| trace.item(*id).unwrap().text.clone()).collect();
            let billing_request = &truth["requests"][1]["messages"];
            for m in billing_request.as_array().unwrap().iter().filter(|m| m["role"] == "user") {
                let text = m["content"].as_str().unwrap();
                assert!(receiver.iter().any(|r| r == text), "Billing got '{text}'; the diff's receiver: {receiver:?}");
            }
        }
    });
}

/// Runs `tests/collect/<script> URL TAG` once per tag, all at once, against the collector's
/// OTLP/HTTP endpoint; each sender's printed ground truth, by tag.
fn send_all(c: &Collector, script: &str, tags: &[&str]) -> Vec<(String, Value)> {
    send_all_with(python(), c, script, tags)
}

/// `send_all` with another venv's python (a framework pinned apart).
fn send_all_with(py: &std::path::Path, c: &Collector, script: &str, tags: &[&str]) -> Vec<(String, Value)> {
    let children: Vec<_> = tags
        .iter()
        .map(|tag| {
            Command::new(py)
                .arg(root().join("tests/collect").join(script))
                .arg(c.url())
                .arg(tag)
                .env_remove("OPENAI_API_KEY")
                .env_remove("GOOGLE_API_KEY")
                .env_remove("GEMINI_API_KEY")
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    children
        .into_iter()
        .zip(tags)
        .map(|(p, tag)| {
            let out = p.wait_with_output().unwrap();
            assert!(out.status.success(), "{script} {tag}: {}", stderr(&out));
            let truth = serde_json::from_slice(&out.stdout)
                .unwrap_or_else(|e| panic!("{script} {tag} printed no ground truth ({e}): {}", stdout(&out)));
            (tag.to_string(), truth)
        })
        .collect()
}

/// JSON (a value, or JSON text) in one form, so `{"a": 1}` written by Python and `{"a":1}` by
/// Baton compare equal; text that is not JSON stays as it is.
fn canon(v: &Value) -> String {
    match v {
        Value::String(s) => serde_json::from_str::<Value>(s).map(|j| j.to_string()).unwrap_or_else(|_| s.clone()),
        other => other.to_string(),
    }
}

/// Tool-call arguments in one form; none, "" and {} are the same.
fn canon_args(v: &Value) -> String {
    match v {
        Value::Null => "{}".into(),
        Value::String(s) if s.trim().is_empty() => "{}".into(),
        other => canon(other),
    }
}

/// A recorded model request as comparable atoms: its system instruction first (when it has one),
/// then per message "role: texts" and each call / result.
fn request_atoms(req: &Value) -> Vec<String> {
    let mut out = vec![];
    if let Some(sys) = req["system"].as_str().filter(|s| !s.is_empty()) {
        out.push(format!("system: {sys}"));
    }
    for m in req["contents"].as_array().unwrap() {
        let role = m["role"].as_str().unwrap();
        let parts = m["parts"].as_array().unwrap();
        let texts: Vec<&str> =
            parts.iter().filter(|p| p["type"] == "text").filter_map(|p| p["text"].as_str()).collect();
        if !texts.is_empty() {
            out.push(format!("{role}: {}", texts.join("\n")));
        }
        for p in parts {
            match p["type"].as_str() {
                Some("tool_call") => out.push(format!(
                    "call {} {} {}",
                    p["name"].as_str().unwrap(),
                    p["id"].as_str().unwrap_or(""),
                    canon_args(&p["arguments"])
                )),
                Some("tool_result") => {
                    // A result given as content blocks (Strands' `[{"text": …}]`) is its text.
                    let result = match &p["result"] {
                        Value::Array(blocks) if blocks.iter().all(|b| b["text"].is_string()) => {
                            blocks.iter().filter_map(|b| b["text"].as_str()).collect::<Vec<_>>().join("\n")
                        }
                        other => canon(other),
                    };
                    out.push(format!("result {} {result}", p["id"].as_str().unwrap_or("")))
                }
                _ => {}
            }
        }
    }
    out
}

/// Items of a trace as the same atoms (instructions as "system", messages by role).
fn item_atoms(t: &baton::trace::Trace, ids: &[baton::context::ItemId]) -> Vec<String> {
    use baton::context::ItemKind;
    ids.iter()
        .map(|id| t.item(*id).unwrap())
        .filter_map(|i| match i.kind {
            ItemKind::Instructions => Some(format!("system: {}", i.text)),
            ItemKind::UserMessage => Some(format!("user: {}", i.text)),
            ItemKind::AssistantMessage => Some(format!("assistant: {}", i.text)),
            ItemKind::ToolCall | ItemKind::TransferCall => Some(format!(
                "call {} {} {}",
                i.name.as_deref().unwrap_or(""),
                i.call_id.as_deref().unwrap_or(""),
                canon_args(&Value::String(i.arguments.clone().unwrap_or_default()))
            )),
            ItemKind::ToolResult | ItemKind::TransferOutput => {
                Some(format!("result {} {}", i.call_id.as_deref().unwrap_or(""), canon(&Value::String(i.text.clone()))))
            }
            _ => None,
        })
        .collect()
}

/// Every sender has exactly one run, with `agents` (its tag's names, in order), and that run is
/// what the framework did: the transfers (kind, from, to) in order, one model-call step per
/// recorded request whose context is exactly that request, each transfer's receiver exactly
/// the receiver's first request after it, the final output and the last agent.
fn check_live_runs(c: Collector, sent: &[(String, Value)], agents: impl Fn(&str) -> Vec<String>) {
    let saved = c.wait_for("saved run", sent.len());
    let ((db, _dir), rest) = c.stop();
    rt().block_on(async {
        let store = Store::open(&db).await.unwrap();
        let runs = store.list_runs(None).await.unwrap();
        assert_eq!(runs.len(), sent.len(), "one run per sender: {saved:?} {rest:?}");
        for (tag, truth) in sent {
            let want_agents = agents(tag);
            let trace = {
                let mut found = None;
                for r in &runs {
                    let t = store.load_trace(&r.id).await.unwrap();
                    let names: Vec<String> =
                        t.definition.as_ref().unwrap().agents.iter().map(|a| a.name.clone()).collect();
                    if names.contains(&want_agents[0]) {
                        assert_eq!(names, want_agents, "sender {tag}: one run per sender, not mixed, not split");
                        found = Some(t);
                    }
                }
                found.unwrap_or_else(|| panic!("no run of sender {tag}: {saved:?} {rest:?}"))
            };
            let def = trace.definition.as_ref().unwrap();
            let name = |id: &str| def.agent(id).unwrap().name.clone();
            let transfers: Vec<(String, String, String)> =
                trace.transfers.iter().map(|x| (x.kind.as_str().to_owned(), name(&x.from), name(&x.to))).collect();
            let truth_transfers: Vec<(String, String, String)> = truth["transfers"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| {
                    let s = |k: &str| x[k].as_str().unwrap().to_owned();
                    (s("kind"), s("from"), s("to"))
                })
                .collect();
            assert_eq!(transfers, truth_transfers, "sender {tag}: transfers");
            // One model-call step per request the fake models recorded, in order, each showing
            // exactly what the framework sent that model.
            let requests = truth["requests"].as_array().unwrap();
            let calls: Vec<&baton::trace::Step> =
                trace.steps.iter().filter(|s| s.kind == baton::trace::StepKind::ModelCall).collect();
            let call_agents: Vec<String> = calls.iter().map(|s| name(&s.agent)).collect();
            let truth_agents: Vec<String> = requests.iter().map(|r| r["agent"].as_str().unwrap().to_owned()).collect();
            assert_eq!(call_agents, truth_agents, "sender {tag}: model calls");
            for (n, (step, req)) in calls.iter().zip(requests).enumerate() {
                assert_eq!(
                    item_atoms(&trace, &step.context),
                    request_atoms(req),
                    "sender {tag}: model call {n} ({}) shows what its model got",
                    call_agents[n]
                );
            }
            // Each receiver's input is its first request after the transfer.
            for (i, x) in trace.transfers.iter().enumerate() {
                let before = calls.iter().filter(|s| s.index < x.step).count();
                let to = name(&x.to);
                let first = requests[before..]
                    .iter()
                    .find(|r| r["agent"] == to.as_str())
                    .unwrap_or_else(|| panic!("sender {tag}: {to} made no model call after transfer {i}"));
                assert_eq!(
                    item_atoms(&trace, &x.receiver),
                    request_atoms(first),
                    "sender {tag}: transfer {i}'s receiver is what {to} got"
                );
            }
            // The answer as the model gave it (Strands' printed result adds a line break).
            assert_eq!(
                trace.outcome.final_output.as_deref().map(str::trim_end),
                truth["final_output"].as_str().map(str::trim_end),
                "sender {tag}: final output"
            );
            assert_eq!(name(&trace.outcome.owner), truth["last_agent"].as_str().unwrap(), "sender {tag}: owner");
        }
    });
}

/// google-adk's own telemetry (experimental GenAI semconv, content on the spans) from a real
/// Runner: an AgentTool call is a delegation, transfer_to_agent a handoff; two senders at once.
#[test]
fn adk_sends_live_runs_with_an_agent_tool_and_a_transfer() {
    let c = Collector::start();
    let sent = send_all(&c, "send_adk.py", &["A", "B"]);
    check_live_runs(c, &sent, |tag| {
        vec![format!("Coordinator_{tag}"), format!("Lookup_{tag}"), format!("Billing_{tag}")]
    });
}

/// pydantic-ai's own instrumentation: an agent run inside a tool is a delegation; the app's
/// next agent run with the first run's message history is a handoff, although it is a trace of
/// its own (the same gen_ai.conversation.id), so both traces are one run; two senders at once.
#[test]
fn pydantic_ai_sends_live_runs_with_a_delegation_and_a_handoff() {
    let c = Collector::start();
    let sent = send_all(&c, "send_pydantic_ai.py", &["A", "B"]);
    check_live_runs(c, &sent, |tag| vec![format!("support {tag}"), format!("billing {tag}"), format!("refunds {tag}")]);
}

/// LangGraph through OpenInference's LangChain instrumentation and the real OTLP/HTTP exporter:
/// a swarm handoff whose agents are the graph's own (never its router), two senders at once.
#[test]
fn langgraph_sends_live_swarm_runs() {
    let c = Collector::start();
    let py = crate::common::framework_python("langgraph");
    let sent = send_all_with(&py, &c, "send_langgraph.py", &["A", "B"]);
    check_live_runs(c, &sent, |tag| vec![format!("triage {tag}"), format!("billing {tag}")]);
}

/// Strands' own telemetry (messages as span events) through the real OTLP/HTTP exporter: a
/// swarm handoff by `handoff_to_agent`, two senders at once.
#[test]
fn strands_sends_live_swarm_runs() {
    let c = Collector::start();
    let py = crate::common::framework_python("strands");
    let sent = send_all_with(&py, &c, "send_strands.py", &["A", "B"]);
    check_live_runs(c, &sent, |tag| vec![format!("triage {tag}"), format!("billing {tag}")]);
}

/// Microsoft Agent Framework's own telemetry (HandoffBuilder) through the real OTLP/HTTP
/// exporter: the workflow's build trace is left out, the handoff is read from the model's
/// `handoff_to_<agent>` call; two senders at once.
#[test]
fn agent_framework_sends_live_handoff_runs() {
    let c = Collector::start();
    let py = crate::common::framework_python("agent-framework");
    let sent = send_all_with(&py, &c, "send_agent_framework.py", &["A", "B"]);
    check_live_runs(c, &sent, |tag| vec![format!("triage {tag}"), format!("billing {tag}")]);
}

/// One span of a protobuf request.
fn pb_span(trace: &[u8], id: &[u8], name: &str) -> Span {
    Span {
        trace_id: trace.to_vec(),
        span_id: id.to_vec(),
        name: name.into(),
        start_time_unix_nano: 1,
        end_time_unix_nano: 2,
        ..Default::default()
    }
}

fn pb_request(spans: Vec<Span>) -> Vec<u8> {
    ExportTraceServiceRequest {
        resource_spans: vec![ResourceSpans {
            scope_spans: vec![ScopeSpans { spans, ..Default::default() }],
            ..Default::default()
        }],
    }
    .encode_to_vec()
}

#[test]
fn bad_requests_get_the_otlp_status_and_store_nothing() {
    let c = Collector::start();
    let url = c.url();
    let statuses = rt().block_on(async {
        // No pooled connections: a 413 answered mid-upload closes its connection.
        let http = reqwest::Client::builder().pool_max_idle_per_host(0).build().unwrap();
        let post = |ct: &str, body: Vec<u8>| http.post(&url).header("content-type", ct.to_owned()).body(body);
        let mut out = vec![];
        let good = pb_request(vec![pb_span(&[1; 16], &[1; 8], "root")]);
        out.push(("text/plain", post("text/plain", good.clone()).send().await.unwrap().status().as_u16()));
        out.push((
            "truncated protobuf",
            post("application/x-protobuf", good[..good.len() / 2].to_vec()).send().await.unwrap().status().as_u16(),
        ));
        out.push((
            "a browser Origin",
            post("application/x-protobuf", good.clone())
                .header("origin", "https://example.com")
                .send()
                .await
                .unwrap()
                .status()
                .as_u16(),
        ));
        out.push((
            "a foreign Host",
            post("application/x-protobuf", good.clone())
                .header("host", "attacker.example:4318")
                .send()
                .await
                .unwrap()
                .status()
                .as_u16(),
        ));
        out.push((
            "a 17 MB body",
            post("application/x-protobuf", vec![0u8; 17 << 20])
                .send()
                .await
                .map(|r| r.status().as_u16())
                .unwrap_or(413),
        ));
        let bomb = {
            use std::io::Write;
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            let zeros = vec![0u8; 1 << 20];
            for _ in 0..100 {
                e.write_all(&zeros).unwrap();
            }
            e.finish().unwrap()
        };
        out.push((
            "a gzip bomb (100 MB of zeros)",
            post("application/x-protobuf", bomb)
                .header("content-encoding", "gzip")
                .send()
                .await
                .unwrap()
                .status()
                .as_u16(),
        ));
        // Spans with no trace id are rejected, the request answered with partial success.
        let r =
            post("application/x-protobuf", pb_request(vec![pb_span(&[], &[2; 8], "a"), pb_span(&[], &[3; 8], "b")]))
                .send()
                .await
                .unwrap();
        out.push(("spans without a trace id", r.status().as_u16()));
        let answer = ExportTraceServiceResponse::decode(r.bytes().await.unwrap()).unwrap();
        assert_eq!(answer.partial_success.map(|p| p.rejected_spans), Some(2));
        out
    });
    assert_eq!(
        statuses,
        vec![
            ("text/plain", 415),
            ("truncated protobuf", 400),
            ("a browser Origin", 403),
            ("a foreign Host", 403),
            ("a 17 MB body", 413),
            ("a gzip bomb (100 MB of zeros)", 413),
            ("spans without a trace id", 200),
        ]
    );
    let ((db, _dir), _) = c.stop();
    rt().block_on(async {
        let store = Store::open(&db).await.unwrap();
        assert!(store.list_runs(None).await.unwrap().is_empty(), "nothing was stored");
    });
}

/// The spans of one OTLP/JSON fixture, one request per span, sent in reverse order (children
/// first would be the exporters' order; root first is what a trace-viewer export gives): the
/// run is the one a file import of the same spans gives; a late span amends it, same id.
#[test]
fn a_trace_split_over_many_requests_in_any_order_is_one_run_and_late_spans_amend_it() {
    let fixture = root().join("tests/import/fixtures/otlp_genai.json");
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&fixture).unwrap()).unwrap();
    let mut file_runs = vec![];
    import_file(&fixture, None, None, None, &mut |t, _| {
        file_runs.push(t);
        Ok(())
    })
    .unwrap();
    let spans: Vec<Value> = doc["resourceSpans"][0]["scopeSpans"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["spans"].as_array().unwrap().clone())
        .collect();
    assert!(spans.len() > 3);
    let c = Collector::start();
    let url = c.url();
    let one = |sp: &Value| serde_json::json!({"resourceSpans": [{"scopeSpans": [{"spans": [sp]}]}]}).to_string();
    rt().block_on(async {
        let http = reqwest::Client::new();
        for sp in spans.iter().rev() {
            let r = http.post(&url).header("content-type", "application/json").body(one(sp)).send().await.unwrap();
            assert_eq!(r.status(), 200);
        }
    });
    let saved = c.wait_for("saved run", 1);
    let run_id = saved[0].split_whitespace().nth(2).unwrap().to_owned();
    // A late span: a copy of a child span with a new id.
    let mut late = spans.iter().find(|s| !s["parentSpanId"].as_str().unwrap_or("").is_empty()).unwrap().clone();
    late["spanId"] = Value::String("00000000000000ff".into());
    post_json(&url, one(&late));
    let amended = c.wait_for("amended run", 1);
    assert!(amended[0].contains(&run_id), "{amended:?} amends {run_id}");
    let ((db, _dir), _) = c.stop();
    rt().block_on(async {
        let store = Store::open(&db).await.unwrap();
        let runs = store.list_runs(None).await.unwrap();
        assert_eq!(runs.len(), 1, "a late span amends its run, never duplicates it");
        assert_eq!(runs[0].id, run_id);
        let t = store.load_trace(&run_id).await.unwrap();
        let f = &file_runs[0];
        let shape = |t: &baton::trace::Trace| -> Vec<(String, String, String)> {
            t.transfers.iter().map(|x| (x.kind.as_str().to_owned(), x.from.clone(), x.to.clone())).collect()
        };
        assert_eq!(shape(&t), shape(f), "the same transfers as the file import");
        assert_eq!(t.outcome.final_output, f.outcome.final_output);
    });
}

/// Ctrl-C right after spans arrive: the trace is saved before the process ends.
#[test]
fn ctrl_c_saves_the_traces_still_open() {
    let c = Collector::start();
    let url = c.url();
    let fixture = std::fs::read(root().join("tests/import/fixtures/otlp_genai.json")).unwrap();
    post_json(&url, fixture);
    let ((db, _dir), rest) = c.stop();
    assert!(rest.iter().any(|l| l.starts_with("saved run")), "{rest:?}");
    rt().block_on(async {
        assert_eq!(Store::open(&db).await.unwrap().list_runs(None).await.unwrap().len(), 1);
    });
}

/// Capture through the command layer (what the app's Capture switch and `baton serve` call): it
/// starts an endpoint, a trace sent to it becomes a run in this session's store, the status
/// counts it, and stopping answers `on: false`.
#[test]
fn capture_commands_start_an_endpoint_whose_traces_become_runs() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("s.db").display().to_string();
    let api = baton::api::Api::new(baton::api::FileAccess::Any, db);
    rt().block_on(async {
        let status = api.dispatch("capture_start", serde_json::json!({"port": 0})).await.unwrap();
        assert_eq!(status["on"], true);
        let endpoint = status["endpoint"].as_str().unwrap().to_owned();
        assert!(endpoint.starts_with("http://127.0.0.1:") && endpoint.ends_with("/v1/traces"), "{endpoint}");
        // Starting again answers how it runs.
        assert_eq!(api.dispatch("capture_start", serde_json::json!({})).await.unwrap()["endpoint"], endpoint.as_str());
        let fixture = std::fs::read(root().join("tests/import/fixtures/otlp_genai.json")).unwrap();
        let r = reqwest::Client::new()
            .post(&endpoint)
            .header("content-type", "application/json")
            .body(fixture)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200);
        let mut status = Value::Null;
        for _ in 0..100 {
            status = api.dispatch("capture_status", serde_json::json!({})).await.unwrap();
            if status["runs"] == 1 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert_eq!(status["runs"], 1, "{status}");
        let run = status["last_run"].as_str().unwrap().to_owned();
        let runs = api.dispatch("list_runs", serde_json::json!({})).await.unwrap();
        assert_eq!(runs[0]["id"], run.as_str());
        assert_eq!(status["refused"], serde_json::json!([]));
        // A trace with nothing Baton reads is not saved, and the status says why (the window
        // shows it), instead of vanishing behind "0 spans waiting".
        let bare = serde_json::json!({"resourceSpans": [{"scopeSpans": [{"spans": [
            {"traceId": "000000000000000000000000000000bb", "spanId": "00000000000000b1", "name": "root",
             "startTimeUnixNano": "1000", "endTimeUnixNano": "2000"}]}]}]});
        let r = reqwest::Client::new()
            .post(&endpoint)
            .header("content-type", "application/json")
            .body(bare.to_string())
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200);
        for _ in 0..100 {
            status = api.dispatch("capture_status", serde_json::json!({})).await.unwrap();
            if status["refused"].as_array().is_some_and(|a| !a.is_empty()) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let why = status["refused"][0].as_str().unwrap_or_default();
        assert!(why.contains("000000000000000000000000000000bb") && why.contains("not saved"), "{status}");
        let stopped = api.dispatch("capture_stop", serde_json::json!({})).await.unwrap();
        assert_eq!((stopped["on"].clone(), stopped["runs"].clone()), (Value::Bool(false), Value::from(1)));
        assert_eq!(api.dispatch("capture_status", serde_json::json!({})).await.unwrap()["on"], false);
    });
}

/// OTLP/gRPC through tonic's generated client: a request with spans lacking ids gets partial
/// success, and a call carrying a browser `Origin` is refused with PERMISSION_DENIED.
#[test]
fn grpc_export_answers_like_the_spec() {
    use opentelemetry_proto::tonic::collector::trace::v1::trace_service_client::TraceServiceClient;
    let c = Collector::start();
    let target = format!("http://127.0.0.1:{}", c.grpc_port);
    rt().block_on(async {
        let mut client = TraceServiceClient::connect(target.clone()).await.unwrap();
        let req = ExportTraceServiceRequest::decode(
            pb_request(vec![pb_span(&[], &[2; 8], "a"), pb_span(&[], &[3; 8], "b")]).as_slice(),
        )
        .unwrap();
        let answer = client.export(req.clone()).await.unwrap().into_inner();
        assert_eq!(answer.partial_success.map(|p| p.rejected_spans), Some(2));
        let mut from_page = tonic::Request::new(req);
        from_page.metadata_mut().insert("origin", "https://example.com".parse().unwrap());
        let refused = client.export(from_page).await.unwrap_err();
        assert_eq!(refused.code(), tonic::Code::PermissionDenied, "{refused}");
    });
    let _ = c.stop();
}

/// SIGKILL: every span the collector acknowledged is in the store; the restarted collector saves
/// the trace at once, marked interrupted, as the same run a file import of the spans gives.
#[test]
fn acknowledged_spans_survive_a_sigkill() {
    // A long quiet period: the trace is still open when the collector is killed.
    let c = Collector::start_in(tempfile::tempdir().unwrap(), 600_000);
    let fixture_path = root().join("tests/import/fixtures/otlp_genai.json");
    let fixture = std::fs::read(&fixture_path).unwrap();
    // Compressed, as an exporter with OTEL_EXPORTER_OTLP_COMPRESSION=gzip sends it: the inbox
    // keeps it compressed and the replay inflates it.
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut gz, &fixture).unwrap();
    let body = gz.finish().unwrap();
    rt().block_on(async {
        let r = reqwest::Client::new()
            .post(c.url())
            .header("content-type", "application/json")
            .header("content-encoding", "gzip")
            .body(body)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200, "acknowledged");
    });
    let dir = c.kill();
    let c = Collector::start_in(dir, 300);
    let saved = c.wait_for("saved run", 1);
    let ((db, _dir), _) = c.stop();
    let mut file_runs = vec![];
    import_file(&fixture_path, None, None, None, &mut |t, _| {
        file_runs.push(t);
        Ok(())
    })
    .unwrap();
    rt().block_on(async {
        let store = Store::open(&db).await.unwrap();
        let runs = store.list_runs(None).await.unwrap();
        assert_eq!(runs.len(), 1, "{saved:?}");
        let t = store.load_trace(&runs[0].id).await.unwrap();
        assert_eq!(t.outcome.status, baton::trace::OutcomeStatus::Interrupted, "{:?}", t.outcome);
        let shape = |t: &baton::trace::Trace| -> Vec<(String, String, String)> {
            t.transfers.iter().map(|x| (x.kind.as_str().to_owned(), x.from.clone(), x.to.clone())).collect()
        };
        assert_eq!(shape(&t), shape(&file_runs[0]));
        assert_eq!(t.steps.len(), file_runs[0].steps.len());
    });
    // Saved runs leave the inbox: another restart replays nothing.
    let c = Collector::start_in(_dir, 300);
    std::thread::sleep(Duration::from_millis(1500));
    let ((db, _dir), rest) = c.stop();
    assert!(!rest.iter().any(|l| l.starts_with("saved run")), "{rest:?}");
    rt().block_on(async { assert_eq!(Store::open(&db).await.unwrap().list_runs(None).await.unwrap().len(), 1) });
}

/// A trace whose root has not ended is shown as a running run from its first spans on (the runs
/// list has it, status running, with the steps so far), grows as more spans arrive, then the same
/// run is saved complete once its root is in and it has been quiet.
#[test]
fn a_running_trace_is_shown_from_its_first_spans_then_saved_as_the_same_run() {
    let c = Collector::start_in(tempfile::tempdir().unwrap(), 1500);
    let url = c.url();
    let doc: Value =
        serde_json::from_str(&std::fs::read_to_string(root().join("tests/import/fixtures/otlp_genai.json")).unwrap())
            .unwrap();
    let spans: Vec<Value> = doc["resourceSpans"][0]["scopeSpans"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["spans"].as_array().unwrap().clone())
        .collect();
    let (root_span, children): (Vec<Value>, Vec<Value>) =
        spans.into_iter().partition(|s| s["parentSpanId"].as_str().unwrap_or("").is_empty());
    assert!(children.len() >= 4, "the fixture has spans to send in two halves");
    let many = |sp: &[Value]| serde_json::json!({"resourceSpans": [{"scopeSpans": [{"spans": sp}]}]}).to_string();
    let post = |body: String| post_json(&url, body);
    let db = c.db.clone();
    let steps = |id: &str| {
        rt().block_on(async {
            let store = Store::open(&db).await.unwrap();
            let s = store.run_summary(id).await.unwrap();
            assert_eq!(s.outcome.status, baton::trace::OutcomeStatus::Running, "{s:?}");
            s.steps
        })
    };
    // The first half of the children in one request, the root not yet: the run is there.
    let (first, rest) = children.split_at(children.len() / 2);
    post(many(first));
    let shown = c.wait_for("capturing run", 1);
    let id = shown[0].split_whitespace().nth(2).unwrap().to_owned();
    let before = steps(&id);
    assert!(before > 0, "the steps so far are there");
    // The rest: the same run, with more steps.
    post(many(rest));
    let again = c.wait_for("capturing run", 1);
    assert!(again[0].contains(&id), "{again:?} is the run shown: {id}");
    let after = steps(&id);
    assert!(after > before, "{after} steps after the second half, {before} before");
    post(many(&root_span[..1]));
    let saved = c.wait_for("saved run", 1);
    assert!(saved[0].contains(&id), "{saved:?} is the run shown: {id}");
    let ((db, _dir), _) = c.stop();
    rt().block_on(async {
        let store = Store::open(&db).await.unwrap();
        let runs = store.list_runs(None).await.unwrap();
        assert_eq!(runs.len(), 1);
        assert_eq!(runs[0].outcome.status, baton::trace::OutcomeStatus::Completed);
    });
}

/// An exporter that sends a trace again after a restart (a retry of a request whose answer was
/// lost): the run is replaced, never duplicated, and the collector keeps saving.
#[test]
fn a_trace_sent_again_after_a_restart_replaces_its_run() {
    let send = |c: &Collector| {
        let fixture = std::fs::read(root().join("tests/import/fixtures/otlp_genai.json")).unwrap();
        post_json(c.url(), fixture);
    };
    let c = Collector::start();
    send(&c);
    let first = c.wait_for("saved run", 1);
    let ((_, dir), _) = c.stop();
    let c = Collector::start_in(dir, 300);
    send(&c);
    let again = c.wait_for("saved run", 1);
    assert_eq!(first[0].split_whitespace().nth(2), again[0].split_whitespace().nth(2), "the same run");
    let ((db, _dir), _) = c.stop();
    rt().block_on(async { assert_eq!(Store::open(&db).await.unwrap().list_runs(None).await.unwrap().len(), 1) });
}

/// pydantic-ai's programmatic hand-off is a second trace of the same conversation: sent after the
/// first trace's run was saved, it joins that run (one run, both transfers, the same id) instead
/// of becoming a run of its own. Ground truth: the fixture's expected file, written from what
/// pydantic-ai's models received.
#[test]
fn a_later_trace_of_a_saved_conversation_joins_its_run() {
    let c = Collector::start();
    let doc: Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("tests/import/fixtures/otlp_pydantic_ai.json")).unwrap(),
    )
    .unwrap();
    let expected: Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("tests/import/fixtures/otlp_pydantic_ai.expected.json")).unwrap(),
    )
    .unwrap();
    let spans: Vec<Value> = doc["resourceSpans"][0]["scopeSpans"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["spans"].as_array().unwrap().clone())
        .collect();
    let mut traces: Vec<String> = spans.iter().map(|s| s["traceId"].as_str().unwrap().to_owned()).collect();
    traces.dedup();
    assert_eq!(traces.len(), 2, "the fixture holds the two traces of one conversation");
    let post = |trace: &str| {
        let part: Vec<&Value> = spans.iter().filter(|s| s["traceId"] == trace).collect();
        let body = serde_json::json!({"resourceSpans": [{"resource": doc["resourceSpans"][0]["resource"],
            "scopeSpans": [{"scope": doc["resourceSpans"][0]["scopeSpans"][0]["scope"], "spans": part}]}]});
        post_json(c.url(), body.to_string())
    };
    post(&traces[0]);
    let first = c.wait_for("saved run", 1);
    let id = first[0].split_whitespace().nth(2).unwrap().to_owned();
    post(&traces[1]);
    let second = c.wait_for("amended run", 1);
    assert!(second[0].contains(&id), "the second trace amends run {id}: {second:?}");
    let ((db, _dir), _) = c.stop();
    rt().block_on(async {
        let store = Store::open(&db).await.unwrap();
        let runs = store.list_runs(None).await.unwrap();
        assert_eq!(runs.len(), 1, "one run for the conversation");
        let t = store.load_trace(&runs[0].id).await.unwrap();
        let def = t.definition.as_ref().unwrap();
        let name = |id: &str| def.agent(id).unwrap().name.clone();
        let got: Vec<(String, String, String)> =
            t.transfers.iter().map(|x| (x.kind.as_str().to_owned(), name(&x.from), name(&x.to))).collect();
        let want: Vec<(String, String, String)> = expected["transfers"]
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
        assert_eq!(got, want);
    });
}

/// Everything acknowledged ends saved or refused, and leaves the inbox (issue #30): a trace of
/// spans that carry no attributes is refused with its reason, an empty request never enters, and
/// a restart replays nothing.
#[test]
fn refused_traces_and_empty_requests_leave_the_capture_inbox() {
    let c = Collector::start_in(tempfile::tempdir().unwrap(), 300);
    let bare = serde_json::json!({"resourceSpans": [{"scopeSpans": [{"spans": [
        {"traceId": "000000000000000000000000000000aa", "spanId": "00000000000000a1", "name": "root",
         "startTimeUnixNano": "1000", "endTimeUnixNano": "2000"}]}]}]});
    rt().block_on(async {
        let http = reqwest::Client::new();
        for body in [bare.to_string(), "{\"resourceSpans\": []}".to_string()] {
            let r = http.post(c.url()).header("content-type", "application/json").body(body).send().await.unwrap();
            assert_eq!(r.status(), 200, "acknowledged");
        }
    });
    std::thread::sleep(Duration::from_millis(1500));
    let ((db, dir), _) = c.stop();
    let inbox = |db: &str| {
        rt().block_on(async {
            let pool = sqlx::SqlitePool::connect(&format!("sqlite://{db}")).await.unwrap();
            let n: i64 = sqlx::query_scalar("SELECT count(*) FROM capture_inbox").fetch_one(&pool).await.unwrap();
            pool.close().await;
            n
        })
    };
    assert_eq!(inbox(&db), 0, "the refused trace and the empty request left the inbox");
    let c = Collector::start_in(dir, 300);
    std::thread::sleep(Duration::from_millis(800));
    let ((db, _dir), rest) = c.stop();
    assert!(!rest.iter().any(|l| l.contains("replaying")), "{rest:?}");
    assert_eq!(inbox(&db), 0);
}

/// A trace whose root names a parent that never arrives (an upstream service's span) is saved
/// once it has been quiet long enough, with a note, instead of showing as running until capture
/// stops (issue #31).
#[test]
fn a_trace_whose_root_never_arrives_is_saved_after_a_longer_quiet() {
    let c = Collector::start_in(tempfile::tempdir().unwrap(), 200);
    let span = |id: &str, parent: &str, name: &str, attrs: Value| {
        serde_json::json!({"traceId": "000000000000000000000000000000cc", "spanId": id, "parentSpanId": parent,
            "name": name, "startTimeUnixNano": "1000", "endTimeUnixNano": "2000", "attributes": attrs})
    };
    let kv = |k: &str, v: &str| serde_json::json!({"key": k, "value": {"stringValue": v}});
    let doc = serde_json::json!({"resourceSpans": [{"scopeSpans": [{"spans": [
        span("00000000000000c1", "00000000000000ff", "invoke_agent A",
             serde_json::json!([kv("gen_ai.operation.name", "invoke_agent"), kv("gen_ai.agent.name", "A")])),
        span("00000000000000c2", "00000000000000c1", "chat",
             serde_json::json!([kv("gen_ai.operation.name", "chat"),
                 kv("gen_ai.output.messages", "[{\"role\":\"assistant\",\"parts\":[{\"type\":\"text\",\"content\":\"done\"}]}]")]))
    ]}]}]});
    post_json(c.url(), doc.to_string());
    let saved = c.wait_for("saved run", 1);
    let ((db, _dir), _) = c.stop();
    rt().block_on(async {
        let store = Store::open(&db).await.unwrap();
        let runs = store.list_runs(None).await.unwrap();
        assert_eq!(runs.len(), 1, "{saved:?}");
        let t = store.load_trace(&runs[0].id).await.unwrap();
        assert_ne!(t.outcome.status, baton::trace::OutcomeStatus::Running);
        assert!(t.source.as_ref().unwrap()["notes"].to_string().contains("no root span arrived"));
        // Listed by when it reached the collector, not by its spans' clock (1970 here).
        let at = t.source.as_ref().unwrap()["captured_at"].as_str().expect("captured_at").to_owned();
        let at = humantime::parse_rfc3339(&at).unwrap();
        let age = std::time::SystemTime::now().duration_since(at).unwrap();
        assert!(age < Duration::from_secs(120), "captured {age:?} ago");
        assert!(t.started_at.starts_with("1970"), "{}", t.started_at);
    });
}

/// A collector bounded to 100 spans and 2 MB: a saved trace kept to amend its run gives way to
/// new traffic; a second trace while one is pending gets 503 with Retry-After, and the same
/// request is taken once that trace is saved (the 503 clears); a request larger than the bound
/// alone gets 413; a 3 MB attribute is kept cut to 1 MB, so its span fits.
#[test]
fn collect_holds_what_its_bounds_allow_and_lets_saved_traces_go() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("captured.db").display().to_string();
    let mut child = Command::new(env!("CARGO_BIN_EXE_baton"))
        .args(["collect", "--http-port", "0", "--grpc-port", "0", "--quiet-ms", "200", "--max-spans", "100"])
        .args(["--max-mb", "2", "--db", &db])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines().map_while(Result::ok);
    let first = lines.next().unwrap();
    let port: u16 = first.split("127.0.0.1:").nth(1).unwrap().split('/').next().unwrap().parse().unwrap();
    let (tx, saved) = mpsc::channel();
    std::thread::spawn(move || {
        for l in lines.filter(|l| l.starts_with("saved run")) {
            let _ = tx.send(l);
        }
    });
    let kv = |k: &str, v: &str| serde_json::json!({"key": k, "value": {"stringValue": v}});
    // A trace: an agent span and `n - 1` model calls under it; `extra` on the agent span.
    let trace = |t: u8, n: usize, extra: Vec<Value>| {
        let tid = format!("{:032x}", t);
        let mut attrs = vec![kv("gen_ai.operation.name", "invoke_agent"), kv("gen_ai.agent.name", "A")];
        attrs.extend(extra);
        let mut spans =
            vec![serde_json::json!({"traceId": tid, "spanId": format!("{:016x}", 1), "name": "invoke_agent A",
            "startTimeUnixNano": "1000", "endTimeUnixNano": "9000", "attributes": attrs})];
        for i in 1..n {
            spans.push(serde_json::json!({"traceId": tid, "spanId": format!("{:016x}", i + 1),
                "parentSpanId": format!("{:016x}", 1), "name": "chat", "startTimeUnixNano": (1000 + i).to_string(),
                "endTimeUnixNano": (1001 + i).to_string(), "attributes": [kv("gen_ai.operation.name", "chat"),
                kv("gen_ai.output.messages", "[{\"role\":\"assistant\",\"parts\":[{\"type\":\"text\",\"content\":\"ok\"}]}]")]}));
        }
        serde_json::json!({"resourceSpans": [{"scopeSpans": [{"spans": spans}]}]}).to_string()
    };
    let url = format!("http://127.0.0.1:{port}/v1/traces");
    let post = |body: String| {
        let url = url.clone();
        rt().block_on(async move {
            let r = reqwest::Client::new()
                .post(url)
                .header("content-type", "application/json")
                .body(body)
                .send()
                .await
                .unwrap();
            let retry = r.headers().get("retry-after").map(|v| v.to_str().unwrap().to_owned());
            (r.status().as_u16(), retry, r.text().await.unwrap())
        })
    };
    let wait_saved = || saved.recv_timeout(Duration::from_secs(30)).expect("a saved run");
    assert_eq!(post(trace(1, 60, vec![])).0, 200);
    wait_saved();
    // The saved trace's 60 spans give way to a new trace of 60.
    assert_eq!(post(trace(2, 60, vec![])).0, 200);
    // While that one is pending, 60 more do not fit: retry later.
    let (status, retry, text) = post(trace(3, 60, vec![]));
    assert_eq!((status, retry.as_deref()), (503, Some("2")), "{text}");
    wait_saved();
    // Saved: the same request is taken now.
    assert_eq!(post(trace(3, 60, vec![])).0, 200);
    wait_saved();
    // Larger than the bound by itself: 413, naming the limits.
    let (status, _, text) = post(trace(4, 101, vec![]));
    assert_eq!(status, 413, "{text}");
    assert!(text.contains("--max-spans"), "{text}");
    // 3 MB in one attribute is kept cut to 1 MB: the span fits in 2 MB.
    let (status, _, text) = post(trace(5, 2, vec![kv("app.blob", &"x".repeat(3 << 20))]));
    assert_eq!(status, 200, "{text}");
    wait_saved();
    let _ = Command::new("kill").args(["-INT", &child.id().to_string()]).status();
    assert!(child.wait().unwrap().success());
    rt().block_on(async {
        let store = Store::open(&db).await.unwrap();
        assert_eq!(store.list_runs(None).await.unwrap().len(), 4);
    });
}

/// OTLP JSON spans of one trace: an agent's span with `calls` chat calls under it, or (nested)
/// agent and chat spans each inside the one before; `tid` is two hex digits the trace id repeats,
/// `t0` when it starts (ns).
fn json_spans(tid: &str, calls: usize, nested: bool, t0: u64) -> Vec<Value> {
    let sid = |k: usize| format!("{:016x}", k + 1);
    let kv = |k: &str, v: &str| serde_json::json!({"key": k, "value": {"stringValue": v}});
    (0..=calls)
        .map(|k| {
            let agent = k == 0 || (nested && k % 2 == 0);
            let attrs = if agent {
                serde_json::json!([kv("gen_ai.operation.name", "invoke_agent"), kv("gen_ai.agent.name", "A")])
            } else {
                let out = serde_json::json!([{"role": "assistant", "parts": [{"type": "text", "content": format!("answer {k}")}]}]);
                serde_json::json!([kv("gen_ai.operation.name", "chat"), kv("gen_ai.output.messages", &out.to_string())])
            };
            let parent = match k {
                0 => String::new(),
                _ if nested => sid(k - 1),
                _ => sid(0),
            };
            let (start, end) = (t0 + 10 * k as u64, if k == 0 { t0 + 10 * calls as u64 + 5 } else { t0 + 10 * k as u64 + 5 });
            serde_json::json!({"traceId": tid.repeat(16), "spanId": sid(k), "parentSpanId": parent,
                "name": if agent { "invoke_agent A" } else { "chat" },
                "startTimeUnixNano": start.to_string(), "endTimeUnixNano": end.to_string(), "attributes": attrs})
        })
        .collect()
}

/// Issue #30: a large trace is saved in a lane of its own, so an ordinary trace sent after it
/// (and starting later) is saved first instead of waiting behind it; a trace whose spans nest
/// past 1,000 levels is refused (not saved), and neither stops the ordinary one.
#[test]
fn a_large_trace_does_not_delay_an_ordinary_one_and_a_chain_too_deep_is_refused() {
    let c = Collector::start_in(tempfile::tempdir().unwrap(), 200);
    let post = |spans: Vec<Value>| {
        let doc = serde_json::json!({"resourceSpans": [{"scopeSpans": [{"spans": spans}]}]});
        post_json(c.url(), doc.to_string())
    };
    post(json_spans("a1", 5_000, false, 1_000));
    post(json_spans("d4", 1_001, true, 2_000_000));
    post(json_spans("0b", 2, false, 5_000_000));
    let saved = c.wait_for("saved run", 2);
    let ((db, _dir), _) = c.stop();
    let run_of = |tid: &str| {
        let h = tid.repeat(16);
        format!("{}-{}-{}-{}-{}", &h[..8], &h[8..12], &h[12..16], &h[16..20], &h[20..])
    };
    assert!(saved[0].contains(&run_of("0b")), "the ordinary trace first: {saved:?}");
    assert!(saved[1].contains(&run_of("a1")), "{saved:?}");
    rt().block_on(async {
        let store = Store::open(&db).await.unwrap();
        let mut ids: Vec<String> = store.list_runs(None).await.unwrap().into_iter().map(|r| r.id).collect();
        ids.sort();
        assert_eq!(ids, vec![run_of("0b"), run_of("a1")], "the 1,001-deep chain is not saved");
        let large = store.load_trace(&run_of("a1")).await.unwrap();
        let calls = large.steps.iter().filter(|s| s.kind == baton::trace::StepKind::ModelCall).count();
        assert_eq!(calls, 5_000, "every chat span sent is a model call");
    });
}

/// One span per request, each with its resource and scope, as a batching exporter may send them.
fn one_span_requests(doc: &Value) -> Vec<String> {
    let mut out = vec![];
    for rs in doc["resourceSpans"].as_array().unwrap() {
        for ss in rs["scopeSpans"].as_array().unwrap() {
            for sp in ss["spans"].as_array().unwrap() {
                let req = serde_json::json!({"resourceSpans": [{"resource": rs["resource"], "scopeSpans": [{"scope": ss["scope"], "spans": [sp]}]}]});
                out.push(req.to_string());
            }
        }
    }
    out
}

/// A team's collectors (issue #34): three `baton collect --shared` instances on one PostgreSQL,
/// with no trace affinity: every span of three frameworks' traces goes to the next instance in
/// turn, and one instance is killed (SIGKILL) right after acknowledging its share. Each trace
/// becomes one run, saved once, with every span, whichever instance got them: the same transfers
/// and steps as importing the whole file.
#[test]
fn three_shared_collectors_on_one_postgres_save_each_trace_once_and_lose_nothing() {
    let db = pg_database();
    let fixtures = ["otlp_genai.json", "otlp_langgraph_swarm.json", "otlp_strands_swarm.json"];
    let start = || Collector::start_on(tempfile::tempdir().unwrap(), &db, 1500, &["--shared"]);
    let collectors = [start(), start(), start()];
    let mut requests: Vec<Vec<String>> = fixtures
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(root().join("tests/import/fixtures").join(f)).unwrap();
            one_span_requests(&serde_json::from_str(&text).unwrap())
        })
        .collect();
    // Interleaved: a span of each trace in turn, each to the next instance.
    let mut n = 0;
    while requests.iter().any(|r| !r.is_empty()) {
        for r in requests.iter_mut().filter(|r| !r.is_empty()) {
            post_json(collectors[n % 3].url(), r.remove(0));
            n += 1;
        }
    }
    let [a, b, killed] = collectors;
    drop(killed.kill());
    let mut saved: Vec<String> = vec![];
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while saved.len() < fixtures.len() && std::time::Instant::now() < deadline {
        for c in [&a, &b] {
            saved.extend(c.lines.try_iter().filter(|l| l.starts_with("saved run")));
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    // A moment more: a second save of any trace would show now.
    std::thread::sleep(Duration::from_secs(3));
    for c in [&a, &b] {
        saved.extend(c.lines.try_iter().filter(|l| l.starts_with("saved run") || l.starts_with("amended run")));
    }
    drop((a.stop(), b.stop()));
    assert_eq!(saved.len(), fixtures.len(), "each trace saved once, by one instance: {saved:?}");
    rt().block_on(async {
        let store = Store::open(&db).await.unwrap();
        let runs = store.list_runs(None).await.unwrap();
        assert_eq!(runs.len(), fixtures.len(), "{saved:?}");
        for f in fixtures {
            let mut file_runs = vec![];
            import_file(&root().join("tests/import/fixtures").join(f), None, None, None, &mut |t, _| {
                file_runs.push(t);
                Ok(())
            })
            .unwrap();
            let want = &file_runs[0];
            let shape = |t: &baton::trace::Trace| -> Vec<(String, String, String)> {
                t.transfers.iter().map(|x| (x.kind.as_str().to_owned(), x.from.clone(), x.to.clone())).collect()
            };
            let got = runs.iter().map(|r| store.load_trace(&r.id));
            let mut found = None;
            for t in got {
                let t = t.await.unwrap();
                if t.steps.len() == want.steps.len() && shape(&t) == shape(want) {
                    found = Some(t);
                }
            }
            let t = found.unwrap_or_else(|| {
                panic!("{f}: no captured run has the file's {} steps and transfers {:?}", want.steps.len(), shape(want))
            });
            assert!(!shape(&t).is_empty(), "{f} has transfers");
            assert_eq!(t.outcome.final_output, want.outcome.final_output, "{f}");
            assert_ne!(t.outcome.status, baton::trace::OutcomeStatus::Running, "{f}");
        }
    });
}

/// Shared collectors under concurrent requests that each hold spans of the same twenty traces
/// (a batching exporter's requests, eight in flight): every request is acknowledged (no request
/// is lost to two transactions waiting on each other's traces) and each trace becomes one run.
#[test]
fn shared_collectors_take_concurrent_requests_of_the_same_traces() {
    let db = pg_database();
    let start = || Collector::start_on(tempfile::tempdir().unwrap(), &db, 500, &["--shared"]);
    let collectors = [start(), start(), start()];
    let text = std::fs::read_to_string(root().join("tests/import/fixtures/otlp_genai.json")).unwrap();
    let doc: Value = serde_json::from_str(&text).unwrap();
    let spans: Vec<Value> = doc["resourceSpans"][0]["scopeSpans"][0]["spans"].as_array().unwrap().clone();
    let resource = doc["resourceSpans"][0]["resource"].clone();
    let traces = 40;
    // Request k holds span k of each of the traces (trace ids made unique per copy).
    let requests: Vec<(String, String)> = (0..spans.len())
        .map(|k| {
            let copies: Vec<Value> = (0..traces)
                .map(|t| {
                    let mut s = spans[k].clone();
                    s["traceId"] = Value::String(format!("{:032x}", 0xabc000 + t));
                    s
                })
                .collect();
            let body =
                serde_json::json!({"resourceSpans": [{"resource": resource, "scopeSpans": [{"spans": copies}]}]});
            (collectors[k % 3].url(), body.to_string())
        })
        .collect();
    rt().block_on(async {
        let http = reqwest::Client::new();
        let sends = requests.into_iter().map(|(url, body)| {
            let http = http.clone();
            async move {
                let r = http.post(url).header("content-type", "application/json").body(body).send().await.unwrap();
                let status = r.status();
                (status, r.text().await.unwrap_or_default())
            }
        });
        for (status, text) in futures::future::join_all(sends).await {
            assert_eq!(status, 200, "{text}");
        }
    });
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    let count = || rt().block_on(async { Store::open(&db).await.unwrap().list_runs(None).await.unwrap().len() });
    while count() < traces as usize && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(200));
    }
    std::thread::sleep(Duration::from_secs(1));
    assert_eq!(count(), traces as usize, "one run per trace");
    drop(collectors);
}

/// A hostile sender cannot make a shared collector read back more than its bounds: a trace whose
/// spans ride in requests mostly filled with another trace's large spans is refused with its
/// size and what to raise (`--max-mb`), and an ordinary trace after it is still saved.
#[test]
fn a_shared_collector_refuses_a_trace_whose_requests_exceed_its_bounds() {
    let db = pg_database();
    let c = Collector::start_on(tempfile::tempdir().unwrap(), &db, 300, &["--shared", "--max-mb", "1"]);
    let text = std::fs::read_to_string(root().join("tests/import/fixtures/otlp_genai.json")).unwrap();
    let doc: Value = serde_json::from_str(&text).unwrap();
    let spans: Vec<Value> = doc["resourceSpans"][0]["scopeSpans"][0]["spans"].as_array().unwrap().clone();
    let tid = spans[0]["traceId"].as_str().unwrap().to_owned();
    // Each of the trace's spans travels beside a 600 KB span of another trace.
    for (k, sp) in spans.iter().enumerate() {
        let pad = serde_json::json!({"traceId": format!("{:032x}", 0xbad000 + k), "spanId": "00000000000000aa", "name": "pad",
            "startTimeUnixNano": "1", "endTimeUnixNano": "2",
            "attributes": [{"key": "pad", "value": {"stringValue": "x".repeat(600 << 10)}}]});
        post_json(c.url(), serde_json::json!({"resourceSpans": [{"scopeSpans": [{"spans": [sp, pad]}]}]}).to_string());
    }
    let refused = c.wait_for(&format!("not saved: trace {tid}"), 1);
    assert!(refused[0].contains("KB of requests") && refused[0].contains("--max-mb"), "{refused:?}");
    // the collector goes on: the same trace under a new id, in one small request, is saved
    let mut doc2 = doc.clone();
    for sp in doc2["resourceSpans"][0]["scopeSpans"][0]["spans"].as_array_mut().unwrap() {
        sp["traceId"] = Value::String(format!("{:032x}", 0x600d));
    }
    post_json(c.url(), doc2.to_string());
    let saved = c.wait_for("saved run", 1);
    assert!(saved[0].contains(&run_id_of(&format!("{:032x}", 0x600d))), "{saved:?}");
}

/// The run id a captured trace is saved as (its trace id written as a UUID).
fn run_id_of(tid: &str) -> String {
    format!("{}-{}-{}-{}-{}", &tid[..8], &tid[8..12], &tid[12..16], &tid[16..20], &tid[20..])
}

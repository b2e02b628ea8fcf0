//! `baton matrix` over real HTTP on loopback: one agent varied across two providers (servers
//! speaking OpenAI Chat Completions and Anthropic Messages) and the real small model behind
//! llama.cpp, two scenarios, `--repeat 2`: every cell is in the report with its runs, the
//! OpenAI server's 429 shows as a retry, costs come from the user's price table only.

use crate::common::server::{MockServer, Reply};
use crate::common::{root, stderr};
use serde_json::{Value, json};

const TOPOLOGY: &str = "version: 1\nname: solo\nentry: solo\nagents: [{id: solo, name: Solo, instructions: Answer briefly.}]\nguards: {max_turns: 2}\nscenarios:\n  - {name: greet, input: Say hello., expect: {status: completed}}\n  - {name: bye, input: Say goodbye., expect: {status: completed}}\n";

fn chat(text: &str) -> Reply {
    Reply::json(json!({
        "id": "c", "object": "chat.completion", "created": 1, "model": "gpt-test",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110}
    }))
}

fn anthropic(text: &str) -> Reply {
    Reply::json(json!({"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-test",
        "content": [{"type": "text", "text": text}], "stop_reason": "end_turn", "stop_sequence": null,
        "usage": {"input_tokens": 40, "output_tokens": 6}}))
}

#[test]
fn every_cell_with_its_cost_latency_and_retries() {
    let llama = {
        let out = std::process::Command::new(root().join("scripts/llama.sh")).output().unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        String::from_utf8(out.stdout).unwrap().trim().to_owned()
    };
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let (a, b) = rt.block_on(async { (MockServer::start().await, MockServer::start().await) });
    a.push(Reply::status(429, r#"{"error": {"message": "slow down", "type": "rate_limit"}}"#));
    for _ in 0..4 {
        a.push(chat("Hello from OpenAI."));
    }
    for _ in 0..4 {
        b.push(anthropic("Hello from Claude."));
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("solo.yaml");
    std::fs::write(&file, TOPOLOGY).unwrap();
    let prices = dir.path().join("prices.yaml");
    std::fs::write(&prices, "\"openai:gpt-test\": { input_per_mtok: 1.0, output_per_mtok: 2.0 }\n").unwrap();
    let vary = format!(
        "solo=openai:gpt-test@{}/v1,anthropic:claude-test@{},openai-compatible:smollm2@{llama}",
        a.base, b.base
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_baton"))
        .args(["matrix", file.to_str().unwrap(), "--vary", &vary, "--repeat", "2", "--concurrency", "1"])
        .args(["--prices", prices.to_str().unwrap(), "--format", "json"])
        .env("OPENAI_API_KEY", "sk-test")
        .env("ANTHROPIC_API_KEY", "sk-ant-test")
        .env("BATON_HTTP_BACKOFF_MS", "1")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    let cells = r["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 6, "3 models × 2 scenarios");
    let cell = |model: &str, scenario: &str| {
        cells
            .iter()
            .find(|c| c["models"]["solo"].as_str().unwrap().starts_with(model) && c["scenario"] == scenario)
            .unwrap()
    };
    for s in ["greet", "bye"] {
        let o = cell("openai:", s);
        assert_eq!((o["runs"].as_array().unwrap().len(), o["completed"].as_u64()), (2, Some(2)), "{o}");
        assert_eq!(o["expectations_passed"], 2);
        assert_eq!(o["tokens"], 220);
        // 2 runs × (100 input × $1 + 10 output × $2) per million tokens.
        assert!((o["cost"].as_f64().unwrap() - 2.0 * 120.0 / 1e6).abs() < 1e-12, "{o}");
        let c = cell("anthropic:", s);
        assert_eq!(c["completed"], 2, "{c}");
        assert_eq!(c["tokens"], 92);
        assert_eq!(c["cost"], Value::Null, "no price in the table, no cost");
        let l = cell("openai-compatible:", s);
        assert_eq!(l["runs"].as_array().unwrap().len(), 2);
        assert!(l["runs"].as_array().unwrap().iter().all(|r| !r["reason"].as_str().unwrap().is_empty()));
        assert!(l["p50_ms"].as_u64().unwrap() > 0);
    }
    // The 429 before the first OpenAI answer was retried, and the report says so.
    assert_eq!(cell("openai:", "greet")["retries"], 1);
    assert_eq!(cell("openai:", "bye")["retries"], 0);
    assert_eq!(a.requests().len(), 5);
    // An unknown agent is refused with the agents named.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_baton"))
        .args(["matrix", file.to_str().unwrap(), "--vary", "ghost=mock:m"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no agent 'ghost' in solo (agents: solo)"), "{}", stderr(&out));
}

#[test]
fn the_html_report_is_self_contained() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("m.html");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_baton"))
        .args([
            "matrix",
            root().join("examples/support-triage.yaml").to_str().unwrap(),
            "--vary",
            "triage=mock:a,mock:b",
        ])
        .args(["--mock-rest", "--format", "html", "-o", page.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.starts_with("<!doctype html>") && html.contains("<svg") && !html.contains("<script src"));
    // support-triage has two scenarios with expectations: 2 models × 2 scenarios, all passing.
    assert_eq!(html.matches("<tr><td>").count(), 4);
    assert!(html.contains("triage=mock:a") && html.contains("double-charge"));
}

/// From the app (`run_matrix` over `baton serve`'s HTTP): every cell's run is saved, so a cell
/// opens its run in the debugger.
#[tokio::test]
async fn the_apps_matrix_saves_each_cells_runs() {
    let s = crate::common::serve::serve(&["support-triage.yaml"]).await;
    let (status, opened) = s.call("open_topology", json!({ "path": "support-triage.yaml" })).await;
    assert_eq!(status, 200, "{opened}");
    let args = json!({ "topology": opened["topology"], "vary": [{ "agent": "triage", "models": ["mock:a", "mock:b"] }], "mock_rest": true });
    let (status, report) = s.call("run_matrix", args).await;
    assert_eq!(status, 200, "{report}");
    let cells = report["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 4, "2 models × support-triage's 2 scenarios");
    let ids: Vec<String> = cells.iter().map(|c| c["runs"][0]["run_id"].as_str().unwrap().to_owned()).collect();
    let (status, page) = s.call("search_runs", json!({})).await;
    assert_eq!(status, 200);
    assert_eq!(page["total"], 4);
    for id in &ids {
        let (status, _) = s.call("run_overview", json!({ "run_id": id })).await;
        assert_eq!(status, 200, "cell run {id} opens");
    }
    assert!(cells.iter().all(|c| c["expectations_passed"] == c["expectations"] && c["completed"] == 1), "{cells:?}");
}

/// What a matrix is told must make sense: no cell without a run, a rate above 0, prices that
/// are numbers, and a price table that is a small regular file (a device or FIFO is refused
/// unread) — each a clear error, exit 2 (issue #30).
#[test]
fn a_matrix_refuses_zero_runs_bad_rates_bad_prices_and_unbounded_price_files() {
    use crate::common::{baton, example, stderr};
    let file = example("support-triage.yaml");
    let f = file.to_str().unwrap();
    let vary = "triage=mock:a";
    let out = baton(&["matrix", f, "--vary", vary, "--repeat", "0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--repeat 0"), "{}", stderr(&out));
    for rate in ["0", "NaN", "-1"] {
        let out = baton(&["matrix", f, "--vary", vary, &format!("--rate={rate}")]);
        assert_eq!(out.status.code(), Some(2), "--rate {rate}");
        assert!(stderr(&out).contains("a number above 0"), "{}", stderr(&out));
    }
    let dir = tempfile::tempdir().unwrap();
    let prices = dir.path().join("prices.yaml");
    std::fs::write(&prices, "\"mock:a\": {input_per_mtok: .nan, output_per_mtok: 1}\n").unwrap();
    let out = baton(&["matrix", f, "--vary", vary, "--prices", prices.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("not a finite, non-negative number"), "{}", stderr(&out));
    let out = baton(&["matrix", f, "--vary", vary, "--prices", "/dev/zero"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("not a regular file"), "{}", stderr(&out));
}

/// A cell whose runs fail an expectation names it and why (text and JSON), not only "1/2".
#[test]
fn a_cell_names_the_expectation_that_failed() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("solo.yaml");
    std::fs::write(
        &file,
        "version: 1\nname: solo\nentry: solo\nagents: [{id: solo, name: Solo}]\nscenarios:\n  - name: s\n    input: \
         hi\n    scripts: {solo: [{say: Hello there.}]}\n    expect: {status: completed, output_contains: refund}\n",
    )
    .unwrap();
    let run = |format: &str| {
        std::process::Command::new(env!("CARGO_BIN_EXE_baton"))
            .args(["matrix", file.to_str().unwrap(), "--vary", "solo=mock:mock", "--repeat", "2", "--format", format])
            .output()
            .unwrap()
    };
    let json = run("json");
    assert!(json.status.success(), "{}", stderr(&json));
    let r: Value = serde_json::from_slice(&json.stdout).unwrap();
    let cell = &r["cells"][0];
    assert_eq!((cell["expectations_passed"].as_u64(), cell["expectations"].as_u64()), (Some(2), Some(4)));
    let failures = cell["runs"][0]["failures"].as_array().unwrap();
    assert_eq!(failures.len(), 1, "{failures:?}");
    assert_eq!(failures[0]["expectation"], "output_contains");
    assert!(failures[0]["reason"].as_str().unwrap().contains("refund"), "{failures:?}");
    let text = run("text");
    let out = String::from_utf8_lossy(&text.stdout);
    assert!(out.contains("expectations 2/4") && out.contains("failed output_contains in 2/2 run(s):"), "{out}");
}

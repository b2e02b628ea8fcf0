//! A long context reaches the debugger one window at a time, over `baton serve`'s real HTTP and a
//! real SQLite store: the run's answers fan out into hundreds of parallel tool calls, the step
//! view carries only the window asked for (with the whole context's size), `step_context` pages
//! through the rest in order, and a window of no items or too many is refused with its reason.

use crate::common;
use serde_json::{Value, json};

/// One agent, three answers of 300 parallel `poll` calls each, then a final answer.
const WIDE: &str = r#"version: 1
name: wide
entry: a
agents:
  - { id: a, name: Poller, instructions: Poll every shard., model: { provider: mock, name: mock }, tools: [{ name: poll, mock_result: still rolling out }] }
edges: []
scenarios:
  - name: s
    input: Check deploy d-42.
    scripts:
      a:
        - { when: { call: 4 }, say: Done polling. }
        - { calls: [CALLS] }
"#;

async fn ok(s: &common::serve::Served, cmd: &str, body: Value) -> Value {
    let (status, v) = s.call(cmd, body).await;
    assert_eq!(status, 200, "{cmd}: {v}");
    v
}

#[tokio::test]
async fn a_long_context_pages_over_http() {
    let s = common::serve::serve(&[]).await;
    let calls: Vec<String> = (0..300).map(|j| format!("{{ tool: poll, args: {{ shard: {j} }} }}")).collect();
    std::fs::write(s.root.path().join("wide.yaml"), WIDE.replace("CALLS", &calls.join(", "))).unwrap();
    let opened = ok(&s, "open_topology", json!({ "path": "wide.yaml" })).await;
    let started = ok(&s, "start_run", json!({ "topology": opened["topology"] })).await;
    let id = started["run_id"].as_str().unwrap().to_owned();
    let mut from = 0;
    loop {
        let ev = ok(&s, "run_events", json!({ "run_id": id, "from": from })).await;
        from += ev["events"].as_array().unwrap().len();
        if ev["finished"] == true {
            break;
        }
    }
    // The fourth answer (the last model call) sees, as the script says, the instructions, the
    // user's message and three answers' 300 calls and 300 results each.
    let overview = ok(&s, "run_overview", json!({ "run_id": id })).await;
    // Steps come by column: kinds once, each step's kind an index into them.
    let steps = &overview["steps"];
    let model_call = steps["kinds"].as_array().unwrap().iter().position(|k| k == "model_call").unwrap();
    let last_call = steps["kind"].as_array().unwrap().iter().rposition(|k| *k == model_call).unwrap();
    assert_eq!(steps["first"], 0);
    let whole = 2 + 3 * 600;

    let first =
        ok(&s, "step_view", json!({ "run_id": id, "step": last_call, "context": { "offset": 0, "limit": 500 } })).await;
    assert_eq!(first["context_total"], whole);
    assert_eq!(first["context_offset"], 0);
    assert_eq!(first["context"].as_array().unwrap().len(), 500);
    assert_eq!(first["step"]["context"].as_array().unwrap().len(), 500, "only the window's ids");
    assert_eq!(first["context"][0]["kind"], "instructions");
    assert_eq!(first["context"][1]["text"], "Check deploy d-42.");

    // Paging on: every item once, in order, the last window short.
    let mut paged: Vec<Value> = first["context"].as_array().unwrap().clone();
    let mut offset = 500;
    while offset < whole {
        let page =
            ok(&s, "step_context", json!({ "run_id": id, "step": last_call, "offset": offset, "limit": 500 })).await;
        assert_eq!(page["offset"], offset);
        assert_eq!(page["total"], whole);
        let items = page["items"].as_array().unwrap();
        assert_eq!(items.len(), 500.min(whole - offset));
        paged.extend(items.iter().cloned());
        offset += items.len();
    }
    let all = ok(&s, "step_view", json!({ "run_id": id, "step": last_call })).await;
    assert_eq!(all["context"].as_array().unwrap().len(), whole, "no window: the whole context");
    assert_eq!(Value::Array(paged), all["context"]);
    // The calls come in the script's order: answer t's calls are call_t_1 … call_t_300.
    let call_ids: Vec<String> = all["context"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["kind"] == "tool_call")
        .map(|i| i["call_id"].as_str().unwrap().to_owned())
        .collect();
    let expected: Vec<String> = (1..=3).flat_map(|t| (1..=300).map(move |n| format!("call_{t}_{n}"))).collect();
    assert_eq!(call_ids, expected);

    // A window past the end is empty but says where the context ends.
    let past = ok(&s, "step_context", json!({ "run_id": id, "step": last_call, "offset": 5000, "limit": 10 })).await;
    assert_eq!((past["offset"].clone(), past["items"].as_array().unwrap().len()), (json!(whole), 0));

    // Bad windows are refused with what to ask instead.
    for limit in [0, 2001] {
        let (status, err) =
            s.call("step_context", json!({ "run_id": id, "step": last_call, "offset": 0, "limit": limit })).await;
        assert_eq!(status, 400, "{err}");
        assert_eq!(err["code"], "api.args");
        assert!(err["message"].as_str().unwrap().contains("1 to 2000"), "{err}");
    }
    let (status, err) = s.call("step_context", json!({ "run_id": id, "step": 99_999, "offset": 0, "limit": 10 })).await;
    assert_eq!((status, err["code"].as_str()), (404, Some("store.no_step")), "{err}");
}

//! The `openai-agents-py` export, imported by the real OpenAI Agents SDK (pinned in
//! tests/fidelity/requirements.txt): agents, handoffs and tools must be exactly the topology's.

use crate::common;

use baton::topology::{ContextPolicy, EdgeKind, Topology};
use common::*;
use std::process::Command;

fn inspect(t: &Topology) -> serde_json::Value {
    let dir = tempfile::tempdir().unwrap();
    let module = dir.path().join("exported.py");
    std::fs::write(&module, baton::export::to_openai_agents_py(t).unwrap()).unwrap();
    let out = Command::new(python())
        .arg(root().join("tests/fidelity/inspect_export.py"))
        .arg(&module)
        .env_remove("OPENAI_API_KEY")
        .output()
        .unwrap();
    assert!(out.status.success(), "import failed for {}:\n{}", t.name, stderr(&out));
    serde_json::from_slice(&out.stdout).unwrap()
}

fn check(t: &Topology) {
    let v = inspect(t);
    assert_eq!(v["entry"], t.agent(&t.entry).unwrap().name);
    assert_eq!(v["max_turns"], t.guards.max_turns);
    let agents = v["agents"].as_array().unwrap();
    assert_eq!(agents.len(), t.agents.len());
    for (a, py) in t.agents.iter().zip(agents) {
        assert_eq!(py["name"], a.name);
        let want_handoffs: Vec<(String, String)> = t
            .edges_from(&a.id)
            .filter(|e| e.kind == EdgeKind::Handoff)
            .map(|e| (t.tool_name(e), t.agent(&e.to).unwrap().name.clone()))
            .collect();
        let got_handoffs: Vec<(String, String)> = py["handoffs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| (h["tool"].as_str().unwrap().to_owned(), h["target"].as_str().unwrap().to_owned()))
            .collect();
        assert_eq!(got_handoffs, want_handoffs, "handoffs of {}", a.name);
        let mut want_tools: Vec<String> = a.tools.iter().map(|t| t.name.clone()).collect();
        want_tools.extend(t.edges_from(&a.id).filter(|e| e.kind == EdgeKind::Delegation).map(|e| t.tool_name(e)));
        let got_tools: Vec<String> =
            py["tools"].as_array().unwrap().iter().map(|t| t.as_str().unwrap().to_owned()).collect();
        assert_eq!(got_tools, want_tools, "tools of {}", a.name);
        for tool in &a.tools {
            assert_eq!(py["tool_schemas"][&tool.name], tool.parameters, "schema of {}", tool.name);
        }
        for (e, h) in
            t.edges_from(&a.id).filter(|e| e.kind == EdgeKind::Handoff).zip(py["handoffs"].as_array().unwrap())
        {
            let filtered = matches!(
                e.policy,
                ContextPolicy::RemoveTools | ContextPolicy::LastN(_) | ContextPolicy::None | ContextPolicy::Fields(_)
            );
            assert_eq!(h["filtered"], filtered, "filter on {}", e.id);
            assert_eq!(h["nested"], e.policy == ContextPolicy::NestSummary, "nesting on {}", e.id);
            assert_eq!(h["structured"], matches!(e.policy, ContextPolicy::Fields(_)), "input type on {}", e.id);
        }
    }
}

#[test]
fn every_example_imports_into_the_real_sdk() {
    for ex in examples() {
        check(&baton::config::load(&ex).unwrap());
    }
}

#[test]
fn every_policy_maps_to_the_sdk() {
    let t = baton::config::load(&root().join("tests/data/all-policies.yaml")).unwrap();
    check(&t);
    let v = inspect(&t);
    let models: Vec<&str> = v["agents"].as_array().unwrap().iter().filter_map(|a| a["model"].as_str()).collect();
    assert!(models.contains(&"litellm/anthropic/claude-sonnet-4-5"), "{models:?}");
    assert!(models.contains(&"litellm/gemini/gemini-2.5-flash"), "{models:?}");
}

#[test]
fn the_refactored_supervisor_imports_too() {
    let t = baton::config::load(&example("ticket-reopen.yaml")).unwrap();
    let (sup, _) = baton::refactor::supervisor_refactor(&t, None).unwrap();
    check(&sup);
}

/// What the exported module does in the real SDK when every model answers as Baton's mock did:
/// the SDK's record of every model call (see tests/fidelity/run_export.py).
fn run_exported(t: &Topology, trace: &baton::trace::Trace) -> serde_json::Value {
    let scenario = &t.scenarios[0];
    let mut input: Vec<serde_json::Value> =
        scenario.history.iter().map(|m| serde_json::json!({"role": m.role, "content": m.content})).collect();
    input.push(serde_json::json!({"role": "user", "content": scenario.input}));
    let mut outputs: serde_json::Map<String, serde_json::Value> = serde_json::Map::new();
    for s in trace.steps.iter().filter(|s| s.kind == baton::trace::StepKind::ModelCall) {
        let name = t.agent(&s.agent).unwrap().name.clone();
        let items: Vec<serde_json::Value> = s
            .output
            .iter()
            .map(|id| trace.item(*id).unwrap())
            .map(|i| match i.kind {
                baton::context::ItemKind::Reasoning => {
                    serde_json::json!({"type": "reasoning", "text": i.text, "id": i.provider_id, "status": i.status})
                }
                baton::context::ItemKind::AssistantMessage => {
                    serde_json::json!({"type": "message", "text": i.text, "id": i.provider_id, "status": i.status})
                }
                _ => serde_json::json!({
                    "type": "function_call", "name": i.name, "arguments": i.arguments, "call_id": i.call_id,
                    "id": i.provider_id, "status": i.status
                }),
            })
            .collect();
        outputs.entry(name).or_insert_with(|| serde_json::json!([])).as_array_mut().unwrap().push(items.into());
    }
    let dir = tempfile::tempdir().unwrap();
    let module = dir.path().join("exported.py");
    std::fs::write(&module, baton::export::to_openai_agents_py(t).unwrap()).unwrap();
    let script = dir.path().join("scenario.json");
    std::fs::write(&script, serde_json::json!({"input": input, "outputs": outputs}).to_string()).unwrap();
    let out = Command::new(python())
        .arg(root().join("tests/fidelity/run_export.py"))
        .arg(&module)
        .arg(&script)
        .env_remove("OPENAI_API_KEY")
        .output()
        .unwrap();
    assert!(out.status.success(), "the exported module failed for {}:\n{}", t.name, stderr(&out));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The exported module, run in the real SDK, gives every agent's model exactly the input and
/// instructions Baton's own run gives it, call for call, and ends where Baton's run ends.
fn check_run(t: &Topology) {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let trace = rt.block_on(baton::engine::run_mock(t, Default::default())).unwrap();
    let sdk = run_exported(t, &trace);
    assert!(sdk["error"].is_null(), "{}: the SDK run failed: {}", t.name, sdk["error"]);
    // Instructions in `calls` are the system prompt the engine sends (instructions, pinned facts).
    let mut want = crate::fidelity::calls(&trace);
    let got = sdk["calls"].as_array().unwrap();
    let steps = trace.steps.iter().filter(|s| s.kind == baton::trace::StepKind::ModelCall);
    for (w, s) in want.iter_mut().zip(steps) {
        w["tools"] = baton::engine::tools_for(t, &s.agent)
            .into_iter()
            .map(|x| serde_json::json!({"name": x.name, "description": x.description, "parameters": x.parameters}))
            .collect();
    }
    for (i, (w, g)) in want.iter().zip(got).enumerate() {
        for k in ["agent", "instructions", "input", "tools"] {
            assert_eq!(
                g[k], w[k],
                "{}: model call {i} ({}): {k} differs\n  sdk: {:#}\nbaton: {:#}",
                t.name, w["agent"], g[k], w[k]
            );
        }
    }
    assert_eq!(got.len(), want.len(), "{}: number of model calls", t.name);
    assert_eq!(sdk["final_output"].as_str(), trace.outcome.final_output.as_deref(), "{}: final output", t.name);
    let last = t.agent(&trace.outcome.owner).unwrap().name.clone();
    assert_eq!(sdk["last_agent"].as_str(), Some(last.as_str()), "{}: last agent", t.name);
}

#[test]
fn every_example_runs_in_the_real_sdk_as_in_baton() {
    for ex in examples() {
        check_run(&baton::config::load(&ex).unwrap());
    }
}

/// A topology for one policy: the hub runs a tool, delegates to a worker, then hands off to the
/// target under `policy` (so every handoff follows a delegation), as Baton's mock scripts it.
fn policy_topology(label: &str, policy: &str, args: &str) -> Topology {
    let yaml = format!(
        r#"version: 1
name: policy-{label}
entry: hub
agents:
  - id: hub
    name: Hub
    instructions: Route the request.
    model: {{ provider: mock, name: m }}
    tools:
      - name: lookup
        description: Look an invoice up.
        parameters: {{ type: object, properties: {{ q: {{ type: string }} }}, required: [q] }}
        mock_result: "invoice 88: two charges of $20"
  - {{ id: worker, name: Worker, instructions: Check things., model: {{ provider: mock, name: m }} }}
  - {{ id: target, name: Target Desk, instructions: Finish the job., model: {{ provider: mock, name: m }} }}
edges:
  - {{ kind: delegation, from: hub, to: worker, tool: ask_worker, description: Ask the worker. }}
  - {{ kind: handoff, from: hub, to: target, tool: hand_over, policy: {policy} }}
scenarios:
  - name: s
    history:
      - {{ role: user, content: "Earlier: my card was declined." }}
      - {{ role: assistant, content: "Sorry about that." }}
    input: I was double charged on invoice 88.
    scripts:
      hub:
        - when: {{ call: 1 }}
          reasoning: The invoice first.
          calls: [{{ tool: lookup, args: {{ q: "88" }} }}]
        - when: {{ call: 2 }}
          calls: [{{ tool: ask_worker, args: {{ input: check invoice 88 }} }}]
        - when: {{ call: 3 }}
          say: Passing you to the desk.
          calls: [{{ tool: hand_over, args: {args} }}]
      worker:
        - say: Invoice 88 has a duplicate charge.
      target:
        - say: Refund issued for the duplicate charge.
"#
    );
    baton::config::parse(&yaml, baton::config::Format::Yaml, "policy.yaml").unwrap()
}

/// Every context policy, each after a delegation, with reasoning, a history and several tools:
/// the exported module in the real SDK gives the receiver what Baton's run gives it. `fields`
/// has multi-word and non-string fields (the model sees the topology's names; values that are
/// not strings cross as JSON, as in Baton).
#[test]
fn every_policy_runs_in_the_real_sdk_as_in_baton() {
    let fields = "{ fields: [{ name: ticket id, type: integer }, { name: urgent, type: boolean }, { name: status }] }";
    for (label, policy, args) in [
        ("full", "full", "{}"),
        ("remove-tools", "remove_tools", "{}"),
        ("last-n", "{ last_n: 3 }", "{}"),
        ("nest-summary", "nest_summary", "{}"),
        ("none", "none", "{}"),
        ("fields", fields, "{ ticket id: 88, urgent: true, status: open }"),
    ] {
        check_run(&policy_topology(label, policy, args));
    }
}

/// The handoff guards exported as working RunHooks: `on_revisit: stop` and `max_handoffs` end
/// the SDK run where Baton's run ends (handoff-loop escalates; see the examples test).
#[test]
fn exported_guards_stop_the_real_sdk_where_baton_stops() {
    let base = std::fs::read_to_string(example("handoff-loop.yaml")).unwrap();
    for (guard, with) in [
        ("on_revisit: stop", base.replace("on_revisit: escalate", "on_revisit: stop")),
        ("max_handoffs: 1", base.replace("max_handoffs: 6", "max_handoffs: 1")),
    ] {
        let t = baton::config::parse(&with, baton::config::Format::Yaml, "loop.yaml").unwrap();
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let trace = rt.block_on(baton::engine::run_mock(&t, Default::default())).unwrap();
        assert!(trace.outcome.guard.is_some(), "{guard}: Baton's run ends at a guard");
        check_run(&t);
    }
}

//! The `langgraph-py` export run in real LangGraph (pinned by
//! tests/import/requirements-langgraph.txt) with scripted models that answer as Baton's mock run
//! did (tests/fidelity/run_langgraph_export.py): at every transfer, the receiver's model gets the
//! items Baton's receiver gets (a handoff's acknowledgement text is each framework's own), a
//! delegation's answer reaches the caller, and the run ends where Baton's ends.

use crate::common::*;
use baton::context::{Item, ItemKind};
use baton::topology::{EdgeKind, Topology};
use baton::trace::{StepKind, Trace};
use serde_json::{Value, json};
use std::process::Command;

fn mock_run(t: &Topology) -> Trace {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    rt.block_on(baton::engine::run_mock(t, Default::default())).unwrap()
}

/// The scenario's input and, per agent, the outputs of its model calls in Baton's run.
fn scenario(t: &Topology, trace: &Trace) -> Value {
    let s = &t.scenarios[0];
    let mut input: Vec<Value> = s.history.iter().map(|m| json!({"role": m.role, "content": m.content})).collect();
    input.push(json!({"role": "user", "content": s.input}));
    let mut outputs = serde_json::Map::new();
    for step in trace.steps.iter().filter(|s| s.kind == StepKind::ModelCall) {
        let out: Vec<Value> = step
            .output
            .iter()
            .map(|id| trace.item(*id).unwrap())
            .filter_map(|i| match i.kind {
                ItemKind::AssistantMessage => Some(json!({"type": "message", "text": i.text})),
                ItemKind::ToolCall | ItemKind::TransferCall => Some(json!({
                    "type": "function_call", "name": i.name, "arguments": i.arguments, "call_id": i.call_id
                })),
                _ => None,
            })
            .collect();
        let name = t.agent(&step.agent).unwrap().name.clone();
        outputs.entry(name).or_insert_with(|| json!([])).as_array_mut().unwrap().push(out.into());
    }
    json!({"input": input, "outputs": outputs})
}

fn run_in_langgraph(t: &Topology, trace: &Trace) -> (Value, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let module = dir.path().join("exported_graph.py");
    std::fs::write(&module, baton::export::to_langgraph_py(t).unwrap()).unwrap();
    let script = dir.path().join("scenario.json");
    std::fs::write(&script, scenario(t, trace).to_string()).unwrap();
    let out = Command::new(framework_python("langgraph"))
        .arg(root().join("tests/fidelity/run_langgraph_export.py"))
        .arg(&module)
        .arg(&script)
        .env_remove("OPENAI_API_KEY")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}: the harness failed:\n{}", t.name, stderr(&out));
    (serde_json::from_slice(&out.stdout).unwrap(), baton::export::langgraph_warnings(t))
}

/// Baton's items as the harness writes LangGraph's messages (instructions and facts are the
/// system prompt, compared apart).
fn baton_items(trace: &Trace, ids: &[baton::context::ItemId]) -> Value {
    let items: Vec<&Item> = ids.iter().map(|id| trace.item(*id).unwrap()).collect();
    let call_name = |call: &Option<String>| {
        items.iter().find(|i| i.call_id == *call && i.name.is_some()).and_then(|i| i.name.clone()).unwrap_or_default()
    };
    items
        .iter()
        .filter_map(|i| match i.kind {
            ItemKind::UserMessage => Some(json!({"kind": "user_message", "text": i.text})),
            ItemKind::AssistantMessage => Some(json!({"kind": "assistant_message", "text": i.text})),
            ItemKind::ToolCall | ItemKind::TransferCall => {
                let args: Value = serde_json::from_str(i.arguments.as_deref().unwrap_or("{}")).unwrap();
                Some(json!({"kind": "call", "name": i.name, "arguments": args}))
            }
            ItemKind::ToolResult | ItemKind::TransferOutput => {
                Some(json!({"kind": "result", "call": call_name(&i.call_id), "text": i.text}))
            }
            _ => None,
        })
        .collect()
}

/// The items with a handoff's acknowledgement masked (its text is each framework's own).
fn mask_acks(items: &Value, handoff_tools: &[String]) -> Vec<Value> {
    items
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            let mut i = i.clone();
            if i["kind"] == "result" && handoff_tools.iter().any(|t| i["call"] == *t.as_str()) {
                i["text"] = json!("(ack)");
            }
            i
        })
        .collect()
}

/// The index among model calls of `agent`'s first model call after step `after`.
fn next_call(trace: &Trace, agent: &str, after: u32) -> usize {
    let calls: Vec<_> = trace.steps.iter().filter(|s| s.kind == StepKind::ModelCall).collect();
    calls.iter().position(|s| s.index > after && s.agent == agent).unwrap()
}

fn check(t: &Topology) -> Vec<String> {
    let trace = mock_run(t);
    let (lg, warnings) = run_in_langgraph(t, &trace);
    assert!(lg["error"].is_null(), "{}: the LangGraph run failed: {}\ncalls: {:#}", t.name, lg["error"], lg["calls"]);
    let calls = lg["calls"].as_array().unwrap();
    let name = |id: &str| t.agent(id).unwrap().name.clone();
    let want_agents: Vec<String> =
        trace.steps.iter().filter(|s| s.kind == StepKind::ModelCall).map(|s| name(&s.agent)).collect();
    let got_agents: Vec<String> = calls.iter().map(|c| c["agent"].as_str().unwrap().to_owned()).collect();
    assert_eq!(got_agents, want_agents, "{}: the model calls, agent by agent", t.name);
    let handoff_tools: Vec<String> =
        t.edges.iter().filter(|e| e.kind == EdgeKind::Handoff).map(|e| t.tool_name(e)).collect();
    assert!(!trace.transfers.is_empty(), "{}: Baton's run makes a transfer", t.name);
    for (n, tr) in trace.transfers.iter().enumerate() {
        let k = next_call(&trace, &tr.to, tr.step);
        let got = &calls[k];
        let what = format!("{}: transfer {n} ({} {} → {})", t.name, tr.kind.as_str(), name(&tr.from), name(&tr.to));
        assert_eq!(got["system"], baton::engine::system_prompt(t, &tr.to), "{what}: the receiver's system prompt");
        assert_eq!(
            mask_acks(&got["items"], &handoff_tools),
            mask_acks(&baton_items(&trace, &tr.receiver), &handoff_tools),
            "{what}: what the receiver's model got"
        );
        if let Some(back) = &tr.back {
            // The worker's answer reaches the caller: a tool result (an agent called as a tool)
            // or the worker's message (create_supervisor).
            let answer = &trace.item(*back.returned.last().unwrap()).unwrap().text;
            let k = next_call(&trace, &tr.from, back.step);
            assert!(
                calls[k]["items"].as_array().unwrap().iter().any(|i| i["text"] == *answer.as_str()),
                "{what}: the worker's answer '{answer}' reaches the caller: {:#}",
                calls[k]["items"]
            );
        }
    }
    assert_eq!(lg["final_output"].as_str(), trace.outcome.final_output.as_deref(), "{}: final output", t.name);
    assert_eq!(lg["last_agent"].as_str(), Some(name(&trace.outcome.owner).as_str()), "{}: last agent", t.name);
    warnings
}

/// A supervisor that only delegates (so the export uses create_supervisor): to a researcher with
/// a tool, then to a writer, then it answers.
const SUPERVISOR: &str = r#"version: 1
name: research-desk
entry: supervisor
agents:
  - id: supervisor
    name: Supervisor
    kind: supervisor
    instructions: Delegate research, then writing; answer the user with the result.
    model: { provider: openai, name: gpt-4o }
  - id: researcher
    name: Researcher
    instructions: Search the policy documents and report.
    model: { provider: openai, name: gpt-4o-mini }
    tools:
      - name: search_docs
        description: Search the policy documents.
        parameters: { type: object, properties: { query: { type: string } }, required: [query] }
        mock_result: "policy 4.2: duplicate charges are refunded in full within 5 days"
  - id: writer
    name: Writer
    instructions: Write a short answer for the customer.
    model: { provider: anthropic, name: claude-sonnet-4-5 }
edges:
  - { kind: delegation, from: supervisor, to: researcher, description: Ask the researcher. }
  - { kind: delegation, from: supervisor, to: writer, tool: ask_writer, description: Ask the writer. }
scenarios:
  - name: refund-policy
    input: Is my duplicate charge on invoice 88 refunded?
    scripts:
      supervisor:
        - when: { call: 1 }
          calls: [{ tool: researcher, args: { input: What is the refund policy for duplicate charges? } }]
        - when: { call: 2 }
          say: The researcher found the policy.
          calls: [{ tool: ask_writer, args: { input: "Tell the customer: policy 4.2, refunded within 5 days." } }]
        - say: Yes; duplicate charges are refunded in full within 5 days.
      researcher:
        - when: { call: 1 }
          calls: [{ tool: search_docs, args: { query: duplicate charge refund } }]
        - say: Policy 4.2 refunds duplicate charges in full within 5 days.
      writer:
        - say: Your duplicate charge will be refunded in full within 5 days.
"#;

/// A swarm whose first agent also calls an agent as a tool before it hands off, after a
/// history.
const HUB: &str = r#"version: 1
name: hub-desk
entry: hub
agents:
  - id: hub
    name: Hub
    instructions: Route the request.
    model: { provider: openai, name: gpt-4o-mini }
    tools:
      - name: lookup
        description: Look an invoice up.
        parameters: { type: object, properties: { q: { type: string } }, required: [q] }
        mock_result: "invoice 88: two charges of $20"
  - { id: worker, name: Worker, instructions: Check things., model: { provider: openai, name: gpt-4o-mini } }
  - { id: target, name: Target Desk, instructions: Finish the job., model: { provider: openai, name: gpt-4o } }
edges:
  - { kind: delegation, from: hub, to: worker, tool: ask_worker, description: Ask the worker. }
  - { kind: handoff, from: hub, to: target, tool: hand_over }
scenarios:
  - name: s
    history:
      - { role: user, content: "Earlier: my card was declined." }
      - { role: assistant, content: "Sorry about that." }
    input: I was double charged on invoice 88.
    scripts:
      hub:
        - when: { call: 1 }
          calls: [{ tool: lookup, args: { q: "88" } }]
        - when: { call: 2 }
          calls: [{ tool: ask_worker, args: { input: check invoice 88 } }]
        - when: { call: 3 }
          say: Passing you to the desk.
          calls: [{ tool: hand_over }]
      worker:
        - say: Invoice 88 has a duplicate charge.
      target:
        - say: Refund issued for the duplicate charge.
"#;

fn parse(yaml: &str) -> Topology {
    baton::config::parse(yaml, baton::config::Format::Yaml, "topology.yaml").unwrap()
}

/// Handoffs become a swarm: the receiver gets the whole history, as with Baton's `full` policy.
#[test]
fn a_handoff_runs_in_langgraph_as_in_baton() {
    let t = baton::config::load(&example("support-triage.yaml")).unwrap();
    let warnings = check(&t);
    assert!(
        warnings.iter().any(|w| w.starts_with("agent Technical Support: exported as technical_support")),
        "{warnings:?}"
    );
    assert!(warnings.iter().any(|w| w.contains("max_handoffs (3)")), "{warnings:?}");
}

/// A pure supervisor becomes create_supervisor: each worker gets only its task, as in Baton.
#[test]
fn a_supervisor_delegation_runs_in_langgraph_as_in_baton() {
    let t = parse(SUPERVISOR);
    let text = baton::export::to_langgraph_py(&t).unwrap();
    assert!(text.contains("create_supervisor(") && !text.contains("create_swarm("), "{text}");
    let warnings = check(&t);
    assert!(warnings.is_empty(), "{warnings:?}");
}

/// A delegation from an agent of a swarm is the worker called from a tool; the handoff after it
/// carries the tool's result with the rest of the history.
#[test]
fn an_agent_tool_and_a_handoff_run_in_langgraph_as_in_baton() {
    let t = parse(HUB);
    let text = baton::export::to_langgraph_py(&t).unwrap();
    assert!(text.contains("_agent_tool(agents, \"Worker\", \"ask_worker\""), "{text}");
    check(&t);
}

/// What LangGraph cannot express is a warning and a comment in the module.
#[test]
fn the_langgraph_export_says_what_it_leaves_out() {
    let edge = "{ kind: handoff, from: hub, to: target, tool: hand_over }";
    let t =
        parse(&HUB.replace(edge, "{ kind: handoff, from: hub, to: target, tool: hand_over, policy: { last_n: 2 } }"));
    let warnings = baton::export::langgraph_warnings(&t);
    let text = baton::export::to_langgraph_py(&t).unwrap();
    let w = warnings.iter().find(|w| w.contains("last_n(2)")).unwrap_or_else(|| panic!("{warnings:?}"));
    assert!(w.starts_with("handoff Hub → Target Desk"), "{w}");
    assert!(text.contains(&format!("# Not expressible in LangGraph: {w}")), "{text}");
    let out = baton(&["export", example("support-triage.yaml").to_str().unwrap(), "--to", "langgraph-py"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("warning: guard max_handoffs (3)"), "{}", stderr(&out));
    assert!(stdout(&out).contains("create_swarm("), "{}", stdout(&out));
}

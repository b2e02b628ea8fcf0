//! AutoGen AgentChat (0.4+) runs, from what an application can save without instrumentation:
//! a `TaskResult` (`{messages: [m.dump()], stop_reason}`) or a team's `save_state()`
//! (`TeamState`: each agent's model context and the manager's message thread). A
//! `HandoffMessage` is a handoff (Swarm); in a team whose manager gives the turn (round-robin,
//! selector) each run of one speaker's messages is a delegation manager → speaker. A
//! `ToolCallRequestEvent` or an agent's `TextMessage` is that agent's model output, a
//! `ToolCallExecutionEvent` its tool runs. Model inputs come from the saved model contexts where
//! the team state has them, else they are rebuilt the way AgentChat builds them.

use super::groupchat::agent_ids;
use super::messages::content_text;
use super::recorded::{CallRec, Ev, MsgRec, RecordedRun, Role};
use crate::providers::Usage;
use crate::topology::EdgeKind;
use serde_json::{Map, Value};
use std::collections::HashMap;

/// Chat messages (what the team broadcasts to the other agents), as opposed to agent events.
const CHAT: &[&str] = &[
    "TextMessage",
    "MultiModalMessage",
    "StructuredMessage",
    "ToolCallSummaryMessage",
    "HandoffMessage",
    "StopMessage",
];
/// Events known to carry nothing for the model: they are skipped without a note.
const QUIET: &[&str] = &[
    "ModelClientStreamingChunkEvent",
    "MemoryQueryEvent",
    "UserInputRequestedEvent",
    "SelectSpeakerEvent",
    "SelectorEvent",
    "CodeGenerationEvent",
    "CodeExecutionEvent",
];

/// Whether a record is a `TaskResult` (or any `{messages: [...]}` of AgentChat message dumps).
pub fn is_task_result(m: &Map<String, Value>) -> bool {
    m.get("messages").and_then(Value::as_array).and_then(|a| a.first()).is_some_and(|f| {
        f.get("type").is_some_and(Value::is_string)
            && f.get("source").is_some_and(Value::is_string)
            && f.get("content").is_some()
    })
}

/// Whether a record is a team's saved state.
pub fn is_team_state(m: &Map<String, Value>) -> bool {
    m.get("type").and_then(Value::as_str) == Some("TeamState") || m.get("agent_states").is_some_and(Value::is_object)
}

fn s<'a>(v: &'a Value, k: &str) -> &'a str {
    v.get(k).and_then(Value::as_str).unwrap_or_default()
}

fn usage_of(m: &Value) -> Option<Usage> {
    let u = m.get("models_usage").filter(|u| u.is_object())?;
    Some(Usage {
        input_tokens: u.get("prompt_tokens").and_then(Value::as_u64).unwrap_or(0),
        output_tokens: u.get("completion_tokens").and_then(Value::as_u64).unwrap_or(0),
    })
}

/// The text of a message's `content` (a string, a multimodal list, a structured object).
fn text_of(c: &Value) -> String {
    match c {
        Value::Object(_) => c.to_string(),
        other => content_text(other),
    }
}

fn calls_of(c: &Value) -> Vec<CallRec> {
    c.as_array()
        .into_iter()
        .flatten()
        .map(|f| CallRec {
            id: s(f, "id").to_owned(),
            name: s(f, "name").to_owned(),
            arguments: match f.get("arguments") {
                Some(Value::String(a)) => a.clone(),
                Some(Value::Null) | None => "{}".into(),
                Some(other) => other.to_string(),
            },
        })
        .collect()
}

/// Tool results of a `ToolCallExecutionEvent` / `FunctionExecutionResultMessage`.
fn results_of(c: &Value) -> Vec<(String, String, String)> {
    c.as_array()
        .into_iter()
        .flatten()
        .map(|r| {
            (s(r, "call_id").to_owned(), s(r, "name").to_owned(), text_of(r.get("content").unwrap_or(&Value::Null)))
        })
        .collect()
}

fn author(source: &str) -> Option<String> {
    (!source.is_empty() && source != "user").then(|| source.to_owned())
}

/// An AutoGen `LLMMessage` dump (a model context entry) as recorded messages.
fn llm_message(m: &Value) -> Vec<MsgRec> {
    let content = m.get("content").unwrap_or(&Value::Null);
    match s(m, "type") {
        "SystemMessage" => vec![MsgRec::text(Role::System, text_of(content))],
        "AssistantMessage" => {
            let reasoning = m.get("thought").and_then(Value::as_str).map(|t| vec![t.to_owned()]).unwrap_or_default();
            let (text, calls) = match content {
                Value::Array(_) => (String::new(), calls_of(content)),
                other => (text_of(other), vec![]),
            };
            vec![MsgRec { role: Role::Assistant, text, calls, reasoning, ..Default::default() }]
        }
        "FunctionExecutionResultMessage" => results_of(content)
            .into_iter()
            .map(|(id, _, out)| MsgRec { role: Role::Tool, text: out, call_id: Some(id), ..Default::default() })
            .collect(),
        // UserMessage and anything else a context may hold.
        _ => vec![MsgRec {
            role: Role::User,
            text: text_of(content),
            author: author(s(m, "source")),
            ..Default::default()
        }],
    }
}

/// Whether a thread entry is one of `agent`'s model outputs.
fn is_model_output(m: &Value) -> bool {
    matches!(s(m, "type"), "ToolCallRequestEvent" | "TextMessage" | "MultiModalMessage" | "StructuredMessage")
        && s(m, "source") != "user"
}

/// What `viewer`'s model context holds of the thread before entry `upto`, rebuilt the way
/// AgentChat's AssistantAgent builds it: its own tool calls, results and replies; the other
/// agents' chat messages as user messages (a HandoffMessage's `context` first); no events of
/// others.
fn rebuilt(thread: &[Value], upto: usize, viewer: &str) -> Vec<MsgRec> {
    let mut out = vec![];
    for m in &thread[..upto] {
        let (t, source) = (s(m, "type"), s(m, "source"));
        let content = m.get("content").unwrap_or(&Value::Null);
        if source == viewer {
            match t {
                "ToolCallRequestEvent" => {
                    out.push(MsgRec { role: Role::Assistant, calls: calls_of(content), ..Default::default() })
                }
                "ToolCallExecutionEvent" => out.extend(results_of(content).into_iter().map(|(id, _, text)| MsgRec {
                    role: Role::Tool,
                    text,
                    call_id: Some(id),
                    ..Default::default()
                })),
                "TextMessage" | "MultiModalMessage" | "StructuredMessage" => {
                    out.push(MsgRec::text(Role::Assistant, text_of(content)))
                }
                _ => {}
            }
        } else if CHAT.contains(&t) {
            if t == "HandoffMessage" {
                for c in m.get("context").and_then(Value::as_array).into_iter().flatten() {
                    out.extend(llm_message(c));
                }
            }
            out.push(MsgRec { role: Role::User, text: text_of(content), author: author(source), ..Default::default() });
        }
    }
    out
}

/// A manager's copy of the thread: every chat message, from its author.
fn manager_view(thread: &[Value], upto: usize) -> Vec<MsgRec> {
    thread[..upto]
        .iter()
        .filter(|m| CHAT.contains(&s(m, "type")))
        .map(|m| MsgRec {
            role: Role::User,
            text: text_of(m.get("content").unwrap_or(&Value::Null)),
            author: author(s(m, "source")),
            ..Default::default()
        })
        .collect()
}

/// The recorded run of a `TaskResult` or a `TeamState`.
pub fn to_run(v: &Value) -> Result<RecordedRun, String> {
    let obj = v.as_object().ok_or("not a JSON object")?;
    let mut notes = vec![];
    // (thread, saved model contexts by agent, the manager's name and state type, stop reason)
    let (thread, contexts, manager, stop) = if is_team_state(obj) {
        let states =
            obj.get("agent_states").and_then(Value::as_object).ok_or("the team state has no `agent_states`")?;
        let (mname, mstate) = states
            .iter()
            .find(|(_, st)| st.get("message_thread").is_some_and(Value::is_array))
            .ok_or("the team state has no manager state with a `message_thread`")?;
        let contexts: HashMap<String, Vec<Value>> = states
            .iter()
            .filter(|(k, _)| *k != mname)
            .filter_map(|(k, st)| {
                st.pointer("/agent_state/llm_context/messages")
                    .and_then(Value::as_array)
                    .map(|a| (k.clone(), a.clone()))
            })
            .collect();
        notes.push(
            "a team state keeps each agent's model context as it was at the end (llm_context, no system message): each \
             model call's input is the part of that context before the call's reply (a buffered or token-limited \
             context sent only its last window of it)"
                .to_owned(),
        );
        let thread = mstate["message_thread"].as_array().cloned().unwrap_or_default();
        (thread, contexts, Some((mname.clone(), s(mstate, "type").to_owned())), None)
    } else {
        let thread =
            obj.get("messages").and_then(Value::as_array).cloned().ok_or("the record has no `messages` list")?;
        notes.push(
            "an AutoGen TaskResult keeps the team's messages and events, not the model requests: each agent's input was \
             rebuilt the way AgentChat builds it (its own tool calls, results and replies; the other agents' chat \
             messages as user messages); system messages and tool definitions are not recorded"
                .to_owned(),
        );
        (thread, HashMap::new(), None, obj.get("stop_reason").and_then(Value::as_str).map(str::to_owned))
    };
    if thread.is_empty() {
        return Err("the run has no messages".into());
    }
    let swarm = thread.iter().any(|m| s(m, "type") == "HandoffMessage")
        || manager.as_ref().is_some_and(|(_, t)| t.starts_with("Swarm"));
    let speakers: Vec<String> = {
        let mut v: Vec<String> = vec![];
        for m in &thread {
            let src = s(m, "source");
            if src != "user" && !src.is_empty() && !v.iter().any(|x| x == src) {
                v.push(src.to_owned());
            }
        }
        v
    };
    // A team whose manager gives the turn: its name from the state, else a placeholder.
    let turn_manager = (!swarm && speakers.len() > 1).then(|| match &manager {
        Some((n, _)) => n.clone(),
        None => {
            notes.push(
                "the TaskResult does not name the team's manager: it is shown as group_chat_manager, giving each \
                 speaker its turn"
                    .into(),
            );
            "group_chat_manager".to_owned()
        }
    });

    let mut events = vec![];
    let mut own_calls: HashMap<String, usize> = HashMap::new();
    let mut thoughts: HashMap<String, Vec<String>> = HashMap::new();
    let mut call_args: HashMap<String, String> = HashMap::new();
    let mut fallback: Vec<String> = vec![];
    let mut skipped: Vec<String> = vec![];
    let mut open: Option<String> = None;
    let mut end = stop;
    let input_of = |agent: &str, upto: usize, k: usize, fallback: &mut Vec<String>| -> Vec<MsgRec> {
        if let Some(ctx) = contexts.get(agent) {
            let at = ctx.iter().enumerate().filter(|(_, m)| s(m, "type") == "AssistantMessage").nth(k).map(|(i, _)| i);
            match at {
                Some(at) => return ctx[..at].iter().flat_map(llm_message).collect(),
                None => {
                    if !fallback.iter().any(|x| x == agent) {
                        fallback.push(agent.to_owned());
                    }
                }
            }
        }
        rebuilt(&thread, upto, agent)
    };
    for (i, m) in thread.iter().enumerate() {
        let (t, source) = (s(m, "type"), s(m, "source").to_owned());
        let content = m.get("content").unwrap_or(&Value::Null);
        if source == "user" || source.is_empty() {
            if CHAT.contains(&t) && t != "StopMessage" {
                events.push(Ev::Input(vec![MsgRec::text(Role::User, text_of(content))]));
            }
            continue;
        }
        if let Some(mgr) = &turn_manager {
            let speaks = is_model_output(m) || t == "ToolCallExecutionEvent" || t == "ToolCallSummaryMessage";
            if source != *mgr && speaks && open.as_deref() != Some(source.as_str()) {
                if let Some(prev) = open.take() {
                    events.push(Ev::Return { from: prev, to: mgr.clone() });
                }
                events.push(Ev::Context { agent: mgr.clone(), messages: manager_view(&thread, i) });
                events.push(Ev::Transfer {
                    kind: EdgeKind::Delegation,
                    from: mgr.clone(),
                    to: source.clone(),
                    policy: None,
                });
                open = Some(source.clone());
            }
        }
        match t {
            "ThoughtEvent" => thoughts.entry(source.clone()).or_default().push(text_of(content)),
            "ToolCallRequestEvent" | "TextMessage" | "MultiModalMessage" | "StructuredMessage" => {
                let k = *own_calls.get(&source).unwrap_or(&0);
                own_calls.insert(source.clone(), k + 1);
                let input = input_of(&source, i, k, &mut fallback);
                let reasoning = thoughts.remove(&source).unwrap_or_default();
                let out = if t == "ToolCallRequestEvent" {
                    let calls = calls_of(content);
                    for c in &calls {
                        call_args.insert(c.id.clone(), c.arguments.clone());
                    }
                    MsgRec { role: Role::Assistant, calls, reasoning, ..Default::default() }
                } else {
                    MsgRec { role: Role::Assistant, text: text_of(content), reasoning, ..Default::default() }
                };
                events.push(Ev::Model {
                    held: Default::default(),
                    agent: source.clone(),
                    input: Some(input),
                    output: vec![out],
                    usage: usage_of(m),
                    model: None,
                    time: None,
                });
            }
            "ToolCallExecutionEvent" => {
                for (id, name, out) in results_of(content) {
                    let arguments = call_args.get(&id).cloned().unwrap_or_else(|| "{}".into());
                    events.push(Ev::Tool {
                        agent: source.clone(),
                        name,
                        call_id: Some(id),
                        arguments,
                        output: Some(out),
                        time: None,
                    });
                }
            }
            "HandoffMessage" => {
                let target = s(m, "target").to_owned();
                if target.is_empty() || target == "user" {
                    end = Some(format!("{source} handed the conversation back to the user"));
                } else {
                    events.push(Ev::Transfer {
                        kind: EdgeKind::Handoff,
                        from: source.clone(),
                        to: target,
                        policy: None,
                    });
                }
            }
            "ToolCallSummaryMessage" | "StopMessage" => {}
            other if QUIET.contains(&other) => {}
            other => {
                if !skipped.iter().any(|x| x == other) {
                    skipped.push(other.to_owned());
                }
            }
        }
    }
    if let (Some(mgr), Some(prev)) = (&turn_manager, open.take()) {
        events.push(Ev::Return { from: prev, to: mgr.clone() });
        events.push(Ev::Context { agent: mgr.clone(), messages: manager_view(&thread, thread.len()) });
    }
    if !fallback.is_empty() {
        notes.push(format!(
            "the saved model context of {} has fewer replies than the thread: the rest of its inputs were rebuilt",
            fallback.join(", ")
        ));
    }
    if !skipped.is_empty() {
        notes.push(format!("message types not read: {}", skipped.join(", ")));
    }
    let speaker =
        manager.as_ref().and_then(|(n, _)| obj.get("agent_states")?.get(n)).map(|st| s(st, "current_speaker"));
    if let (None, Some(speaker)) = (&end, speaker.filter(|x| !x.is_empty())) {
        end = Some(format!("the team state was saved with {speaker} as the current speaker"));
    }
    let stamp = |m: &Value| s(m, "created_at").to_owned();
    let mut names: Vec<String> = turn_manager.iter().cloned().collect();
    names.extend(speakers);
    let agent_ids = agent_ids(&names);
    Ok(RecordedRun {
        id: s(&thread[0], "id").to_owned(),
        name: if swarm { "AutoGen Swarm".into() } else { "AutoGen team".into() },
        started_at: thread.first().map(stamp).unwrap_or_default(),
        ended_at: thread.last().map(stamp).unwrap_or_default(),
        events,
        notes,
        agent_ids,
        agents: turn_manager.into_iter().collect(),
        end,
        ..Default::default()
    })
}

//! Group-chat message histories, the only record many multi-agent runs leave (the Who&When
//! failure-attribution benchmark is made of them): AG2 / AutoGen 0.2 group chats
//! (`{history: [{content, role, name}], ...}`, also an AG2 `ChatResult`'s `chat_history`) and
//! Magentic-One orchestrator logs (`{history: [{content, role}]}` with roles `human`,
//! `Orchestrator (thought)`, `Orchestrator (-> WebSurfer)`, `WebSurfer`). A manager keeps
//! ownership and gives the turn: each run of consecutive messages by one speaker is a
//! delegation manager → speaker, closed by a return. What each model saw is rebuilt from the
//! shared history (the files keep messages, not model requests), and the benchmark's labels
//! stay with the run (`source.labels`).

use super::messages::content_text;
use super::recorded::{Ev, MsgRec, RecordedRun, Role};
use crate::topology::{EdgeKind, snake_case};
use serde_json::{Map, Value};
use std::collections::{HashMap, HashSet};

/// AG2's default `GroupChatManager` name (the files never write it).
pub const AG2_MANAGER: &str = "chat_manager";
/// Magentic-One's orchestrator, when no role names it.
pub const MAGENTIC_MANAGER: &str = "Orchestrator";

/// The message list of a group-chat record (`history`, or an AG2 `ChatResult`'s `chat_history`).
fn history_of(v: &Value) -> Option<&Vec<Value>> {
    v.get("history").or_else(|| v.get("chat_history")).and_then(Value::as_array)
}

/// Whether a record looks like a group-chat history: messages with `content` and a `role`
/// (or `name`), nothing of the span and event formats.
pub fn looks_like(m: &Map<String, Value>) -> bool {
    let Some(h) = m.get("history").or_else(|| m.get("chat_history")).and_then(Value::as_array) else {
        return false;
    };
    match h.first() {
        None => m.contains_key("history"),
        Some(Value::Object(first)) => {
            first.contains_key("content")
                && (first.get("role").is_some_and(Value::is_string) || first.get("name").is_some_and(Value::is_string))
        }
        Some(_) => false,
    }
}

/// Agent ids by name: snake_case, made unique when two names fold to one id
/// (`Verification_Expert` and `verification expert`).
pub(super) fn agent_ids<'a>(names: impl IntoIterator<Item = &'a String>) -> HashMap<String, String> {
    let mut taken = HashSet::new();
    let mut out = HashMap::new();
    for n in names {
        if out.contains_key(n) {
            continue;
        }
        let base = snake_case(n);
        let mut id = base.clone();
        let mut k = 2;
        while !taken.insert(id.clone()) {
            id = format!("{base}_{k}");
            k += 1;
        }
        out.insert(n.clone(), id);
    }
    out
}

/// The benchmark's fields (everything but the history and the prompts), verbatim.
fn labels_of(v: &Value) -> Map<String, Value> {
    v.as_object()
        .map(|m| {
            m.iter()
                .filter(|(k, _)| !matches!(k.as_str(), "history" | "chat_history" | "system_prompt"))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect()
        })
        .unwrap_or_default()
}

fn label_str(labels: &Map<String, Value>, k: &str) -> Option<String> {
    match labels.get(k)? {
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

fn cut(s: &str, n: usize) -> String {
    let s = s.trim();
    match s.char_indices().nth(n) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_owned(),
    }
}

/// A note naming the benchmark's failure attribution, when the file has one.
fn label_note(labels: &Map<String, Value>, first_turn: usize) -> Option<String> {
    let agent = label_str(labels, "mistake_agent")?;
    let step = label_str(labels, "mistake_step").unwrap_or_else(|| "?".into());
    let reason = label_str(labels, "mistake_reason").map(|r| format!(": {}", cut(&r, 240))).unwrap_or_default();
    Some(format!(
        "benchmark label: the decisive mistake is {agent}'s, at history[{step}]{reason} (model call k of this trace, \
         counting from 0, is history[k + {first_turn}]; all labels are in source.labels)"
    ))
}

/// True when a message says nothing but TERMINATE (`TERMINATE`, `**TERMINATE**`).
fn only_terminate(text: &str) -> bool {
    let letters: String = text.chars().filter(|c| c.is_alphanumeric()).collect();
    letters == "TERMINATE"
}

/// AG2's automatic reply of a code executor given no code ("There is no code from the last 1
/// message for me to execute. Group chat manager should let other participants to continue
/// ..."): a turn, never an answer.
fn no_code_reply(text: &str) -> bool {
    text.trim_start().starts_with("There is no code from the last")
}

/// The recorded run of one group-chat record.
pub fn to_run(v: &Value) -> Result<RecordedRun, String> {
    let history = history_of(v).ok_or("the record has no `history` list")?;
    if history.is_empty() {
        return Err("the history has no messages".into());
    }
    let mut msgs = vec![];
    for (i, m) in history.iter().enumerate() {
        let obj = m.as_object().ok_or_else(|| format!("history[{i}] is not an object"))?;
        let text = content_text(obj.get("content").unwrap_or(&Value::Null));
        let role = obj.get("role").and_then(Value::as_str).unwrap_or_default().to_owned();
        let name = obj.get("name").and_then(Value::as_str).map(str::to_owned);
        msgs.push(Message { role, name, text });
    }
    let magentic = msgs.iter().all(|m| m.name.is_none())
        && msgs.iter().any(|m| m.role == "human" || parse_role(&m.role).1.is_some());
    let labels = labels_of(v);
    let mut run = if magentic { magentic_one(&msgs) } else { ag2(&msgs, v) };
    let first_turn = 1;
    if let Some(n) = label_note(&labels, first_turn) {
        run.notes.push(n);
    }
    run.id = label_str(&labels, "question_ID").unwrap_or_default();
    if let Some(q) = label_str(&labels, "question") {
        run.name = format!("{}: {}", run.name, cut(&q, 60));
    }
    run.labels = labels;
    let names: Vec<String> = run
        .agents
        .iter()
        .cloned()
        .chain(run.events.iter().filter_map(|e| match e {
            Ev::Model { agent, .. } => Some(agent.clone()),
            Ev::Transfer { to, .. } => Some(to.clone()),
            _ => None,
        }))
        .collect();
    run.agent_ids = agent_ids(&names);
    Ok(run)
}

struct Message {
    role: String,
    name: Option<String>,
    text: String,
}

/// `Orchestrator (-> WebSurfer)` → ("Orchestrator", Some("-> WebSurfer")); `WebSurfer` → ("WebSurfer", None).
fn parse_role(role: &str) -> (&str, Option<&str>) {
    match role.split_once(" (") {
        Some((name, rest)) if rest.ends_with(')') => (name.trim(), Some(rest[..rest.len() - 1].trim())),
        _ => (role.trim(), None),
    }
}

/// One speaker's view of the shared history: its own messages as its replies, everyone
/// else's as user messages from their author.
fn view(shared: &[(Option<String>, String)], viewer: &str) -> Vec<MsgRec> {
    shared
        .iter()
        .map(|(author, text)| match author {
            Some(a) if a == viewer => MsgRec::text(Role::Assistant, text.clone()),
            a => MsgRec { role: Role::User, text: text.clone(), author: a.clone(), ..Default::default() },
        })
        .collect()
}

fn reply(text: &str) -> Vec<MsgRec> {
    vec![MsgRec::text(Role::Assistant, text.to_owned())]
}

/// AG2 (AutoGen 0.2) group chat: `history[0]` is the message a member opened the chat with
/// (sent to the manager); every later message is a turn of its `name`, and every member saw
/// the whole history (the manager broadcasts each message to all).
fn ag2(msgs: &[Message], v: &Value) -> RecordedRun {
    let manager = AG2_MANAGER.to_owned();
    let speaker = |m: &Message| m.name.clone().filter(|n| !n.is_empty()).unwrap_or_else(|| m.role.clone());
    let prompts: HashMap<String, String> = v
        .get("system_prompt")
        .and_then(Value::as_object)
        .map(|m| m.iter().filter_map(|(k, v)| v.as_str().map(|s| (k.clone(), s.to_owned()))).collect())
        .unwrap_or_default();
    let opener = speaker(&msgs[0]);
    let mut events = vec![Ev::Input(vec![MsgRec {
        role: Role::User,
        text: msgs[0].text.clone(),
        author: Some(opener.clone()),
        ..Default::default()
    }])];
    let mut shared: Vec<(Option<String>, String)> = vec![(Some(opener.clone()), msgs[0].text.clone())];
    let mut open: Option<String> = None;
    for m in &msgs[1..] {
        let who = speaker(m);
        if open.as_deref() != Some(who.as_str()) {
            if let Some(prev) = open.take() {
                events.push(Ev::Return { from: prev, to: manager.clone() });
            }
            events.push(Ev::Context { agent: manager.clone(), messages: view(&shared, &manager) });
            events.push(Ev::Transfer {
                kind: EdgeKind::Delegation,
                from: manager.clone(),
                to: who.clone(),
                policy: None,
            });
            open = Some(who.clone());
        }
        let mut input = vec![];
        if let Some(p) = prompts.get(&who) {
            input.push(MsgRec::text(Role::System, p.clone()));
        }
        input.extend(view(&shared, &who));
        events.push(Ev::Model {
            held: Default::default(),
            agent: who.clone(),
            input: Some(input),
            output: reply(&m.text),
            usage: None,
            model: None,
            time: None,
        });
        shared.push((Some(who), m.text.clone()));
    }
    if let Some(prev) = open.take() {
        events.push(Ev::Return { from: prev, to: manager.clone() });
    }
    events.push(Ev::Context { agent: manager.clone(), messages: view(&shared, &manager) });
    let n = msgs.len() - 1;
    let last = &msgs[n];
    let terminated = last.text.contains("TERMINATE");
    let (final_output, end) = if terminated {
        let answer = msgs[1..]
            .iter()
            .rev()
            .find(|m| !only_terminate(&m.text) && !no_code_reply(&m.text))
            .map(|m| m.text.clone());
        (answer, format!("{} ended the chat with TERMINATE (history[{n}])", speaker(last)))
    } else {
        (
            None,
            format!(
                "the history ends at history[{n}] ({}) without TERMINATE: the chat was cut off or reached its round limit",
                speaker(last)
            ),
        )
    };
    let mut notes = vec![
        format!(
            "an AG2 group chat history keeps the messages, not the model requests: each speaker's input was rebuilt as \
             its system prompt and the whole history before its turn (its own messages as its replies, the others' as \
             user messages), as the group chat manager broadcasts every message; the manager is shown under AG2's \
             default name {AG2_MANAGER} (the file does not name it) and its speaker selection is not recorded"
        ),
        format!("history[0] is the message {opener} opened the chat with: the run's input, not a turn"),
    ];
    if prompts.is_empty() {
        notes.push("no system prompts were recorded".into());
    }
    RecordedRun {
        name: "AG2 group chat".into(),
        events,
        notes,
        agents: vec![manager, opener],
        final_output: Some(final_output),
        end: Some(end),
        ..Default::default()
    }
}

/// The last Python traceback in a message (a Magentic-One console tail): whether it was raised
/// in the orchestrator's code (else in a worker's), and its exception line, cut short.
fn traceback_error(text: &str) -> Option<(bool, String)> {
    let at = text.rfind("Traceback (most recent call last):")?;
    let tb = &text[at..];
    let error = tb
        .lines()
        .enumerate()
        .find(|(i, l)| *i > 0 && !l.is_empty() && !l.starts_with(char::is_whitespace))
        .map(|(_, l)| l)?;
    let frame = "autogen_magentic_one/agents/";
    let in_orchestrator = tb
        .rfind(frame)
        .map(|i| tb[i + frame.len()..].split(".py").next().unwrap_or_default().contains("orchestrator"))
        .unwrap_or(true);
    Some((in_orchestrator, cut(error, 300)))
}

/// The `FINAL ANSWER:` line a Magentic-One scenario prints at the end of its console.
fn final_answer(msgs: &[Message]) -> Option<String> {
    msgs.iter().rev().find_map(|m| {
        let at = m.text.rfind("FINAL ANSWER:")?;
        Some(m.text[at..].lines().next().unwrap_or_default().trim().to_owned())
    })
}

/// Magentic-One: the orchestrator logs its thoughts (plan, ledger, "Next speaker X"), its
/// instruction to the next speaker (`Orchestrator (-> X)`, broadcast to all) and, at the end, its
/// termination condition; each worker's reply follows. The orchestrator's model input is its
/// chat history (the task, its plan and instructions, the workers' replies; never its ledgers);
/// a worker's is the broadcast history since the last reset (a replan resets every worker and
/// broadcasts the new plan).
fn magentic_one(msgs: &[Message]) -> RecordedRun {
    let manager = msgs
        .iter()
        .map(|m| parse_role(&m.role))
        .find(|(_, s)| s.is_some_and(|s| s.starts_with("->") || s == "thought"))
        .map(|(n, _)| n.to_owned())
        .unwrap_or_else(|| MAGENTIC_MANAGER.to_owned());
    let mut events = vec![];
    // The orchestrator's chat history, and the broadcast history the workers hold.
    let mut own: Vec<MsgRec> = vec![];
    let mut shared: Vec<(Option<String>, String)> = vec![];
    // Instructed, not yet speaking (the "Next speaker" line may come between); speaking.
    let mut pending: Option<(String, usize)> = None;
    let mut open: Option<String> = None;
    let mut unanswered = vec![];
    let mut termination: Option<String> = None;
    let mut uninstructed = vec![];

    // Closes an instruction nobody answered: the worker got the broadcast, then the turn passed.
    let close_pending = |pending: &mut Option<(String, usize)>,
                         events: &mut Vec<Ev>,
                         shared: &[(Option<String>, String)],
                         unanswered: &mut Vec<String>| {
        if let Some((x, at)) = pending.take() {
            events.push(Ev::Transfer {
                kind: EdgeKind::Delegation,
                from: manager.clone(),
                to: x.clone(),
                policy: None,
            });
            events.push(Ev::Context { agent: x.clone(), messages: view(shared, &x) });
            events.push(Ev::Return { from: x.clone(), to: manager.clone() });
            unanswered.push(format!("{x} (history[{at}])"));
        }
    };
    for (i, m) in msgs.iter().enumerate() {
        let (name, suffix) = parse_role(&m.role);
        if m.role == "human" || m.role == "user" {
            if let Some(x) = open.take() {
                events.push(Ev::Return { from: x, to: manager.clone() });
            }
            close_pending(&mut pending, &mut events, &shared, &mut unanswered);
            events.push(Ev::Input(vec![MsgRec::text(Role::User, m.text.clone())]));
            own.push(MsgRec::text(Role::User, m.text.clone()));
            shared.push((None, m.text.clone()));
            continue;
        }
        if name == manager {
            if let Some(x) = open.take() {
                events.push(Ev::Return { from: x, to: manager.clone() });
            }
            let suffix = suffix.unwrap_or("thought");
            let next_speaker = m.text.trim_start().starts_with("Next speaker");
            if !next_speaker {
                close_pending(&mut pending, &mut events, &shared, &mut unanswered);
            }
            events.push(Ev::Model {
                held: Default::default(),
                agent: manager.clone(),
                input: Some(own.clone()),
                output: reply(&m.text),
                usage: None,
                model: None,
                time: None,
            });
            if let Some(x) = suffix.strip_prefix("->") {
                let x = x.trim().to_owned();
                own.push(MsgRec::text(Role::Assistant, m.text.clone()));
                shared.push((Some(manager.clone()), m.text.clone()));
                pending = Some((x, i));
            } else if suffix == "termination condition" {
                termination = Some(m.text.lines().next().unwrap_or_default().trim().to_owned());
            } else {
                let t = m.text.trim_start();
                let plan = t
                    .strip_prefix("Initial plan:")
                    .map(|p| (false, p))
                    .or_else(|| t.strip_prefix("New plan:").map(|p| (true, p)));
                if let Some((replan, p)) = plan {
                    let p = p.strip_prefix('\n').unwrap_or(p).to_owned();
                    if replan {
                        own.truncate(1);
                        shared.clear();
                    }
                    own.push(MsgRec::text(Role::Assistant, p.clone()));
                    shared.push((Some(manager.clone()), p));
                }
            }
            continue;
        }
        // A worker's reply.
        let who = name.to_owned();
        if open.as_deref() != Some(who.as_str()) {
            if let Some(x) = open.take() {
                events.push(Ev::Return { from: x, to: manager.clone() });
            }
            match pending.take() {
                Some((x, _)) if x == who => {}
                other => {
                    pending = other;
                    close_pending(&mut pending, &mut events, &shared, &mut unanswered);
                    uninstructed.push(format!("history[{i}]"));
                }
            }
            events.push(Ev::Transfer {
                kind: EdgeKind::Delegation,
                from: manager.clone(),
                to: who.clone(),
                policy: None,
            });
            open = Some(who.clone());
        }
        events.push(Ev::Model {
            held: Default::default(),
            agent: who.clone(),
            input: Some(view(&shared, &who)),
            output: reply(&m.text),
            usage: None,
            model: None,
            time: None,
        });
        own.push(MsgRec { role: Role::User, text: m.text.clone(), author: Some(who.clone()), ..Default::default() });
        shared.push((Some(who), m.text.clone()));
    }
    let last = msgs.len() - 1;
    // A log that stops with no termination condition on a traceback: the run died there, in the
    // orchestrator's code or in the worker it had turned to.
    let crash = termination.is_none().then(|| traceback_error(&msgs[last].text)).flatten().map(|(orch, e)| {
        let worker = pending.as_ref().map(|(x, _)| x.clone()).or_else(|| open.clone());
        (if orch { None } else { worker }.unwrap_or_else(|| manager.clone()), e)
    });
    if let Some(x) = open.take() {
        events.push(Ev::Return { from: x, to: manager.clone() });
    }
    close_pending(&mut pending, &mut events, &shared, &mut unanswered);
    if let Some((agent, message)) = crash {
        events.push(Ev::Error { agent, message });
    }
    let mut notes = vec![format!(
        "a Magentic-One log keeps the orchestrator's thoughts, instructions and the workers' replies, not the model \
         requests: {manager}'s input was rebuilt as its chat history (the task, its plan and instructions, the workers' \
         replies; its ledgers are not in it), each worker's as the broadcast history since the last replan (which resets \
         every worker); the thoughts (\"Next speaker X\", ledgers, \"Request satisfied.\") are shown as {manager} model calls"
    )];
    if !unanswered.is_empty() {
        notes.push(format!("instructed, never answered: {}", unanswered.join(", ")));
    }
    if !uninstructed.is_empty() {
        notes.push(format!("a worker spoke with no instruction to it at {}", uninstructed.join(", ")));
    }
    let end = match termination {
        Some(t) => format!("{manager} (termination condition): {t}"),
        None => format!("the log ends at history[{last}] ({}) with no termination condition", msgs[last].role),
    };
    RecordedRun {
        name: "Magentic-One".into(),
        events,
        notes,
        agents: vec![manager],
        final_output: Some(final_answer(msgs)),
        end: Some(end),
        ..Default::default()
    }
}

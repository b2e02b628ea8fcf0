//! What every importer produces: a format-neutral recording of one run (model calls with the
//! messages they saw when the source kept them, tool executions, transfers), which
//! `reconstruct` turns into a native trace with the same diffs as a Baton run.

use crate::providers::Usage;
use crate::topology::EdgeKind;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Role {
    System,
    #[default]
    User,
    Assistant,
    Tool,
}

/// A tool call inside an assistant message.
#[derive(Debug, Clone, PartialEq)]
pub struct CallRec {
    pub id: String,
    pub name: String,
    pub arguments: String,
}

/// One message as the source recorded it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MsgRec {
    pub role: Role,
    pub text: String,
    /// Tool calls (assistant messages).
    pub calls: Vec<CallRec>,
    /// The call a tool message answers.
    pub call_id: Option<String>,
    /// Who wrote it, when the source says (ADK's `author`).
    pub author: Option<String>,
    /// Reasoning the model recorded beside its answer.
    pub reasoning: Vec<String>,
    /// The messages this one quotes, when the framework rewrote them into it (ADK's "For
    /// context:" user message quotes another agent's turn): its items derive from theirs.
    pub quotes: Vec<MsgRec>,
}

impl MsgRec {
    pub fn text(role: Role, text: impl Into<String>) -> MsgRec {
        MsgRec { role, text: text.into(), ..Default::default() }
    }
}

/// A conversation the provider keeps (OpenAI Responses' `previous_response_id`, a server-side
/// conversation): the call's recorded input then holds only the new items.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Held {
    /// The id the provider gave this call's response.
    pub response_id: Option<String>,
    /// The earlier response (or conversation) this call continues.
    pub continues: Option<String>,
}

/// When a recorded call ran: Unix-epoch nanoseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CallTime {
    pub start_ns: i64,
    pub end_ns: i64,
}

impl CallTime {
    /// From a source's start and end in nanoseconds; None when the source kept no time.
    pub fn of(start_ns: i128, end_ns: i128) -> Option<CallTime> {
        (start_ns > 0 && end_ns >= start_ns).then_some(CallTime { start_ns: start_ns as i64, end_ns: end_ns as i64 })
    }

    /// From RFC 3339 times in UTC (`…Z`, `…+00:00` or none, as Python's `isoformat()` writes).
    pub fn of_rfc3339(start: &str, end: &str) -> Option<CallTime> {
        CallTime::of(rfc3339_nanos(start)?, rfc3339_nanos(end)?)
    }
}

/// Nanoseconds since the epoch of an RFC 3339 time in UTC; None when unreadable.
pub fn rfc3339_nanos(t: &str) -> Option<i128> {
    let t = t.trim();
    let t = t.strip_suffix("+00:00").or_else(|| t.strip_suffix('Z')).unwrap_or(t);
    let at = humantime::parse_rfc3339_weak(t).ok()?;
    Some(at.duration_since(std::time::UNIX_EPOCH).ok()?.as_nanos() as i128)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_and_rust_utc_times_read_alike() {
        let py = rfc3339_nanos("2025-01-01T00:16:40.009000+00:00").unwrap();
        let rs = rfc3339_nanos("2025-01-01T00:16:40.009000Z").unwrap();
        assert_eq!(py, rs);
        assert_eq!(py, 1_735_690_600_009_000_000);
        assert_eq!(rfc3339_nanos("yesterday"), None);
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Ev {
    /// The user's input to the run.
    Input(Vec<MsgRec>),
    /// An agent's model call; `input` is None when the source kept no content.
    Model {
        agent: String,
        input: Option<Vec<MsgRec>>,
        output: Vec<MsgRec>,
        usage: Option<Usage>,
        model: Option<String>,
        /// The provider-side conversation this call belongs to, when the source says.
        held: Held,
        /// When the call ran, when the source says.
        time: Option<CallTime>,
    },
    /// A tool the agent ran (its call may also be in the model output).
    Tool {
        agent: String,
        name: String,
        call_id: Option<String>,
        arguments: String,
        output: Option<String>,
        time: Option<CallTime>,
    },
    /// A handoff or a delegation (`policy` when the source names it).
    Transfer { kind: EdgeKind, from: String, to: String, policy: Option<String> },
    /// The end of a delegation: the nested agent's answer returns to the caller.
    Return { from: String, to: String },
    /// An error the source recorded.
    Error { agent: String, message: String },
    /// What an agent holds at this point without making a model call (a group-chat manager's
    /// copy of the shared history): the sender side of its next transfer.
    Context { agent: String, messages: Vec<MsgRec> },
}

/// One recorded run.
#[derive(Debug, Clone, Default)]
pub struct RecordedRun {
    pub id: String,
    pub name: String,
    pub started_at: String,
    pub ended_at: String,
    pub events: Vec<Ev>,
    /// What the source did not record, and other caveats, shown with the run.
    pub notes: Vec<String>,
    /// Agent ids by name, when the source records them (else ids are snake_case names).
    pub agent_ids: std::collections::HashMap<String, String>,
    /// Pinned facts the source carries (a trace Baton exported), used when no overlay is given.
    pub facts: Vec<crate::topology::PinnedFact>,
    /// Agents the source names before any of them acts (a group chat's manager, the member who
    /// opened the chat): listed first, in this order.
    pub agents: Vec<String>,
    /// The run's answer when the source states it apart from the model outputs (the message a
    /// group chat ended on, a console's `FINAL ANSWER:` line); `Some(None)` when the source
    /// shows the run ended without one (a chat cut off). `None`: the last answer of the owner.
    pub final_output: Option<Option<String>>,
    /// Why the run ended, when the source says (a stop reason, a termination condition).
    pub end: Option<String>,
    /// Tools whose calls handed the turn on (beside `transfer_to_*`), as the source showed them.
    pub transfer_tools: Vec<String>,
    /// Labels the source file carries about the run (a benchmark's ground truth and failure
    /// attribution), kept verbatim in the trace's `source.labels`.
    pub labels: serde_json::Map<String, serde_json::Value>,
}

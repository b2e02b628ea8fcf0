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
    },
    /// A tool the agent ran (its call may also be in the model output).
    Tool { agent: String, name: String, call_id: Option<String>, arguments: String, output: Option<String> },
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
    /// Labels the source file carries about the run (a benchmark's ground truth and failure
    /// attribution), kept verbatim in the trace's `source.labels`.
    pub labels: serde_json::Map<String, serde_json::Value>,
}

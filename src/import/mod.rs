//! Importing recorded traces from other frameworks (OpenAI Agents SDK span exports, OTLP JSON
//! with the GenAI / OpenInference conventions, Google ADK sessions, AG2 / Magentic-One group-chat
//! histories, AutoGen AgentChat task results and team states) into native traces, with
//! the same transfer diffs and fact checks as a Baton run. JSON Lines files stream: memory is
//! bounded by the largest single trace, not by the file.

mod adk;
mod ancestry;
mod autogen;
mod groupchat;
mod langfuse;
mod messages;
mod openai_agents;
pub mod otlp;
mod reconstruct;
mod recorded;

pub use ancestry::MAX_NESTING;
pub use reconstruct::reconstruct;
pub use recorded::{CallRec, Ev, MsgRec, RecordedRun, Role};

use crate::topology::Topology;
use crate::trace::Trace;
use serde_json::Value;
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

/// What a user asks an import to read: a named format, or `auto` to tell it from the content.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize, ts_rs::TS, clap::ValueEnum,
)]
#[serde(rename_all = "kebab-case")]
pub enum TraceFormat {
    #[default]
    Auto,
    /// OpenAI Agents SDK span exports.
    OpenaiAgents,
    /// OTLP JSON (GenAI and OpenInference conventions).
    Otlp,
    /// Google ADK sessions.
    Adk,
    /// AG2 / AutoGen 0.2 group-chat histories and Magentic-One logs (`{history: [...]}`).
    GroupChat,
    /// AutoGen AgentChat task results and team states.
    Autogen,
    /// Langfuse trace exports (`{trace, observations}`).
    Langfuse,
}

impl TraceFormat {
    /// The format to read, `None` for auto.
    pub fn format(self) -> Option<SourceFormat> {
        match self {
            TraceFormat::Auto => None,
            TraceFormat::OpenaiAgents => Some(SourceFormat::OpenaiAgents),
            TraceFormat::Otlp => Some(SourceFormat::Otlp),
            TraceFormat::Adk => Some(SourceFormat::Adk),
            TraceFormat::GroupChat => Some(SourceFormat::GroupChat),
            TraceFormat::Autogen => Some(SourceFormat::Autogen),
            TraceFormat::Langfuse => Some(SourceFormat::Langfuse),
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            TraceFormat::Auto => "Detect from the file",
            TraceFormat::OpenaiAgents => "OpenAI Agents SDK spans",
            TraceFormat::Otlp => "OTLP JSON (OpenTelemetry)",
            TraceFormat::Adk => "Google ADK session",
            TraceFormat::GroupChat => "Group chat history (AG2, Magentic-One)",
            TraceFormat::Autogen => "AutoGen AgentChat task result or team state",
            TraceFormat::Langfuse => "Langfuse trace export",
        }
    }
}

/// What an importer found wrong in a record (the Assembler adds the file, line and offset).
#[derive(Debug, Clone, PartialEq)]
pub struct Malformed(pub String);

impl From<String> for Malformed {
    fn from(s: String) -> Self {
        Malformed(s)
    }
}

impl From<&str> for Malformed {
    fn from(s: &str) -> Self {
        Malformed(s.to_owned())
    }
}

/// The formats Baton imports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SourceFormat {
    OpenaiAgents,
    Otlp,
    Adk,
    GroupChat,
    Autogen,
    Langfuse,
}

impl SourceFormat {
    pub fn name(self) -> &'static str {
        match self {
            SourceFormat::OpenaiAgents => "openai-agents",
            SourceFormat::Otlp => "otlp",
            SourceFormat::Adk => "adk",
            SourceFormat::GroupChat => "group-chat",
            SourceFormat::Autogen => "autogen",
            SourceFormat::Langfuse => "langfuse",
        }
    }

    fn expected(self) -> &'static str {
        match self {
            SourceFormat::OpenaiAgents => {
                "OpenAI Agents SDK span exports: `trace` / `trace.span` objects in a JSON array, an ingest body {\"data\": [...]}, or JSON Lines"
            }
            SourceFormat::Otlp => {
                "OTLP JSON: {\"resourceSpans\": [...]} (one document, or one per line as the file exporter writes)"
            }
            SourceFormat::Adk => "a Google ADK session: {\"id\", \"app_name\" or \"appName\", \"events\": [...]}",
            SourceFormat::GroupChat => {
                "a group-chat history: {\"history\": [{\"content\", \"role\", \"name\"}, ...]} (AG2, Who&When) or roles like \"Orchestrator (-> WebSurfer)\" (Magentic-One)"
            }
            SourceFormat::Langfuse => {
                "a Langfuse trace export: {\"trace\": {...}, \"observations\": [...]} (one, or a list), as its UI and public API export"
            }
            SourceFormat::Autogen => {
                "an AutoGen AgentChat TaskResult {\"messages\": [{\"type\", \"source\", \"content\"}, ...], \"stop_reason\"} or a team state {\"type\": \"TeamState\", \"agent_states\": {...}}"
            }
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error("{file}: cannot read the file: {source}")]
    Read { file: String, source: std::io::Error },
    #[error("{file}: line {line} (byte {offset}): not valid {format} input: {message}. Expected {expected}")]
    Parse { file: String, format: String, line: usize, offset: u64, message: String, expected: String },
    #[error(
        "{file}: cannot tell which format this is ({what}); Baton reads OpenAI Agents SDK span exports, OTLP JSON, \
         Langfuse trace exports, Google ADK sessions, group-chat histories (AG2, Magentic-One) and AutoGen AgentChat \
         task results or team states — pass --from openai-agents|otlp|langfuse|adk|group-chat|autogen if it is one of them"
    )]
    Unknown { file: String, what: String },
    #[error("{file}: line {line} (byte {offset}) is {found}, but the file began as {first}: one file, one format")]
    Mixed { file: String, line: usize, offset: u64, found: String, first: String },
    #[error("{file}: no runs in it ({format}): {why}")]
    Empty { file: String, format: String, why: String },
    #[error(
        "{file}: line {line} is a record larger than {max_mb} MB; Baton reads records up to that size — export the trace as JSON Lines (one request or span batch per line)"
    )]
    TooLarge { file: String, line: usize, max_mb: usize },
    #[error("{0}")]
    Store(#[from] crate::store::StoreError),
}

impl crate::error::Coded for ImportError {
    fn code(&self) -> crate::error::ErrorCode {
        use crate::error::ErrorCode as C;
        match self {
            ImportError::Read { .. } => C::ImportRead,
            ImportError::Parse { .. } => C::ImportParse,
            ImportError::Unknown { .. } => C::ImportUnknownFormat,
            ImportError::Mixed { .. } => C::ImportMixed,
            ImportError::Empty { .. } => C::ImportEmpty,
            ImportError::TooLarge { .. } => C::ImportTooLarge,
            ImportError::Store(e) => e.code(),
        }
    }
}

/// Which format a record looks like.
pub fn detect(v: &Value) -> Option<SourceFormat> {
    match v {
        Value::Object(m) if m.contains_key("resourceSpans") => Some(SourceFormat::Otlp),
        Value::Object(_) if langfuse::is_export(v) => Some(SourceFormat::Langfuse),
        Value::Object(m)
            if m.get("object").and_then(Value::as_str).is_some_and(|o| o == "trace" || o == "trace.span") =>
        {
            Some(SourceFormat::OpenaiAgents)
        }
        Value::Object(m) if m.get("data").is_some_and(Value::is_array) => {
            m["data"].as_array()?.first().and_then(detect)
        }
        Value::Object(m) if m.get("events").is_some_and(Value::is_array) => Some(SourceFormat::Adk),
        Value::Object(m) if autogen::is_task_result(m) || autogen::is_team_state(m) => Some(SourceFormat::Autogen),
        Value::Object(m) if groupchat::looks_like(m) => Some(SourceFormat::GroupChat),
        // `adk api_server`'s `/run` answer: a bare array of events.
        Value::Array(a) if a.first().is_some_and(adk::is_event) => Some(SourceFormat::Adk),
        Value::Array(a) => a.first().and_then(detect),
        _ => None,
    }
}

/// What an import did.
#[derive(Debug, Clone, Default)]
pub struct ImportSummary {
    pub format: Option<SourceFormat>,
    pub runs: usize,
    pub records: u64,
    pub bytes: u64,
    /// Traces of the file that held nothing Baton recognises (a workflow's build, a runtime's
    /// messaging), left out beside the runs it did import, each with why.
    pub skipped: Vec<String>,
}

pub type Progress<'a> = &'a mut dyn FnMut(u64, u64);

/// Collects records into traces and hands each finished run to `on_run`.
struct Assembler<'a> {
    file: String,
    format: Option<SourceFormat>,
    overlay: Option<&'a Topology>,
    sdk: HashMap<String, openai_agents::SdkTrace>,
    sdk_order: Vec<String>,
    otlp: HashMap<String, PendingTrace>,
    /// Open OTLP traces by first appearance.
    otlp_order: Vec<String>,
    /// OTLP spans read so far (the clock of the quiet rule) and spans held in `otlp`.
    otlp_seen: u64,
    otlp_held: usize,
    /// Finished traces of the current conversation: (conversation id, first trace id, spans).
    conversation: Option<(String, String, Vec<otlp::Span>)>,
    summary: ImportSummary,
}

impl<'a> Assembler<'a> {
    fn emit(
        &mut self,
        run: RecordedRun,
        on_run: &mut dyn FnMut(Trace, Topology) -> Result<(), ImportError>,
    ) -> Result<(), ImportError> {
        let format = self.format.map(SourceFormat::name).unwrap_or("auto");
        // A run with no recognised step is never saved silently.
        if !run.events.iter().any(|e| matches!(e, Ev::Model { .. } | Ev::Tool { .. } | Ev::Transfer { .. })) {
            let why = match self.format {
                Some(SourceFormat::Adk) => "the session has no events an agent wrote".to_string(),
                _ => format!(
                    "trace {} holds no model call, tool run or transfer Baton recognises ({}); it reads the GenAI, OpenInference, Vercel AI SDK and Langfuse conventions",
                    run.id,
                    run.notes.iter().find(|n| n.starts_with("saw the attribute families")).cloned().unwrap_or_default()
                ),
            };
            // An OTLP file may hold traces beside the run (a workflow's build): they are left
            // out, and the file is refused only if nothing in it is a run.
            if self.format == Some(SourceFormat::Otlp) {
                self.summary.skipped.push(why);
                return Ok(());
            }
            return Err(ImportError::Empty { file: self.file.clone(), format: format.into(), why });
        }
        let (trace, topo) = reconstruct(&run, format, &self.file, self.overlay);
        self.summary.runs += 1;
        on_run(trace, topo)
    }

    /// One record (a JSON value) at `line` / `offset`.
    fn record(
        &mut self,
        v: Value,
        line: usize,
        offset: u64,
        on_run: &mut dyn FnMut(Trace, Topology) -> Result<(), ImportError>,
    ) -> Result<(), ImportError> {
        let found = detect(&v);
        let format = match (self.format, found) {
            (None, Some(f)) => {
                self.format = Some(f);
                f
            }
            (None, None) if langfuse::is_chatml(&v) => {
                return Err(ImportError::Unknown {
                    file: self.file.clone(),
                    what: "a Langfuse ChatML rendering (`messages` only), not a trace: export the trace itself ({trace, observations}) from Langfuse".into(),
                });
            }
            (None, None) => {
                let what = match &v {
                    Value::Object(m) => {
                        format!("a JSON object with keys {}", m.keys().take(6).cloned().collect::<Vec<_>>().join(", "))
                    }
                    Value::Array(a) if a.is_empty() => "an empty JSON array".into(),
                    other => format!("a JSON {}", kind_name(other)),
                };
                return Err(ImportError::Unknown { file: self.file.clone(), what });
            }
            (Some(f), Some(g)) if f != g => {
                return Err(ImportError::Mixed {
                    file: self.file.clone(),
                    line,
                    offset,
                    found: g.name().into(),
                    first: f.name().into(),
                });
            }
            (Some(f), _) => f,
        };
        self.summary.records += 1;
        match format {
            SourceFormat::OpenaiAgents => {
                let items: Vec<Value> = match v {
                    Value::Array(a) => a,
                    Value::Object(mut m) if m.contains_key("data") && !m.contains_key("object") => {
                        match m.remove("data") {
                            Some(Value::Array(a)) => a,
                            _ => vec![],
                        }
                    }
                    other => vec![other],
                };
                for it in items {
                    let Some((id, closes)) = openai_agents::trace_of(&it) else {
                        return Err(self.parse_err(
                            format,
                            line,
                            offset,
                            "a record without `object: trace|trace.span`",
                        ));
                    };
                    if !self.sdk.contains_key(&id) {
                        self.sdk_order.push(id.clone());
                    }
                    let t = self
                        .sdk
                        .entry(id.clone())
                        .or_insert_with(|| openai_agents::SdkTrace { id: id.clone(), ..Default::default() });
                    if closes {
                        t.name = it.get("workflow_name").and_then(Value::as_str).unwrap_or_default().to_owned();
                        // The SDK exports a trace object when the trace ends, after its spans.
                        if !t.spans.is_empty() {
                            let t = self.sdk.remove(&id).expect("present");
                            self.sdk_order.retain(|x| *x != id);
                            self.emit_or_skip(openai_agents::to_run(&t), None, on_run)?;
                        }
                    } else {
                        t.spans.push(it);
                    }
                }
            }
            SourceFormat::Otlp => self.otlp_spans(otlp::spans_of(&v), on_run)?,
            SourceFormat::Langfuse => {
                // An export holds whole traces: each is complete as it is.
                let exports: Vec<&Value> = match &v {
                    Value::Array(a) => a.iter().collect(),
                    one => vec![one],
                };
                for e in exports {
                    let mut spans = langfuse::spans_of(e);
                    if spans.is_empty() {
                        continue;
                    }
                    let id = spans[0].trace_id.clone();
                    self.emit_spans(&id, &mut spans, None, on_run)?;
                }
            }
            SourceFormat::Adk => {
                let session = match v {
                    Value::Array(events) => serde_json::json!({ "id": "adk-run", "events": events }),
                    one => one,
                };
                let run = adk::to_run(&session).map_err(|m| self.parse_err(format, line, offset, &m.0))?;
                self.emit(run, on_run)?;
            }
            SourceFormat::GroupChat => {
                let run = groupchat::to_run(&v).map_err(|m| self.parse_err(format, line, offset, &m))?;
                self.emit(run, on_run)?;
            }
            SourceFormat::Autogen => {
                let run = autogen::to_run(&v).map_err(|m| self.parse_err(format, line, offset, &m))?;
                self.emit(run, on_run)?;
            }
        }
        Ok(())
    }

    /// Spans of an OTLP record, in any order. A trace is complete at the end of the input, or
    /// earlier (so a JSON Lines file streams) once its root span has arrived and no span of it
    /// came in the last [`QUIET_SPANS`] spans; past [`MAX_HELD_SPANS`] held, the trace quiet the
    /// longest is completed. That bounds memory, and only a trace whose spans lie further apart
    /// than that in a file can be split.
    fn otlp_spans(
        &mut self,
        spans: Vec<otlp::Span>,
        on_run: &mut dyn FnMut(Trace, Topology) -> Result<(), ImportError>,
    ) -> Result<(), ImportError> {
        for sp in spans {
            self.otlp_seen += 1;
            self.otlp_held += 1;
            let id = sp.trace_id.clone();
            let p = self.otlp.entry(id.clone()).or_insert_with(|| {
                self.otlp_order.push(id.clone());
                PendingTrace::default()
            });
            p.root_seen |= sp.parent.is_empty();
            p.last = self.otlp_seen;
            p.spans.push(sp);
        }
        let now = self.otlp_seen;
        let quiet: Vec<String> = self
            .otlp_order
            .iter()
            .filter(|id| self.otlp.get(*id).is_some_and(|p| p.root_seen && now - p.last > QUIET_SPANS))
            .cloned()
            .collect();
        for id in quiet {
            self.complete_otlp(&id, on_run)?;
        }
        while self.otlp_held > MAX_HELD_SPANS {
            let Some(oldest) = self.otlp_order.iter().min_by_key(|id| self.otlp[*id].last).cloned() else { break };
            self.complete_otlp(&oldest, on_run)?;
        }
        Ok(())
    }

    fn complete_otlp(
        &mut self,
        id: &str,
        on_run: &mut dyn FnMut(Trace, Topology) -> Result<(), ImportError>,
    ) -> Result<(), ImportError> {
        let Some(p) = self.otlp.remove(id) else { return Ok(()) };
        self.otlp_order.retain(|x| x != id);
        self.otlp_held -= p.spans.len();
        if !p.root_seen {
            let mut spans = p.spans;
            self.flush_conversation(on_run)?;
            let note = "no root span was found: the trace was imported from the spans present";
            return self.emit_spans(id, &mut spans, Some(note), on_run);
        }
        self.finished_otlp_trace(id.to_owned(), p.spans, on_run)
    }

    /// A complete OTLP trace: merged with the previous ones of its conversation, or a run.
    fn finished_otlp_trace(
        &mut self,
        id: String,
        mut spans: Vec<otlp::Span>,
        on_run: &mut dyn FnMut(Trace, Topology) -> Result<(), ImportError>,
    ) -> Result<(), ImportError> {
        let conv = otlp::conversation_of(&spans);
        match (&mut self.conversation, conv) {
            (Some((c, _, buf)), Some(conv)) if *c == conv => {
                buf.append(&mut spans);
                Ok(())
            }
            // A runtime's acknowledgement between the traces of one run does not end it.
            (Some((_, _, buf)), None) if otlp::is_plumbing(&spans) => {
                buf.append(&mut spans);
                Ok(())
            }
            (_, conv) => {
                self.flush_conversation(on_run)?;
                match conv {
                    Some(c) => {
                        self.conversation = Some((c, id, spans));
                        Ok(())
                    }
                    None => self.emit_spans(&id, &mut spans, None, on_run),
                }
            }
        }
    }

    fn flush_conversation(
        &mut self,
        on_run: &mut dyn FnMut(Trace, Topology) -> Result<(), ImportError>,
    ) -> Result<(), ImportError> {
        if let Some((_, id, mut spans)) = self.conversation.take() {
            self.emit_spans(&id, &mut spans, None, on_run)?;
        }
        Ok(())
    }

    /// The run of one OTLP or Langfuse trace, emitted (see [`Self::emit_or_skip`]).
    fn emit_spans(
        &mut self,
        id: &str,
        spans: &mut [otlp::Span],
        note: Option<&str>,
        on_run: &mut dyn FnMut(Trace, Topology) -> Result<(), ImportError>,
    ) -> Result<(), ImportError> {
        self.emit_or_skip(otlp::to_run(id, spans), note, on_run)
    }

    /// A span tree's run, emitted; a trace refused as it stands (spans nested past
    /// [`ancestry::MAX_NESTING`]) is left out with its reason, which the summary reports (and the
    /// import fails with when nothing else in the file is a run).
    fn emit_or_skip(
        &mut self,
        run: Result<RecordedRun, String>,
        note: Option<&str>,
        on_run: &mut dyn FnMut(Trace, Topology) -> Result<(), ImportError>,
    ) -> Result<(), ImportError> {
        match run {
            Ok(mut run) => {
                run.notes.extend(note.map(str::to_owned));
                self.emit(run, on_run)
            }
            Err(why) => {
                self.summary.skipped.push(why);
                Ok(())
            }
        }
    }

    fn parse_err(&self, f: SourceFormat, line: usize, offset: u64, message: &str) -> ImportError {
        ImportError::Parse {
            file: self.file.clone(),
            format: f.name().into(),
            line,
            offset,
            message: message.into(),
            expected: f.expected().into(),
        }
    }

    /// Traces still open at the end of the file.
    fn finish(
        &mut self,
        on_run: &mut dyn FnMut(Trace, Topology) -> Result<(), ImportError>,
    ) -> Result<(), ImportError> {
        for id in std::mem::take(&mut self.sdk_order) {
            if let Some(t) = self.sdk.remove(&id) {
                let note = "the trace's closing `trace` object is missing: it was imported from its spans";
                self.emit_or_skip(openai_agents::to_run(&t), Some(note), on_run)?;
            }
        }
        for id in self.otlp_order.clone() {
            self.complete_otlp(&id, on_run)?;
        }
        self.flush_conversation(on_run)?;
        Ok(())
    }
}

/// An OTLP trace still being read.
#[derive(Default)]
struct PendingTrace {
    spans: Vec<otlp::Span>,
    root_seen: bool,
    /// The span count when its latest span arrived.
    last: u64,
}

/// Spans after which a trace whose root has arrived counts as complete (see `otlp_spans`).
const QUIET_SPANS: u64 = 1_000;

/// The most OTLP spans an import holds before completing the trace quiet the longest.
const MAX_HELD_SPANS: usize = 1_000_000;

fn kind_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Imports from a reader. `on_run` receives each run as soon as it is complete; an error stops
/// the import (the caller discards what it kept: a partial import is never saved silently).
pub fn import_reader(
    reader: impl Read,
    file: &str,
    total: u64,
    from: Option<SourceFormat>,
    overlay: Option<&Topology>,
    progress: Option<Progress<'_>>,
    on_run: &mut dyn FnMut(Trace, Topology) -> Result<(), ImportError>,
) -> Result<ImportSummary, ImportError> {
    let mut r = BufReader::with_capacity(1 << 20, reader);
    let mut a = Assembler {
        file: file.into(),
        format: from,
        overlay,
        sdk: HashMap::new(),
        sdk_order: vec![],
        otlp: HashMap::new(),
        otlp_order: vec![],
        otlp_seen: 0,
        otlp_held: 0,
        conversation: None,
        summary: ImportSummary::default(),
    };
    let read_err = |source| ImportError::Read { file: file.into(), source };
    let mut progress = progress;
    // Sniff the first bytes: every format Baton reads is JSON (an object or an array).
    {
        let head = r.fill_buf().map_err(read_err)?;
        let head = head.strip_prefix("\u{feff}".as_bytes()).unwrap_or(head);
        let at = head.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(head.len());
        if head[at..].starts_with(b"data:") {
            // A server-sent event stream (`adk api_server`'s `/run_sse`): its `data:` lines are
            // the events, read as one ADK run.
            return import_sse(r, file, total, from, overlay, progress, on_run);
        }
        match head.iter().find(|b| !b.is_ascii_whitespace()) {
            None | Some(b'{') | Some(b'[') => {}
            Some(_) => {
                let shown: String =
                    String::from_utf8_lossy(&head[..head.len().min(40)]).chars().filter(|c| !c.is_control()).collect();
                return Err(ImportError::Unknown {
                    file: file.into(),
                    what: format!("it does not start with JSON: `{shown}`"),
                });
            }
        }
    }
    // Whitespace before the first value is streamed past, never buffered.
    let (lead, lead_lines) = skip_whitespace(&mut r).map_err(read_err)?;
    // Read the first line to tell JSON Lines (a whole value per line) from one document.
    let mut first = Vec::new();
    read_record(&mut r, &mut first, file, 1 + lead_lines)?;
    let mut offset = lead + first.len() as u64;
    let trimmed = first.trim_ascii();
    let first_value: Option<Value> = if trimmed.is_empty() { None } else { serde_json::from_slice(trimmed).ok() };
    let format_name = |a: &Assembler<'_>| a.format.map(SourceFormat::name).unwrap_or("JSON").to_owned();
    let expected = |a: &Assembler<'_>| {
        a.format
            .map(SourceFormat::expected)
            .unwrap_or(
                "JSON (an OpenAI Agents SDK export, OTLP JSON, an ADK session, a group-chat history or an AutoGen run)",
            )
            .to_owned()
    };
    match first_value {
        Some(v) => {
            // JSON Lines (or a one-line document).
            a.record(v, 1 + lead_lines, lead, on_run)?;
            let mut line_no = 1 + lead_lines;
            let mut buf = Vec::new();
            loop {
                buf.clear();
                let (blank, blank_lines) = skip_whitespace(&mut r).map_err(read_err)?;
                offset += blank;
                line_no += blank_lines;
                let n = read_record(&mut r, &mut buf, file, line_no + 1)?;
                if n == 0 {
                    break;
                }
                line_no += 1;
                let start = offset;
                offset += n as u64;
                let line = buf.trim_ascii();
                if line.is_empty() {
                    continue;
                }
                // Known OTLP: parse straight into spans; anything else takes the general path
                // (which also names a line of another format).
                let fast = (a.format == Some(SourceFormat::Otlp)).then(|| otlp::spans_from_slice(line));
                if let Some(Ok(spans)) = fast {
                    {
                        a.summary.records += 1;
                        a.otlp_spans(spans, on_run)?;
                        if let Some(p) = progress.as_mut() {
                            p(offset, total);
                        }
                        continue;
                    }
                }
                let v: Value = serde_json::from_slice(line).map_err(|e| {
                    let cut = if buf.last() != Some(&b'\n') && e.is_eof() {
                        " (the file ends mid-record: truncated?)"
                    } else {
                        ""
                    };
                    ImportError::Parse {
                        file: file.into(),
                        format: format_name(&a),
                        line: line_no,
                        offset: start + e.column().saturating_sub(1) as u64,
                        message: format!("{e}{cut}"),
                        expected: expected(&a),
                    }
                })?;
                a.record(v, line_no, start, on_run)?;
                if let Some(p) = progress.as_mut() {
                    p(offset, total);
                }
            }
        }
        None => {
            // One (multi-line) JSON document.
            let mut rest = first;
            (&mut r).take(MAX_RECORD as u64 + 1).read_to_end(&mut rest).map_err(read_err)?;
            if rest.len() > MAX_RECORD {
                return Err(ImportError::TooLarge { file: file.into(), line: 1, max_mb: MAX_RECORD >> 20 });
            }
            if rest.trim_ascii().is_empty() {
                let why = if lead == 0 {
                    "the file is empty".to_owned()
                } else {
                    format!("the file holds only whitespace ({lead} bytes) and no JSON")
                };
                return Err(ImportError::Empty { file: file.into(), format: format_name(&a), why });
            }
            let v: Value = serde_json::from_slice(&rest).map_err(|e| ImportError::Parse {
                file: file.into(),
                format: format_name(&a),
                line: e.line() + lead_lines,
                offset: lead + line_col_offset(&rest, e.line(), e.column()),
                message: e.to_string(),
                expected: expected(&a),
            })?;
            offset = lead + rest.len() as u64;
            a.record(v, 1, 0, on_run)?;
        }
    }
    a.finish(on_run)?;
    if let Some(p) = progress.as_mut() {
        p(offset, total);
    }
    a.summary.bytes = offset;
    a.summary.format = a.format;
    if a.summary.runs == 0 {
        let why = match a.summary.skipped.first() {
            Some(first) => first.clone(),
            None => "it holds no spans, traces or events".into(),
        };
        return Err(ImportError::Empty { file: file.into(), format: format_name(&a), why });
    }
    Ok(a.summary)
}

/// An SSE stream of ADK events (`data: {...}` lines; comments and other fields skipped).
fn import_sse(
    mut r: impl BufRead,
    file: &str,
    total: u64,
    from: Option<SourceFormat>,
    overlay: Option<&Topology>,
    progress: Option<Progress<'_>>,
    on_run: &mut dyn FnMut(Trace, Topology) -> Result<(), ImportError>,
) -> Result<ImportSummary, ImportError> {
    let mut events = vec![];
    let mut buf = Vec::new();
    let (mut line, mut offset) = (0usize, 0u64);
    loop {
        buf.clear();
        let n = read_record(&mut r, &mut buf, file, line + 1)?;
        if n == 0 {
            break;
        }
        line += 1;
        let start = offset;
        offset += n as u64;
        let Some(data) = buf.trim_ascii().strip_prefix(b"data:") else { continue };
        let v: Value = serde_json::from_slice(data.trim_ascii()).map_err(|e| ImportError::Parse {
            file: file.into(),
            format: "adk (server-sent events)".into(),
            line,
            offset: start,
            message: e.to_string(),
            expected: "`data: {...}` lines, each one ADK event as `adk api_server`'s /run_sse streams them".into(),
        })?;
        events.push(v);
    }
    if from.is_some_and(|f| f != SourceFormat::Adk) {
        return Err(ImportError::Mixed {
            file: file.into(),
            line: 1,
            offset: 0,
            found: "an SSE stream of ADK events".into(),
            first: from.map(SourceFormat::name).unwrap_or("?").into(),
        });
    }
    let doc = serde_json::json!({ "id": "adk-run-sse", "events": events });
    let mut bytes = serde_json::to_vec(&doc).expect("JSON serializes");
    bytes.push(b'\n');
    let mut summary = import_reader(&bytes[..], file, total, Some(SourceFormat::Adk), overlay, progress, on_run)?;
    summary.bytes = offset;
    Ok(summary)
}

/// The largest record (one JSON Lines line, or a whole single-document file) an import reads.
pub const MAX_RECORD: usize = 512 << 20;

/// Reads one line of at most [`MAX_RECORD`] bytes into `buf`; past it, a clear error instead of
/// buffering without bound.
fn read_record(r: &mut impl BufRead, buf: &mut Vec<u8>, file: &str, line: usize) -> Result<usize, ImportError> {
    let n = r
        .take(MAX_RECORD as u64 + 1)
        .read_until(b'\n', buf)
        .map_err(|source| ImportError::Read { file: file.into(), source })?;
    if buf.len() > MAX_RECORD && buf.last() != Some(&b'\n') {
        return Err(ImportError::TooLarge { file: file.into(), line, max_mb: MAX_RECORD >> 20 });
    }
    Ok(n)
}

/// Consumes ASCII whitespace from `r` without buffering it; returns the bytes and the line
/// breaks passed.
fn skip_whitespace(r: &mut impl BufRead) -> std::io::Result<(u64, usize)> {
    let (mut bytes, mut lines) = (0u64, 0usize);
    loop {
        let buf = r.fill_buf()?;
        let n = buf.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(buf.len());
        lines += buf[..n].iter().filter(|&&b| b == b'\n').count();
        bytes += n as u64;
        let done = n < buf.len() || buf.is_empty();
        r.consume(n);
        if done {
            return Ok((bytes, lines));
        }
    }
}

fn line_col_offset(bytes: &[u8], line: usize, col: usize) -> u64 {
    let mut l = 1;
    for (i, b) in bytes.iter().enumerate() {
        if l == line {
            return (i + col.saturating_sub(1)) as u64;
        }
        if *b == b'\n' {
            l += 1;
        }
    }
    bytes.len() as u64
}

/// Imports a file.
pub fn import_file(
    path: &Path,
    from: Option<SourceFormat>,
    overlay: Option<&Topology>,
    progress: Option<Progress<'_>>,
    on_run: &mut dyn FnMut(Trace, Topology) -> Result<(), ImportError>,
) -> Result<ImportSummary, ImportError> {
    let file = path.display().to_string();
    // A FIFO or a device would block the open, or never end: only regular files are read.
    let meta = std::fs::metadata(path).map_err(|source| ImportError::Read { file: file.clone(), source })?;
    if !meta.is_file() {
        return Err(ImportError::Read {
            file,
            source: std::io::Error::other("not a regular file (a directory, a FIFO or a device); name a trace file"),
        });
    }
    let f = std::fs::File::open(path).map_err(|source| ImportError::Read { file: file.clone(), source })?;
    let total = f.metadata().map(|m| m.len()).unwrap_or(0);
    import_reader(f, &file, total, from, overlay, progress, on_run)
}

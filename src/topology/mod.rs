//! The topology model: agents, the two kinds of transfer between them, pinned facts, guards and
//! scenarios. One model flows through config, lint, engine, store, debugger and UI.

mod graph;
pub mod guardrail;
mod names;
pub mod policy;
mod scenario;

pub use graph::TopologyGraph;
pub use guardrail::{Guardrail, GuardrailCheck, GuardrailOn};
pub use names::{default_tool_name, snake_case};
pub use policy::{ContextPolicy, FieldSpec};
pub use scenario::{Expect, MockAction, MockCall, MockRule, MockVerdict, MockWhen, PriorMessage, Scenario};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The config format version this build reads and writes.
pub const FORMAT_VERSION: u32 = 1;

/// A multi-agent topology: what the designer draws and the engine runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct Topology {
    /// Format version; always 1 for this build.
    pub version: u32,
    /// Human-readable name of the topology.
    pub name: String,
    /// A stable identity kept in the file (the app writes one when it first saves it; Save As
    /// gives the copy a new one): a topology's runs stay its own across renames, and a copy
    /// starts a history of its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub id: Option<String>,
    /// What the topology is for.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// Id of the agent that receives the user's first message.
    pub entry: String,
    /// The agents, in display order.
    pub agents: Vec<Agent>,
    /// Handoff and delegation edges.
    #[serde(default)]
    pub edges: Vec<Edge>,
    /// Invariants the architect states; checked at every transfer.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub facts: Vec<PinnedFact>,
    /// Run-time guards.
    #[serde(default)]
    pub guards: Guards,
    /// Named user inputs with per-agent mock scripts.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scenarios: Vec<Scenario>,
    /// Input and output guardrails (the Agents SDK's), per agent or run-wide.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub guardrails: Vec<Guardrail>,
    /// Designer-only data (node positions); ignored by the engine.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub layout: BTreeMap<String, Position>,
}

/// A node position on the designer's canvas.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct Position {
    pub x: f64,
    pub y: f64,
}

/// What an agent is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum AgentKind {
    /// An LLM agent.
    #[default]
    Agent,
    /// An LLM agent that coordinates others by delegation and keeps ownership.
    Supervisor,
    /// A person: a valid handoff target that ends the automated run ("escalated to a human").
    Human,
}

/// One agent of the topology.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct Agent {
    /// Stable id, referenced by edges, facts, scripts and the UI.
    pub id: String,
    /// Display name; also the name the SDK export uses.
    pub name: String,
    #[serde(default, skip_serializing_if = "is_default")]
    pub kind: AgentKind,
    /// System instructions. They never cross a handoff.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub instructions: String,
    /// Which model runs this agent. Human agents have none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<ModelRef>,
    /// The agent's own tools (transfer tools are derived from edges).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tools: Vec<Tool>,
    /// Where the agent was defined, for a topology read from code (`baton import-code`): lint
    /// findings point there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub source: Option<SourceLoc>,
}

/// A place in a source file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct SourceLoc {
    pub file: String,
    pub line: u32,
}

impl std::fmt::Display for SourceLoc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.file, self.line)
    }
}

/// Model providers Baton can call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema, ts_rs::TS, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Provider {
    /// Scripted, deterministic, offline (the default).
    Mock,
    /// OpenAI Chat Completions.
    Openai,
    /// OpenAI Responses API.
    OpenaiResponses,
    /// Anthropic Messages.
    Anthropic,
    /// Google Gemini generateContent.
    Gemini,
    /// Any OpenAI-compatible Chat Completions server (Ollama, llama.cpp, vLLM, LM Studio).
    OpenaiCompatible,
}

impl Provider {
    pub fn as_str(self) -> &'static str {
        match self {
            Provider::Mock => "mock",
            Provider::Openai => "openai",
            Provider::OpenaiResponses => "openai-responses",
            Provider::Anthropic => "anthropic",
            Provider::Gemini => "gemini",
            Provider::OpenaiCompatible => "openai-compatible",
        }
    }

    /// How the UI names it.
    pub fn label(self) -> &'static str {
        match self {
            Provider::Mock => "Mock (scripted)",
            Provider::Openai => "OpenAI Chat Completions",
            Provider::OpenaiResponses => "OpenAI Responses",
            Provider::Anthropic => "Anthropic",
            Provider::Gemini => "Google Gemini",
            Provider::OpenaiCompatible => "OpenAI-compatible server",
        }
    }

    /// One line more about it.
    pub fn detail(self) -> &'static str {
        match self {
            Provider::Mock => "deterministic, offline: answers from the scenario's mock scripts",
            Provider::Openai => "api.openai.com /v1/chat/completions",
            Provider::OpenaiResponses => "api.openai.com /v1/responses",
            Provider::Anthropic => "api.anthropic.com /v1/messages",
            Provider::Gemini => "generativelanguage.googleapis.com generateContent",
            Provider::OpenaiCompatible => "Ollama, llama.cpp, vLLM, LM Studio: set a base URL",
        }
    }
}

/// Which model runs an agent, and how.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct ModelRef {
    pub provider: Provider,
    /// The provider's model name, e.g. `gpt-4o-mini`.
    pub name: String,
    /// Overrides the provider's base URL (e.g. a local llama.cpp server).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temperature: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub top_p: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_tokens: Option<u32>,
    /// Ask the provider to stream the answer (server-sent events).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stream: bool,
    /// `auto` (default), `required`, `none`, or a tool name the model must call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_choice: Option<String>,
}

/// A tool an agent can call. Offline runs answer with `mock_result`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct Tool {
    pub name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// JSON Schema of the arguments (an object schema).
    #[serde(default = "empty_object_schema")]
    pub parameters: serde_json::Value,
    /// What the tool returns in offline runs.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub mock_result: String,
}

pub fn empty_object_schema() -> serde_json::Value {
    serde_json::json!({"type": "object", "properties": {}})
}

/// The two kinds of transfer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum EdgeKind {
    /// Ownership moves to the target; the source steps out.
    Handoff,
    /// The source asks the target for a bounded result and keeps ownership (agent-as-tool).
    Delegation,
}

impl EdgeKind {
    pub fn as_str(self) -> &'static str {
        match self {
            EdgeKind::Handoff => "handoff",
            EdgeKind::Delegation => "delegation",
        }
    }
}

/// Whether the receiver of a transfer trusts the sender's "done" or must verify it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum Acceptance {
    #[default]
    Trust,
    Verify,
}

/// A transfer between two agents.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct Edge {
    /// Stable id; defaults to `<from>-><to>` (with a suffix when that is taken).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub id: String,
    pub kind: EdgeKind,
    pub from: String,
    pub to: String,
    /// The tool name the model sees; defaults from the target's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// What crosses a handoff. Ignored for delegations (they pass only the tool input).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(as = "policy::Repr")]
    pub policy: ContextPolicy,
    #[serde(default, skip_serializing_if = "is_default")]
    pub acceptance: Acceptance,
    /// With `acceptance: verify`: what the receiver's "done" must meet (short texts), checked with
    /// the pinned facts the caller holds when its result returns.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub criteria: Vec<String>,
    /// With `acceptance: verify`: a tool of the caller that checks the claim (its result starting
    /// with "accept" accepts; anything else rejects, with the result as the reason).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub check_tool: Option<String>,
}

impl Edge {
    /// Builds an edge with defaults for everything but kind and ends.
    pub fn new(kind: EdgeKind, from: &str, to: &str) -> Edge {
        Edge {
            id: String::new(),
            kind,
            from: from.to_owned(),
            to: to.to_owned(),
            tool: None,
            description: String::new(),
            policy: ContextPolicy::Full,
            acceptance: Acceptance::Trust,
            criteria: vec![],
            check_tool: None,
        }
    }
}

/// An invariant the architect states, e.g. "'resolved' means patched behind flag X".
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct PinnedFact {
    pub id: String,
    pub text: String,
    /// Agents that know the fact from the start (it sits in their own context, beside their
    /// instructions, and like them it does not cross a handoff by itself).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub holders: Vec<String>,
}

/// What happens when a transfer would hand the conversation back to a former owner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum OnRevisit {
    /// End the run (outcome: stopped).
    Stop,
    /// Hand the conversation to a human agent instead (outcome: escalated).
    Escalate,
    /// Let it happen (the SDK's behaviour).
    #[default]
    Allow,
}

/// Run-time guards.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct Guards {
    /// Model calls allowed in one run (nested delegations count their own), as the SDK's.
    #[serde(default = "default_max_turns")]
    pub max_turns: u32,
    /// Handoffs allowed in one run; unlimited when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_handoffs: Option<u32>,
    #[serde(default)]
    pub on_revisit: OnRevisit,
    /// The human agent that receives escalations; the first human agent when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub escalate_to: Option<String>,
    /// Model calls allowed in the whole run, nested delegations included (each nested run also
    /// has its own `max_turns`, as in the SDK, so only this bounds fan-out). Never less than
    /// `max_turns`.
    #[serde(default = "default_max_model_calls", skip_serializing_if = "is_default_max_model_calls")]
    pub max_model_calls: u32,
    /// How deep delegations may nest (a delegation cycle stops here instead of recursing).
    #[serde(default = "default_max_depth", skip_serializing_if = "is_default_max_depth")]
    pub max_depth: u32,
    /// Rejected claims on one edge before the run stops (guard `verification`).
    #[serde(default = "default_max_rejections", skip_serializing_if = "is_default_max_rejections")]
    pub max_rejections: u32,
}

pub const DEFAULT_MAX_TURNS: u32 = 10;
pub const DEFAULT_MAX_MODEL_CALLS: u32 = 200;
pub const DEFAULT_MAX_DEPTH: u32 = 8;

fn default_max_rejections() -> u32 {
    3
}

fn is_default_max_rejections(v: &u32) -> bool {
    *v == default_max_rejections()
}

fn default_max_turns() -> u32 {
    DEFAULT_MAX_TURNS
}

fn default_max_model_calls() -> u32 {
    DEFAULT_MAX_MODEL_CALLS
}

fn is_default_max_model_calls(v: &u32) -> bool {
    *v == DEFAULT_MAX_MODEL_CALLS
}

fn default_max_depth() -> u32 {
    DEFAULT_MAX_DEPTH
}

fn is_default_max_depth(v: &u32) -> bool {
    *v == DEFAULT_MAX_DEPTH
}

impl Default for Guards {
    fn default() -> Self {
        Guards {
            max_turns: DEFAULT_MAX_TURNS,
            max_handoffs: None,
            on_revisit: OnRevisit::Allow,
            escalate_to: None,
            max_model_calls: DEFAULT_MAX_MODEL_CALLS,
            max_depth: DEFAULT_MAX_DEPTH,
            max_rejections: default_max_rejections(),
        }
    }
}

fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

/// A fresh topology identity (a UUIDv7: unique, and ordered by when it was made).
pub fn new_topology_id() -> String {
    uuid::Uuid::now_v7().to_string()
}

impl Topology {
    /// An empty topology with one agent, as "File → New" creates.
    pub fn new(name: &str) -> Topology {
        Topology {
            version: FORMAT_VERSION,
            name: name.to_owned(),
            id: None,
            description: String::new(),
            entry: "agent".into(),
            agents: vec![Agent {
                id: "agent".into(),
                name: "Agent".into(),
                kind: AgentKind::Agent,
                instructions: String::new(),
                model: Some(ModelRef::mock()),
                tools: vec![],
                source: None,
            }],
            edges: vec![],
            facts: vec![],
            guards: Guards::default(),
            scenarios: vec![],
            guardrails: vec![],
            layout: BTreeMap::new(),
        }
    }

    pub fn agent(&self, id: &str) -> Option<&Agent> {
        self.agents.iter().find(|a| a.id == id)
    }

    pub fn edge(&self, id: &str) -> Option<&Edge> {
        self.edges.iter().find(|e| e.id == id)
    }

    pub fn fact(&self, id: &str) -> Option<&PinnedFact> {
        self.facts.iter().find(|f| f.id == id)
    }

    pub fn scenario(&self, name: Option<&str>) -> Option<&Scenario> {
        match name {
            Some(n) => self.scenarios.iter().find(|s| s.name == n),
            None => self.scenarios.first(),
        }
    }

    /// Outgoing edges of an agent, in file order.
    pub fn edges_from<'a>(&'a self, agent: &'a str) -> impl Iterator<Item = &'a Edge> + 'a {
        self.edges.iter().filter(move |e| e.from == agent)
    }

    /// The tool name the model of `edge.from` sees for this edge.
    pub fn tool_name(&self, edge: &Edge) -> String {
        if let Some(t) = &edge.tool {
            return t.clone();
        }
        let target = self.agent(&edge.to).map(|a| a.name.as_str()).unwrap_or(&edge.to);
        default_tool_name(edge.kind, target)
    }

    /// The human agent that receives escalations, if any.
    pub fn escalation_target(&self) -> Option<&Agent> {
        match &self.guards.escalate_to {
            Some(id) => self.agent(id),
            None => self.agents.iter().find(|a| a.kind == AgentKind::Human),
        }
    }

    /// Fills in defaults that depend on other fields (edge ids). Idempotent.
    pub fn normalize(&mut self) {
        let mut taken: std::collections::HashSet<String> =
            self.edges.iter().filter(|e| !e.id.is_empty()).map(|e| e.id.clone()).collect();
        for e in self.edges.iter_mut().filter(|e| e.id.is_empty()) {
            let base = format!("{}->{}", e.from, e.to);
            let mut id = base.clone();
            let mut n = 2;
            while taken.contains(&id) {
                id = format!("{base}#{n}");
                n += 1;
            }
            taken.insert(id.clone());
            e.id = id;
        }
    }

    /// Checks references between parts: every unknown agent an edge, fact, guard, script or the
    /// entry names, and duplicate ids. Lint reports the same problems as findings.
    pub fn validate(&self) -> Result<(), ValidationError> {
        let mut problems = Vec::new();
        let ids: std::collections::HashSet<&str> = self.agents.iter().map(|a| a.id.as_str()).collect();
        let known = |id: &str| ids.contains(id);
        let mut seen = std::collections::HashSet::new();
        for a in &self.agents {
            if !seen.insert(a.id.as_str()) {
                problems.push(format!("agent id '{}' is used twice; ids must be unique", a.id));
            }
            if a.id.trim().is_empty() {
                problems.push(format!("agent '{}' has an empty id", a.name));
            }
        }
        if !known(&self.entry) {
            problems.push(format!("entry names unknown agent '{}'", self.entry));
        }
        let mut edge_ids = std::collections::HashSet::new();
        for (i, e) in self.edges.iter().enumerate() {
            for end in [&e.from, &e.to] {
                if !known(end) {
                    problems.push(format!(
                        "edges[{i}] ({} {} -> {}) names unknown agent '{end}'",
                        e.kind.as_str(),
                        e.from,
                        e.to
                    ));
                }
            }
            if e.id.trim().is_empty() {
                problems.push(format!("edges[{i}] ({} -> {}) has an empty id", e.from, e.to));
            } else if !edge_ids.insert(e.id.as_str()) {
                problems.push(format!("edge id '{}' is used twice; ids must be unique", e.id));
            }
        }
        let mut fact_ids = std::collections::HashSet::new();
        for f in &self.facts {
            if !fact_ids.insert(f.id.as_str()) {
                problems.push(format!("fact id '{}' is used twice; ids must be unique", f.id));
            }
            for h in &f.holders {
                if !known(h) {
                    problems.push(format!("fact '{}' names unknown holder agent '{h}'", f.id));
                }
            }
        }
        if let Some(h) = self.guards.escalate_to.as_ref().filter(|h| !known(h)) {
            problems.push(format!("guards.escalate_to names unknown agent '{h}'"));
        }
        let mut scenario_names = std::collections::HashSet::new();
        for s in &self.scenarios {
            if !scenario_names.insert(s.name.as_str()) {
                problems.push(format!("scenario name '{}' is used twice; names must be unique", s.name));
            }
            for agent in s.scripts.keys() {
                if !known(agent) {
                    problems.push(format!("scenario '{}' has a script for unknown agent '{agent}'", s.name));
                }
            }
        }
        if problems.is_empty() { Ok(()) } else { Err(ValidationError { problems }) }
    }
}

impl ModelRef {
    pub fn mock() -> ModelRef {
        ModelRef::with_provider(Provider::Mock)
    }

    /// A model of `provider` named `mock`, with no parameters (set `name` after).
    pub fn with_provider(provider: Provider) -> ModelRef {
        ModelRef {
            provider,
            name: "mock".into(),
            base_url: None,
            temperature: None,
            top_p: None,
            max_tokens: None,
            stream: false,
            tool_choice: None,
        }
    }
}

/// References in a topology that point nowhere. Lists every problem, not just the first.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("the topology is not consistent:\n  - {}\nfix: add the missing agents or correct the ids", problems.join("\n  - "))]
pub struct ValidationError {
    pub problems: Vec<String>,
}

impl crate::error::Coded for ValidationError {
    fn code(&self) -> crate::error::ErrorCode {
        crate::error::ErrorCode::TopologyInvalid
    }
}

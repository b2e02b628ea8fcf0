//! Static checks on a topology: the loop risks, unreachable and missing agents, tool name
//! clashes, scripts that call tools nobody has, the trust-versus-verify rule. Each rule lives
//! in its own file under `rules/`; each finding says how to fix it.

pub mod flow;
mod rules;

pub use flow::{EdgeFlow, FactCrossing, fact_flow};
pub use rules::LintCode;

use crate::topology::{Agent, Edge, Topology, TopologyGraph};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    Error,
    Warning,
    Info,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

/// One problem found in a topology.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ts_rs::TS)]
pub struct Finding {
    /// Stable code, e.g. `handoff-cycle`.
    pub code: LintCode,
    pub severity: Severity,
    /// What is wrong and how to fix it.
    pub message: String,
    /// Agent ids involved.
    pub agents: Vec<String>,
    /// Edge ids involved.
    pub edges: Vec<String>,
    /// Where the first agent involved (or the sender of the first edge) was defined, for a
    /// topology read from code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub source: Option<crate::topology::SourceLoc>,
}

/// What every rule reads: the topology and its graph, built once.
pub struct Cx<'a> {
    pub t: &'a Topology,
    pub graph: TopologyGraph,
    agents: std::collections::HashMap<&'a str, &'a Agent>,
    out: std::collections::HashMap<&'a str, Vec<&'a Edge>>,
}

impl<'a> Cx<'a> {
    fn new(t: &'a Topology) -> Cx<'a> {
        let mut agents = std::collections::HashMap::new();
        for a in &t.agents {
            agents.entry(a.id.as_str()).or_insert(a);
        }
        let mut out: std::collections::HashMap<&str, Vec<&Edge>> = std::collections::HashMap::new();
        for e in &t.edges {
            out.entry(e.from.as_str()).or_default().push(e);
        }
        Cx { t, graph: TopologyGraph::build(t), agents, out }
    }

    /// The agent with this id (the first, when ids repeat).
    pub fn agent(&self, id: &str) -> Option<&'a Agent> {
        self.agents.get(id).copied()
    }

    /// The edges leaving an agent, in topology order.
    pub fn edges_from(&self, id: &str) -> impl Iterator<Item = &'a Edge> + '_ {
        self.out.get(id).into_iter().flatten().copied()
    }

    /// The tool name the sender of `e` sees for it.
    pub fn tool_name(&self, e: &Edge) -> String {
        match &e.tool {
            Some(t) => t.clone(),
            None => {
                crate::topology::default_tool_name(e.kind, self.agent(&e.to).map(|a| a.name.as_str()).unwrap_or(&e.to))
            }
        }
    }

    /// An agent's name, or its id when it does not exist.
    pub fn name(&self, id: &str) -> String {
        self.agent(id).map(|a| a.name.as_str()).unwrap_or(id).to_owned()
    }

    /// Agents as "A → B → C".
    pub fn path(&self, ids: &[String]) -> String {
        ids.iter().map(|a| self.name(a)).collect::<Vec<_>>().join(" → ")
    }
}

pub(crate) fn finding(code: LintCode, message: String, agents: Vec<String>, edges: Vec<String>) -> Finding {
    Finding { code, severity: code.severity(), message, agents, edges, source: None }
}

/// True when any finding is an error.
pub fn has_errors(findings: &[Finding]) -> bool {
    findings.iter().any(|f| f.severity == Severity::Error)
}

/// Runs every rule. Findings are sorted by severity, then code, then ids.
pub fn lint(t: &Topology) -> Vec<Finding> {
    let cx = Cx::new(t);
    let mut out = vec![];
    rules::check_all(&cx, &mut out);
    for f in &mut out {
        let sender = f.edges.first().and_then(|e| t.edges.iter().find(|x| x.id == *e)).map(|e| e.from.as_str());
        f.source =
            f.agents.first().map(String::as_str).or(sender).and_then(|a| t.agent(a)).and_then(|a| a.source.clone());
    }
    out.sort_by(|a, b| {
        (a.severity, a.code.as_str(), &a.agents, &a.edges).cmp(&(b.severity, b.code.as_str(), &b.agents, &b.edges))
    });
    out
}

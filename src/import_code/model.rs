//! What the introspection script (`introspect.py`) prints about a module's agents, and what the
//! ADK Agent Config reader builds from YAML: the framework's own view, before it is a topology.

use crate::topology::ContextPolicy;
use serde::Deserialize;

#[derive(Debug, Clone, Deserialize)]
pub struct CodeModel {
    pub framework: Framework,
    #[serde(default)]
    pub module: String,
    /// The agent a module-level `root_agent` names (ADK's convention).
    #[serde(default)]
    pub root_agent: Option<String>,
    /// Agents bound to module-level names, in module order.
    #[serde(default)]
    pub top_level: Vec<String>,
    pub agents: Vec<CodeAgent>,
    /// What the framework does that the topology cannot say (LangGraph's supervisor output
    /// modes, CrewAI's crews), in words.
    #[serde(default)]
    pub notes: Vec<String>,
    /// A CrewAI crew: its process and tasks, which `crewai.rs` turns into edges.
    #[serde(default)]
    pub crew: Option<CodeCrew>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum Framework {
    #[serde(rename = "openai-agents")]
    OpenaiAgents,
    #[serde(rename = "adk")]
    Adk,
    #[serde(rename = "langgraph")]
    LangGraph,
    #[serde(rename = "crewai")]
    CrewAi,
}

impl Framework {
    /// The names `--framework` takes.
    pub const NAMES: [&'static str; 4] = ["openai-agents", "adk", "langgraph", "crewai"];

    /// The module the framework is imported as, and the distribution that installs it (the
    /// Agents SDK is `import agents` from `openai-agents`; ADK `google.adk` from `google-adk`).
    pub fn package(self) -> (&'static str, &'static str) {
        match self {
            Framework::OpenaiAgents => ("agents", "openai-agents"),
            Framework::Adk => ("google.adk", "google-adk"),
            Framework::LangGraph => ("langgraph", "langgraph"),
            Framework::CrewAi => ("crewai", "crewai"),
        }
    }

    /// What to `pip install` for a module the code imports that is missing: the framework's
    /// distribution when it is one of them (or inside one), else the module's top-level name.
    pub fn install_name(module: &str) -> String {
        let within = |root: &str| {
            module == root || module.starts_with(&format!("{root}.")) || root.starts_with(&format!("{module}."))
        };
        [Framework::OpenaiAgents, Framework::Adk, Framework::LangGraph, Framework::CrewAi]
            .iter()
            .map(|f| f.package())
            .find(|(root, _)| within(root))
            .map(|(_, dist)| dist.to_owned())
            .unwrap_or_else(|| module.split('.').next().unwrap_or(module).to_owned())
    }

    pub fn label(self) -> &'static str {
        match self {
            Framework::OpenaiAgents => "OpenAI Agents SDK",
            Framework::Adk => "Google ADK",
            Framework::LangGraph => "LangGraph",
            Framework::CrewAi => "CrewAI",
        }
    }
}

/// A CrewAI crew as the script read it: the agents by role, the tasks in order.
#[derive(Debug, Clone, Deserialize)]
pub struct CodeCrew {
    /// `sequential` or `hierarchical`.
    pub process: String,
    /// The manager of a hierarchical crew (CrewAI's "Crew Manager", or the crew's `manager_agent`).
    #[serde(default)]
    pub manager: Option<String>,
    pub agents: Vec<String>,
    pub tasks: Vec<CodeTask>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct CodeTask {
    pub name: String,
    /// The role of the task's agent (none in a hierarchical crew, whose manager runs every task).
    #[serde(default)]
    pub agent: Option<String>,
    /// The tasks whose outputs it reads; none when not given (CrewAI then passes every earlier
    /// task's output).
    #[serde(default)]
    pub context: Option<Vec<String>>,
    #[serde(default, rename = "async")]
    pub is_async: bool,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct CodeAgent {
    pub name: String,
    /// `Agent`, `LlmAgent`, `SequentialAgent`, `ParallelAgent`, `LoopAgent`.
    #[serde(default, rename = "class")]
    pub class: String,
    #[serde(default)]
    pub file: Option<String>,
    #[serde(default)]
    pub line: Option<u32>,
    #[serde(default)]
    pub instructions: Option<String>,
    /// The function's name when the instructions are a function.
    #[serde(default)]
    pub dynamic_instructions: Option<String>,
    #[serde(default)]
    pub model: Option<String>,
    #[serde(default)]
    pub model_api: Option<String>,
    /// The model class the framework resolves the name to (ADK: `Gemini`, `Claude`,
    /// `OpenAILlm`, `LiteLlm`).
    #[serde(default)]
    pub model_class: Option<String>,
    #[serde(default)]
    pub model_settings: ModelSettings,
    #[serde(default)]
    pub tools: Vec<CodeTool>,
    #[serde(default)]
    pub handoffs: Vec<CodeHandoff>,
    /// The Agents SDK's input and output guardrails.
    #[serde(default)]
    pub guardrails: Vec<CodeGuardrail>,
    /// ADK: `include_contents` (`default` or `none`).
    #[serde(default)]
    pub include_contents: Option<String>,
    #[serde(default)]
    pub output_key: Option<String>,
    #[serde(default)]
    pub sub_agents: Vec<String>,
    #[serde(default)]
    pub disallow_transfer_to_parent: bool,
    #[serde(default)]
    pub disallow_transfer_to_peers: bool,
    #[serde(default)]
    pub max_iterations: Option<u32>,
    /// CrewAI: the agent may delegate to its crew's other agents.
    #[serde(default)]
    pub allow_delegation: bool,
}

impl CodeAgent {
    /// An ADK workflow agent: it runs its sub-agents itself (in order, together, in a loop)
    /// instead of transferring to them.
    pub fn is_workflow(&self) -> bool {
        matches!(self.class.as_str(), "SequentialAgent" | "ParallelAgent" | "LoopAgent")
    }

    /// An agent that only delegates: a LangGraph `create_supervisor` supervisor, a CrewAI
    /// manager.
    pub fn is_supervisor(&self) -> bool {
        matches!(self.class.as_str(), "create_supervisor" | "CrewManager")
    }
}

/// One guardrail as the introspection read it: a check Baton knows (one it exported), or a
/// function of the user's code.
#[derive(Debug, Clone, Deserialize)]
pub struct CodeGuardrail {
    pub name: String,
    pub on: String,
    #[serde(default = "yes")]
    pub run_in_parallel: bool,
    #[serde(default)]
    pub check: Option<serde_json::Value>,
    #[serde(default)]
    pub message: Option<String>,
    #[serde(default)]
    pub custom: Option<String>,
}

fn yes() -> bool {
    true
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct ModelSettings {
    pub temperature: Option<f64>,
    pub top_p: Option<f64>,
    pub max_tokens: Option<u32>,
    pub tool_choice: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CodeTool {
    Function {
        name: String,
        #[serde(default)]
        description: Option<String>,
        #[serde(default)]
        parameters: Option<serde_json::Value>,
    },
    Hosted {
        name: String,
    },
    /// Another agent called as a tool (`agent.as_tool()`, ADK `AgentTool`): a delegation.
    Agent {
        name: String,
        #[serde(default)]
        description: Option<String>,
        agent: String,
    },
}

#[derive(Debug, Clone, Deserialize)]
pub struct CodeHandoff {
    pub agent: String,
    #[serde(default)]
    pub tool_name: Option<String>,
    #[serde(default)]
    pub default_tool_name: bool,
    #[serde(default)]
    pub tool_description: Option<String>,
    #[serde(default)]
    pub input_filter: Option<Filter>,
    #[serde(default)]
    pub input_type: Option<serde_json::Value>,
    /// The policy when the framework's rule decides it rather than a filter (CrewAI's task
    /// context); set on the Rust side.
    #[serde(skip)]
    pub policy: Option<ContextPolicy>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum Filter {
    /// `remove_all_tools`, `nest_handoff_history`.
    Known(String),
    /// A function of the user's (or an export's helper), with the JSON-able values it closes over.
    Custom {
        custom: String,
        #[serde(default)]
        closure: serde_json::Map<String, serde_json::Value>,
    },
}

/// What the script prints when the module cannot be read.
#[derive(Debug, Clone, Deserialize)]
pub struct ScriptFailure {
    pub error: ScriptError,
}

#[derive(Debug, Clone, Deserialize)]
pub struct ScriptError {
    pub kind: String,
    pub message: String,
    #[serde(default)]
    pub file: Option<String>,
    #[serde(default)]
    pub line: Option<u32>,
    #[serde(default)]
    pub frame: Option<String>,
    #[serde(default)]
    pub module: Option<String>,
}

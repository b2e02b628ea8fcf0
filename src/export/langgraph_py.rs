//! Export to a LangGraph module (`langgraph-py`): one `langchain.agents.create_agent` per agent,
//! the handoffs reachable from the entry as a swarm (`create_swarm`, `create_handoff_tool`), a
//! pure supervisor's delegations as `create_supervisor` whose handoff tools send the worker only
//! its task, any other delegation as the worker called from a tool, and mock tools as functions
//! returning their mock results. `build(model_factory)` takes the chat models, so a test can give
//! scripted ones. What LangGraph cannot express is said in a comment and as a warning.

use super::openai_py::py_str;
use crate::config::ConfigError;
use crate::topology::{Acceptance, Agent, AgentKind, EdgeKind, ModelRef, OnRevisit, Provider, Topology, snake_case};
use std::collections::{HashMap, HashSet, VecDeque};

/// How the topology becomes LangGraph's graph.
enum Shape {
    /// The entry hands off: a swarm of every agent its handoffs reach, in that order.
    Swarm(Vec<String>),
    /// The entry only delegates: `create_supervisor` over its workers.
    Supervisor(Vec<String>),
    /// The entry alone (its delegations are tools).
    Single,
}

struct Plan {
    /// LangGraph's name of each agent (it becomes the `name` of the agent's messages, which
    /// providers accept without spaces).
    names: HashMap<String, String>,
    shape: Shape,
    warnings: Vec<String>,
}

fn lg_name(name: &str) -> String {
    let ok = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    let n = if ok { name.to_owned() } else { snake_case(name).trim_matches('_').to_owned() };
    if n.is_empty() { "agent".to_owned() } else { n }
}

fn names(t: &Topology, warnings: &mut Vec<String>) -> HashMap<String, String> {
    let mut used = HashSet::new();
    t.agents
        .iter()
        .map(|a| {
            let base = lg_name(&a.name);
            let mut n = base.clone();
            let mut k = 2;
            while !used.insert(n.clone()) {
                n = format!("{base}_{k}");
                k += 1;
            }
            if n != a.name {
                warnings.push(format!(
                    "agent {}: exported as {n} (LangGraph's agent name is the name on its messages, which providers \
                     accept without spaces)",
                    a.name
                ));
            }
            (a.id.clone(), n)
        })
        .collect()
}

/// The entry, then every agent its handoffs reach (breadth first).
fn swarm_members(t: &Topology) -> Vec<String> {
    let mut seen = vec![t.entry.clone()];
    let mut queue = VecDeque::from([t.entry.clone()]);
    while let Some(a) = queue.pop_front() {
        for e in t.edges_from(&a).filter(|e| e.kind == EdgeKind::Handoff) {
            if !seen.contains(&e.to) {
                seen.push(e.to.clone());
                queue.push_back(e.to.clone());
            }
        }
    }
    seen
}

fn shape(t: &Topology) -> Shape {
    let out = |kind| t.edges_from(&t.entry).any(|e| e.kind == kind);
    if out(EdgeKind::Handoff) {
        Shape::Swarm(swarm_members(t))
    } else if out(EdgeKind::Delegation) {
        let mut workers: Vec<String> = vec![];
        for e in t.edges_from(&t.entry).filter(|e| e.kind == EdgeKind::Delegation) {
            if !workers.contains(&e.to) && e.to != t.entry {
                workers.push(e.to.clone());
            }
        }
        Shape::Supervisor(workers)
    } else {
        Shape::Single
    }
}

fn plan(t: &Topology) -> Plan {
    let mut warnings = vec![];
    let names = names(t, &mut warnings);
    let shape = shape(t);
    let name = |id: &str| t.agent(id).map(|a| a.name.clone()).unwrap_or_else(|| id.to_owned());
    let swarm: HashSet<&str> = match &shape {
        Shape::Swarm(m) => m.iter().map(String::as_str).collect(),
        _ => HashSet::new(),
    };
    for e in &t.edges {
        let what = format!("{} {} → {} ({})", e.kind.as_str(), name(&e.from), name(&e.to), e.id);
        if e.kind == EdgeKind::Handoff && !swarm.contains(e.from.as_str()) {
            warnings.push(format!(
                "{what}: a LangGraph handoff moves between the agents of one swarm, and the entry's handoffs do not \
                 reach {}; not exported",
                name(&e.from)
            ));
        } else if e.kind == EdgeKind::Handoff && e.policy != crate::topology::ContextPolicy::Full {
            warnings.push(format!(
                "{what}: a swarm's handoff passes the whole history; the policy {} is not expressed, the receiver \
                 sees everything",
                e.policy.label()
            ));
        }
        if e.kind == EdgeKind::Delegation && e.acceptance == Acceptance::Verify {
            warnings.push(format!("{what}: the claim check (acceptance: verify) is not exported"));
        }
    }
    warnings.extend(unreached(t, &shape, &name));
    warnings.extend(guard_warnings(t));
    Plan { names, shape, warnings }
}

/// Agents no graph of the export runs: not the entry, no swarm member or worker, no tool's agent.
fn unreached(t: &Topology, shape: &Shape, name: &dyn Fn(&str) -> String) -> Vec<String> {
    let mut reached: HashSet<&str> = HashSet::from([t.entry.as_str()]);
    if let Shape::Swarm(m) | Shape::Supervisor(m) = shape {
        reached.extend(m.iter().map(String::as_str));
    }
    reached.extend(t.edges.iter().filter(|e| e.kind == EdgeKind::Delegation).map(|e| e.to.as_str()));
    t.agents
        .iter()
        .filter(|a| !reached.contains(a.id.as_str()))
        .map(|a| format!("{}: no edge from the entry reaches it; it is built but runs in no graph", name(&a.id)))
        .collect()
}

fn guard_warnings(t: &Topology) -> Vec<String> {
    let mut w = vec![];
    if let Some(n) = t.guards.max_handoffs {
        w.push(format!("guard max_handoffs ({n}): LangGraph has no handoff limit; not exported"));
    }
    if t.guards.on_revisit != OnRevisit::Allow {
        w.push(format!(
            "guard on_revisit ({}): LangGraph does not stop or escalate a handoff back to an earlier agent; not \
             exported",
            match t.guards.on_revisit {
                OnRevisit::Stop => "stop",
                _ => "escalate",
            }
        ));
    }
    for g in &t.guardrails {
        w.push(format!("guardrail {}: LangGraph has no guardrails (a middleware could run it); not exported", g.name));
    }
    w
}

/// What the LangGraph export cannot express, one sentence per edge, agent or guard.
pub fn langgraph_warnings(t: &Topology) -> Vec<String> {
    plan(t).warnings
}

/// LangChain's `provider:model` for `init_chat_model`, and its settings as a Python dict.
fn model_py(m: Option<&ModelRef>) -> String {
    let Some(m) = m else { return "(None, {})".into() };
    let name = match m.provider {
        Provider::Mock => return "(None, {})".into(),
        Provider::Openai | Provider::OpenaiResponses | Provider::OpenaiCompatible => format!("openai:{}", m.name),
        Provider::Anthropic => format!("anthropic:{}", m.name),
        Provider::Gemini => format!("google_genai:{}", m.name),
    };
    let mut settings = vec![];
    if let Some(x) = m.temperature {
        settings.push(format!("\"temperature\": {x}"));
    }
    if let Some(x) = m.top_p {
        settings.push(format!("\"top_p\": {x}"));
    }
    if let Some(x) = m.max_tokens {
        settings.push(format!("\"max_tokens\": {x}"));
    }
    if let Some(url) = &m.base_url {
        settings.push(format!("\"base_url\": {}", py_str(url)));
    }
    if m.provider == Provider::OpenaiResponses {
        settings.push("\"use_responses_api\": True".into());
    }
    format!("({}, {{{}}})", py_str(&name), settings.join(", "))
}

/// A Python expression for a JSON value.
fn py_json(v: &serde_json::Value) -> String {
    format!("json.loads({})", py_str(&v.to_string()))
}

fn instructions(t: &Topology, a: &Agent) -> String {
    // Exactly the system prompt Baton's engine sends (instructions, then pinned facts).
    let mut s = crate::engine::system_prompt(t, &a.id);
    if a.kind == AgentKind::Human {
        s = format!("(Human escalation point: a person takes over here.) {s}");
    }
    s.trim_end().to_owned()
}

/// The tool list of one agent: its mock tools, then its delegations and handoffs with the names
/// and descriptions Baton's engine gives them.
fn tools_py(t: &Topology, a: &Agent, p: &Plan) -> Vec<String> {
    let mut out: Vec<String> = a
        .tools
        .iter()
        .map(|tl| {
            format!(
                "_mock_tool({}, {}, {}, {})",
                py_str(&tl.name),
                py_str(&tl.description),
                py_json(&tl.parameters),
                py_str(&tl.mock_result)
            )
        })
        .collect();
    let supervisor = matches!(p.shape, Shape::Supervisor(_)) && a.id == t.entry;
    let in_swarm = matches!(&p.shape, Shape::Swarm(m) if m.contains(&a.id));
    for spec in crate::engine::tools_for(t, &a.id) {
        let Some(e) = spec.edge.as_deref().and_then(|id| t.edges.iter().find(|e| e.id == id)) else { continue };
        let to = py_str(&p.names[&e.to]);
        let (name, description) = (py_str(&spec.name), py_str(&spec.description));
        match e.kind {
            EdgeKind::Delegation if supervisor => out.push(format!("_delegate({to}, {name}, {description})")),
            EdgeKind::Delegation => {
                out.push(format!("_agent_tool(agents, {to}, {name}, {description}, {})", py_json(&spec.parameters)))
            }
            EdgeKind::Handoff if in_swarm => {
                out.push(format!("create_handoff_tool(agent_name={to}, name={name}, description={description})"))
            }
            EdgeKind::Handoff => {}
        }
    }
    out
}

fn agent_py(t: &Topology, a: &Agent, p: &Plan) -> String {
    let name = py_str(&p.names[&a.id]);
    let mut s = format!("    agents[{name}] = create_agent(\n        model_factory({name}, *MODELS[{name}]),\n");
    s.push_str(&list_py("tools", &tools_py(t, a, p)));
    s.push_str(&format!("        system_prompt={},\n        name={name},\n    )\n", py_str(&instructions(t, a))));
    s
}

/// `        key=[\n            item,\n        ],\n`
fn list_py(key: &str, items: &[String]) -> String {
    if items.is_empty() {
        return format!("        {key}=[],\n");
    }
    let mut s = format!("        {key}=[\n");
    for i in items {
        s.push_str(&format!("            {i},\n"));
    }
    s.push_str("        ],\n");
    s
}

/// The graph `build()` returns.
fn graph_py(t: &Topology, p: &Plan) -> String {
    let n = |id: &str| py_str(&p.names[id]);
    match &p.shape {
        Shape::Swarm(members) => {
            let agents: Vec<String> = members.iter().map(|m| format!("agents[{}]", n(m))).collect();
            format!("    graph = create_swarm([{}], default_active_agent=ENTRY).compile()\n", agents.join(", "))
        }
        Shape::Supervisor(workers) => {
            let Some(sup) = t.agent(&t.entry) else { return String::new() };
            let workers: Vec<String> = workers.iter().map(|w| format!("agents[{}]", n(w))).collect();
            let mut s = "    # The supervisor's delegations: each worker gets only its task and returns its last\n    \
                         # message (output_mode last_message), after the tool's acknowledgement.\n    \
                         graph = create_supervisor(\n"
                .to_owned();
            s.push_str(&format!("        [{}],\n", workers.join(", ")));
            s.push_str("        model=model_factory(ENTRY, *MODELS[ENTRY]),\n");
            s.push_str(&list_py("tools", &tools_py(t, sup, p)));
            s.push_str(&format!(
                "        prompt={},\n        supervisor_name=ENTRY,\n        output_mode=\"last_message\",\n        \
                 add_handoff_back_messages=False,\n    ).compile()\n",
                py_str(&instructions(t, sup))
            ));
            s
        }
        Shape::Single => "    graph = agents[ENTRY]\n".into(),
    }
}

const PRELUDE: &str = r#"

def default_model(name, model, settings):
    """LangChain's chat model for one agent (the provider's package must be installed, e.g.
    langchain-openai)."""
    if model is None:
        raise ValueError(f"agent {name} runs on Baton's mock provider; give build() or run() a model_factory")
    return init_chat_model(model, **settings)


def _mock_tool(name, description, schema, result):
    """A tool that answers with the topology's mock result (put the real code here)."""

    def _invoke(**_args):
        return result

    return StructuredTool(name=name, description=description, args_schema=schema, func=_invoke)


def _agent_tool(agents, worker, name, description, schema):
    """A delegation from an agent that is not a pure supervisor: the worker runs on the tool's
    input alone, as a user message, and its last message is the tool's result (Baton's
    delegation, the Agents SDK's as_tool)."""

    def _call(input: str) -> str:
        result = agents[worker].invoke({"messages": [HumanMessage(content=input)]}, {"recursion_limit": RECURSION_LIMIT})
        return result["messages"][-1].text

    return StructuredTool(name=name, description=description, args_schema=schema, func=_call)


def _delegate(worker, name, description):
    """A supervisor's delegation for create_supervisor: the worker gets only the task (the tool's
    input) as a user message, as in Baton, rather than the supervisor's whole conversation (what
    langgraph_supervisor's own create_handoff_tool passes)."""

    @tool(name, description=description or f"Delegate a task to {worker}.")
    def _handoff(
        input: str,
        state: Annotated[dict, InjectedState],
        tool_call_id: Annotated[str, InjectedToolCallId],
    ) -> Command:
        done = ToolMessage(content=f"Delegated to {worker}.", name=name, tool_call_id=tool_call_id)
        return Command(
            graph=Command.PARENT,
            goto=Send(worker, {"messages": [HumanMessage(content=input)]}),
            update={"messages": [*state["messages"], done]},
        )

    _handoff.metadata = {"__handoff_destination": worker}
    return _handoff
"#;

fn header(t: &Topology, p: &Plan) -> String {
    let mut out = format!(
        "\"\"\"LangGraph module generated by Baton from the topology {}.\n\n`run(\"your message\")` runs it. \
         `build(model_factory)` builds the agents and the graph, with each\nagent's chat model from \
         `model_factory(name, model, settings)` (by default LangChain's\n`init_chat_model`, which needs the \
         provider's package, e.g. langchain-openai). Edit the topology\nand export again rather than editing \
         this file.\n\"\"\"\n\n\
         import json\nfrom typing import Annotated\n\n\
         from langchain.agents import create_agent\nfrom langchain.chat_models import init_chat_model\n\
         from langchain_core.messages import HumanMessage, ToolMessage\n\
         from langchain_core.tools import InjectedToolCallId, StructuredTool, tool\n\
         from langgraph.prebuilt import InjectedState\nfrom langgraph.types import Command, Send\n",
        py_str(&t.name)
    );
    match p.shape {
        Shape::Swarm(_) => out.push_str("from langgraph_swarm import create_handoff_tool, create_swarm\n"),
        Shape::Supervisor(_) => out.push_str("from langgraph_supervisor import create_supervisor\n"),
        Shape::Single => {}
    }
    for w in &p.warnings {
        out.push_str(&format!("\n# Not expressible in LangGraph: {w}"));
    }
    if !p.warnings.is_empty() {
        out.push('\n');
    }
    out
}

fn constants(t: &Topology, p: &Plan) -> String {
    let mut out = "\n# Each agent's model for init_chat_model (\"provider:model\") and its settings; None is Baton's\n\
                   # mock provider (give build() a model_factory).\nMODELS = {\n"
        .to_owned();
    for a in &t.agents {
        out.push_str(&format!("    {}: {},\n", py_str(&p.names[&a.id]), model_py(a.model.as_ref())));
    }
    out.push_str("}\n# LangGraph's name of each agent → the topology's.\nNAMES = {\n");
    for a in &t.agents {
        out.push_str(&format!("    {}: {},\n", py_str(&p.names[&a.id]), py_str(&a.name)));
    }
    let entry = p.names.get(&t.entry).map(|n| py_str(n)).unwrap_or_else(|| "None".into());
    out.push_str(&format!(
        "}}\nENTRY = {entry}\n# Baton's max_turns ({}) counts model calls; LangGraph bounds the steps of each graph: two a\n\
         # turn (the model node, the tools node) and one to start.\nRECURSION_LIMIT = {}\n",
        t.guards.max_turns,
        2 * t.guards.max_turns + 1
    ));
    out
}

const RUN: &str = r#"

def run(user_input, model_factory=default_model):
    """Runs the topology from its entry agent on a message (or a list of messages); returns
    LangGraph's final state: its "messages" and, for a swarm, "active_agent" (who answered last)."""
    graph, _ = build(model_factory)
    messages = [{"role": "user", "content": user_input}] if isinstance(user_input, str) else list(user_input)
    return graph.invoke({"messages": messages}, {"recursion_limit": RECURSION_LIMIT})
"#;

/// Renders the Python module.
pub fn to_langgraph_py(t: &Topology) -> Result<String, ConfigError> {
    let p = plan(t);
    let mut out = header(t, &p);
    out.push_str(&constants(t, &p));
    out.push_str(PRELUDE);
    out.push_str(
        "\n\ndef build(model_factory=default_model):\n    \"\"\"The agents and the graph: (the compiled graph, \
         the agents by LangGraph name).\"\"\"\n    agents = {}\n",
    );
    let supervisor = matches!(p.shape, Shape::Supervisor(_)).then_some(t.entry.as_str());
    for a in t.agents.iter().filter(|a| Some(a.id.as_str()) != supervisor) {
        out.push_str(&agent_py(t, a, &p));
    }
    out.push_str(&graph_py(t, &p));
    out.push_str("    return graph, agents\n");
    out.push_str(RUN);
    Ok(out)
}

//! Export to Google ADK: a Python module (`adk-py`) or Agent Config YAML (`adk-yaml`, one file
//! per agent and a `tools.py`). Handoffs become the agent tree ADK transfers along (sub-agents,
//! the parent, peers); delegations become `AgentTool`s; a `none` policy becomes the receiver's
//! `include_contents='none'`. What ADK cannot express is said in a comment and as a warning.

use super::openai_py::py_str;
use crate::config::ConfigError;
use crate::topology::{AgentKind, ContextPolicy, EdgeKind, Provider, Tool, Topology, snake_case};
use std::collections::{BTreeMap, HashMap, HashSet};

/// How the topology maps onto ADK's tree.
struct Plan {
    /// The ADK name of each agent (a Python identifier).
    names: HashMap<String, String>,
    children: BTreeMap<String, Vec<String>>,
    parent: HashMap<String, String>,
    no_parent: HashSet<String>,
    no_peers: HashSet<String>,
    contents_none: HashSet<String>,
    /// Delegations: (caller, callee).
    agent_tools: Vec<(String, String)>,
    warnings: Vec<String>,
    /// Agents in the order they are defined (children before their parents).
    order: Vec<String>,
}

fn is_ident(s: &str) -> bool {
    let mut c = s.chars();
    c.next().is_some_and(|f| f.is_ascii_alphabetic() || f == '_') && c.all(|x| x.is_ascii_alphanumeric() || x == '_')
}

fn plan(t: &Topology) -> Plan {
    let mut warnings = vec![];
    let mut used = HashSet::new();
    let names: HashMap<String, String> = t
        .agents
        .iter()
        .map(|a| {
            let mut n =
                if is_ident(&a.name) { a.name.clone() } else { snake_case(&a.name).trim_matches('_').to_owned() };
            if !is_ident(&n) {
                n = format!("agent_{n}");
            }
            let base = n.clone();
            let mut k = 2;
            while !used.insert(n.clone()) {
                n = format!("{base}_{k}");
                k += 1;
            }
            if n != a.name {
                warnings.push(format!("agent {}: ADK names agents with Python identifiers; exported as {n}", a.name));
            }
            (a.id.clone(), n)
        })
        .collect();
    let name = |id: &str| t.agent(id).map(|a| a.name.clone()).unwrap_or_else(|| id.to_owned());
    // The tree: breadth first from the entry, each agent under the first agent that hands off to it.
    let mut parent: HashMap<String, String> = HashMap::new();
    let mut children: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut seen: HashSet<String> = HashSet::from([t.entry.clone()]);
    let mut queue = std::collections::VecDeque::from([t.entry.clone()]);
    while let Some(a) = queue.pop_front() {
        for e in t.edges_from(&a).filter(|e| e.kind == EdgeKind::Handoff) {
            if seen.insert(e.to.clone()) {
                parent.insert(e.to.clone(), a.clone());
                children.entry(a.clone()).or_default().push(e.to.clone());
                queue.push_back(e.to.clone());
            }
        }
    }
    let mut no_parent = HashSet::new();
    let mut no_peers = HashSet::new();
    for a in &t.agents {
        let targets: HashSet<&str> =
            t.edges_from(&a.id).filter(|e| e.kind == EdgeKind::Handoff).map(|e| e.to.as_str()).collect();
        let kids: HashSet<&str> = children.get(&a.id).into_iter().flatten().map(String::as_str).collect();
        let p = parent.get(&a.id).map(String::as_str);
        let peers: Vec<&str> =
            p.and_then(|p| children.get(p)).into_iter().flatten().map(String::as_str).filter(|x| *x != a.id).collect();
        if p.is_some() && !p.is_some_and(|p| targets.contains(p)) {
            no_parent.insert(a.id.clone());
        }
        let to_peers: Vec<&str> = peers.iter().copied().filter(|x| targets.contains(x)).collect();
        if to_peers.is_empty() {
            no_peers.insert(a.id.clone());
        } else if to_peers.len() < peers.len() {
            let others: Vec<String> = peers.iter().filter(|x| !to_peers.contains(x)).map(|x| name(x)).collect();
            warnings.push(format!(
                "{}: ADK lets an agent transfer to all its peers or none; the export also lets it transfer to {}",
                a.name,
                others.join(", ")
            ));
        }
        for to in &targets {
            if !kids.contains(to) && Some(*to) != p && !peers.contains(to) {
                warnings.push(format!(
                    "handoff {} → {}: ADK transfers only to sub-agents, the parent and peers; {} is none of these \
                     for {} in the exported tree, so this handoff is not exported",
                    a.name,
                    name(to),
                    name(to),
                    a.name
                ));
            }
        }
    }
    // Policies: ADK's only per-agent choice is the receiver's include_contents.
    let mut contents_none = HashSet::new();
    for a in &t.agents {
        let incoming: Vec<_> = t.edges.iter().filter(|e| e.kind == EdgeKind::Handoff && e.to == a.id).collect();
        let none = incoming.iter().filter(|e| e.policy == ContextPolicy::None).count();
        if none > 0 && none == incoming.len() {
            contents_none.insert(a.id.clone());
        } else if none > 0 {
            warnings.push(format!(
                "{}: some handoffs into it carry nothing (none) and others do not; ADK's include_contents is the \
                 receiver's, so the export keeps the default (the whole session)",
                a.name
            ));
        }
        for e in incoming {
            if !matches!(e.policy, ContextPolicy::Full | ContextPolicy::None) {
                warnings.push(format!(
                    "handoff {} → {} ({}): ADK cannot express the policy {}; the receiver sees the whole session",
                    name(&e.from),
                    a.name,
                    e.id,
                    e.policy.label()
                ));
            }
        }
    }
    let mut agent_tools = vec![];
    for e in t.edges.iter().filter(|e| e.kind == EdgeKind::Delegation) {
        if e.tool.as_deref().is_some_and(|tl| Some(tl) != names.get(&e.to).map(String::as_str)) {
            warnings.push(format!(
                "delegation {} → {}: ADK names an AgentTool after its agent; the tool is {} rather than {}",
                name(&e.from),
                name(&e.to),
                names[&e.to],
                e.tool.as_deref().unwrap_or_default()
            ));
        }
        agent_tools.push((e.from.clone(), e.to.clone()));
    }
    for a in &t.agents {
        if a.id != t.entry && !seen.contains(&a.id) && !agent_tools.iter().any(|(_, to)| *to == a.id) {
            warnings.push(format!(
                "{}: no handoff from the entry reaches it; it is defined but not part of the exported tree",
                a.name
            ));
        }
    }
    // Children (and agent tools' agents) before the agents that reference them.
    let mut order = vec![];
    fn visit(
        id: &str,
        children: &BTreeMap<String, Vec<String>>,
        tools: &[(String, String)],
        done: &mut HashSet<String>,
        order: &mut Vec<String>,
    ) {
        if !done.insert(id.to_owned()) {
            return;
        }
        for c in children.get(id).into_iter().flatten() {
            visit(c, children, tools, done, order);
        }
        for (_, to) in tools.iter().filter(|(f, _)| f == id) {
            visit(to, children, tools, done, order);
        }
        order.push(id.to_owned());
    }
    let mut done = HashSet::new();
    for a in &t.agents {
        visit(&a.id, &children, &agent_tools, &mut done, &mut order);
    }
    Plan { names, children, parent, no_parent, no_peers, contents_none, agent_tools, warnings, order }
}

/// What the ADK export cannot express, one sentence per edge or agent.
pub fn adk_warnings(t: &Topology) -> Vec<String> {
    plan(t).warnings
}

/// ADK's model string: Gemini by name, others through LiteLLM (`provider/model`).
fn model_name(t: &Topology, id: &str) -> Option<String> {
    let m = t.agent(id)?.model.as_ref()?;
    Some(match m.provider {
        Provider::Mock => return None,
        Provider::Gemini => m.name.clone(),
        Provider::Anthropic => format!("anthropic/{}", m.name),
        Provider::Openai | Provider::OpenaiResponses => format!("openai/{}", m.name),
        Provider::OpenaiCompatible => format!("openai/{}", m.name),
    })
}

fn instruction(t: &Topology, id: &str) -> String {
    let mut s = crate::engine::system_prompt(t, id);
    if t.agent(id).is_some_and(|a| a.kind == AgentKind::Human) {
        s = format!("(Human escalation point: a person takes over here.) {s}");
    }
    s.trim_end().to_owned()
}

/// Python parameters from a tool's JSON schema: required first, optional ones default to None.
fn py_params(tool: &Tool) -> Result<String, ConfigError> {
    let props = tool.parameters.get("properties").and_then(|p| p.as_object());
    let required: Vec<&str> = tool
        .parameters
        .get("required")
        .and_then(|r| r.as_array())
        .map(|r| r.iter().filter_map(|x| x.as_str()).collect())
        .unwrap_or_default();
    let mut req = vec![];
    let mut opt = vec![];
    for (name, p) in props.into_iter().flatten() {
        if !is_ident(name) {
            return Err(ConfigError::Unexportable(format!(
                "tool {}: parameter '{name}' is not a Python identifier, which ADK function tools need",
                tool.name
            )));
        }
        let ty = match p.get("type").and_then(|t| t.as_str()) {
            Some("integer") => "int",
            Some("number") => "float",
            Some("boolean") => "bool",
            Some("array") => "list",
            Some("object") => "dict",
            _ => "str",
        };
        if required.contains(&name.as_str()) {
            req.push(format!("{name}: {ty}"));
        } else {
            opt.push(format!("{name}: Optional[{ty}] = None"));
        }
    }
    req.extend(opt);
    Ok(req.join(", "))
}

/// One Python function per tool (named as the tool: ADK names a function tool after it).
/// The Python function of each (agent id, tool name).
type ToolRefs = HashMap<(String, String), String>;

fn tool_functions(t: &Topology) -> Result<(String, ToolRefs), ConfigError> {
    let mut out = String::new();
    let mut refs = HashMap::new();
    let mut used: HashMap<String, usize> = HashMap::new();
    for a in &t.agents {
        for tl in &a.tools {
            if !is_ident(&tl.name) {
                return Err(ConfigError::Unexportable(format!(
                    "agent {}: tool '{}' is not a Python identifier, which ADK names function tools with",
                    a.name, tl.name
                )));
            }
            let n = used.entry(tl.name.clone()).or_insert(0);
            *n += 1;
            let func = if *n == 1 { tl.name.clone() } else { format!("{}_{}", tl.name, n) };
            out.push_str(&format!(
                "\n\ndef {func}({}) -> str:\n    {}\n    return {}\n",
                py_params(tl)?,
                // Any string literal first in the body is the docstring ADK sends as the description.
                py_str(if tl.description.is_empty() { &tl.name } else { &tl.description }),
                py_str(&tl.mock_result)
            ));
            if func != tl.name {
                // ADK takes a function tool's name from __name__.
                out.push_str(&format!("\n\n{func}.__name__ = {}\n", py_str(&tl.name)));
            }
            refs.insert((a.id.clone(), tl.name.clone()), func);
        }
    }
    Ok((out, refs))
}

const NOTE: &str = "Edit the topology and export again rather than editing this file.";

/// A Python module for Google ADK: `root_agent` and `run()`.
pub fn to_adk_py(t: &Topology) -> Result<String, ConfigError> {
    let p = plan(t);
    let (tools, refs) = tool_functions(t)?;
    let mut out = format!(
        "\"\"\"Google ADK module generated by Baton from the topology {}.\n\n`root_agent` is the entry agent; \
         `await run(\"your message\")` runs it in memory. {NOTE}\n\"\"\"\n\n\
         from typing import Optional\n\n\
         from google.adk.agents import LlmAgent\n\
         from google.adk.agents.run_config import RunConfig\n\
         from google.adk.runners import InMemoryRunner\n\
         from google.adk.tools.agent_tool import AgentTool\n\
         from google.genai import types\n\n\
         try:  # non-Gemini models run through LiteLLM (pip install litellm)\n    \
         from google.adk.models.lite_llm import LiteLlm\n\
         except ImportError:\n    \
         LiteLlm = None\n\n\n\
         def _model(name: str):\n    \
         return LiteLlm(model=name) if LiteLlm is not None and \"/\" in name else name\n",
        py_str(&t.name)
    );
    for w in &p.warnings {
        out.push_str(&format!("\n# Not expressible in ADK: {w}"));
    }
    if !p.warnings.is_empty() {
        out.push('\n');
    }
    out.push_str(&tools);
    for id in &p.order {
        let Some(a) = t.agent(id) else { continue };
        let var = &p.names[id];
        let mut args = vec![format!("name={}", py_str(var))];
        if let Some(m) = model_name(t, id) {
            args.push(format!("model=_model({})", py_str(&m)));
        }
        args.push(format!("instruction={}", py_str(&instruction(t, id))));
        if let Some(m) = &a.model {
            let mut g = vec![];
            if let Some(x) = m.temperature {
                g.push(format!("temperature={x}"));
            }
            if let Some(x) = m.top_p {
                g.push(format!("top_p={x}"));
            }
            if let Some(x) = m.max_tokens {
                g.push(format!("max_output_tokens={x}"));
            }
            if !g.is_empty() {
                args.push(format!("generate_content_config=types.GenerateContentConfig({})", g.join(", ")));
            }
        }
        let mut tl: Vec<String> = a.tools.iter().map(|x| refs[&(id.clone(), x.name.clone())].clone()).collect();
        tl.extend(
            p.agent_tools.iter().filter(|(f, _)| f == id).map(|(_, to)| format!("AgentTool(agent={})", p.names[to])),
        );
        if !tl.is_empty() {
            args.push(format!("tools=[{}]", tl.join(", ")));
        }
        if let Some(kids) = p.children.get(id) {
            args.push(format!(
                "sub_agents=[{}]",
                kids.iter().map(|k| p.names[k].clone()).collect::<Vec<_>>().join(", ")
            ));
        }
        if p.contents_none.contains(id) {
            args.push("include_contents=\"none\"".into());
        }
        if p.parent.contains_key(id) && p.no_parent.contains(id) {
            args.push("disallow_transfer_to_parent=True".into());
        }
        if p.parent.contains_key(id) && p.no_peers.contains(id) {
            args.push("disallow_transfer_to_peers=True".into());
        }
        out.push_str(&format!("\n{var} = LlmAgent(\n"));
        for arg in args {
            out.push_str(&format!("    {arg},\n"));
        }
        out.push_str(")\n");
    }
    let root = p.names.get(&t.entry).cloned().unwrap_or_else(|| "None".into());
    out.push_str(&format!(
        "\nroot_agent = {root}\n\n# The topology's guard on model calls.\nRUN_CONFIG = RunConfig(max_llm_calls={})\n\n\n\
         async def run(user_input: str, user_id: str = \"user\"):\n    \
         \"\"\"Runs root_agent on one message in memory; returns the events.\"\"\"\n    \
         runner = InMemoryRunner(agent=root_agent, app_name={})\n    \
         session = await runner.session_service.create_session(app_name={}, user_id=user_id)\n    \
         message = types.Content(role=\"user\", parts=[types.Part(text=user_input)])\n    \
         return [event async for event in runner.run_async(user_id=user_id, session_id=session.id, \
         new_message=message, run_config=RUN_CONFIG)]\n",
        t.guards.max_model_calls,
        py_str(&snake_case(&t.name)),
        py_str(&snake_case(&t.name))
    ));
    Ok(out)
}

/// Agent Config YAML: `root_agent.yaml`, one `<agent>.yaml` per other agent, and `tools.py`
/// (referenced as `<package>.tools.<function>`, `package` being the folder's name).
pub fn to_adk_yaml_files(t: &Topology, package: &str) -> Result<Vec<(String, String)>, ConfigError> {
    let p = plan(t);
    let (tools, refs) = tool_functions(t)?;
    let file_of = |id: &str| {
        if *id == t.entry { "root_agent.yaml".to_owned() } else { format!("{}.yaml", p.names[id]) }
    };
    let mut files = vec![];
    for id in &p.order {
        let Some(a) = t.agent(id) else { continue };
        let mut y = String::from(
            "# yaml-language-server: $schema=https://raw.githubusercontent.com/google/adk-python/refs/heads/main/src/google/adk/agents/config_schemas/AgentConfig.json\n",
        );
        if *id == t.entry {
            y.push_str(&format!("# Generated by Baton from the topology {}. {NOTE}\n", py_str(&t.name)));
            for w in &p.warnings {
                y.push_str(&format!("# Not expressible in ADK: {w}\n"));
            }
        }
        let mut m = serde_norway::Mapping::new();
        let s = |v: &str| serde_norway::Value::String(v.to_owned());
        m.insert(s("agent_class"), s("LlmAgent"));
        m.insert(s("name"), s(&p.names[id]));
        if let Some(model) = model_name(t, id) {
            m.insert(s("model"), s(&model));
        }
        m.insert(s("instruction"), s(&instruction(t, id)));
        let mut tl: Vec<serde_norway::Value> = vec![];
        for x in &a.tools {
            let mut tm = serde_norway::Mapping::new();
            tm.insert(s("name"), s(&format!("{package}.tools.{}", refs[&(id.clone(), x.name.clone())])));
            tl.push(serde_norway::Value::Mapping(tm));
        }
        for (_, to) in p.agent_tools.iter().filter(|(f, _)| f == id) {
            let mut agent = serde_norway::Mapping::new();
            agent.insert(s("config_path"), s(&file_of(to)));
            let mut args = serde_norway::Mapping::new();
            args.insert(s("agent"), serde_norway::Value::Mapping(agent));
            let mut tm = serde_norway::Mapping::new();
            tm.insert(s("name"), s("AgentTool"));
            tm.insert(s("args"), serde_norway::Value::Mapping(args));
            tl.push(serde_norway::Value::Mapping(tm));
        }
        if !tl.is_empty() {
            m.insert(s("tools"), serde_norway::Value::Sequence(tl));
        }
        if let Some(kids) = p.children.get(id) {
            let refs: Vec<serde_norway::Value> = kids
                .iter()
                .map(|k| {
                    let mut r = serde_norway::Mapping::new();
                    r.insert(s("config_path"), s(&file_of(k)));
                    serde_norway::Value::Mapping(r)
                })
                .collect();
            m.insert(s("sub_agents"), serde_norway::Value::Sequence(refs));
        }
        if p.contents_none.contains(id) {
            m.insert(s("include_contents"), s("none"));
        }
        if p.parent.contains_key(id) && p.no_parent.contains(id) {
            m.insert(s("disallow_transfer_to_parent"), serde_norway::Value::Bool(true));
        }
        if p.parent.contains_key(id) && p.no_peers.contains(id) {
            m.insert(s("disallow_transfer_to_peers"), serde_norway::Value::Bool(true));
        }
        if let Some(model) = &a.model {
            let mut g = serde_norway::Mapping::new();
            if let Some(x) = model.temperature {
                g.insert(s("temperature"), serde_norway::Value::from(x));
            }
            if let Some(x) = model.top_p {
                g.insert(s("top_p"), serde_norway::Value::from(x));
            }
            if let Some(x) = model.max_tokens {
                g.insert(s("max_output_tokens"), serde_norway::Value::from(x));
            }
            if !g.is_empty() {
                m.insert(s("generate_content_config"), serde_norway::Value::Mapping(g));
            }
        }
        y.push_str(
            &serde_norway::to_string(&serde_norway::Value::Mapping(m))
                .map_err(|e| ConfigError::Unexportable(format!("agent {}: {e}", a.name)))?,
        );
        files.push((file_of(id), y));
    }
    // The root first; ADK reads it and follows the references.
    files.sort_by_key(|(f, _)| f != "root_agent.yaml");
    files.push((
        "tools.py".into(),
        format!(
            "\"\"\"Function tools of the topology {} for its ADK Agent Config. {NOTE}\"\"\"\n\nfrom typing import Optional\n{tools}",
            py_str(&t.name)
        ),
    ));
    files.push(("__init__.py".into(), String::new()));
    Ok(files)
}

/// The YAML export as one text: each file after a `# --- <name> ---` line.
pub fn to_adk_yaml(t: &Topology) -> Result<String, ConfigError> {
    let package = snake_case(&t.name);
    let files = to_adk_yaml_files(t, package.trim_matches('_'))?;
    Ok(files.iter().map(|(name, text)| format!("# --- {name} ---\n{text}")).collect::<Vec<_>>().join("\n"))
}

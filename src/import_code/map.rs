//! From a framework's agents to a topology: handoffs and agents-as-tools become typed edges, the
//! SDK's input filters and ADK's `include_contents` become context policies, ADK's transfer rules
//! (sub-agents, parent, peers) become the handoff edges ADK allows, a CrewAI crew's process
//! becomes edges (`crewai.rs`), and each agent keeps where it was defined.

use super::CodeError;
use super::model::{CodeAgent, CodeHandoff, CodeModel, CodeTool, Filter, Framework};
use crate::topology::{
    Agent, AgentKind, ContextPolicy, Edge, EdgeKind, FieldSpec, Guardrail, GuardrailCheck, GuardrailOn, ModelRef,
    Provider, SourceLoc, Tool, Topology, default_tool_name, empty_object_schema, snake_case,
};
use std::collections::{HashMap, HashSet};

/// What became of the module, with what could not be carried over.
pub struct Imported {
    pub topology: Topology,
    pub notes: Vec<String>,
}

/// A model name as the framework writes it → Baton's provider and model.
pub fn model_ref(framework: Framework, model: &str, api: Option<&str>, class: Option<&str>) -> ModelRef {
    if framework == Framework::LangGraph {
        return langchain_model_ref(model);
    }
    // ADK resolves a bare name through its registry: the class it picks names the provider.
    if framework == Framework::Adk && !model.contains('/') && !model.starts_with("litellm:") {
        let provider = match class {
            Some("Claude" | "AnthropicLlm") => Some(Provider::Anthropic),
            Some("OpenAILlm" | "OpenAI") => Some(Provider::Openai),
            Some("Gemini" | "Gemma") => Some(Provider::Gemini),
            _ => None,
        };
        if let Some(p) = provider {
            return ModelRef { name: model.to_owned(), ..ModelRef::with_provider(p) };
        }
    }
    // LiteLLM's `provider/model` (ADK's LiteLlm takes it bare; the Agents SDK prefixes it).
    let litellm = model
        .strip_prefix("litellm/")
        .or_else(|| model.strip_prefix("any-llm/"))
        .or_else(|| model.strip_prefix("litellm:"))
        .or_else(|| (matches!(framework, Framework::Adk | Framework::CrewAi) && model.contains('/')).then_some(model));
    let (provider, name) = if let Some(rest) = litellm {
        match rest.split_once('/') {
            Some(("anthropic", m)) => (Provider::Anthropic, m),
            Some(("gemini" | "vertex_ai", m)) => (Provider::Gemini, m),
            Some(("openai", m)) => (Provider::Openai, m),
            _ => (Provider::OpenaiCompatible, rest),
        }
    } else if framework == Framework::Adk || model.starts_with("gemini") {
        (Provider::Gemini, model)
    } else if api == Some("responses") {
        (Provider::OpenaiResponses, model)
    } else {
        (Provider::Openai, model)
    };
    ModelRef { name: name.to_owned(), ..ModelRef::with_provider(provider) }
}

/// LangChain's `provider:model` (what `init_chat_model` takes, and what the script writes for a
/// chat model object whose class names the provider).
fn langchain_model_ref(model: &str) -> ModelRef {
    let (provider, name) = match model.split_once(':') {
        Some(("openai", m)) => (Provider::Openai, m),
        Some(("anthropic", m)) => (Provider::Anthropic, m),
        Some(("google_genai" | "google_vertexai", m)) => (Provider::Gemini, m),
        Some((_, m)) => (Provider::OpenaiCompatible, m),
        None if model.starts_with("claude") => (Provider::Anthropic, model),
        None if model.starts_with("gemini") => (Provider::Gemini, model),
        None => (Provider::Openai, model),
    };
    ModelRef { name: name.to_owned(), ..ModelRef::with_provider(provider) }
}

fn unique_ids(agents: &[CodeAgent]) -> Vec<String> {
    let mut used = HashSet::new();
    agents
        .iter()
        .map(|a| {
            let base = snake_case(&a.name).trim_matches('_').to_owned();
            let base = if base.is_empty() { "agent".to_owned() } else { base };
            let mut id = base.clone();
            let mut n = 2;
            while !used.insert(id.clone()) {
                id = format!("{base}_{n}");
                n += 1;
            }
            id
        })
        .collect()
}

/// The handoff's policy from its input type and filter; the SDK applies the filter to what the
/// receiver sees, the input type shapes the transfer call.
fn handoff_policy(h: &CodeHandoff, notes: &mut Vec<String>, from: &str) -> ContextPolicy {
    if let Some(p) = &h.policy {
        return p.clone();
    }
    if let Some(props) = h.input_type.as_ref().and_then(|s| s.get("properties")).and_then(|p| p.as_object()) {
        // Baton's exports pair `input_type` with a filter that keeps only its fields
        // (`_only_fields`); without a filter the SDK passes the whole history too.
        let only_fields =
            matches!(&h.input_filter, Some(Filter::Custom { custom, .. }) if custom.starts_with("_only_fields"));
        if h.input_filter.is_none() {
            notes.push(format!(
                "{from} → {}: the handoff has an input_type ({}) but no input filter, so the SDK passes the whole \
                 history too: policy full (with a filter that keeps only the input, it would be the fields policy)",
                h.agent,
                props.keys().cloned().collect::<Vec<_>>().join(", ")
            ));
        }
        if only_fields {
            // The model's field order: pydantic lists required fields in order (JSON objects
            // have none here).
            let required: Vec<&str> = h
                .input_type
                .as_ref()
                .and_then(|s| s.get("required"))
                .and_then(|r| r.as_array())
                .map(|r| r.iter().filter_map(|x| x.as_str()).collect())
                .unwrap_or_default();
            let mut ordered: Vec<(&String, &serde_json::Value)> = props.iter().collect();
            ordered.sort_by_key(|(name, _)| required.iter().position(|r| r == name).unwrap_or(usize::MAX));
            return ContextPolicy::Fields(
                ordered
                    .into_iter()
                    .map(|(name, p)| FieldSpec {
                        name: name.clone(),
                        ty: p.get("type").and_then(|t| t.as_str()).unwrap_or("string").to_owned(),
                        description: p.get("description").and_then(|d| d.as_str()).unwrap_or("").to_owned(),
                    })
                    .collect(),
            );
        }
    }
    match &h.input_filter {
        None => ContextPolicy::Full,
        Some(Filter::Known(k)) => match k.as_str() {
            "remove_all_tools" => ContextPolicy::RemoveTools,
            "nest_handoff_history" => ContextPolicy::NestSummary,
            other => ContextPolicy::Custom(other.to_owned()),
        },
        Some(Filter::Custom { custom, closure }) => {
            // The helpers a Baton export writes.
            let base = custom.split('.').next().unwrap_or(custom);
            match base {
                "_keep_last" => match closure.values().find_map(|v| v.as_u64()) {
                    Some(n) => ContextPolicy::LastN(n as usize),
                    None => ContextPolicy::Custom(custom.clone()),
                },
                "_latest_user_message" => ContextPolicy::None,
                _ => ContextPolicy::Custom(custom.clone()),
            }
        }
    }
}

fn tool(name: &str, description: Option<&str>, parameters: Option<&serde_json::Value>) -> Tool {
    Tool {
        name: name.to_owned(),
        description: description.unwrap_or("").trim().to_owned(),
        parameters: parameters.cloned().unwrap_or_else(empty_object_schema),
        mock_result: String::new(),
    }
}

pub fn to_topology(m: &CodeModel, entry: Option<&str>, name: &str) -> Result<Imported, CodeError> {
    let (m, mut notes) = super::crewai::with_crew_edges(m);
    let m = &m;
    notes.extend(m.notes.iter().cloned());
    if m.agents.is_empty() {
        return Err(CodeError::NoAgents(format!(
            "{} builds no {} agent at import time; define the agents at module level (or in a function the module \
             calls), or pick the other framework with --framework",
            m.module,
            m.framework.label()
        )));
    }
    let ids = unique_ids(&m.agents);
    let by_name: HashMap<&str, &str> =
        m.agents.iter().zip(&ids).map(|(a, id)| (a.name.as_str(), id.as_str())).collect();
    let by_agent: HashMap<&str, &CodeAgent> = m.agents.iter().map(|a| (a.name.as_str(), a)).collect();
    let mut t = Topology { id: Some(crate::topology::new_topology_id()), ..Topology::new(name) };
    t.agents.clear();
    t.description = format!("Imported from {} ({}).", m.module, m.framework.label());
    for (a, id) in m.agents.iter().zip(&ids) {
        let workflow = a.is_workflow();
        let instructions = match (&a.instructions, &a.dynamic_instructions) {
            (_, Some(f)) => format!("dynamic: {f}"),
            (Some(text), None) => text.clone(),
            (None, None) if workflow => {
                let order = match a.class.as_str() {
                    "SequentialAgent" => "in order".to_owned(),
                    "ParallelAgent" => "in parallel".to_owned(),
                    _ => format!(
                        "in a loop of at most {} iterations",
                        a.max_iterations.map_or("unbounded".into(), |n| n.to_string())
                    ),
                };
                format!("Workflow agent ({}): runs {} {order}.", a.class, a.sub_agents.join(", "))
            }
            (None, None) => String::new(),
        };
        let model = a.model.as_deref().filter(|_| !workflow).map(|model| {
            let mut r = model_ref(m.framework, model, a.model_api.as_deref(), a.model_class.as_deref());
            r.temperature = a.model_settings.temperature;
            r.top_p = a.model_settings.top_p;
            r.max_tokens = a.model_settings.max_tokens;
            r.tool_choice = a.model_settings.tool_choice.clone();
            r
        });
        let tools = a
            .tools
            .iter()
            .filter_map(|tl| match tl {
                CodeTool::Function { name, description, parameters } => {
                    Some(tool(name, description.as_deref(), parameters.as_ref()))
                }
                CodeTool::Hosted { name } => {
                    notes
                        .push(format!("{}: the hosted tool {name} runs at the provider; Baton's runs mock it", a.name));
                    Some(tool(name, Some(&format!("Hosted tool {name} (runs at the provider).")), None))
                }
                CodeTool::Agent { .. } => None,
            })
            .collect();
        if workflow {
            notes.push(format!(
                "{}: a {} is drawn as a supervisor delegating to its sub-agents in order; Baton's engine does not \
                 run workflow agents the way ADK does",
                a.name, a.class
            ));
        }
        if let Some(key) = &a.output_key {
            notes.push(format!("{}: output_key {key} (the session state ADK writes) is not modelled", a.name));
        }
        t.agents.push(Agent {
            id: id.clone(),
            name: a.name.clone(),
            kind: if workflow || a.is_supervisor() { AgentKind::Supervisor } else { AgentKind::Agent },
            instructions,
            model,
            tools,
            source: a.file.clone().zip(a.line).map(|(file, line)| SourceLoc { file, line }),
        });
    }
    for a in &m.agents {
        let id = by_name.get(a.name.as_str()).map(|s| (*s).to_owned()).unwrap_or_default();
        for g in &a.guardrails {
            let check = match (&g.check, &g.custom) {
                (Some(c), _) => serde_json::from_value(c.clone()).ok(),
                (None, Some(f)) => {
                    notes.push(format!(
                        "{}: guardrail {} is your function {f}, which Baton cannot run: runs treat it as passing",
                        a.name, g.name
                    ));
                    Some(GuardrailCheck::Custom { custom: f.clone() })
                }
                _ => None,
            };
            let Some(check) = check else { continue };
            t.guardrails.push(Guardrail {
                name: g.name.clone(),
                agent: Some(id.clone()),
                on: if g.on == "output" { GuardrailOn::Output } else { GuardrailOn::Input },
                check,
                run_in_parallel: g.run_in_parallel,
                message: g.message.clone().unwrap_or_default(),
            });
        }
    }
    let id_of = |name: &str| -> Result<String, CodeError> {
        by_name.get(name).map(|s| (*s).to_owned()).ok_or_else(|| {
            CodeError::Output(format!("the introspection names an agent '{name}' it did not list (a bug in Baton)"))
        })
    };
    let mut pointed: HashSet<String> = HashSet::new();
    // Edges are added once; `pointed` holds the agents a handoff, an agent tool or a sub-agent
    // list reaches (what makes an agent not an entry candidate).
    let push = |t: &mut Topology, e: Edge| {
        if !t.edges.iter().any(|x| x.kind == e.kind && x.from == e.from && x.to == e.to) {
            t.edges.push(e);
        }
    };
    // ADK: `include_contents='none'` is the receiver's; every transfer into it carries nothing.
    let receives_none = |name: &str| by_agent.get(name).and_then(|a| a.include_contents.as_deref()) == Some("none");
    let parent_of: HashMap<&str, &CodeAgent> =
        m.agents.iter().flat_map(|p| p.sub_agents.iter().map(move |s| (s.as_str(), p))).collect();
    for a in &m.agents {
        let from = id_of(&a.name)?;
        for h in &a.handoffs {
            let mut e = Edge::new(EdgeKind::Handoff, &from, &id_of(&h.agent)?);
            e.policy = handoff_policy(h, &mut notes, &a.name);
            if let Some(tool) = &h.tool_name
                && !h.default_tool_name
                && *tool != default_tool_name(EdgeKind::Handoff, &h.agent)
            {
                e.tool = Some(tool.clone());
            }
            if let Some(d) = &h.tool_description {
                e.description = d.clone();
            }
            pointed.insert(e.to.clone());
            push(&mut t, e);
        }
        for tl in &a.tools {
            if let CodeTool::Agent { name, description, agent } = tl {
                let mut e = Edge::new(EdgeKind::Delegation, &from, &id_of(agent)?);
                if *name != default_tool_name(EdgeKind::Delegation, agent) {
                    e.tool = Some(name.clone());
                }
                if let Some(d) = description {
                    e.description = d.clone();
                }
                pointed.insert(e.to.clone());
                push(&mut t, e);
            }
        }
        let llm = !a.is_workflow();
        for s in &a.sub_agents {
            pointed.insert(id_of(s)?);
            // ADK's single-turn and task sub-agents are called as tools (listed there), not
            // transferred to.
            if a.tools.iter().any(|tl| matches!(tl, CodeTool::Agent { agent, .. } if agent == s)) {
                continue;
            }
            let mut e = Edge::new(if llm { EdgeKind::Handoff } else { EdgeKind::Delegation }, &from, &id_of(s)?);
            if !llm {
                e.description = format!("{} runs {s} as part of its workflow.", a.name);
            }
            push(&mut t, e);
        }
        // ADK's transfer rules: an LLM agent may also transfer to its parent and its peers, when
        // the parent is an LLM agent too and no flag forbids it.
        if m.framework == Framework::Adk
            && llm
            && let Some(p) = parent_of.get(a.name.as_str())
            && !p.is_workflow()
        {
            let mut targets = vec![];
            if !a.disallow_transfer_to_parent {
                targets.push(p.name.as_str());
            }
            if !a.disallow_transfer_to_peers {
                targets.extend(p.sub_agents.iter().map(String::as_str).filter(|s| *s != a.name));
            }
            for to in targets {
                push(&mut t, Edge::new(EdgeKind::Handoff, &from, &id_of(to)?));
            }
        }
    }
    // What ADK's `include_contents='none'` receivers get, whoever sends to them.
    for e in &mut t.edges {
        let to = t.agents.iter().find(|a| a.id == e.to).map(|a| a.name.as_str()).unwrap_or_default();
        if receives_none(to) {
            e.policy = ContextPolicy::None;
        }
    }
    t.entry = pick_entry(m, entry, &ids, &by_name, &pointed)?;
    // Agents in the order a run meets them: the entry, then along the edges.
    let mut rank: HashMap<String, usize> = HashMap::from([(t.entry.clone(), 0)]);
    let mut queue = std::collections::VecDeque::from([t.entry.clone()]);
    while let Some(a) = queue.pop_front() {
        for e in t.edges.iter().filter(|e| e.from == a) {
            if !rank.contains_key(&e.to) {
                rank.insert(e.to.clone(), rank.len());
                queue.push_back(e.to.clone());
            }
        }
    }
    let n = t.agents.len();
    let pos: HashMap<String, usize> = t.agents.iter().enumerate().map(|(i, a)| (a.id.clone(), i)).collect();
    t.agents.sort_by_key(|a| rank.get(&a.id).copied().unwrap_or(n + pos[&a.id]));
    t.edges.sort_by_key(|e| rank.get(&e.from).copied().unwrap_or(n + pos.get(&e.from).copied().unwrap_or(0)));
    t.normalize();
    Ok(Imported { topology: t, notes })
}

fn pick_entry(
    m: &CodeModel,
    entry: Option<&str>,
    ids: &[String],
    by_name: &HashMap<&str, &str>,
    pointed: &HashSet<String>,
) -> Result<String, CodeError> {
    if let Some(e) = entry {
        return by_name.get(e).map(|s| (*s).to_owned()).or_else(|| ids.iter().find(|id| *id == e).cloned()).ok_or_else(
            || {
                CodeError::Entry(format!(
                    "--entry {e}: no agent of that name; the agents are {}",
                    m.agents.iter().map(|a| a.name.as_str()).collect::<Vec<_>>().join(", ")
                ))
            },
        );
    }
    if let Some(id) = m.root_agent.as_ref().and_then(|root| by_name.get(root.as_str())) {
        return Ok((*id).to_owned());
    }
    let top: Vec<&str> = if m.top_level.is_empty() {
        m.agents.iter().map(|a| a.name.as_str()).collect()
    } else {
        m.top_level.iter().map(String::as_str).collect()
    };
    let candidates: Vec<&str> =
        top.into_iter().filter(|n| by_name.get(n).is_some_and(|id| !pointed.contains(*id))).collect();
    match candidates.as_slice() {
        [one] => Ok(by_name[one].to_owned()),
        [] => Ok(ids[0].clone()),
        many => Err(CodeError::Entry(format!(
            "{} has {} top-level agents no other agent points to: {}; say which one starts a run with --entry NAME \
             (or name it root_agent)",
            m.module,
            many.len(),
            many.join(", ")
        ))),
    }
}

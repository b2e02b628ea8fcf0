//! Export to a Python module for the OpenAI Agents SDK: one `Agent` per agent, `handoff()` per
//! handoff edge with its context policy mapped to the SDK, `as_tool()` per delegation, mock tools
//! as `FunctionTool`s, and `max_turns` from the guards.

use crate::topology::{Agent, AgentKind, ContextPolicy, EdgeKind, FieldSpec, ModelRef, Provider, Topology, snake_case};
use std::collections::HashMap;

/// A Python string literal (JSON strings are valid Python string literals).
fn py_str(s: &str) -> String {
    serde_json::to_string(s).expect("strings serialize")
}

/// A Python expression for a JSON value.
fn py_value(v: &serde_json::Value) -> String {
    format!("json.loads({})", py_str(&v.to_string()))
}

fn var_names(t: &Topology) -> HashMap<String, String> {
    let mut used = std::collections::HashSet::new();
    t.agents
        .iter()
        .map(|a| {
            let mut base = snake_case(&a.id);
            if base.is_empty() || base.starts_with(|c: char| c.is_ascii_digit()) {
                base = format!("agent_{base}");
            }
            let base = format!("{base}_agent");
            let mut v = base.clone();
            let mut n = 2;
            while !used.insert(v.clone()) {
                v = format!("{base}_{n}");
                n += 1;
            }
            (a.id.clone(), v)
        })
        .collect()
}

fn model_expr(m: &ModelRef) -> Option<String> {
    let name = match m.provider {
        Provider::Mock => return None,
        Provider::Openai | Provider::OpenaiResponses => m.name.clone(),
        Provider::Anthropic => format!("litellm/anthropic/{}", m.name),
        Provider::Gemini => format!("litellm/gemini/{}", m.name),
        Provider::OpenaiCompatible => format!("litellm/openai/{}", m.name),
    };
    Some(py_str(&name))
}

fn settings_expr(m: &ModelRef) -> Option<String> {
    let mut parts = vec![];
    if let Some(t) = m.temperature {
        parts.push(format!("temperature={t}"));
    }
    if let Some(p) = m.top_p {
        parts.push(format!("top_p={p}"));
    }
    if let Some(n) = m.max_tokens {
        parts.push(format!("max_tokens={n}"));
    }
    (!parts.is_empty()).then(|| format!("ModelSettings({})", parts.join(", ")))
}

fn pascal(s: &str) -> String {
    snake_case(s)
        .split('_')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let mut c = p.chars();
            c.next().map(|f| f.to_ascii_uppercase().to_string() + c.as_str()).unwrap_or_default()
        })
        .collect()
}

fn py_type(f: &FieldSpec) -> &'static str {
    match f.ty.as_str() {
        "number" => "float",
        "integer" => "int",
        "boolean" => "bool",
        "object" => "dict",
        "array" => "list",
        _ => "str",
    }
}

const PRELUDE: &str = r#"import dataclasses
import json

from agents import Agent, FunctionTool, HandoffInputData, ModelSettings, Runner, handoff
from agents.extensions import handoff_filters
from pydantic import BaseModel


def _mock_tool(name, description, schema, result):
    """A tool that answers with the topology's mock result (real execution is out of scope)."""

    async def _invoke(_ctx, _args: str) -> str:
        return result

    return FunctionTool(
        name=name,
        description=description,
        params_json_schema=schema,
        on_invoke_tool=_invoke,
        strict_json_schema=False,
    )


def _history(data: HandoffInputData) -> list:
    """Everything the receiver would see under the `full` policy, as input items."""
    items = [data.input_history] if isinstance(data.input_history, str) else list(data.input_history)
    items = [{"role": "user", "content": i} if isinstance(i, str) else i for i in items]
    items += [i.to_input_item() for i in data.pre_handoff_items]
    items += [i.to_input_item() for i in data.new_items]
    return items


def _replace(data: HandoffInputData, items: list) -> HandoffInputData:
    return dataclasses.replace(data, input_history=tuple(items), pre_handoff_items=(), new_items=())


def _keep_last(n: int):
    """Baton policy `last_n`: only the last n items of the history cross."""

    def _filter(data: HandoffInputData) -> HandoffInputData:
        return _replace(data, _history(data)[-n:])

    return _filter


def _latest_user_message(data: HandoffInputData) -> HandoffInputData:
    """Baton policy `none`: no history crosses but the user's latest message."""
    users = [i for i in _history(data) if isinstance(i, dict) and i.get("role") == "user"]
    return _replace(data, users[-1:])


def _only_fields(sender: str, fields: list):
    """Baton policy `fields`: only the named fields of the structured handoff input cross."""

    def _filter(data: HandoffInputData) -> HandoffInputData:
        args = {}
        for item in data.new_items:
            raw = getattr(item, "raw_item", None)
            if getattr(item, "type", "") == "handoff_call_item" and raw is not None:
                args = json.loads(getattr(raw, "arguments", "") or "{}")
        lines = [f"Handoff from {sender}:"] + [f"{k}: {args.get(k)}" for k in fields if k in args]
        return _replace(data, [{"role": "user", "content": "\n".join(lines)}])

    return _filter


async def _ignore_input(_ctx, _input) -> None:
    return None
"#;

/// Renders the Python module.
pub fn to_openai_agents_py(t: &Topology) -> String {
    let vars = var_names(t);
    let mut out = format!(
        "\"\"\"OpenAI Agents SDK module generated by Baton from the topology {}.\n\nRun it with \
         `await run(\"your message\")`. Edit the topology and export again rather than editing this file.\n\"\"\"\n\n",
        py_str(&t.name)
    );
    out.push_str(PRELUDE);
    out.push_str(&format!("\n\nMAX_TURNS = {}\n", t.guards.max_turns));
    if let Some(n) = t.guards.max_handoffs {
        out.push_str(&format!("MAX_HANDOFFS = {n}  # enforce with a RunHooks.on_handoff counter\n"));
    }

    // Structured handoff inputs.
    for e in &t.edges {
        if let (EdgeKind::Handoff, ContextPolicy::Fields(fields)) = (e.kind, &e.policy) {
            out.push_str(&format!("\n\nclass {}Input(BaseModel):\n", pascal(&e.id)));
            if fields.is_empty() {
                out.push_str("    pass\n");
            }
            for f in fields {
                out.push_str(&format!("    {}: {}\n", snake_case(&f.name), py_type(f)));
            }
        }
    }

    // Agents first (handoff cycles are wired afterwards).
    for a in &t.agents {
        out.push_str(&agent_def(t, a, &vars));
    }

    out.push_str("\n# Transfers: handoffs move ownership; delegations (as_tool) keep it.\n");
    for a in &t.agents {
        let var = &vars[&a.id];
        let mut handoffs = vec![];
        let mut tools = vec![];
        for e in t.edges_from(&a.id) {
            let Some(target) = vars.get(&e.to) else {
                continue;
            };
            let tool = t.tool_name(e);
            match e.kind {
                EdgeKind::Handoff => {
                    let mut args = vec![target.clone(), format!("tool_name_override={}", py_str(&tool))];
                    if !e.description.is_empty() {
                        args.push(format!("tool_description_override={}", py_str(&e.description)));
                    }
                    match &e.policy {
                        ContextPolicy::Full => {}
                        ContextPolicy::RemoveTools => args.push("input_filter=handoff_filters.remove_all_tools".into()),
                        ContextPolicy::NestSummary => args.push("nest_handoff_history=True".into()),
                        ContextPolicy::LastN(n) => args.push(format!("input_filter=_keep_last({n})")),
                        ContextPolicy::None => args.push("input_filter=_latest_user_message".into()),
                        ContextPolicy::Fields(fields) => {
                            let names: Vec<String> = fields.iter().map(|f| py_str(&f.name)).collect();
                            args.push(format!("input_type={}Input", pascal(&e.id)));
                            args.push("on_handoff=_ignore_input".into());
                            args.push(format!(
                                "input_filter=_only_fields({}, [{}])",
                                py_str(&a.name),
                                names.join(", ")
                            ));
                        }
                    }
                    handoffs.push(format!("handoff({})", args.join(", ")));
                }
                EdgeKind::Delegation => {
                    let desc = if e.description.is_empty() {
                        format!(
                            "Ask {} for a bounded result.",
                            t.agent(&e.to).map(|a| a.name.as_str()).unwrap_or(&e.to)
                        )
                    } else {
                        e.description.clone()
                    };
                    tools.push(format!(
                        "{target}.as_tool(tool_name={}, tool_description={})",
                        py_str(&tool),
                        py_str(&desc)
                    ));
                }
            }
        }
        if !handoffs.is_empty() {
            out.push_str(&format!("{var}.handoffs = [\n"));
            for h in handoffs {
                out.push_str(&format!("    {h},\n"));
            }
            out.push_str("]\n");
        }
        if !tools.is_empty() {
            out.push_str(&format!("{var}.tools += [\n"));
            for tl in tools {
                out.push_str(&format!("    {tl},\n"));
            }
            out.push_str("]\n");
        }
    }

    let entry = vars.get(&t.entry).cloned().unwrap_or_else(|| "None".into());
    out.push_str(&format!(
        "\nENTRY = {entry}\nAGENTS = [{}]\n\n\nasync def run(user_input):\n    \"\"\"Runs the topology from its entry agent with the topology's max_turns.\"\"\"\n    return await Runner.run(ENTRY, user_input, max_turns=MAX_TURNS)\n",
        t.agents.iter().map(|a| vars[&a.id].clone()).collect::<Vec<_>>().join(", ")
    ));
    out
}

fn agent_def(t: &Topology, a: &Agent, vars: &HashMap<String, String>) -> String {
    let mut args = vec![format!("name={}", py_str(&a.name))];
    let mut instructions = a.instructions.clone();
    let facts: Vec<&str> = t.facts.iter().filter(|f| f.holders.contains(&a.id)).map(|f| f.text.as_str()).collect();
    if !facts.is_empty() {
        instructions.push_str("\n\nPinned facts:\n");
        for f in facts {
            instructions.push_str(&format!("- {f}\n"));
        }
    }
    if a.kind == AgentKind::Human {
        instructions = format!("(Human escalation point: a person takes over here.) {instructions}");
    }
    args.push(format!("instructions={}", py_str(instructions.trim_end())));
    if let Some(m) = &a.model {
        if let Some(model) = model_expr(m) {
            args.push(format!("model={model}"));
        }
        if let Some(s) = settings_expr(m) {
            args.push(format!("model_settings={s}"));
        }
    }
    let tools: Vec<String> = a
        .tools
        .iter()
        .map(|tl| {
            format!(
                "_mock_tool({}, {}, {}, {})",
                py_str(&tl.name),
                py_str(&tl.description),
                py_value(&tl.parameters),
                py_str(&tl.mock_result)
            )
        })
        .collect();
    args.push(format!("tools=[{}]", tools.join(", ")));
    let mut s = format!("\n{} = Agent(\n", vars[&a.id]);
    for arg in args {
        s.push_str(&format!("    {arg},\n"));
    }
    s.push_str(")\n");
    s
}

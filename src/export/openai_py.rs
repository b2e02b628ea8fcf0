//! Export to a Python module for the OpenAI Agents SDK: one `Agent` per agent, `handoff()` per
//! handoff edge with its context policy mapped to the SDK, `as_tool()` per delegation, mock tools
//! as `FunctionTool`s, and `max_turns` from the guards.

use crate::config::ConfigError;
use crate::topology::{
    Acceptance, Agent, AgentKind, ContextPolicy, EdgeKind, FieldSpec, ModelRef, OnRevisit, Provider, Topology,
    snake_case,
};
use std::collections::HashMap;

/// A Python string literal (JSON strings are valid Python string literals).
pub(super) fn py_str(s: &str) -> String {
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

/// A Python identifier for a field name (`ticket id` → `ticket_id`, `class` → `class_`).
fn py_ident(name: &str) -> String {
    const KEYWORDS: &[&str] = &[
        "False",
        "None",
        "True",
        "and",
        "as",
        "assert",
        "async",
        "await",
        "break",
        "class",
        "continue",
        "def",
        "del",
        "elif",
        "else",
        "except",
        "finally",
        "for",
        "from",
        "global",
        "if",
        "import",
        "in",
        "is",
        "lambda",
        "nonlocal",
        "not",
        "or",
        "pass",
        "raise",
        "return",
        "try",
        "while",
        "with",
        "yield",
        "model_config",
    ];
    let mut id = snake_case(name).trim_start_matches('_').to_owned();
    if id.is_empty() || id.starts_with(|c: char| c.is_ascii_digit()) {
        id = format!("f_{id}");
    }
    if KEYWORDS.contains(&id.as_str()) {
        id.push('_');
    }
    id
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

from agents import Agent, FunctionTool, HandoffInputData, ModelSettings, RunHooks, Runner, handoff
from agents.extensions import handoff_filters
from pydantic import BaseModel, ConfigDict, Field


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


def _field_text(v) -> str:
    """A field's value as Baton writes it: strings as they are, anything else as compact JSON."""
    return v if isinstance(v, str) else json.dumps(v, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


def _only_fields(sender: str, fields: list):
    """Baton policy `fields`: only the named fields of the structured handoff input cross."""

    def _filter(data: HandoffInputData) -> HandoffInputData:
        args = {}
        for item in data.new_items:
            raw = getattr(item, "raw_item", None)
            if getattr(item, "type", "") == "handoff_call_item" and raw is not None:
                args = json.loads(getattr(raw, "arguments", "") or "{}")
        lines = [f"Handoff from {sender}:"] + [f"{k}: {_field_text(args[k])}" for k in fields if k in args]
        return _replace(data, [{"role": "user", "content": "\n".join(lines)}])

    return _filter


async def _ignore_input(_ctx, _input) -> None:
    return None


class GuardStopped(Exception):
    """A topology guard ended the run before a handoff (`guard`: "max_handoffs" or "revisit").

    `run()` returns it in place of a result: `last_agent` owns the conversation now (the human
    agent, when the run was escalated) and `final_output` is None.
    """

    def __init__(self, guard: str, reason: str, last_agent: Agent):
        super().__init__(reason)
        self.guard, self.reason, self.last_agent, self.final_output = guard, reason, last_agent, None


class BatonGuards(RunHooks):
    """The topology's handoff guards, enforced as the run goes: at most MAX_HANDOFFS handoffs,
    and ON_REVISIT when a handoff goes back to an agent that already owned the conversation."""

    def __init__(self, entry: Agent):
        self.owners = [entry.name]
        self.handoffs = 0

    async def on_handoff(self, context, from_agent: Agent, to_agent: Agent) -> None:
        if MAX_HANDOFFS is not None and self.handoffs >= MAX_HANDOFFS:
            raise GuardStopped(
                "max_handoffs",
                f"max_handoffs ({MAX_HANDOFFS}) reached: the handoff {from_agent.name} → {to_agent.name} was not made",
                from_agent,
            )
        if to_agent.name in self.owners and ON_REVISIT != "allow":
            path = " → ".join(self.owners)
            what = (
                f"{from_agent.name} tried to hand back to {to_agent.name}, which already owned the "
                f"conversation ({path} → {to_agent.name})"
            )
            if ON_REVISIT == "escalate" and ESCALATE_TO is not None:
                raise GuardStopped("revisit", f"handoff-history guard: {what}; escalated to {ESCALATE_TO.name}", ESCALATE_TO)
            if ON_REVISIT == "escalate":
                raise GuardStopped("revisit", f"handoff-history guard: {what}; no human agent to escalate to, stopped", from_agent)
            raise GuardStopped("revisit", f"handoff-history guard: {what}; stopped", from_agent)
        self.handoffs += 1
        self.owners.append(to_agent.name)


def _guard_stop(error: BaseException):
    """The GuardStopped behind an error the SDK raised from a hook, if any."""
    while error is not None:
        if isinstance(error, GuardStopped):
            return error
        error = error.__cause__ or error.__context__
    return None
"#;

/// Renders the Python module; a topology the SDK cannot express exactly is refused, saying why.
pub fn to_openai_agents_py(t: &Topology) -> Result<String, ConfigError> {
    let vars = var_names(t);
    let mut out = format!(
        "\"\"\"OpenAI Agents SDK module generated by Baton from the topology {}.\n\nRun it with \
         `await run(\"your message\")`. Edit the topology and export again rather than editing this file.\n\"\"\"\n\n",
        py_str(&t.name)
    );
    out.push_str(PRELUDE);
    if t.edges.iter().any(|e| e.kind == EdgeKind::Delegation && e.acceptance == Acceptance::Verify) {
        out.push_str(VERIFY_PRELUDE);
    }
    out.push_str(&format!("\n\nMAX_TURNS = {}\n", t.guards.max_turns));
    // The handoff guards, enforced by `BatonGuards` (a RunHooks) in `run()`.
    let max_handoffs = t.guards.max_handoffs.map(|n| n.to_string()).unwrap_or_else(|| "None".into());
    out.push_str(&format!("MAX_HANDOFFS = {max_handoffs}\n"));
    let on_revisit = match t.guards.on_revisit {
        OnRevisit::Allow => "allow",
        OnRevisit::Stop => "stop",
        OnRevisit::Escalate => "escalate",
    };
    out.push_str(&format!("ON_REVISIT = {}\n", py_str(on_revisit)));

    // Structured handoff inputs.
    for e in &t.edges {
        if let (EdgeKind::Handoff, ContextPolicy::Fields(fields)) = (e.kind, &e.policy) {
            // The model sees the topology's own field names (aliases); Python gets identifiers.
            out.push_str(&format!("\n\nclass {}(BaseModel):\n", crate::engine::input_type_name(&e.id)));
            out.push_str("    model_config = ConfigDict(populate_by_name=True)\n");
            for f in fields {
                let ident = py_ident(&f.name);
                if f.ty == "object" {
                    return Err(ConfigError::Unexportable(format!(
                        "handoff {}: field '{}' is a free-form object, which the OpenAI Agents SDK's strict handoff \
                         schema cannot express; give it the type string (and describe the JSON it holds) or pick \
                         another policy",
                        e.id, f.name
                    )));
                }
                let mut field_args = vec![];
                if ident != f.name {
                    field_args.push(format!("alias={}", py_str(&f.name)));
                }
                if !f.description.is_empty() {
                    field_args.push(format!("description={}", py_str(&f.description)));
                }
                if field_args.is_empty() {
                    out.push_str(&format!("    {ident}: {}\n", py_type(f)));
                } else {
                    out.push_str(&format!("    {ident}: {} = Field({})\n", py_type(f), field_args.join(", ")));
                }
            }
        }
    }

    // Custom filters of imported code: Baton never had their bodies.
    let mut customs: Vec<String> = t
        .edges
        .iter()
        .filter_map(|e| if let ContextPolicy::Custom(c) = &e.policy { Some(py_ident(c)) } else { None })
        .collect();
    customs.sort();
    customs.dedup();
    for c in customs {
        out.push_str(&format!(
            "\n\ndef {c}(data: HandoffInputData) -> HandoffInputData:\n    \
             \"\"\"The custom input filter `{c}` of the code this topology was imported from. Baton cannot read its\n    \
             body, so it passes everything, as Baton's runs do: put the original body back here.\"\"\"\n    \
             return data\n"
        ));
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
        // Names and descriptions exactly as Baton's engine presents its transfer tools.
        let specs = crate::engine::tools_for(t, &a.id);
        let description = |edge: &str| {
            specs.iter().find(|s| s.edge.as_deref() == Some(edge)).map(|s| s.description.clone()).unwrap_or_default()
        };
        for e in t.edges_from(&a.id) {
            let Some(target) = vars.get(&e.to) else {
                continue;
            };
            let tool = t.tool_name(e);
            match e.kind {
                EdgeKind::Handoff => {
                    let mut args = vec![target.clone(), format!("tool_name_override={}", py_str(&tool))];
                    args.push(format!("tool_description_override={}", py_str(&description(&e.id))));
                    match &e.policy {
                        ContextPolicy::Full => {}
                        ContextPolicy::RemoveTools => args.push("input_filter=handoff_filters.remove_all_tools".into()),
                        ContextPolicy::NestSummary => args.push("nest_handoff_history=True".into()),
                        ContextPolicy::LastN(n) => args.push(format!("input_filter=_keep_last({n})")),
                        ContextPolicy::None => args.push("input_filter=_latest_user_message".into()),
                        ContextPolicy::Custom(name) => args.push(format!("input_filter={}", py_ident(name))),
                        ContextPolicy::Fields(fields) => {
                            let names: Vec<String> = fields.iter().map(|f| py_str(&f.name)).collect();
                            args.push(format!("input_type={}", crate::engine::input_type_name(&e.id)));
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
                EdgeKind::Delegation if e.acceptance == Acceptance::Verify => {
                    // The claim check comes back with the worker's answer, as Baton's engine puts it.
                    tools.push(format!(
                        "{target}.as_tool(tool_name={}, tool_description={}, custom_output_extractor={})",
                        py_str(&tool),
                        py_str(&description(&e.id)),
                        verified_py(t, e)
                    ));
                }
                EdgeKind::Delegation => {
                    tools.push(format!(
                        "{target}.as_tool(tool_name={}, tool_description={})",
                        py_str(&tool),
                        py_str(&description(&e.id))
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

    let run_config = guardrails_py(t, &vars, &mut out);
    let entry = vars.get(&t.entry).cloned().unwrap_or_else(|| "None".into());
    let escalate_to = t
        .escalation_target()
        .filter(|h| h.kind == AgentKind::Human)
        .and_then(|h| vars.get(&h.id).cloned())
        .unwrap_or_else(|| "None".into());
    out.push_str(&format!(
        "\nENTRY = {entry}\n# The entry agent under the name `baton import-code` (and ADK) look for.\nroot_agent = ENTRY\nESCALATE_TO = {escalate_to}\nAGENTS = [{}]\n\n\n\
         async def run(user_input):\n    \
         \"\"\"Runs the topology from its entry agent with its guards (max_turns, max_handoffs, on_revisit).\n\n    \
         Returns the SDK's RunResult, or the GuardStopped that ended the run before a handoff.\n    \"\"\"\n    \
         try:\n        \
         return await Runner.run(ENTRY, user_input, max_turns=MAX_TURNS, hooks=BatonGuards(ENTRY))\n    \
         except Exception as error:\n        \
         stop = _guard_stop(error)\n        \
         if stop is None:\n            \
         raise\n        \
         return stop\n",
        t.agents.iter().map(|a| vars[&a.id].clone()).collect::<Vec<_>>().join(", ")
    ));
    if run_config {
        out = out.replace("hooks=BatonGuards(ENTRY))", "hooks=BatonGuards(ENTRY), run_config=RUN_CONFIG)");
    }
    Ok(out)
}

/// The `custom_output_extractor` of a verified delegation: the worker's answer, then the claim
/// check in Baton's words, with the verdicts scripted in the first scenario (replace `_verified`
/// with a real check: a model's structured verdict, a tool).
fn verified_py(t: &Topology, e: &crate::topology::Edge) -> String {
    let name = |id: &str| t.agent(id).map(|a| a.name.clone()).unwrap_or_else(|| id.to_owned());
    let criteria = if e.criteria.is_empty() { "none given".to_owned() } else { e.criteria.join("; ") };
    let held: Vec<String> = t
        .facts
        .iter()
        .filter(|f| f.holders.iter().any(|h| h == &e.from))
        .map(|f| format!("{} (\"{}\")", f.id, f.text))
        .collect();
    let held = if held.is_empty() { "none".to_owned() } else { held.join("; ") };
    let first = t.scenarios.first();
    let verdicts: Vec<String> = first
        .and_then(|s| s.verdicts.get(&e.id))
        .map(|v| {
            v.iter().map(|v| format!("({}, {})", if v.accept { "True" } else { "False" }, py_str(&v.reason))).collect()
        })
        .unwrap_or_default();
    format!(
        "_verified({}, {}, {}, [{}], {}, {})",
        py_str(&name(&e.to)),
        py_str(&criteria),
        py_str(&held),
        verdicts.join(", "),
        py_str(first.map(|s| s.name.as_str()).unwrap_or_default()),
        py_str(&e.id)
    )
}

/// The topology's guardrails as the SDK's own guardrail functions (`@input_guardrail` /
/// `@output_guardrail` returning `GuardrailFunctionOutput`), set on their agents, and the
/// run-wide ones in `RUN_CONFIG`; true when `run()` must pass `RUN_CONFIG`.
fn guardrails_py(t: &Topology, vars: &HashMap<String, String>, out: &mut String) -> bool {
    use crate::topology::{GuardrailCheck, GuardrailOn};
    if t.guardrails.is_empty() {
        return false;
    }
    out.push_str(GUARDRAIL_PRELUDE);
    let mut run_wide = (vec![], vec![]);
    let mut per_agent: Vec<(String, &str, String)> = vec![];
    for (i, g) in t.guardrails.iter().enumerate() {
        let (kind, value) = match &g.check {
            GuardrailCheck::Contains { contains } => ("contains", py_str(contains)),
            GuardrailCheck::Regex { regex } => ("regex", py_str(regex)),
            GuardrailCheck::Schema { schema } => ("schema", py_value(schema)),
            // The user's own function, which the topology does not hold: a check that never trips.
            GuardrailCheck::Custom { custom } => ("custom", py_str(custom)),
            // A guardrail agent: exported as a check that names it (run it with Runner.run there).
            GuardrailCheck::Agent { agent } => ("custom", py_str(&format!("the guardrail agent {agent}"))),
        };
        let var = format!("GUARDRAIL_{i}");
        let make = match g.on {
            GuardrailOn::Input => format!(
                "_input_guardrail({}, {kind:?}, {value}, {}, {})",
                py_str(&g.name),
                py_str(&g.message),
                if g.run_in_parallel { "True" } else { "False" }
            ),
            GuardrailOn::Output => {
                format!("_output_guardrail({}, {kind:?}, {value}, {})", py_str(&g.name), py_str(&g.message))
            }
        };
        out.push_str(&format!("{var} = {make}\n"));
        let field = if g.on == GuardrailOn::Input { "input_guardrails" } else { "output_guardrails" };
        match g.agent.as_ref().and_then(|a| vars.get(a)) {
            Some(a) => per_agent.push((a.clone(), field, var)),
            None if g.on == GuardrailOn::Input => run_wide.0.push(var),
            None => run_wide.1.push(var),
        }
    }
    for (agent, field, var) in &per_agent {
        out.push_str(&format!("{agent}.{field}.append({var})\n"));
    }
    out.push_str(&format!(
        "RUN_CONFIG = RunConfig(input_guardrails=[{}], output_guardrails=[{}])\n",
        run_wide.0.join(", "),
        run_wide.1.join(", ")
    ));
    true
}

const VERIFY_PRELUDE: &str = r#"

def _verified(worker, criteria, held, verdicts, scenario, edge):
    """A verified delegation's claim check, returned with the worker's answer. The verdicts are
    the ones Baton's scenario scripts, in order; replace this with your own check."""
    seen = {"n": 0}

    async def _extract(result):
        seen["n"] += 1
        n = seen["n"]
        if n <= len(verdicts):
            accept, reason = verdicts[n - 1]
            word = "accepted" if accept else "rejected"
        else:
            word = "not verified"
            reason = f"no verdict for claim {n} of {edge} in scenario {scenario} (add one under verdicts.{edge})"
        check = f"Verification of {worker}'s claim against: {criteria}. Held facts: {held}. Verdict: {word}"
        if reason:
            check += f" — {reason}"
        return f"{result.final_output}\n\n{check}"

    return _extract

"#;

const GUARDRAIL_PRELUDE: &str = r#"

# Guardrails: the topology's checks as the SDK's guardrail functions.
import re

from agents import GuardrailFunctionOutput, RunConfig, input_guardrail, output_guardrail


def _text(value):
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        parts = []
        for item in value:
            content = item.get("content") if isinstance(item, dict) else None
            parts.append(content if isinstance(content, str) else json.dumps(content))
        return "\n".join(parts)
    return str(value)


def _check(kind, value, text):
    """(tripped, why), as Baton's engine decides it."""
    if kind == "contains":
        hit = value.lower() in text.lower()
        return hit, f"contains {value!r}" if hit else f"does not contain {value!r}"
    if kind == "custom":
        return False, f"{value} is your own guardrail function: put its code here"
    if kind == "regex":
        m = re.search(value, text)
        return (True, f"matches /{value}/") if m else (False, f"does not match /{value}/")
    try:
        import jsonschema  # the schema check needs the jsonschema package
    except ImportError:
        return True, "the jsonschema package is not installed"
    try:
        jsonschema.validate(json.loads(text), value)
    except Exception as error:  # not JSON, or not valid under the schema
        return True, str(error)
    return False, "valid under the schema"


def _input_guardrail(name, kind, value, message, parallel):
    @input_guardrail(name=name, run_in_parallel=parallel)
    async def _guard(_ctx, _agent, user_input):
        tripped, why = _check(kind, value, _text(user_input))
        return GuardrailFunctionOutput(output_info=message or why, tripwire_triggered=tripped)

    return _guard


def _output_guardrail(name, kind, value, message):
    @output_guardrail(name=name)
    async def _guard(_ctx, _agent, output):
        tripped, why = _check(kind, value, _text(output))
        return GuardrailFunctionOutput(output_info=message or why, tripwire_triggered=tripped)

    return _guard


"#;

fn agent_def(t: &Topology, a: &Agent, vars: &HashMap<String, String>) -> String {
    let mut args = vec![format!("name={}", py_str(&a.name))];
    // Exactly the system prompt Baton's engine sends (instructions, then pinned facts).
    let mut instructions = crate::engine::system_prompt(t, &a.id);
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

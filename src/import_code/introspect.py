"""Baton's introspection script for `baton import-code PATH`.

Why this exists: a topology written as Python code (OpenAI Agents SDK or Google ADK) is only
fully known once the module has run, because agents, tools and handoffs are ordinary Python
objects built by ordinary code. Parsing the source cannot follow helper functions, loops or
imports. So Baton imports the user's module in a Python that has the framework installed, under
this script, and reads the agent objects the framework built: their names, instructions, models,
tools, handoffs, sub-agents and where in the user's code each agent was constructed. It prints
them as one JSON object; Baton's Rust side turns that into a topology.

What it never does: run an agent, call a model, or touch the network. Socket connections and
DNS lookups are refused before the user's module is imported, and the module is imported under
its file name (not `__main__`), so an `if __name__ == "__main__":` block does not run.

Usage: python introspect.py MODULE_PATH [--framework openai-agents|adk|auto]

MODULE_PATH is a .py file, or a directory: a package (`__init__.py`) or an ADK agent folder
(`agent.py`, usually with an `__init__.py` that does `from . import agent`).

Exit 0: stdout holds {"framework", "module", "root_agent", "top_level", "agents", "warnings"}.
Exit 2: stdout holds {"error": {"kind", "message", "file", "line", "frame", "module"}} where kind
is one of syntax, import, missing_module, no_agents, not_found, usage or internal.
Either is one line of JSON, the only thing on stdout (what the module prints goes to stderr).
Uses only the standard library and the frameworks themselves.
"""

from __future__ import annotations

import functools
import importlib
import importlib.abc
import importlib.util
import json
import os
import socket
import sys
import sysconfig
import traceback

FRAMEWORKS = ("openai-agents", "adk")
_FRAMEWORK_NAMES = {"openai-agents": "OpenAI Agents SDK", "adk": "Google ADK"}

# None when the script runs from stdin (`python - MODULE`, as Baton runs it) or `python -c`;
# its frames are then named "<stdin>" or "<string>", which are never the user's.
_FILE = globals().get("__file__")
_THIS_FILE = os.path.realpath(_FILE) if _FILE and not _FILE.startswith("<") else None


# --------------------------------------------------------------------------------------------
# Which files are the user's
# --------------------------------------------------------------------------------------------


def _library_dirs() -> tuple[str, ...]:
    dirs = set()
    for key in ("stdlib", "platstdlib", "purelib", "platlib"):
        p = sysconfig.get_paths().get(key)
        if p:
            dirs.add(os.path.realpath(p))
    return tuple(sorted(dirs))


_LIBRARY_DIRS = _library_dirs()


@functools.lru_cache(maxsize=None)
def _is_user_file(path: str | None) -> bool:
    """A file of the user's code: not this script, the standard library or an installed package."""
    if not path or path.startswith("<"):
        return False
    real = os.path.realpath(path)
    if real == _THIS_FILE:
        return False
    parts = real.split(os.sep)
    if "site-packages" in parts or "dist-packages" in parts:
        return False
    return not any(real == d or real.startswith(d + os.sep) for d in _LIBRARY_DIRS)


def _user_location(start_depth: int = 2) -> tuple[str | None, int | None]:
    """The file and line of the innermost frame of the user's code on the current stack."""
    frame = sys._getframe(start_depth)
    while frame is not None:
        filename = frame.f_code.co_filename
        if _is_user_file(filename):
            return os.path.abspath(filename), frame.f_lineno
        frame = frame.f_back
    return None, None


# --------------------------------------------------------------------------------------------
# No network
# --------------------------------------------------------------------------------------------


class NetworkBlocked(OSError):
    """Raised for any connection or DNS lookup attempted while Baton introspects a module."""


def _block_network() -> None:
    def refuse(*_args, **_kwargs):
        raise NetworkBlocked("network access is blocked while Baton imports the module (baton import-code)")

    socket.socket.connect = refuse  # type: ignore[method-assign]
    socket.socket.connect_ex = refuse  # type: ignore[method-assign]
    socket.create_connection = refuse  # type: ignore[assignment]
    socket.getaddrinfo = refuse  # type: ignore[assignment]


# --------------------------------------------------------------------------------------------
# Recording where agents, handoffs and agent tools are constructed
# --------------------------------------------------------------------------------------------

# id(obj) -> (obj, file, line); the object is kept so that its id stays unique.
_AGENT_SITES: dict[int, tuple[object, str | None, int | None]] = {}
_HANDOFF_SITES: dict[int, tuple[object, str | None, int | None]] = {}
_TOOL_SITES: dict[int, tuple[object, str | None, int | None]] = {}
# Agents constructed, per framework, in construction order (auto-detection).
_CONSTRUCTED: dict[str, list[object]] = {"openai-agents": [], "adk": []}


def _record(table: dict, obj: object, depth: int = 3) -> None:
    if id(obj) in table:
        return
    file, line = _user_location(depth)
    table[id(obj)] = (obj, file, line)


def _patch_agents_agent(module) -> None:
    agent_cls = module.Agent
    original_post_init = agent_cls.__post_init__

    @functools.wraps(original_post_init)
    def __post_init__(self, *args, **kwargs):
        if id(self) not in _AGENT_SITES:
            _record(_AGENT_SITES, self)
            _CONSTRUCTED["openai-agents"].append(self)
        return original_post_init(self, *args, **kwargs)

    agent_cls.__post_init__ = __post_init__

    original_as_tool = agent_cls.as_tool

    @functools.wraps(original_as_tool)
    def as_tool(self, *args, **kwargs):
        tool = original_as_tool(self, *args, **kwargs)
        _record(_TOOL_SITES, tool)
        return tool

    agent_cls.as_tool = as_tool


def _patch_agents_handoffs(module) -> None:
    original_handoff = module.handoff

    @functools.wraps(original_handoff)
    def handoff(*args, **kwargs):
        result = original_handoff(*args, **kwargs)
        _record(_HANDOFF_SITES, result)
        return result

    module.handoff = handoff


def _patch_adk_base_agent(module) -> None:
    base = module.BaseAgent
    original = base.model_post_init

    @functools.wraps(original)
    def model_post_init(self, context, /):
        if id(self) not in _AGENT_SITES:
            _record(_AGENT_SITES, self)
            _CONSTRUCTED["adk"].append(self)
        return original(self, context)

    base.model_post_init = model_post_init


def _patch_adk_agent_tool(module) -> None:
    tool_cls = module.AgentTool
    original = tool_cls.__init__

    @functools.wraps(original)
    def __init__(self, *args, **kwargs):
        original(self, *args, **kwargs)
        _record(_TOOL_SITES, self)

    tool_cls.__init__ = __init__


_PATCHES = {
    "agents.agent": _patch_agents_agent,
    "agents.handoffs": _patch_agents_handoffs,
    "google.adk.agents.base_agent": _patch_adk_base_agent,
    "google.adk.tools.agent_tool": _patch_adk_agent_tool,
}


class _PatchOnImport(importlib.abc.MetaPathFinder):
    """Patches a framework module right after it executes, so only the frameworks the user's
    module imports are loaded, and `from agents import handoff` already gets the wrapper."""

    def find_spec(self, fullname, path, target=None):
        if fullname not in _PATCHES:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                break
        else:
            return None
        loader = spec.loader
        if loader is None or not hasattr(loader, "exec_module"):
            return spec
        original_exec = loader.exec_module

        def exec_module(module):
            original_exec(module)
            _safe_patch(fullname, module)

        loader.exec_module = exec_module
        return spec


_PATCH_WARNINGS: list[str] = []


def _safe_patch(name: str, module) -> None:
    """Patches one framework module; a framework that changed shape costs only the file and line
    of what it builds, never the import."""
    try:
        _PATCHES[name](module)
    except Exception as exc:  # noqa: BLE001
        _PATCH_WARNINGS.append(
            f"cannot record where objects of {name} are constructed ({type(exc).__name__}: {exc}); file and line are null"
        )


def _install_patches() -> None:
    for name in _PATCHES:
        if name in sys.modules:
            _safe_patch(name, sys.modules[name])
    sys.meta_path.insert(0, _PatchOnImport())


# --------------------------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------------------------


class Failure(Exception):
    def __init__(self, kind, message, file=None, line=None, frame=None, module=None):
        super().__init__(message)
        self.payload = {
            "kind": kind,
            "message": message,
            "file": file,
            "line": line,
            "frame": frame,
            "module": module,
        }


def _format_frame(fs: traceback.FrameSummary) -> str:
    code = (fs.line or "").strip()
    return f'File "{fs.filename}", line {fs.lineno}, in {fs.name}: {code}'


def _last_user_frame(exc: BaseException) -> traceback.FrameSummary | None:
    last = None
    for fs in traceback.extract_tb(exc.__traceback__):
        if _is_user_file(fs.filename):
            last = fs
    return last


def _missing_module(exc: BaseException) -> str | None:
    """The top-level package a ModuleNotFoundError (possibly behind an ImportError) names."""
    if not isinstance(exc, ImportError):
        return None
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, ModuleNotFoundError) and exc.name:
            return exc.name.split(".")[0]
        exc = exc.__cause__ or exc.__context__
    return None


def _import_failure(exc: BaseException) -> Failure:
    fs = _last_user_frame(exc)
    frame = _format_frame(fs) if fs else None
    file = os.path.abspath(fs.filename) if fs else None
    line = fs.lineno if fs else None
    if isinstance(exc, SyntaxError):
        s_file = os.path.abspath(exc.filename) if exc.filename else file
        text = (exc.text or "").strip()
        if frame is None and s_file is not None:
            frame = f'File "{s_file}", line {exc.lineno}: {text}'
        return Failure("syntax", f"{type(exc).__name__}: {exc.msg}", s_file, exc.lineno, frame)
    missing = _missing_module(exc)
    if missing is not None:
        return Failure("missing_module", f"{type(exc).__name__}: {exc}", file, line, frame, missing)
    return Failure("import", f"{type(exc).__name__}: {exc}", file, line, frame)


# --------------------------------------------------------------------------------------------
# Loading the user's module
# --------------------------------------------------------------------------------------------


def _load(path: str):
    """Imports PATH; returns (module whose globals hold the agents, absolute path)."""
    abs_path = os.path.abspath(path)
    if not os.path.exists(abs_path):
        raise Failure("not_found", f"no such file or directory: {abs_path}", abs_path)
    if os.path.isdir(abs_path):
        name = os.path.basename(abs_path.rstrip(os.sep))
        init = os.path.join(abs_path, "__init__.py")
        agent_py = os.path.join(abs_path, "agent.py")
        if not (os.path.isfile(init) or os.path.isfile(agent_py)):
            raise Failure("not_found", f"{path} is a directory with neither __init__.py nor agent.py", abs_path)
        if not name.isidentifier():
            raise Failure("not_found", f"the folder name {name!r} is not a Python package name", abs_path)
        sys.path.insert(0, os.path.dirname(abs_path))
        try:
            package = importlib.import_module(name)
            if os.path.isfile(agent_py):
                return importlib.import_module(f"{name}.agent"), abs_path
            return package, abs_path
        except Failure:
            raise
        except BaseException as exc:  # noqa: BLE001 - anything the user's code raises
            if isinstance(exc, KeyboardInterrupt):
                raise
            raise _import_failure(exc) from None
    name = os.path.splitext(os.path.basename(abs_path))[0]
    sys.path.insert(0, os.path.dirname(abs_path))
    spec = importlib.util.spec_from_file_location(name, abs_path)
    if spec is None or spec.loader is None:
        raise Failure("not_found", f"{path} is not a Python module", abs_path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException as exc:  # noqa: BLE001
        if isinstance(exc, KeyboardInterrupt):
            raise
        raise _import_failure(exc) from None
    return module, abs_path


# --------------------------------------------------------------------------------------------
# Reading the agents
# --------------------------------------------------------------------------------------------


def _qualname(fn) -> str:
    target = fn
    while isinstance(target, functools.partial):
        target = target.func
    name = getattr(target, "__qualname__", None)
    if isinstance(name, str):
        return name
    return type(target).__qualname__


def _plain_json(v) -> bool:
    if v is None or isinstance(v, (str, bool, int, float)):
        return True
    if isinstance(v, (list, tuple)):
        return all(_plain_json(x) for x in v)
    if isinstance(v, dict):
        return all(isinstance(k, str) and _plain_json(x) for k, x in v.items())
    return False


def _closure_values(fn) -> dict:
    """The JSON-able values a filter function closes over (and a partial's arguments), e.g. the
    `n` of a `keep_last(n)` factory, so a reader can tell what the filter was built with."""
    out = {}
    while isinstance(fn, functools.partial):
        for k, v in (fn.keywords or {}).items():
            if _plain_json(v):
                out.setdefault(k, v)
        fn = fn.func
    code = getattr(fn, "__code__", None)
    cells = getattr(fn, "__closure__", None) or ()
    if code is not None:
        for name, cell in zip(code.co_freevars, cells):
            try:
                v = cell.cell_contents
            except ValueError:  # an empty cell
                continue
            if _plain_json(v):
                out.setdefault(name, list(v) if isinstance(v, tuple) else v)
    return out


def _enum_value(v):
    return getattr(v, "value", v)


def _jsonable(v):
    """A JSON value for v (schemas and settings are JSON already; anything else becomes text)."""
    try:
        json.dumps(v)
        return v
    except (TypeError, ValueError):
        pass
    if hasattr(v, "model_dump"):
        try:
            return _jsonable(v.model_dump(mode="json", exclude_none=True))
        except Exception:  # noqa: BLE001
            pass
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    return str(_enum_value(v))


def _known_class(obj, names: tuple[str, ...], fallback: str) -> str:
    for cls in type(obj).__mro__:
        if cls.__name__ in names and cls.__module__.split(".")[0] in ("agents", "google"):
            return cls.__name__
    return fallback


class _Reader:
    """Common walk: module-level agents first, then what they reach, each agent once."""

    framework = ""

    def __init__(self):
        self.warnings: list[str] = []

    def is_agent(self, obj) -> bool:
        raise NotImplementedError

    def targets(self, agent) -> list:
        raise NotImplementedError

    def describe(self, agent) -> dict:
        raise NotImplementedError

    def site(self, agent):
        _, file, line = _AGENT_SITES.get(id(agent), (None, None, None))
        return file, line

    def base_entry(self, agent, cls_name: str) -> dict:
        file, line = self.site(agent)
        return {
            "name": agent.name,
            "class": cls_name,
            "python_class": type(agent).__qualname__,
            "file": file,
            "line": line,
            "description": None,
            "instructions": None,
            "dynamic_instructions": None,
            "model": None,
            "model_api": None,
            "model_class": None,
            "model_inherited": False,
            "model_settings": {},
            "tools": [],
            "handoffs": [],
            "output_type": None,
            "include_contents": "default",
            "output_key": None,
            "mode": None,
            "sub_agents": [],
            "disallow_transfer_to_parent": False,
            "disallow_transfer_to_peers": False,
            "max_iterations": None,
        }


class _OpenAIAgentsReader(_Reader):
    framework = "openai-agents"

    def __init__(self):
        super().__init__()
        import agents
        from agents import handoffs as handoffs_mod
        from agents.extensions import handoff_filters

        self.agents = agents
        self.Agent = agents.Agent
        self.Handoff = handoffs_mod.Handoff
        self.FunctionTool = agents.FunctionTool
        self.remove_all_tools = handoff_filters.remove_all_tools
        self.nest_functions = {handoffs_mod.nest_handoff_history, handoff_filters.nest_handoff_history}

    def is_agent(self, obj) -> bool:
        return isinstance(obj, self.Agent)

    def _handoff_target(self, h):
        if isinstance(h, self.Agent):
            return h
        ref = getattr(h, "_agent_ref", None)
        target = ref() if ref is not None else None
        if target is None:
            # A Handoff built by hand names its agent only; take the one constructed agent of
            # that name, if there is exactly one.
            named = [a for a in _CONSTRUCTED["openai-agents"] if getattr(a, "name", None) == h.agent_name]
            target = named[0] if len(named) == 1 else None
        return target

    def targets(self, agent) -> list:
        out = []
        for h in agent.handoffs:
            t = self._handoff_target(h)
            if t is not None:
                out.append(t)
        for tool in agent.tools:
            t = getattr(tool, "_agent_instance", None) if getattr(tool, "_is_agent_tool", False) else None
            if t is not None:
                out.append(t)
        return out

    def _model(self, entry, model):
        if model is None:
            return
        if isinstance(model, str):
            entry["model"] = model
            return
        cls = type(model).__name__
        entry["model_class"] = cls
        name = getattr(model, "model", None)
        name = name if isinstance(name, str) else None
        if cls == "LitellmModel":
            entry["model"] = f"litellm/{name}" if name else None
        elif cls == "AnyLLMModel":
            entry["model"] = f"any-llm/{name}" if name else None
        else:
            entry["model"] = name
            if cls == "OpenAIResponsesModel":
                entry["model_api"] = "responses"
            elif cls == "OpenAIChatCompletionsModel":
                entry["model_api"] = "chat_completions"
        if entry["model"] is None:
            self.warnings.append(f"agent {entry['name']}: model object {cls} has no model name")

    def _settings(self, ms) -> dict:
        out = {}
        if ms is None:
            return out
        for key in ("temperature", "top_p", "max_tokens", "tool_choice"):
            v = getattr(ms, key, None)
            if v is None:
                continue
            if key == "tool_choice" and not isinstance(v, str):
                # An MCPToolChoice names one tool of one server.
                name = getattr(v, "name", None)
                v = name if isinstance(name, str) else json.dumps(_jsonable(v), sort_keys=True)
            out[key] = v
        return out

    def _output_type(self, entry, output_type):
        if output_type is None or output_type is str:
            return None
        from agents.agent_output import AgentOutputSchema, AgentOutputSchemaBase

        try:
            schema = output_type if isinstance(output_type, AgentOutputSchemaBase) else AgentOutputSchema(output_type)
            if schema.is_plain_text():
                return None
            return _jsonable(schema.json_schema())
        except Exception as exc:  # noqa: BLE001
            self.warnings.append(f"agent {entry['name']}: output_type has no JSON schema ({type(exc).__name__}: {exc})")
            return None

    def _tool(self, agent, tool) -> dict:
        if isinstance(tool, self.FunctionTool):
            target = getattr(tool, "_agent_instance", None) if getattr(tool, "_is_agent_tool", False) else None
            if target is not None:
                schema = tool.params_json_schema
                custom = not (isinstance(schema, dict) and schema.get("title") == "AgentAsToolInput")
                _, file, line = _TOOL_SITES.get(id(tool), (None, None, None))
                return {
                    "kind": "agent",
                    "name": tool.name,
                    "description": tool.description or None,
                    "agent": target.name,
                    "parameters": _jsonable(schema) if custom else None,
                    "file": file,
                    "line": line,
                }
            return {
                "kind": "function",
                "name": tool.name,
                "description": tool.description or None,
                "parameters": _jsonable(tool.params_json_schema),
                "strict": bool(tool.strict_json_schema),
            }
        name = getattr(tool, "name", None)
        return {"kind": "hosted", "name": name if isinstance(name, str) else type(tool).__name__, "type": type(tool).__name__}

    def _guardrail(self, g, on):
        """An SDK guardrail: its check when it is one Baton exported (the helper's closure holds
        the kind and value), else the function's name, a custom check Baton cannot run."""
        fn = getattr(g, "guardrail_function", None)
        name = g.get_name() if hasattr(g, "get_name") else getattr(g, "name", None) or _qualname(fn)
        out = {"name": name, "on": on, "run_in_parallel": bool(getattr(g, "run_in_parallel", True))}
        code = getattr(fn, "__code__", None)
        cells = getattr(fn, "__closure__", None) or ()
        closure = {}
        if code is not None:
            for var, cell in zip(code.co_freevars, cells):
                try:
                    closure[var] = cell.cell_contents
                except ValueError:
                    pass
        if closure.get("kind") in ("contains", "regex", "schema") and "value" in closure:
            out["check"] = {closure["kind"]: closure["value"]}
            out["message"] = closure.get("message") or ""
        else:
            out["custom"] = _qualname(fn) if fn is not None else name
        return out

    def _input_filter(self, flt, nest):
        if flt is None:
            return "nest_handoff_history" if nest else None
        target = flt
        while isinstance(target, functools.partial):
            target = target.func
        if target is self.remove_all_tools:
            return "remove_all_tools"
        if target in self.nest_functions:
            return "nest_handoff_history"
        out = {"custom": _qualname(flt)}
        closure = _closure_values(flt)
        if closure:
            out["closure"] = closure
        return out

    def _handoff(self, agent, h) -> dict:
        if isinstance(h, self.Agent):
            return {
                "agent": h.name,
                "tool_name": self.Handoff.default_tool_name(h),
                "default_tool_name": True,
                "tool_description": None,
                "input_filter": None,
                "nest_handoff_history": None,
                "input_type": None,
                "file": None,
                "line": None,
            }
        target = self._handoff_target(h)
        default_desc = self.Handoff.default_tool_description(target) if target is not None else None
        schema = h.input_json_schema or {}
        has_input = bool(schema.get("properties")) or schema.get("type") not in (None, "object")
        _, file, line = _HANDOFF_SITES.get(id(h), (None, None, None))
        return {
            "agent": target.name if target is not None else h.agent_name,
            "tool_name": h.tool_name,
            "default_tool_name": getattr(h, "_default_tool_identity", None) is not None,
            "tool_description": None if h.tool_description == default_desc else h.tool_description,
            "input_filter": self._input_filter(h.input_filter, h.nest_handoff_history),
            "nest_handoff_history": h.nest_handoff_history,
            "input_type": _jsonable(schema) if has_input else None,
            "file": file,
            "line": line,
        }

    def describe(self, agent) -> dict:
        entry = self.base_entry(agent, _known_class(agent, ("Agent",), "Agent"))
        entry["description"] = agent.handoff_description
        if isinstance(agent.instructions, str):
            entry["instructions"] = agent.instructions
        elif callable(agent.instructions):
            entry["dynamic_instructions"] = _qualname(agent.instructions)
        self._model(entry, agent.model)
        entry["model_settings"] = self._settings(agent.model_settings)
        entry["tools"] = [self._tool(agent, t) for t in agent.tools]
        for server in getattr(agent, "mcp_servers", []) or []:
            name = getattr(server, "name", None)
            entry["tools"].append(
                {"kind": "hosted", "name": name if isinstance(name, str) else type(server).__name__, "type": type(server).__name__}
            )
        entry["handoffs"] = [self._handoff(agent, h) for h in agent.handoffs]
        entry["guardrails"] = [self._guardrail(g, "input") for g in getattr(agent, "input_guardrails", []) or []] + [
            self._guardrail(g, "output") for g in getattr(agent, "output_guardrails", []) or []
        ]
        entry["output_type"] = self._output_type(entry, agent.output_type)
        return entry


class _AdkReader(_Reader):
    framework = "adk"

    def __init__(self):
        super().__init__()
        from google.adk.agents.base_agent import BaseAgent
        from google.adk.agents.llm_agent import LlmAgent
        from google.adk.tools.agent_tool import AgentTool
        from google.adk.tools.base_tool import BaseTool
        from google.adk.tools.base_toolset import BaseToolset
        from google.adk.tools.function_tool import FunctionTool

        self.BaseAgent = BaseAgent
        self.LlmAgent = LlmAgent
        self.AgentTool = AgentTool
        self.BaseTool = BaseTool
        self.BaseToolset = BaseToolset
        self.FunctionTool = FunctionTool

    def is_agent(self, obj) -> bool:
        return isinstance(obj, self.BaseAgent)

    def targets(self, agent) -> list:
        out = list(agent.sub_agents or [])
        for tool in getattr(agent, "tools", []) or []:
            if isinstance(tool, self.AgentTool):
                out.append(tool.agent)
        return out

    def _model(self, entry, agent):
        model = getattr(agent, "model", "")
        inherited = False
        if not model:
            # ADK's rule (LlmAgent.canonical_model): the nearest LlmAgent ancestor's model.
            parent = agent.parent_agent
            while parent is not None:
                if isinstance(parent, self.LlmAgent) and parent.model:
                    model, inherited = parent.model, True
                    break
                parent = parent.parent_agent
        if not model:
            return
        entry["model_inherited"] = inherited
        if isinstance(model, str):
            cls, name = _adk_model_class(model), model
        else:
            cls = type(model).__name__
            name = getattr(model, "model", None)
            name = name if isinstance(name, str) else None
        entry["model_class"] = cls
        if cls == "LiteLlm" and name and not name.startswith("litellm:"):
            # A LiteLlm object, or a name ADK routes to LiteLlm ("openai/gpt-4o"): written the
            # way ADK itself accepts it ("litellm:openai/gpt-4o").
            name = f"litellm:{name}"
        entry["model"] = name
        if cls in ("OpenAILlm", "AzureOpenAILlm"):
            entry["model_api"] = "chat_completions"
        elif cls in ("OpenAIResponsesLlm", "AzureOpenAIResponsesLlm"):
            entry["model_api"] = "responses"

    def _settings(self, agent) -> dict:
        cfg = getattr(agent, "generate_content_config", None)
        out = {}
        if cfg is None:
            return out
        for src, dst in (("temperature", "temperature"), ("top_p", "top_p"), ("max_output_tokens", "max_tokens")):
            v = getattr(cfg, src, None)
            if v is not None:
                out[dst] = v
        return out

    def _schema_of(self, entry, tp):
        if tp is None:
            return None
        try:
            if hasattr(tp, "model_json_schema"):
                return _jsonable(tp.model_json_schema())
            from pydantic import TypeAdapter

            return _jsonable(TypeAdapter(tp).json_schema())
        except Exception as exc:  # noqa: BLE001
            self.warnings.append(f"agent {entry['name']}: schema unavailable ({type(exc).__name__}: {exc})")
            return None

    def _declaration(self, entry, tool):
        try:
            decl = tool._get_declaration()
        except Exception as exc:  # noqa: BLE001
            self.warnings.append(f"agent {entry['name']}: tool {tool.name} has no declaration ({type(exc).__name__}: {exc})")
            return None, False
        if decl is None:
            return None, False
        params = getattr(decl, "parameters_json_schema", None)
        if params is None and getattr(decl, "parameters", None) is not None:
            params = decl.parameters.model_dump(mode="json", exclude_none=True)
        return decl, params

    def _tool(self, entry, agent, tool) -> dict:
        if isinstance(tool, self.AgentTool):
            target = tool.agent
            _, file, line = _TOOL_SITES.get(id(tool), (None, None, None))
            implicit = type(tool) is not self.AgentTool and target in (agent.sub_agents or [])
            input_schema = getattr(target, "input_schema", None)
            return {
                "kind": "agent",
                "name": tool.name,
                "description": tool.description or None,
                "agent": target.name,
                "parameters": self._schema_of(entry, input_schema),
                "implicit": implicit,
                "file": None if implicit else file,
                "line": None if implicit else line,
            }
        if isinstance(tool, self.BaseToolset):
            self.warnings.append(
                f"agent {entry['name']}: toolset {type(tool).__name__} lists its tools only at run time; listed as one hosted tool"
            )
            return {"kind": "hosted", "name": type(tool).__name__, "type": type(tool).__name__}
        if not isinstance(tool, self.BaseTool):
            if callable(tool):
                tool = self.FunctionTool(func=tool)
            else:
                return {"kind": "hosted", "name": type(tool).__name__, "type": type(tool).__name__}
        decl, params = self._declaration(entry, tool)
        if decl is None:
            return {"kind": "hosted", "name": tool.name, "type": type(tool).__name__}
        return {
            "kind": "function",
            "name": decl.name or tool.name,
            "description": decl.description or tool.description or None,
            "parameters": _jsonable(params) if params else None,
        }

    def describe(self, agent) -> dict:
        cls_name = _known_class(agent, ("LlmAgent", "SequentialAgent", "ParallelAgent", "LoopAgent"), "BaseAgent")
        entry = self.base_entry(agent, cls_name)
        entry["description"] = agent.description or None
        entry["sub_agents"] = [a.name for a in agent.sub_agents or []]
        if isinstance(agent, self.LlmAgent):
            instruction = agent.instruction
            if isinstance(instruction, str):
                entry["instructions"] = instruction or None
            elif callable(instruction):
                entry["dynamic_instructions"] = _qualname(instruction)
            self._model(entry, agent)
            entry["model_settings"] = self._settings(agent)
            entry["tools"] = [self._tool(entry, agent, t) for t in agent.tools]
            entry["output_type"] = self._schema_of(entry, agent.output_schema)
            entry["include_contents"] = agent.include_contents
            entry["output_key"] = agent.output_key
            mode = getattr(agent, "mode", None)
            entry["mode"] = _enum_value(mode) if mode is not None else None
            entry["disallow_transfer_to_parent"] = bool(agent.disallow_transfer_to_parent)
            entry["disallow_transfer_to_peers"] = bool(agent.disallow_transfer_to_peers)
        if cls_name == "LoopAgent":
            entry["max_iterations"] = agent.max_iterations
        return entry


def _adk_model_class(model: str) -> str | None:
    """The BaseLlm class ADK's LLMRegistry resolves a model name to (`Gemini`, `Claude`,
    `OpenAILlm`, `LiteLlm`, ...), read from the registry's table without importing the class
    (which may need packages that are not installed, such as litellm)."""
    try:
        from google.adk.models import registry
    except Exception:  # noqa: BLE001
        return None
    table = getattr(registry, "_llm_registry_dict", None)
    if not isinstance(table, dict):
        return None

    def class_name(entry):
        return entry[1] if isinstance(entry, tuple) else getattr(entry, "__name__", None)

    import re

    if ":" in model:  # "[model_class]:model_name" overrides the patterns
        prefix = model.split(":", 1)[0]
        match = getattr(registry.LLMRegistry, "_match_prefix", None)
        for entry in table.values():
            name = class_name(entry)
            if name and match is not None and match(prefix, name):
                return name
    for regex, entry in table.items():
        try:
            if re.compile(regex).fullmatch(model):
                return class_name(entry)
        except re.error:
            continue
    if "/" in model:
        return "LiteLlm"  # ADK hands any other "provider/model" name to LiteLLM
    return None


def _reader(framework: str) -> _Reader:
    return _OpenAIAgentsReader() if framework == "openai-agents" else _AdkReader()


def _module_agents(module, is_agent) -> tuple[list[tuple[str, object]], list[object]]:
    """Agents bound to module-level variables (name, agent), and agents held one level down in
    module-level lists, tuples and dicts."""
    bound, held = [], []
    for var, value in list(vars(module).items()):
        if var.startswith("__"):
            continue
        if is_agent(value):
            bound.append((var, value))
        elif isinstance(value, (list, tuple)):
            held.extend(v for v in value if is_agent(v))
        elif isinstance(value, dict):
            held.extend(v for v in value.values() if is_agent(v))
    return bound, held


def _choose_framework(requested: str, module) -> str | None:
    if requested in FRAMEWORKS:
        return requested
    available = []
    if "agents.agent" in sys.modules:
        available.append("openai-agents")
    if "google.adk.agents.base_agent" in sys.modules:
        available.append("adk")
    # The framework of the first module-level agent, else of the first agent constructed.
    checks = {}
    if "openai-agents" in available:
        checks["openai-agents"] = sys.modules["agents.agent"].Agent
    if "adk" in available:
        checks["adk"] = sys.modules["google.adk.agents.base_agent"].BaseAgent
    for value in vars(module).values():
        for fw, cls in checks.items():
            if isinstance(value, cls):
                return fw
    firsts = [(_CONSTRUCTED[fw], fw) for fw in available if _CONSTRUCTED[fw]]
    if firsts:
        return firsts[0][1]
    return None


def introspect(path: str, requested: str) -> dict:
    module, abs_path = _load(path)
    module_file = getattr(module, "__file__", None)
    framework = _choose_framework(requested, module)
    if framework is None or (framework == "openai-agents" and "agents.agent" not in sys.modules) or (
        framework == "adk" and "google.adk.agents.base_agent" not in sys.modules
    ):
        what = "OpenAI Agents SDK or Google ADK" if requested == "auto" else _FRAMEWORK_NAMES[requested]
        raise Failure("no_agents", f"{abs_path} builds no {what} agents", module_file or abs_path)
    reader = _reader(framework)
    bound, held = _module_agents(module, reader.is_agent)

    order: list[object] = []
    seen: set[int] = set()

    def add(a):
        if id(a) not in seen:
            seen.add(id(a))
            order.append(a)

    for _, a in bound:
        add(a)
    for a in held:
        add(a)
    if not order:
        n = len(_CONSTRUCTED[framework])
        extra = f" ({n} were constructed, but none is bound to a module-level variable)" if n else ""
        what = _FRAMEWORK_NAMES[framework]
        raise Failure("no_agents", f"{abs_path} has no module-level {what} agents{extra}", module_file or abs_path)
    i = 0
    while i < len(order):
        for t in reader.targets(order[i]):
            add(t)
        i += 1

    entries = [reader.describe(a) for a in order]
    names = [e["name"] for e in entries]
    for n in sorted({n for n in names if names.count(n) > 1}):
        reader.warnings.append(f"{names.count(n)} different agents are named {n}")
    known = set(names)
    for e in entries:
        for h in e["handoffs"]:
            if h["agent"] not in known:
                reader.warnings.append(f"agent {e['name']}: handoff target {h['agent']} is not among the agents found")

    top_level = []
    for _, a in bound:
        if a.name not in top_level:
            top_level.append(a.name)
    root = dict(bound).get("root_agent")
    return {
        "framework": framework,
        "module": abs_path,
        "root_agent": root.name if root is not None else None,
        "top_level": top_level,
        "agents": entries,
        "warnings": _PATCH_WARNINGS + reader.warnings,
    }


# --------------------------------------------------------------------------------------------
# Entry point
# --------------------------------------------------------------------------------------------


def _parse_args(argv: list[str]) -> tuple[str, str]:
    path, framework = None, "auto"
    it = iter(argv)
    for arg in it:
        if arg == "--framework":
            framework = next(it, None)
        elif arg.startswith("--framework="):
            framework = arg.split("=", 1)[1]
        elif path is None and not arg.startswith("--"):
            path = arg
        else:
            raise Failure("usage", f"unexpected argument {arg!r}")
    if path is None:
        raise Failure("usage", "usage: introspect.py MODULE_PATH [--framework openai-agents|adk|auto]")
    if framework not in (*FRAMEWORKS, "auto"):
        raise Failure("usage", f"--framework must be openai-agents, adk or auto, not {framework!r}")
    return path, framework


def main(argv: list[str]) -> int:
    stdout = sys.stdout
    # Whatever the user's module prints goes to stderr; stdout carries only Baton's JSON.
    sys.stdout = sys.stderr
    sys.dont_write_bytecode = True  # no __pycache__ in the user's folders
    os.environ.setdefault("OPENAI_AGENTS_DISABLE_TRACING", "1")
    # The user's imports resolve as if they ran their module: its folder first, not Baton's.
    script_dir = os.path.dirname(_THIS_FILE) if _THIS_FILE else None
    if sys.path and (sys.path[0] == "" or os.path.realpath(sys.path[0]) == script_dir):
        del sys.path[0]
    try:
        path, framework = _parse_args(argv)
        _block_network()
        _install_patches()
        result, code = introspect(path, framework), 0
    except Failure as failure:
        result, code = {"error": failure.payload}, 2
    except Exception as exc:  # noqa: BLE001 - a bug here must still answer in JSON
        tb = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__)).strip().splitlines()[-3:]
        result = {
            "error": {
                "kind": "internal",
                "message": f"baton's introspection failed: {type(exc).__name__}: {exc}",
                "file": None,
                "line": None,
                "frame": " | ".join(tb),
                "module": None,
            }
        }
        code = 2
    finally:
        sys.stdout = stdout
    stdout.write(json.dumps(result, ensure_ascii=False, separators=(",", ":"), default=str) + "\n")
    stdout.flush()
    return code


if __name__ == "__main__":
    exit_code = main(sys.argv[1:])
    sys.stderr.flush()
    # Not sys.exit: threads the user's module started, and its atexit hooks (exporters that
    # flush over the network), must neither keep the process alive nor run.
    os._exit(exit_code)

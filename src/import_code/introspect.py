"""Baton's introspection script for `baton import-code PATH`.

Why this exists: a topology written as Python code (OpenAI Agents SDK, Google ADK, LangGraph or
CrewAI) is only fully known once the module has run, because agents, tools and handoffs are ordinary Python
objects built by ordinary code. Parsing the source cannot follow helper functions, loops or
imports. So Baton imports the user's module in a Python that has the framework installed, under
this script, and reads the agent objects the framework built: their names, instructions, models,
tools, handoffs, sub-agents and where in the user's code each agent was constructed. It prints
them as one JSON object; Baton's Rust side turns that into a topology.

What it never does: run an agent, call a model, or touch the network. Socket connections and
DNS lookups are refused before the user's module is imported, and the module is imported under
its file name (not `__main__`), so an `if __name__ == "__main__":` block does not run. LangChain's
`init_chat_model("provider:model")` (which `create_agent` and `create_react_agent` call for a model
string) returns a stand-in that records the name and needs no provider package.

LangGraph has no agent class: its agents are the compiled graphs `create_agent` and
`create_react_agent` return, and its multi-agent shapes are what `create_swarm` and
`create_supervisor` were given. So the script records those calls' arguments as they happen and
reads the module-level graphs through them. CrewAI's crews are read from the `Crew` objects
(agents, tasks, process); the Rust side turns the tasks into edges.

Usage: python introspect.py MODULE_PATH [--framework openai-agents|adk|langgraph|crewai|auto]

MODULE_PATH is a .py file, or a directory: a package (`__init__.py`) or an ADK agent folder
(`agent.py`, usually with an `__init__.py` that does `from . import agent`).

Exit 0: stdout holds {"framework", "module", "root_agent", "top_level", "agents", "warnings"},
plus "notes" (what the framework does that a topology does not say) and, for CrewAI, "crew".
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
import types

FRAMEWORKS = ("openai-agents", "adk", "langgraph", "crewai")
_FRAMEWORK_NAMES = {
    "openai-agents": "OpenAI Agents SDK",
    "adk": "Google ADK",
    "langgraph": "LangGraph",
    "crewai": "CrewAI",
}
# A module of each framework that is loaded once the user's module uses it.
_FRAMEWORK_MODULES = {
    "openai-agents": ("agents.agent",),
    "adk": ("google.adk.agents.base_agent",),
    "langgraph": ("langchain.agents.factory", "langgraph.prebuilt.chat_agent_executor"),
    "crewai": ("crewai.agents.agent_builder.base_agent",),
}

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
_CONSTRUCTED: dict[str, list[object]] = {fw: [] for fw in FRAMEWORKS}


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


# LangGraph: what `create_agent` / `create_react_agent` / `create_swarm` / `create_supervisor`
# were given. id(compiled agent graph) -> record; id(StateGraph of a swarm or supervisor) -> record.
_LG_AGENTS: dict[int, dict] = {}
_LG_APPS: dict[int, dict] = {}
_STAND_IN: list[type] = []


def _call_with_model(original, args, kwargs) -> tuple[object, dict]:
    """Calls `original` with a `model` string resolved as LangChain resolves it (here: to the
    stand-in); returns its result and the call's arguments by name, defaults included."""
    import inspect

    try:
        bound = inspect.signature(original).bind(*args, **kwargs)
    except (TypeError, ValueError):
        return original(*args, **kwargs), dict(kwargs)
    if "model" in bound.arguments:
        bound.arguments["model"] = _lg_model_arg(bound.arguments["model"])
    result = original(*bound.args, **bound.kwargs)
    bound.apply_defaults()
    return result, dict(bound.arguments)


def _stand_in_model(name: str, provider: str | None, settings: dict):
    """What `init_chat_model("provider:model")` returns while Baton reads the module: a chat model
    that records the name, needs no provider package and never answers."""
    if not _STAND_IN:
        from langchain_core.language_models import BaseChatModel
        from langchain_core.utils.function_calling import convert_to_openai_tool

        class BatonStandInModel(BaseChatModel):
            baton_model: str = ""
            baton_provider: str | None = None
            baton_settings: dict = {}

            @property
            def _llm_type(self) -> str:
                return "baton-import-code"

            def _generate(self, *args, **kwargs):
                raise RuntimeError("baton import-code never runs a model")

            def bind_tools(self, tools, **kwargs):
                return self.bind(tools=[convert_to_openai_tool(t) for t in tools], **kwargs)

        _STAND_IN.append(BatonStandInModel)
    return _STAND_IN[0](baton_model=name, baton_provider=provider, baton_settings=settings)


def _patch_lc_init_chat_model(module) -> None:
    original = module.init_chat_model
    parse = getattr(module, "_parse_model", None)

    @functools.wraps(original)
    def init_chat_model(model=None, *, model_provider=None, configurable_fields=None, config_prefix=None, **kwargs):
        if not isinstance(model, str) or configurable_fields is not None:
            return original(
                model,
                model_provider=model_provider,
                configurable_fields=configurable_fields,
                config_prefix=config_prefix,
                **kwargs,
            )
        name, provider = model, model_provider
        try:
            name, provider = parse(model, model_provider)
        except Exception:  # noqa: BLE001 - a name LangChain cannot place: keep it as written
            if provider is None and ":" in model:
                provider, name = model.split(":", 1)
        return _stand_in_model(name, provider, _jsonable(kwargs))

    module.init_chat_model = init_chat_model


def _lg_model_arg(model):
    """A model given as a string, resolved the way LangChain does (here: to the stand-in)."""
    if isinstance(model, str):
        base = sys.modules.get("langchain.chat_models.base")
        if base is not None:
            return base.init_chat_model(model)
    return model


def _record_lg_agent(graph, kind: str, call: dict, prompt_key: str) -> None:
    file, line = _user_location(3)
    _LG_AGENTS[id(graph)] = {
        "graph": graph,
        "kind": kind,
        "name": call.get("name"),
        "model": call.get("model"),
        "tools": call.get("tools"),
        "prompt": call.get(prompt_key),
        "middleware": tuple(call.get("middleware") or ()),
        "file": file,
        "line": line,
        "role": None,
    }
    _CONSTRUCTED["langgraph"].append(graph)


def _patch_lc_create_agent(module) -> None:
    original = module.create_agent

    @functools.wraps(original)
    def create_agent(*args, **kwargs):
        graph, call = _call_with_model(original, args, kwargs)
        _record_lg_agent(graph, "create_agent", call, "system_prompt")
        return graph

    module.create_agent = create_agent


def _patch_lg_create_react_agent(module) -> None:
    original = module.create_react_agent

    @functools.wraps(original)
    def create_react_agent(*args, **kwargs):
        graph, call = _call_with_model(original, args, kwargs)
        _record_lg_agent(graph, "create_react_agent", call, "prompt")
        return graph

    module.create_react_agent = create_react_agent


def _patch_lg_create_swarm(module) -> None:
    original = module.create_swarm

    @functools.wraps(original)
    def create_swarm(*args, **kwargs):
        builder, call = _call_with_model(original, args, kwargs)
        file, line = _user_location(2)
        _LG_APPS[id(builder)] = {
            "kind": "swarm",
            "builder": builder,
            "agents": list(call.get("agents") or []),
            "default": call.get("default_active_agent"),
            "file": file,
            "line": line,
        }
        return builder

    module.create_swarm = create_swarm


def _patch_lg_create_supervisor(module) -> None:
    original = module.create_supervisor

    @functools.wraps(original)
    def create_supervisor(*args, **kwargs):
        before = len(_CONSTRUCTED["langgraph"])
        builder, call = _call_with_model(original, args, kwargs)
        name = call.get("supervisor_name") or "supervisor"
        # The supervisor is the create_react_agent that create_supervisor built, named so.
        made = [_LG_AGENTS.get(id(g)) for g in _CONSTRUCTED["langgraph"][before:]]
        supervisor = next((r for r in made if r is not None and r["name"] == name), None)
        if supervisor is not None:
            supervisor.update(
                role="supervisor", model=call.get("model"), prompt=call.get("prompt"), workers=list(call.get("agents") or [])
            )
        file, line = _user_location(2)
        _LG_APPS[id(builder)] = {
            "kind": "supervisor",
            "builder": builder,
            "agents": list(call.get("agents") or []),
            "supervisor": supervisor,
            "output_mode": call.get("output_mode") or "last_message",
            "file": file,
            "line": line,
        }
        return builder

    module.create_supervisor = create_supervisor


# CrewAI: where crews and agents are constructed.
_CREW_SITES: dict[int, tuple[object, str | None, int | None]] = {}


def _patch_crewai_init(attr: str, table: dict, constructed: bool):
    def patch(module) -> None:
        cls = getattr(module, attr)
        original = cls.__init__

        @functools.wraps(original)
        def __init__(self, *args, **kwargs):
            if id(self) not in table:
                _record(table, self)
                if constructed:
                    _CONSTRUCTED["crewai"].append(self)
            original(self, *args, **kwargs)

        cls.__init__ = __init__

    return patch


_PATCHES = {
    "agents.agent": _patch_agents_agent,
    "agents.handoffs": _patch_agents_handoffs,
    "google.adk.agents.base_agent": _patch_adk_base_agent,
    "google.adk.tools.agent_tool": _patch_adk_agent_tool,
    "langchain.chat_models.base": _patch_lc_init_chat_model,
    "langchain.agents.factory": _patch_lc_create_agent,
    "langgraph.prebuilt.chat_agent_executor": _patch_lg_create_react_agent,
    "langgraph_swarm.swarm": _patch_lg_create_swarm,
    "langgraph_supervisor.supervisor": _patch_lg_create_supervisor,
    "crewai.agents.agent_builder.base_agent": _patch_crewai_init("BaseAgent", _AGENT_SITES, True),
    "crewai.crew": _patch_crewai_init("Crew", _CREW_SITES, False),
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
    """The module a ModuleNotFoundError (possibly behind an ImportError) names, dotted as Python
    names it (`google.adk`: Baton maps it to the distribution to install)."""
    if not isinstance(exc, ImportError):
        return None
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, ModuleNotFoundError) and exc.name:
            return exc.name
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
        return _blank_entry(agent.name, cls_name, type(agent).__qualname__, file, line)

    def collect(self, module, abs_path: str, module_file: str | None) -> tuple[list, list[str], str | None]:
        """(agents in discovery order, names of the module-level agents, the entry the module
        names): module-level agents first (held in lists and dicts too), then what they reach."""
        bound, held = _module_agents(module, self.is_agent)
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
            n = len(_CONSTRUCTED[self.framework])
            extra = f" ({n} were constructed, but none is bound to a module-level variable)" if n else ""
            what = _FRAMEWORK_NAMES[self.framework]
            raise Failure("no_agents", f"{abs_path} has no module-level {what} agents{extra}", module_file or abs_path)
        i = 0
        while i < len(order):
            for t in self.targets(order[i]):
                add(t)
            i += 1
        top_level = list(dict.fromkeys(a.name for _, a in bound))
        root = dict(bound).get("root_agent")
        return order, top_level, root.name if root is not None else None

    def extra(self) -> dict:
        """Keys of the output beyond the agents (LangGraph's and CrewAI's notes, the crew)."""
        return {}


def _blank_entry(name: str, cls_name: str, python_class: str, file, line) -> dict:
    return {
        "name": name,
        "class": cls_name,
        "python_class": python_class,
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


_LG_PROVIDERS = {
    "ChatOpenAI": "openai",
    "AzureChatOpenAI": "azure_openai",
    "ChatAnthropic": "anthropic",
    "ChatGoogleGenerativeAI": "google_genai",
    "ChatVertexAI": "google_vertexai",
    "ChatOllama": "ollama",
    "ChatMistralAI": "mistralai",
    "ChatGroq": "groq",
}
_INVOKES = {"invoke", "ainvoke", "stream", "astream", "batch", "abatch"}


def _referenced(fn) -> tuple[list, set[str]]:
    """What a function refers to by name: the values of its closure and of the module globals its
    code (nested functions included) names, and every name its code uses."""
    while isinstance(fn, functools.partial):
        fn = fn.func
    fn = getattr(fn, "__wrapped__", fn)
    code = getattr(fn, "__code__", None)
    if code is None:
        return [], set()
    names: set[str] = set()
    stack = [code]
    while stack:
        c = stack.pop()
        names.update(c.co_names)
        stack.extend(x for x in c.co_consts if isinstance(x, types.CodeType))
    values = []
    for cell in getattr(fn, "__closure__", None) or ():
        try:
            values.append(cell.cell_contents)
        except ValueError:  # an empty cell
            continue
    globs = getattr(fn, "__globals__", {}) or {}
    values.extend(globs[n] for n in sorted(names) if n in globs)
    return values, names


class _LangGraphReader(_Reader):
    """LangGraph: the compiled graphs of `create_agent` / `create_react_agent` are the agents; a
    swarm's handoff tools are handoffs, a supervisor's are delegations, and a tool whose function
    refers to a compiled agent is that agent called as a tool."""

    framework = "langgraph"

    def __init__(self):
        super().__init__()
        from langchain_core.tools import BaseTool
        from langchain_core.tools import tool as make_tool
        from langchain_core.utils.function_calling import convert_to_openai_tool

        self.BaseTool, self.make_tool, self.to_openai = BaseTool, make_tool, convert_to_openai_tool
        self.notes: list[str] = []
        self.noted: set[str] = set()

    def note(self, text: str) -> None:
        if text not in self.noted:
            self.noted.add(text)
            self.notes.append(text)

    # -- records ---------------------------------------------------------------------------

    def is_agent(self, obj) -> bool:
        rec = _LG_AGENTS.get(id(obj))
        return rec is not None and rec["graph"] is obj

    def app_of(self, obj):
        """The swarm or supervisor a value is (its StateGraph, or the graph compiled from it)."""
        for candidate in (obj, getattr(obj, "builder", None)):
            rec = _LG_APPS.get(id(candidate)) if candidate is not None else None
            if rec is not None and rec["builder"] is candidate:
                return rec
        return None

    def rec_of(self, graph):
        """The agent a graph stands for: itself, or a swarm's or supervisor's entry agent."""
        if self.is_agent(graph):
            return _LG_AGENTS[id(graph)]
        app = self.app_of(graph)
        return self.app_entry(app) if app is not None else None

    def by_name(self, name, among=()):
        recs = [self.rec_of(g) for g in among]
        hit = [r for r in recs if r is not None and self.name(r) == name]
        if not hit:
            hit = [r for r in _LG_AGENTS.values() if self.name(r) == name]
        return hit[0] if len(hit) == 1 or (hit and among) else None

    def destination_rec(self, rec, dest):
        """The agent a handoff tool's destination names: a supervisor's worker (a nested team is
        its own entry agent), else the agent of that name."""
        for g in rec.get("workers") or ():
            if getattr(g, "name", None) == dest:
                return self.rec_of(g)
        return self.by_name(dest)

    def app_entry(self, app):
        if app["kind"] == "supervisor":
            return app["supervisor"]
        return self.by_name(app["default"], app["agents"])

    def app_members(self, app, seen=None) -> list:
        seen = set() if seen is None else seen
        if id(app) in seen:
            return []
        seen.add(id(app))
        out = [app["supervisor"]] if app["kind"] == "supervisor" and app["supervisor"] else []
        for g in app["agents"]:
            nested = self.app_of(g)
            if nested is not None:
                out.extend(self.app_members(nested, seen))
            elif self.is_agent(g):
                out.append(_LG_AGENTS[id(g)])
            else:
                self.warnings.append(f"{type(g).__name__} {getattr(g, 'name', '')!r} is not an agent Baton can read")
        return out

    @staticmethod
    def name(rec) -> str:
        return rec["name"] or rec.get("var") or "agent"

    # -- tools -----------------------------------------------------------------------------

    def tools_of(self, rec) -> list:
        tools = rec["tools"]
        if tools is None:
            return []
        if hasattr(tools, "tools_by_name"):  # a ToolNode
            return list(tools.tools_by_name.values())
        out = []
        for t in tools:
            if isinstance(t, (self.BaseTool, dict)) or not callable(t):
                out.append(t)
                continue
            try:
                out.append(self.make_tool(t))  # what ToolNode makes of a plain function
            except Exception as exc:  # noqa: BLE001
                self.warnings.append(f"agent {self.name(rec)}: tool {_qualname(t)} unreadable ({exc})")
        return out

    @staticmethod
    def destination(tool):
        return (getattr(tool, "metadata", None) or {}).get("__handoff_destination")

    def called_agent(self, tool):
        """The agent a tool's function runs (a compiled agent it refers to), and whether the
        function invokes something."""
        fn = getattr(tool, "func", None) or getattr(tool, "coroutine", None)
        values, names = _referenced(fn) if fn is not None else ([], set())
        for v in values:
            try:
                rec = self.rec_of(v)
            except Exception:  # noqa: BLE001 - any value of the user's
                rec = None
            if rec is not None:
                return rec, True
        return None, bool(names & _INVOKES)

    def returns_command(self, tool) -> bool:
        import inspect

        fn = getattr(tool, "func", None) or getattr(tool, "coroutine", None)
        try:
            ret = inspect.signature(fn).return_annotation if fn is not None else None
        except (TypeError, ValueError):
            return False
        return getattr(ret, "__name__", ret) == "Command"

    def targets(self, rec) -> list:
        out = []
        for t in self.tools_of(rec):
            if isinstance(t, dict):
                continue
            dest = self.destination(t)
            target = self.destination_rec(rec, dest) if dest else self.called_agent(t)[0]
            if target is not None:
                out.append(target)
        return out

    def tool_entry(self, rec, tool, entry) -> None:
        agent = self.name(rec)
        if isinstance(tool, dict) or not isinstance(tool, self.BaseTool):
            name = tool.get("name") or tool.get("type") if isinstance(tool, dict) else type(tool).__name__
            entry["tools"].append({"kind": "hosted", "name": str(name), "type": "dict"})
            return
        dest = self.destination(tool)
        if dest and rec["role"] == "supervisor":
            target = self.destination_rec(rec, dest)
            agent = self.name(target) if target is not None else dest
            entry["tools"].append({"kind": "agent", "name": tool.name, "description": tool.description, "agent": agent})
            return
        if dest:
            default = "transfer_to_" + "_".join(dest.split()).lower()
            entry["handoffs"].append(
                {
                    "agent": dest,
                    "tool_name": tool.name,
                    "default_tool_name": tool.name == default,
                    "tool_description": None if tool.description == f"Ask agent '{dest}' for help" else tool.description,
                    "input_filter": None,
                    "nest_handoff_history": None,
                    "input_type": None,
                    "file": None,
                    "line": None,
                }
            )
            return
        target, invokes = self.called_agent(tool)
        if target is not None:
            entry["tools"].append(
                {"kind": "agent", "name": tool.name, "description": tool.description, "agent": self.name(target)}
            )
            return
        if invokes:
            self.note(
                f"{agent}: the tool {tool.name} invokes something that is not an agent Baton read (an agent reached "
                "through a registry or a factory, a chain); it stays a plain tool, not a delegation"
            )
        if self.returns_command(tool):
            self.note(
                f"{agent}: the tool {tool.name} returns a Command, which may move the conversation to another agent; "
                "Baton cannot read where from code, so it stays a plain tool"
            )
        try:
            params = self.to_openai(tool)["function"].get("parameters")
        except Exception:  # noqa: BLE001
            params = None
        entry["tools"].append(
            {"kind": "function", "name": tool.name, "description": tool.description or None, "parameters": params}
        )

    # -- models ----------------------------------------------------------------------------

    def model(self, entry, model) -> None:
        for _ in range(8):  # a model with tools bound is a RunnableBinding around it
            inner = getattr(model, "bound", None)
            if inner is None:
                break
            model = inner
        if model is None:
            return
        cls = type(model).__name__
        entry["model_class"] = cls
        settings = {}
        if cls == "BatonStandInModel":
            name, provider, settings = model.baton_model, model.baton_provider, dict(model.baton_settings)
        elif cls == "_ConfigurableModel":
            cfg = getattr(model, "_default_config", {}) or {}
            name, provider = cfg.get("model"), cfg.get("model_provider")
            settings = cfg
        elif callable(model) and not hasattr(model, "invoke"):
            self.warnings.append(f"agent {entry['name']}: the model is chosen at run time by {_qualname(model)}")
            return
        else:
            name = getattr(model, "model_name", None) or getattr(model, "model", None)
            provider = _LG_PROVIDERS.get(cls)
            settings = {k: getattr(model, k, None) for k in ("temperature", "top_p", "max_tokens")}
        if not isinstance(name, str):
            self.warnings.append(f"agent {entry['name']}: model object {cls} has no model name")
            return
        entry["model"] = f"{provider}:{name}" if provider else name
        entry["model_settings"] = {
            k: settings[k] for k in ("temperature", "top_p", "max_tokens") if isinstance(settings.get(k), (int, float))
        }

    # -- agents ----------------------------------------------------------------------------

    def describe(self, rec) -> dict:
        cls = "create_supervisor" if rec["role"] == "supervisor" else rec["kind"]
        entry = _blank_entry(self.name(rec), cls, type(rec["graph"]).__qualname__, rec["file"], rec["line"])
        prompt = rec["prompt"]
        content = getattr(prompt, "content", prompt)
        if isinstance(content, str):
            entry["instructions"] = content or None
        elif prompt is not None:
            entry["dynamic_instructions"] = _qualname(prompt)
        self.model(entry, rec["model"])
        for t in self.tools_of(rec):
            self.tool_entry(rec, t, entry)
        if rec["middleware"]:
            names = ", ".join(type(m).__name__ for m in rec["middleware"])
            self.note(f"{entry['name']}: middleware ({names}) runs around its model calls; Baton does not run it")
        return entry

    def app_notes(self, app) -> None:
        sup = app.get("supervisor")
        if app["kind"] != "supervisor" or sup is None:
            return
        name = self.name(sup)
        if app["output_mode"] == "full_history":
            back = (
                "each worker's whole history (its tool calls and results too) goes back to it; Baton's delegation "
                "returns only the worker's final output"
            )
        else:
            back = "only each worker's last message goes back to it, as Baton's delegation returns the final output"
        self.note(f"{name}: langgraph-supervisor, output_mode {app['output_mode']}: {back}")
        library = "langgraph_supervisor.handoff"
        default = [
            t
            for t in self.tools_of(sup)
            if self.destination(t) and getattr(getattr(t, "func", None), "__module__", "") == library
        ]
        if default:
            self.note(
                f"{name}: its handoff tools (create_handoff_tool) give a worker the whole conversation; Baton's "
                "delegation gives it only the tool's input, so the workers' runs in Baton see less"
            )

    def collect(self, module, abs_path, module_file):
        apps, bound = [], []
        for var, value in list(vars(module).items()):
            if var.startswith("__"):
                continue
            app = self.app_of(value)
            if app is not None:
                if all(a is not app for a in apps):
                    apps.append(app)
            elif self.is_agent(value):
                rec = _LG_AGENTS[id(value)]
                rec.setdefault("var", var)
                bound.append(rec)
        order: list = []
        for app in apps:
            self.app_notes(app)
            order.extend(r for r in self.app_members(app) if all(r is not o for o in order))
        order.extend(r for r in bound if all(r is not o for o in order))
        i = 0
        while i < len(order):  # what they reach: handoff destinations, agents called as tools
            order.extend(t for t in self.targets(order[i]) if all(t is not o for o in order))
            i += 1
        if not order:
            n = len(_CONSTRUCTED["langgraph"])
            extra = f" ({n} were constructed, but none is bound to a module-level variable)" if n else ""
            raise Failure("no_agents", f"{abs_path} has no module-level LangGraph agents{extra}", module_file or abs_path)
        # Apps that no other app runs as a worker start a run.
        nested = {id(self.app_of(g)) for a in apps for g in a["agents"] if self.app_of(g) is not None}
        roots = [a for a in apps if id(a) not in nested and self.app_entry(a) is not None]
        root = self.name(self.app_entry(roots[0])) if roots else None
        top_level = [self.name(r) for r in ([self.app_entry(a) for a in roots] + bound)]
        return order, list(dict.fromkeys(top_level)), root

    def extra(self) -> dict:
        return {"notes": self.notes}


class _CrewManager:
    """The manager CrewAI builds for a hierarchical crew at kickoff, from `manager_llm`."""

    def __init__(self, crew, i18n):
        def text(key):
            try:
                return i18n.retrieve("hierarchical_manager_agent", key)
            except Exception:  # noqa: BLE001
                return {"role": "Crew Manager"}.get(key, "")

        self.crew = crew
        self.role, self.goal, self.backstory = text("role"), text("goal"), text("backstory")
        self.llm = crew.manager_llm
        self.tools = []
        self.allow_delegation = True


class _CrewAIReader(_Reader):
    """CrewAI: a module-level `Crew`'s agents (named by their role), its tasks and process; the
    edges are made on the Rust side from the tasks (`crew` in the output)."""

    framework = "crewai"

    def __init__(self):
        super().__init__()
        from crewai import Crew
        from crewai.agents.agent_builder.base_agent import BaseAgent

        self.Crew, self.BaseAgent = Crew, BaseAgent
        try:
            from crewai.utilities.i18n import get_i18n

            self.i18n = get_i18n()
        except Exception:  # noqa: BLE001
            self.i18n = None
        self.crew = None
        self.manager = None
        self.notes: list[str] = []

    def is_agent(self, obj) -> bool:
        return isinstance(obj, self.BaseAgent)

    def targets(self, agent) -> list:
        return []

    @staticmethod
    def role(agent) -> str:
        return str(agent.role).strip()

    def task_name(self, task) -> str:
        tasks = list(self.crew.tasks) if self.crew is not None else []
        if task.name:
            return task.name
        return f"task {tasks.index(task) + 1}" if task in tasks else (task.description or "task")[:40]

    def template(self) -> str:
        try:
            return self.i18n.slice("role_playing")
        except Exception:  # noqa: BLE001
            return "You are {role}. {backstory}\nYour personal goal is: {goal}"

    def instructions(self, agent) -> str:
        text = self.template().format(role=agent.role, backstory=agent.backstory, goal=agent.goal)
        crew = self.crew
        hierarchical = crew is not None and _enum_value(crew.process) == "hierarchical"
        tasks = crew.tasks if crew is not None else []
        mine = [t for t in tasks if (agent is self.manager if hierarchical else t.agent is agent)]
        if mine:
            text += "\n\nYour tasks (CrewAI gives each one as the user message of its own run):"
            for t in mine:
                text += f"\n- {self.task_name(t)}: {t.description.strip()}\n  Expected output: {t.expected_output.strip()}"
        return text

    def model(self, entry, llm) -> None:
        if llm is None:
            return
        if isinstance(llm, str):
            entry["model"] = llm
            return
        entry["model_class"] = type(llm).__name__
        name, provider = getattr(llm, "model", None), getattr(llm, "provider", None)
        if isinstance(name, str):
            entry["model"] = f"{provider}/{name}" if isinstance(provider, str) and "/" not in name else name
        settings = {k: getattr(llm, k, None) for k in ("temperature", "top_p", "max_tokens")}
        entry["model_settings"] = {k: v for k, v in settings.items() if isinstance(v, (int, float))}

    def tool(self, t) -> dict:
        try:
            from crewai.utilities.string_utils import sanitize_tool_name

            name = sanitize_tool_name(t.name)
        except Exception:  # noqa: BLE001
            name = t.name
        schema = getattr(t, "args_schema", None)
        try:
            params = _jsonable(schema.model_json_schema()) if schema is not None else None
        except Exception:  # noqa: BLE001
            params = None
        return {"kind": "function", "name": name, "description": t.description or None, "parameters": params}

    def describe(self, agent) -> dict:
        if isinstance(agent, _CrewManager):
            _, file, line = _CREW_SITES.get(id(agent.crew), (None, None, None))
            entry = _blank_entry(self.role(agent), "CrewManager", "Agent", file, line)
        else:
            file, line = self.site(agent)
            cls = "CrewManager" if agent is self.manager else "Agent"
            entry = _blank_entry(self.role(agent), cls, type(agent).__qualname__, file, line)
        entry["description"] = agent.goal
        entry["instructions"] = self.instructions(agent)
        self.model(entry, agent.llm)
        entry["tools"] = [self.tool(t) for t in agent.tools or []]
        entry["allow_delegation"] = bool(getattr(agent, "allow_delegation", False))
        return entry

    def crew_entry(self) -> dict:
        from crewai.utilities.constants import NOT_SPECIFIED

        crew = self.crew
        tasks = []
        for t in crew.tasks:
            context = None if t.context is NOT_SPECIFIED else [self.task_name(c) for c in t.context or []]
            agent = self.role(t.agent) if t.agent is not None else None
            tasks.append({"name": self.task_name(t), "agent": agent, "context": context, "async": bool(t.async_execution)})
        return {
            "process": _enum_value(crew.process),
            "manager": self.role(self.manager) if self.manager is not None else None,
            "agents": [self.role(a) for a in crew.agents],
            "tasks": tasks,
        }

    def collect(self, module, abs_path, module_file):
        crews = [v for k, v in vars(module).items() if not k.startswith("__") and isinstance(v, self.Crew)]
        bound = [v for k, v in vars(module).items() if not k.startswith("__") and self.is_agent(v)]
        order: list = []
        root = None
        if crews:
            self.crew = crew = crews[0]
            if len(crews) > 1:
                self.notes.append(f"the module builds {len(crews)} crews; Baton reads the first one")
            if _enum_value(crew.process) == "hierarchical":
                self.manager = crew.manager_agent or _CrewManager(crew, self.i18n)
                order.append(self.manager)
                root = self.role(self.manager)
            order.extend(crew.agents)
            order.extend(t.agent for t in crew.tasks if t.agent is not None)
            first = next((t.agent for t in crew.tasks if t.agent is not None), None)
            root = root or (self.role(first) if first is not None else None)
        order.extend(bound)
        order = list({id(a): a for a in order}.values())
        if not order:
            n = len(_CONSTRUCTED["crewai"])
            extra = f" ({n} were constructed, but none is bound to a module-level variable)" if n else ""
            raise Failure("no_agents", f"{abs_path} has no module-level CrewAI crew or agents{extra}", module_file or abs_path)
        top_level = list(dict.fromkeys(([root] if root else []) + [self.role(a) for a in bound]))
        return order, top_level, root

    def extra(self) -> dict:
        return {"crew": self.crew_entry() if self.crew is not None else None, "notes": self.notes}


def _reader(framework: str) -> _Reader:
    readers = {
        "openai-agents": _OpenAIAgentsReader,
        "adk": _AdkReader,
        "langgraph": _LangGraphReader,
        "crewai": _CrewAIReader,
    }
    return readers[framework]()


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


def _loaded(framework: str) -> bool:
    return any(m in sys.modules for m in _FRAMEWORK_MODULES[framework])


def _is_framework_value(framework: str, value) -> bool:
    """A module-level value that says the module is written for `framework`."""
    if framework == "openai-agents":
        return isinstance(value, sys.modules["agents.agent"].Agent)
    if framework == "adk":
        return isinstance(value, sys.modules["google.adk.agents.base_agent"].BaseAgent)
    if framework == "langgraph":
        found = _LG_AGENTS.get(id(value)) or _LG_APPS.get(id(value)) or _LG_APPS.get(id(getattr(value, "builder", None)))
        return found is not None
    crewai = sys.modules["crewai.agents.agent_builder.base_agent"]
    crew = sys.modules.get("crewai.crew")
    return isinstance(value, crewai.BaseAgent) or (crew is not None and isinstance(value, crew.Crew))


def _choose_framework(requested: str, module) -> str | None:
    if requested in FRAMEWORKS:
        return requested
    available = [fw for fw in FRAMEWORKS if _loaded(fw)]
    # The framework of the first module-level agent, else of the first agent constructed.
    for value in list(vars(module).values()):
        for fw in available:
            try:
                if _is_framework_value(fw, value):
                    return fw
            except Exception:  # noqa: BLE001 - an odd value of the user's
                continue
    firsts = [fw for fw in available if _CONSTRUCTED[fw]]
    return firsts[0] if firsts else None


def introspect(path: str, requested: str) -> dict:
    module, abs_path = _load(path)
    module_file = getattr(module, "__file__", None)
    framework = _choose_framework(requested, module)
    if framework is None or not _loaded(framework):
        what = "OpenAI Agents SDK, Google ADK, LangGraph or CrewAI" if requested == "auto" else _FRAMEWORK_NAMES[requested]
        raise Failure("no_agents", f"{abs_path} builds no {what} agents", module_file or abs_path)
    reader = _reader(framework)
    order, top_level, root = reader.collect(module, abs_path, module_file)

    entries = [reader.describe(a) for a in order]
    names = [e["name"] for e in entries]
    for n in sorted({n for n in names if names.count(n) > 1}):
        reader.warnings.append(f"{names.count(n)} different agents are named {n}")
    known = set(names)
    for e in entries:
        for h in e["handoffs"]:
            if h["agent"] not in known:
                reader.warnings.append(f"agent {e['name']}: handoff target {h['agent']} is not among the agents found")
    out = {
        "framework": framework,
        "module": abs_path,
        "root_agent": root,
        "top_level": top_level,
        "agents": entries,
        "warnings": _PATCH_WARNINGS + reader.warnings,
    }
    out.update(reader.extra())
    return out


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
        raise Failure("usage", "usage: introspect.py MODULE_PATH [--framework openai-agents|adk|langgraph|crewai|auto]")
    if framework not in (*FRAMEWORKS, "auto"):
        raise Failure("usage", f"--framework must be openai-agents, adk, langgraph, crewai or auto, not {framework!r}")
    return path, framework


def _result_writer():
    """Where the answer goes: the pipe Baton opened as fd 3, with this run's nonce before the line
    (so nothing the module prints or writes can pass for it); where no pipe is passed (not on
    Unix, or run by hand), standard output."""
    fd, nonce = os.environ.pop("BATON_RESULT_FD", None), os.environ.pop("BATON_RESULT_NONCE", None)
    if fd is None:
        stdout, prefix = sys.stdout, f"{nonce} " if nonce else ""
        return lambda text: (stdout.write(prefix + text + "\n"), stdout.flush())
    out = os.dup(int(fd))
    os.close(int(fd))

    def write(text: str) -> None:
        data = f"{nonce} {text}\n".encode()
        while data:
            data = data[os.write(out, data) :]

    return write


def main(argv: list[str]) -> int:
    write_result = _result_writer()
    stdout = sys.stdout
    # Whatever the user's module prints goes to stderr (its tail is shown when the import fails).
    sys.stdout = sys.stderr
    sys.dont_write_bytecode = True  # no __pycache__ in the user's folders
    os.environ.setdefault("OPENAI_AGENTS_DISABLE_TRACING", "1")
    # CrewAI's own telemetry and trace upload stay off (nothing runs, but they start at import).
    os.environ.setdefault("CREWAI_DISABLE_TELEMETRY", "true")
    os.environ.setdefault("CREWAI_TRACING_ENABLED", "false")
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
    write_result(json.dumps(result, ensure_ascii=False, separators=(",", ":"), default=str))
    return code


if __name__ == "__main__":
    exit_code = main(sys.argv[1:])
    sys.stderr.flush()
    # Not sys.exit: threads the user's module started, and its atexit hooks (exporters that
    # flush over the network), must neither keep the process alive nor run.
    os._exit(exit_code)

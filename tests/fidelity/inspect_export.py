"""Imports a module exported by `baton export --to openai-agents-py` and prints its structure
as JSON: every Agent, its handoffs (tool name, target, filter/nesting/input type) and tools."""

import importlib.util
import json
import sys

spec = importlib.util.spec_from_file_location("exported", sys.argv[1])
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)

from agents import Agent, Handoff  # noqa: E402

out = {"entry": mod.ENTRY.name, "max_turns": mod.MAX_TURNS, "agents": []}
for a in mod.AGENTS:
    assert isinstance(a, Agent)
    hs = []
    for h in a.handoffs:
        assert isinstance(h, Handoff), h
        hs.append({
            "tool": h.tool_name,
            "target": h.agent_name,
            "filtered": h.input_filter is not None,
            "nested": bool(getattr(h, "nest_handoff_history", False)),
            "structured": bool(h.input_json_schema.get("properties")),
        })
    out["agents"].append({
        "name": a.name,
        "model": a.model if isinstance(a.model, str) else None,
        "handoffs": hs,
        "tools": [t.name for t in a.tools],
        "tool_schemas": {t.name: t.params_json_schema for t in a.tools},
    })
print(json.dumps(out))

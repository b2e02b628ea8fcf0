"""Runs a module exported by `baton export --to langgraph-py` in real LangGraph, to compare what
each agent's model receives there with what it receives in Baton's own run.

Why this exists: the export claims that a swarm's handoffs, a supervisor's delegations and an
agent called as a tool give the receiving agent the context Baton's run gives it. This harness
gives every agent of the module (`build(model_factory)`) a scripted chat model, a subclass of
langchain-core's own BaseChatModel, that answers call by call with the outputs Baton's run of the
same scenario produced, and records what LangGraph sends it: the system prompt, the messages (as
Baton-comparable items) and the tool names. Prints one JSON object:

    {"calls": [{"agent", "system", "items", "tools"}...], "final_output", "last_agent", "error"}

where an item is {"kind": "user_message"|"assistant_message", "text"},
{"kind": "call", "name", "arguments"} or {"kind": "result", "call", "text"} (`call`: the name of
the tool call it answers).

    target/fixture-env-langgraph/bin/python tests/fidelity/run_langgraph_export.py exported.py scenario.json

scenario.json: {"input": [{"role", "content"}...], "outputs": {"<topology agent name>": [[output
item]...]}} with output items {"type": "message", "text"} and {"type": "function_call", "name",
"arguments" (a JSON string), "call_id"}. No network: the models are scripted.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.utils.function_calling import convert_to_openai_tool

CALLS: list[dict[str, Any]] = []


def text_of(m: BaseMessage) -> str:
    return m.content if isinstance(m.content, str) else m.text


def items(messages: list[BaseMessage]) -> list[dict[str, Any]]:
    """LangChain messages as Baton-comparable items (the system prompt is recorded apart)."""
    calls: dict[str, str] = {}
    out: list[dict[str, Any]] = []
    for m in messages:
        if isinstance(m, SystemMessage):
            continue
        if isinstance(m, HumanMessage):
            out.append({"kind": "user_message", "text": text_of(m)})
        elif isinstance(m, AIMessage):
            if text_of(m):
                out.append({"kind": "assistant_message", "text": text_of(m)})
            for c in m.tool_calls:
                calls[c["id"]] = c["name"]
                out.append({"kind": "call", "name": c["name"], "arguments": c["args"]})
        elif isinstance(m, ToolMessage):
            out.append({"kind": "result", "call": calls.get(m.tool_call_id, m.name), "text": text_of(m)})
    return out


class ScriptedModel(BaseChatModel):
    """Answers with Baton's recorded outputs for this agent, in order; records its inputs."""

    agent: str
    outputs: list[list[dict[str, Any]]]
    n: int = 0

    @property
    def _llm_type(self) -> str:
        return "baton-scripted"

    def bind_tools(self, tools, *, tool_choice=None, **kwargs):  # noqa: D102
        return self.bind(tools=[convert_to_openai_tool(t) for t in tools], **kwargs)

    def _generate(self, messages, stop=None, run_manager=None, **kwargs) -> ChatResult:
        system = [m for m in messages if isinstance(m, SystemMessage)]
        CALLS.append(
            {
                "agent": self.agent,
                "system": "\n".join(text_of(m) for m in system) if system else None,
                "items": items(messages),
                "tools": [t["function"]["name"] for t in kwargs.get("tools") or []],
            }
        )
        if self.n >= len(self.outputs):
            raise RuntimeError(f"{self.agent}: Baton's run has no model call {self.n + 1}")
        out = self.outputs[self.n]
        self.n += 1
        text = "".join(o["text"] for o in out if o["type"] == "message")
        calls = [
            {"name": o["name"], "args": json.loads(o["arguments"] or "{}"), "id": o["call_id"], "type": "tool_call"}
            for o in out
            if o["type"] == "function_call"
        ]
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=text, tool_calls=calls))])


def last_agent(mod, state: dict[str, Any]) -> str | None:
    """The agent that answered last: a swarm's active agent, else the name on the last message."""
    active = state.get("active_agent")
    if active is None:
        named = [m for m in state["messages"] if isinstance(m, AIMessage) and m.name]
        active = named[-1].name if named else mod.ENTRY
    return mod.NAMES.get(active, active)


def main() -> dict[str, Any]:
    spec = importlib.util.spec_from_file_location("exported", sys.argv[1])
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    scenario = json.loads(Path(sys.argv[2]).read_text())

    def factory(name: str, _model: str | None, _settings: dict) -> ScriptedModel:
        agent = mod.NAMES[name]
        return ScriptedModel(agent=agent, outputs=copy.deepcopy(scenario["outputs"].get(agent, [])))

    out: dict[str, Any] = {"calls": CALLS, "final_output": None, "last_agent": None, "error": None}
    try:
        state = mod.run(copy.deepcopy(scenario["input"]), model_factory=factory)
        final = state["messages"][-1]
        out["final_output"] = text_of(final)
        out["last_agent"] = last_agent(mod, state)
    except Exception as e:  # noqa: BLE001 - reported to the test with the calls made so far
        out["error"] = f"{type(e).__name__}: {e}"
    return out


if __name__ == "__main__":
    sys.stdout.write(json.dumps(main(), ensure_ascii=False) + "\n")

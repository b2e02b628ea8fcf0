"""Runs a module exported by `baton export --to openai-agents-py` in the real OpenAI Agents SDK.

Every agent of the module gets a fake model that answers, call by call, with the outputs Baton's
own run of the same scenario produced (messages, reasoning, function calls), and records what the
SDK sends it: the system instructions, the input items and the tool names. Prints one JSON object:

    {"calls": [{"agent", "instructions", "input", "tools"}...], "final_output", "last_agent",
     "error"}

    target/pyenv/bin/python tests/fidelity/run_export.py exported.py scenario.json

scenario.json: {"input": [input items], "outputs": {"<agent name>": [[output item]...]}} where an
output item is {"type": "message", "text"}, {"type": "reasoning", "text"} or
{"type": "function_call", "name", "arguments", "call_id"}.
"""

from __future__ import annotations

import asyncio
import copy
import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from sdk_harness import Recorder, normalize_input  # noqa: E402  (also disables tracing)

from openai.types.responses import (  # noqa: E402
    ResponseFunctionToolCall,
    ResponseOutputMessage,
    ResponseOutputText,
    ResponseReasoningItem,
)
from openai.types.responses.response_reasoning_item import Summary  # noqa: E402

from agents import Runner  # noqa: E402
from agents.exceptions import AgentsException  # noqa: E402
from agents.items import ModelResponse  # noqa: E402
from agents.models.interface import Model  # noqa: E402
from agents.usage import Usage  # noqa: E402


def output_item(o: dict[str, Any], n: int) -> Any:
    """The SDK item for one of Baton's outputs, with the provider id and status Baton recorded."""
    ids = {k: o[k] for k in ("id", "status") if o.get(k) is not None}
    if o["type"] == "message":
        return ResponseOutputMessage(
            id=o.get("id") or f"msg_{n}",
            type="message",
            role="assistant",
            status=o.get("status") or "completed",
            content=[ResponseOutputText(type="output_text", text=o["text"], annotations=[])],
        )
    if o["type"] == "reasoning":
        return ResponseReasoningItem.model_construct(
            type="reasoning", summary=[Summary(type="summary_text", text=o["text"])], **ids
        )
    return ResponseFunctionToolCall(
        type="function_call", name=o["name"], arguments=o["arguments"], call_id=o["call_id"], **ids
    )


class ReplayModel(Model):
    """Answers with Baton's recorded outputs for this agent, in order; records its inputs."""

    def __init__(self, agent_name: str, outputs: list[list[dict[str, Any]]], rec: Recorder):
        self.agent_name, self.outputs, self.rec, self.n = agent_name, outputs, rec, 0

    async def get_response(self, system_instructions, input, model_settings, tools, output_schema,
                           handoffs, tracing, **kwargs: Any) -> ModelResponse:
        self.rec.calls.append({
            "agent": self.agent_name,
            "instructions": system_instructions,
            "input": normalize_input(copy.deepcopy(input)),
            "tools": [
                {"name": t.name, "description": t.description, "parameters": t.params_json_schema}
                for t in tools
            ]
            + [
                {"name": h.tool_name, "description": h.tool_description, "parameters": h.input_json_schema}
                for h in handoffs
            ],
        })
        if self.n >= len(self.outputs):
            raise RuntimeError(f"{self.agent_name}: Baton's run has no model call {self.n + 1}")
        out = [output_item(o, 100 * len(self.rec.calls) + i) for i, o in enumerate(self.outputs[self.n])]
        self.n += 1
        return ModelResponse(output=out, usage=Usage(), response_id=None)

    def stream_response(self, *args: Any, **kwargs: Any):  # pragma: no cover
        raise NotImplementedError


async def main() -> dict[str, Any]:
    spec = importlib.util.spec_from_file_location("exported", sys.argv[1])
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    scenario = json.loads(Path(sys.argv[2]).read_text())
    rec = Recorder()
    for a in mod.AGENTS:
        a.model = ReplayModel(a.name, scenario["outputs"].get(a.name, []), rec)
    out: dict[str, Any] = {"calls": rec.calls, "final_output": None, "last_agent": None, "error": None}
    try:
        hooks = getattr(mod, "HOOKS", None)
        result = await mod.run(copy.deepcopy(scenario["input"]))
        out["final_output"] = result.final_output
        out["last_agent"] = result.last_agent.name
        out["hooks"] = hooks is not None
    except (AgentsException, RuntimeError) as e:
        out["error"] = f"{type(e).__name__}: {e}"
    return out


if __name__ == "__main__":
    sys.stdout.write(json.dumps(asyncio.run(main()), ensure_ascii=False) + "\n")

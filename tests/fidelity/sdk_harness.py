"""Fidelity harness: run scripted scenarios through the real OpenAI Agents SDK.

Uses an in-process fake Model (no network, tracing disabled) that records the
system instructions and the input list each agent receives at every model call,
then prints ONE JSON object to stdout:

    {"<scenario>": {"calls": [{"agent", "instructions", "input"}...],
                    "final_output": ..., "last_agent": ...}}

Run with the pinned SDK: target/pyenv/bin/python tests/fidelity/sdk_harness.py
(see requirements.txt, openai-agents==0.24.0).
"""

from __future__ import annotations

import asyncio
import copy
import json
import logging
import os
import sys
from typing import Any

os.environ.setdefault("OPENAI_AGENTS_DISABLE_TRACING", "1")

from openai.types.responses import (  # noqa: E402
    ResponseFunctionToolCall,
    ResponseOutputMessage,
    ResponseOutputText,
)

from agents import (  # noqa: E402
    Agent,
    RunConfig,
    Runner,
    function_tool,
    handoff,
    set_tracing_disabled,
)
from agents.extensions import handoff_filters  # noqa: E402
from agents.items import ModelResponse  # noqa: E402
from agents.models.interface import Model  # noqa: E402
from agents.usage import Usage  # noqa: E402

set_tracing_disabled(True)
# Keep stdout clean (only the JSON object goes there); SDK logs go to stderr anyway.
logging.getLogger("openai.agents").setLevel(logging.ERROR)


# --------------------------------------------------------------------------- output builders


def msg(text: str, id: str) -> ResponseOutputMessage:
    """An output message with the id Baton's mock gives it (`msg_<turn>_<index in the output>`)."""
    return ResponseOutputMessage(
        id=id,
        type="message",
        role="assistant",
        status="completed",
        content=[ResponseOutputText(type="output_text", text=text, annotations=[])],
    )


def call(name: str, arguments: str, call_id: str) -> ResponseFunctionToolCall:
    # `id` and `status` set as the Responses API sets them (Baton's mock: `fc_<call_id>`,
    # completed): the SDK prints them in nested handoff history, and Baton must too.
    return ResponseFunctionToolCall(
        type="function_call",
        name=name,
        arguments=arguments,
        call_id=call_id,
        id=f"fc_{call_id}",
        status="completed",
    )


# --------------------------------------------------------------------------- normalization


def _text_of(content: Any) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    parts = []
    for part in content:
        if isinstance(part, dict):
            if "text" in part and isinstance(part["text"], str):
                parts.append(part["text"])
            elif "refusal" in part:
                parts.append(str(part["refusal"]))
        else:
            text = getattr(part, "text", None)
            if isinstance(text, str):
                parts.append(text)
    return "".join(parts)


def _as_dict(item: Any) -> dict[str, Any]:
    if isinstance(item, dict):
        return item
    dump = getattr(item, "model_dump", None)
    if callable(dump):
        return dump(exclude_unset=True)
    raise TypeError(f"unexpected input item: {item!r}")


def normalize_item(raw: Any) -> dict[str, Any]:
    item = _as_dict(raw)
    itype = item.get("type")
    if itype == "function_call":
        return {
            "type": "function_call",
            "name": item["name"],
            "arguments": item["arguments"],
            "call_id": item["call_id"],
        }
    if itype == "function_call_output":
        out = item.get("output")
        if not isinstance(out, str):
            out = _text_of(out)
        return {"type": "function_call_output", "call_id": item["call_id"], "output": out}
    if itype == "reasoning":
        summary = item.get("summary") or []
        return {"type": "reasoning", "content": _text_of(summary)}
    if "role" in item and itype in (None, "message"):
        return {
            "type": "message",
            "role": item["role"],
            "content": _text_of(item.get("content")),
        }
    raise TypeError(f"unhandled input item type {itype!r}: {item!r}")


def normalize_input(inp: str | list[Any]) -> list[dict[str, Any]]:
    if isinstance(inp, str):
        return [{"type": "message", "role": "user", "content": inp}]
    return [normalize_item(x) for x in inp]


# --------------------------------------------------------------------------- fake model


class Recorder:
    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []


class ScriptedModel(Model):
    """Returns scripted outputs per call number; records what it receives."""

    def __init__(self, agent_name: str, script: list[list[Any]], recorder: Recorder):
        self.agent_name = agent_name
        self.script = script
        self.recorder = recorder
        self.n = 0

    async def get_response(
        self,
        system_instructions,
        input,
        model_settings,
        tools,
        output_schema,
        handoffs,
        tracing,
        *,
        previous_response_id,
        conversation_id,
        prompt,
        **kwargs: Any,
    ) -> ModelResponse:
        self.recorder.calls.append(
            {
                "agent": self.agent_name,
                "instructions": system_instructions,
                "input": normalize_input(copy.deepcopy(input)),
            }
        )
        if self.n >= len(self.script):
            raise RuntimeError(f"{self.agent_name}: no scripted output for call {self.n + 1}")
        output = self.script[self.n]
        self.n += 1
        return ModelResponse(output=list(output), usage=Usage(), response_id=None)

    def stream_response(self, *args: Any, **kwargs: Any):  # pragma: no cover
        raise NotImplementedError("streaming not used by the harness")


# --------------------------------------------------------------------------- scenarios


@function_tool
def lookup_invoice(id: str) -> str:
    """Look up an invoice by id."""
    return "invoice 88: two charges of $20"


FULL_INPUT = [{"role": "user", "content": "Hi, I was double charged on invoice 88."}]


def _triage_billing(rec: Recorder, handoff_kwargs: dict[str, Any]) -> Agent:
    billing = Agent(
        name="Billing",
        instructions="billing",
        model=ScriptedModel("Billing", [[msg("Refund issued.", "msg_3_0")]], rec),
    )
    triage = Agent(
        name="Triage",
        instructions="triage",
        tools=[lookup_invoice],
        handoffs=[handoff(billing, **handoff_kwargs)],
        model=ScriptedModel(
            "Triage",
            [
                [call("lookup_invoice", '{"id":"88"}', "call_1")],
                [msg("Routing you to billing.", "msg_2_0"), call("transfer_to_billing", "{}", "call_2")],
            ],
            rec,
        ),
    )
    return triage


async def _run(rec: Recorder, agent: Agent, inp: Any, run_config: RunConfig | None = None):
    result = await Runner.run(agent, copy.deepcopy(inp), run_config=run_config or RunConfig())
    return {
        "calls": rec.calls,
        "final_output": result.final_output,
        "last_agent": result.last_agent.name,
    }


async def scenario_full() -> dict[str, Any]:
    rec = Recorder()
    return await _run(rec, _triage_billing(rec, {}), FULL_INPUT)


async def scenario_remove_tools() -> dict[str, Any]:
    rec = Recorder()
    agent = _triage_billing(rec, {"input_filter": handoff_filters.remove_all_tools})
    return await _run(rec, agent, FULL_INPUT)


async def scenario_nest_summary() -> dict[str, Any]:
    # 0.24: per-handoff override `handoff(..., nest_handoff_history=True)` (equivalent to
    # RunConfig(nest_handoff_history=True), which defaults to False). Uses the default
    # history mapper (single assistant summary message).
    rec = Recorder()
    agent = _triage_billing(rec, {"nest_handoff_history": True})
    return await _run(rec, agent, FULL_INPUT)


async def scenario_as_tool() -> dict[str, Any]:
    rec = Recorder()
    technical = Agent(
        name="Technical",
        instructions="technical",
        model=ScriptedModel("Technical", [[msg("Line 7 is fine.", "msg_2_0")]], rec),
    )
    billing = Agent(
        name="Billing",
        instructions="billing",
        tools=[
            technical.as_tool(tool_name="ask_technical", tool_description="Ask technical support")
        ],
        model=ScriptedModel(
            "Billing",
            [
                [call("ask_technical", '{"input":"check line 7"}', "call_t")],
                [msg("Refund issued after check.", "msg_3_0")],
            ],
            rec,
        ),
    )
    return await _run(
        rec, billing, [{"role": "user", "content": "Refund me, and is line 7 ok?"}]
    )


async def scenario_two_handoffs() -> dict[str, Any]:
    rec = Recorder()
    billing = Agent(
        name="Billing",
        instructions="billing",
        model=ScriptedModel("Billing", [[msg("Refund issued.", "msg_2_0")]], rec),
    )
    technical = Agent(
        name="Technical",
        instructions="technical",
        model=ScriptedModel("Technical", [[msg("Technical answer.", "msg_2_0")]], rec),
    )
    triage = Agent(
        name="Triage",
        instructions="triage",
        handoffs=[billing, technical],
        model=ScriptedModel(
            "Triage",
            [
                [
                    call("transfer_to_billing", "{}", "call_a"),
                    call("transfer_to_technical", "{}", "call_b"),
                ]
            ],
            rec,
        ),
    )
    return await _run(rec, triage, FULL_INPUT)


SCENARIOS = {
    "full": scenario_full,
    "remove_tools": scenario_remove_tools,
    "nest_summary": scenario_nest_summary,
    "as_tool": scenario_as_tool,
    "two_handoffs": scenario_two_handoffs,
}


async def main() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, fn in SCENARIOS.items():
        out[name] = await fn()
    return out


if __name__ == "__main__":
    result = asyncio.run(main())
    indent = 2 if "--pretty" in sys.argv else None
    sys.stdout.write(json.dumps(result, indent=indent, ensure_ascii=False) + "\n")

"""Runs a pydantic-ai app with both of pydantic-ai's documented multi-agent patterns, its own
OpenTelemetry instrumentation exporting through the real OTLP/HTTP protobuf exporter to
`baton collect`.

    target/pyenv/bin/python tests/collect/send_pydantic_ai.py http://127.0.0.1:PORT/v1/traces TAG

  - agent delegation: `support TAG` has a tool `ask_billing` whose body runs `billing TAG`
    (`await billing.run(question, usage=ctx.usage)`): DELEGATION.
  - programmatic hand-off: after support's run, the app runs `refunds TAG` with
    `message_history=support_result.all_messages()`: HANDOFF (no tool call marks it; refunds'
    spans are a trace of their own).

TAG names the agents so that two senders at once can be told apart. The models are pydantic-ai's
FunctionModel, one per agent, recording what pydantic-ai passed it (as
scripts/fixtures/pydantic_ai_fixtures.py does): the ground truth. Offline, no keys.

Prints one JSON line: {"requests": [{agent, system, tools, contents, texts}], "final_output",
"last_agent", "transfers": [{kind, from, to}]} -- `contents` are the request's messages
normalized ({role: system|user|assistant|tool, parts: [{type: text|tool_call|tool_result, ...}]}),
`texts` their text parts in order.
"""

from __future__ import annotations

import asyncio
import json
import sys
import warnings
from typing import Any

from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor
from pydantic_ai import Agent, RunContext
from pydantic_ai.messages import ModelMessage, ModelMessagesTypeAdapter, ModelResponse, TextPart, ToolCallPart
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.models.instrumented import InstrumentationSettings
from pydantic_ai.usage import RunUsage

warnings.filterwarnings("ignore")
CALLS: list[dict[str, Any]] = []
USER_1 = "I was double charged on invoice 88."
USER_2 = "Please refund the duplicate charge."


def scripted(agent: str, script: list[list[tuple]]) -> FunctionModel:
    """A FunctionModel that records each request and answers from `script` in order:
    a turn is a list of ("text", str) / ("call", tool_name, args_dict, tool_call_id)."""
    state = {"n": 0}

    def fn(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        turn = script[state["n"]]
        state["n"] += 1
        CALLS.append(
            {
                "agent": agent,
                "system": info.instructions,
                "tools": [t.name for t in [*info.function_tools, *info.output_tools]],
                "messages_raw": json.loads(ModelMessagesTypeAdapter.dump_json(messages)),
            }
        )
        parts = [
            TextPart(content=p[1]) if p[0] == "text" else ToolCallPart(tool_name=p[1], args=p[2], tool_call_id=p[3])
            for p in turn
        ]
        return ModelResponse(parts=parts, model_name=f"function:{agent}")

    return FunctionModel(fn, model_name=agent)


def norm_messages(raw: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """ModelMessagesTypeAdapter dump -> normalized messages: SystemPromptPart -> system,
    UserPromptPart -> user, ToolReturnPart -> tool (tool_result), TextPart / ToolCallPart ->
    assistant; consecutive parts of one role are one message (as pydantic_ai_fixtures.py)."""
    out: list[dict[str, Any]] = []

    def add(role: str, part: dict[str, Any]) -> None:
        if out and out[-1]["role"] == role:
            out[-1]["parts"].append(part)
        else:
            out.append({"role": role, "parts": [part]})

    for m in raw:
        for p in m["parts"]:
            k = p["part_kind"]
            if k == "system-prompt":
                add("system", {"type": "text", "text": p["content"]})
            elif k == "user-prompt":
                add("user", {"type": "text", "text": p["content"]})
            elif k == "tool-return":
                add("tool", {"type": "tool_result", "id": p["tool_call_id"], "name": p["tool_name"], "result": p["content"]})
            elif k == "text":
                add("assistant", {"type": "text", "text": p["content"]})
            elif k == "tool-call":
                add("assistant", {"type": "tool_call", "id": p["tool_call_id"], "name": p["tool_name"], "arguments": p["args"]})
            else:
                add(m["kind"], {"type": "other", "raw": p})
    return out


async def app(tag: str) -> dict[str, Any]:
    support_name, billing_name, refunds_name = f"support {tag}", f"billing {tag}", f"refunds {tag}"
    billing = Agent(
        scripted(
            billing_name,
            [
                [("call", "lookup_invoice", {"id": "88"}, "call_b1")],
                [("text", "Invoice 88 has two charges of $20; the second one is a duplicate.")],
            ],
        ),
        name=billing_name,
        instructions="You are billing. Answer questions about invoices.",
    )

    @billing.tool_plain
    def lookup_invoice(id: str) -> str:
        """Look up an invoice by id."""
        return "invoice 88: two charges of $20"

    support = Agent(
        scripted(
            support_name,
            [
                [("call", "ask_billing", {"question": "Why was invoice 88 charged twice?"}, "call_s1")],
                [("text", "Billing confirms a duplicate charge; passing you to refunds.")],
            ],
        ),
        name=support_name,
        system_prompt="You are support. Use ask_billing for invoice questions.",
    )

    delegated: list[str] = []

    @support.tool
    async def ask_billing(ctx: RunContext[None], question: str) -> str:
        """Ask the billing agent a question about an invoice."""
        result = await billing.run(question, usage=ctx.usage)  # pydantic-ai "agent delegation"
        delegated.append(billing_name)
        return result.output

    refunds = Agent(
        scripted(refunds_name, [[("text", "Refund of $20 issued for invoice 88.")]]),
        name=refunds_name,
        instructions="You are refunds. Issue refunds for confirmed duplicate charges.",
    )

    usage = RunUsage()
    first = await support.run(USER_1, usage=usage)
    # pydantic-ai "programmatic agent hand-off": the app picks the next agent and passes it
    # the conversation so far.
    second = await refunds.run(USER_2, message_history=first.all_messages(), usage=usage)
    assert delegated == [billing_name], delegated
    return {
        "final_output": second.output,
        "last_agent": refunds_name,
        "transfers": [
            {"kind": "delegation", "from": support_name, "to": billing_name},
            {"kind": "handoff", "from": support_name, "to": refunds_name},
        ],
    }


def main(endpoint: str, tag: str) -> None:
    provider = TracerProvider(resource=Resource.create({"service.name": f"baton-collect-pydantic-ai-{tag}"}))
    provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter(endpoint=endpoint)))
    Agent.instrument_all(InstrumentationSettings(tracer_provider=provider, include_content=True))
    out = asyncio.run(app(tag))
    provider.force_flush()
    provider.shutdown()
    requests = []
    for c in CALLS:
        contents = norm_messages(c["messages_raw"])
        requests.append(
            {
                "agent": c["agent"],
                "system": c["system"],
                "tools": c["tools"],
                "contents": contents,
                "texts": [p["text"] for m in contents for p in m["parts"] if p["type"] == "text"],
            }
        )
    print(json.dumps({"requests": requests, **out}))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])

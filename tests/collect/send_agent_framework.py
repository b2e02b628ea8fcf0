"""Runs a Microsoft Agent Framework HandoffBuilder workflow (triage -> billing) with the
framework's own OpenTelemetry, exporting its spans with the real OTLP/HTTP protobuf exporter to
`baton collect`.

    target/fixture-env-agent-framework/bin/python tests/collect/send_agent_framework.py http://127.0.0.1:PORT/v1/traces TAG

The endpoint may also come from $OTEL_EXPORTER_OTLP_TRACES_ENDPOINT (then TAG is the only argument,
or absent). Telemetry is set up the documented way for an application that owns its providers:
an SDK TracerProvider with a BatchSpanProcessor over
`opentelemetry.exporter.otlp.proto.http.trace_exporter.OTLPSpanExporter`, made the global provider
(Agent Framework's tracer uses the global one), then
`agent_framework.observability.enable_instrumentation(enable_sensitive_data=True)`: GenAI semconv
above 1.36 (Agent Framework's default), messages as span attributes, as in
tests/import/fixtures/otlp_agent_framework_handoff.json.

Shape (as scripts/fixtures/agent_framework_fixtures.py's handoff): `HandoffBuilder([triage TAG,
billing TAG])`, triage says a line and calls the builder's `handoff_to_billing_TAG` tool (HANDOFF),
billing calls issue_refund and answers; the workflow ends once billing has answered. TAG names the
agents so that two senders at once can be told apart. The models are a chat client layered like
the framework's own (FunctionInvocationLayer, ChatMiddlewareLayer, ChatTelemetryLayer,
BaseChatClient) whose `_inner_get_response` records what the framework passed it.

Prints one JSON line: {"requests": [{agent, system, tools, contents, texts}], "final_output",
"last_agent", "transfers": [{kind, from, to}]} -- `system` is the request's
options['instructions'] (what a real client sends as the system message), `contents` the request's
messages normalized ({role: user|assistant|tool, parts: [{type: text|tool_call|tool_result, ...}]}),
`texts` their text parts in order.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sys
import warnings
from typing import Any

warnings.filterwarnings("ignore")
logging.disable(logging.WARNING)

from opentelemetry import trace  # noqa: E402
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter  # noqa: E402
from opentelemetry.sdk.resources import Resource  # noqa: E402
from opentelemetry.sdk.trace import TracerProvider  # noqa: E402
from opentelemetry.sdk.trace.export import BatchSpanProcessor  # noqa: E402

from agent_framework import (  # noqa: E402
    Agent,
    BaseChatClient,
    ChatMiddlewareLayer,
    ChatResponse,
    Content,
    Message,
    tool,
)
from agent_framework._tools import FunctionInvocationLayer  # noqa: E402
from agent_framework.observability import ChatTelemetryLayer, enable_instrumentation  # noqa: E402
from agent_framework_orchestrations import HandoffBuilder  # noqa: E402

USER = "I was double charged on invoice 88."
CALLS: list[dict[str, Any]] = []


class ScriptedClient(FunctionInvocationLayer, ChatMiddlewareLayer, ChatTelemetryLayer, BaseChatClient):
    """Records each request's messages, instructions and tools; answers with the next Message."""

    OTEL_PROVIDER_NAME = "baton.fake"

    def __init__(self, agent: str, script: list[Message]) -> None:
        super().__init__()
        self.agent, self.script, self.model = agent, list(script), "fake-model"

    def _inner_get_response(self, *, messages, stream, options, **kwargs):
        if stream:
            raise NotImplementedError("the handoff workflow runs without streaming")
        reply = self.script.pop(0)
        CALLS.append(
            {
                "agent": self.agent,
                "system": options.get("instructions"),
                "tools": [t.name for t in options.get("tools") or []],
                "messages": [m.to_dict() for m in messages],
            }
        )
        n = len(CALLS)

        async def respond() -> ChatResponse:
            finish = "tool_calls" if any(c.type == "function_call" for c in reply.contents) else "stop"
            return ChatResponse(messages=[reply], model=self.model, response_id=f"resp_{n}", finish_reason=finish)

        return respond()


@tool(approval_mode="never_require")
def issue_refund(invoice_id: str, amount: float) -> str:
    """Refund an amount on an invoice."""
    return f"refund R-{invoice_id} of ${amount:.0f} issued"


def norm(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for m in messages:
        parts = []
        for c in m.get("contents", []):
            if c["type"] == "text":
                parts.append({"type": "text", "text": c["text"]})
            elif c["type"] == "function_call":
                parts.append({"type": "tool_call", "id": c["call_id"], "name": c["name"], "arguments": c.get("arguments")})
            elif c["type"] == "function_result":
                parts.append({"type": "tool_result", "id": c["call_id"], "result": c.get("result")})
        out.append({"role": m["role"], "parts": parts})
    return out


async def app(tag: str) -> dict[str, Any]:
    triage_name, billing_name = f"triage {tag}", f"billing {tag}"
    handoff_tool = f"handoff_to_billing_{tag}"  # HandoffBuilder's name: spaces -> '_'
    triage = Agent(
        ScriptedClient(
            triage_name,
            [
                Message(
                    "assistant",
                    [Content.from_text("Routing you to billing."), Content.from_function_call("call_1", handoff_tool, arguments="{}")],
                )
            ],
        ),
        "You are triage. Hand billing questions to the billing agent.",
        name=triage_name,
        description="Routes customer requests.",
        require_per_service_call_history_persistence=True,
    )
    billing = Agent(
        ScriptedClient(
            billing_name,
            [
                Message("assistant", [Content.from_function_call("call_2", "issue_refund", arguments='{"invoice_id": "88", "amount": 20}')]),
                Message("assistant", ["I refunded the duplicate $20 charge on invoice 88."]),
            ],
        ),
        "You are billing. Resolve invoice problems and issue refunds.",
        name=billing_name,
        description="Handles billing questions and refunds.",
        tools=[issue_refund],
        require_per_service_call_history_persistence=True,
    )
    workflow = (
        HandoffBuilder(participants=[triage, billing])
        .with_start_agent(triage)
        .add_handoff(triage, [billing])
        .add_handoff(billing, [triage])
        .with_termination_condition(lambda conv: any(m.role == "assistant" and m.author_name == billing_name for m in conv))
        .build()
    )
    result = await workflow.run(USER)
    handoffs = [(e.data.source, e.data.target) for e in result if e.type == "handoff_sent"]
    assert handoffs == [(triage_name, billing_name)], handoffs
    last = [e for e in result if e.type == "output"][-1]
    return {
        "final_output": last.data.text,
        "last_agent": last.executor_id,
        "transfers": [{"kind": "handoff", "from": triage_name, "to": billing_name}],
    }


def main(endpoint: str, tag: str) -> None:
    provider = TracerProvider(resource=Resource.create({"service.name": f"baton-collect-agent-framework-{tag}"}))
    provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter(endpoint=endpoint)))
    trace.set_tracer_provider(provider)
    enable_instrumentation(enable_sensitive_data=True)
    out = asyncio.run(app(tag))
    provider.force_flush()
    provider.shutdown()
    requests = []
    for c in CALLS:
        contents = norm(c["messages"])
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
    args = sys.argv[1:]
    env_endpoint = os.environ.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
    if args and args[0].startswith(("http://", "https://")):
        main(args[0], args[1] if len(args) > 1 else "A")
    elif env_endpoint:
        main(env_endpoint, args[0] if args else "A")
    else:
        sys.exit("usage: send_agent_framework.py ENDPOINT [TAG]  (or set OTEL_EXPORTER_OTLP_TRACES_ENDPOINT)")

"""Runs an OpenAI Agents SDK handoff (Triage -> Billing) instrumented by OpenInference, exporting
its spans with the real OTLP/HTTP protobuf exporter to `baton collect`. The models are the SDK's
own OpenAIChatCompletionsModel on an offline HTTP transport that answers from a script (so the
SDK opens its real generation spans), and the transport records every request: the ground truth.

    target/pyenv/bin/python tests/collect/send_agents_sdk.py http://127.0.0.1:PORT/v1/traces TAG
    target/pyenv/bin/python tests/collect/send_agents_sdk.py http://127.0.0.1:GRPC_PORT TAG grpc

TAG names the agents (`Triage TAG`, `Billing TAG`) so that two senders at once can be told apart.
Prints one JSON line: the requests each model got ({agent, messages}), the final output and the
last agent.
"""

from __future__ import annotations

import asyncio
import json
import sys

import httpx2 as httpx  # the HTTP client the pinned openai package uses
from openai import AsyncOpenAI
from openinference.instrumentation.openai_agents import OpenAIAgentsInstrumentor
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor

from agents import Agent, OpenAIChatCompletionsModel, Runner, set_trace_processors

REQUESTS: list[dict] = []


def scripted(agent: str, turns: list[dict]) -> OpenAIChatCompletionsModel:
    def handle(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        n = sum(1 for r in REQUESTS if r["agent"] == agent)
        REQUESTS.append({"agent": agent, "messages": body["messages"]})
        message = turns[n]
        return httpx.Response(200, json={
            "id": f"chatcmpl-{agent}-{n}", "object": "chat.completion", "created": 0, "model": "fake",
            "choices": [{"index": 0, "message": message,
                         "finish_reason": "tool_calls" if message.get("tool_calls") else "stop"}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
        })

    client = AsyncOpenAI(api_key="sk-offline", base_url="http://model.offline.invalid/v1",
                         http_client=httpx.AsyncClient(transport=httpx.MockTransport(handle)), max_retries=0)
    return OpenAIChatCompletionsModel(model="fake", openai_client=client)


async def main(endpoint: str, tag: str, protocol: str) -> None:
    provider = TracerProvider()
    if protocol == "grpc":
        from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter as GrpcExporter

        exporter = GrpcExporter(endpoint=endpoint, insecure=True)
    else:
        exporter = OTLPSpanExporter(endpoint=endpoint)
    provider.add_span_processor(BatchSpanProcessor(exporter))
    set_trace_processors([])  # nothing goes to OpenAI: only the OpenInference processor
    OpenAIAgentsInstrumentor().instrument(tracer_provider=provider)
    billing = Agent(name=f"Billing {tag}", instructions="You issue refunds.",
                    model=scripted(f"Billing {tag}", [{"role": "assistant", "content": "Refund issued."}]))
    tool = f"transfer_to_billing_{tag.lower()}"
    triage = Agent(name=f"Triage {tag}", instructions="Route the request.", handoffs=[billing],
                   model=scripted(f"Triage {tag}", [{"role": "assistant", "content": "Routing you to billing.",
                                                     "tool_calls": [{"id": "call_1", "type": "function",
                                                                     "function": {"name": tool, "arguments": "{}"}}]}]))
    result = await Runner.run(triage, "I was double charged on invoice 88.")
    provider.force_flush()
    provider.shutdown()
    print(json.dumps({"requests": REQUESTS, "final_output": result.final_output, "last_agent": result.last_agent.name}))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else "http"))

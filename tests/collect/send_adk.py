"""Runs a google-adk app (the real Runner and InMemorySessionService, fake models) whose own
OpenTelemetry spans go out through the real OTLP/HTTP protobuf exporter to `baton collect`.

    target/pyenv/bin/python tests/collect/send_adk.py http://127.0.0.1:PORT/v1/traces TAG

One user turn with both of ADK's multi-agent mechanisms:

  Coordinator_TAG (root LlmAgent; tools=[AgentTool(Lookup_TAG)], sub_agents=[Billing_TAG])
    1. calls the tool Lookup_TAG (AgentTool): DELEGATION (Lookup_TAG runs in a nested Runner)
    2. says a line and calls transfer_to_agent(agent_name='Billing_TAG'): HANDOFF
  Billing_TAG answers: the final output.

ADK agent names must be Python identifiers, so TAG joins them with '_' (`Coordinator_A`); two
senders at once tell their runs apart by it. The fake models are scripts/fixtures/adk_common.py's
RecordingLlm, which records every LlmRequest (system instruction, tool declarations, contents):
the ground truth. ADK's telemetry is set as a user of a GenAI-semconv backend sets it, by the
environment: experimental GenAI semconv, message content on the spans.

Prints one JSON line: {"requests": [{agent, model, system, tools, contents, texts}],
"final_output", "last_agent", "transfers": [{kind, from, to}]} -- `contents` are the request's
Contents normalized ({role, parts: [{type: text|tool_call|tool_result, ...}]}, role model ->
assistant), `texts` their text parts in order.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sys
import warnings
from pathlib import Path

# Read by google.adk.telemetry.context when a TelemetryConfig is made (each invocation).
os.environ["OTEL_SEMCONV_STABILITY_OPT_IN"] = "gen_ai_latest_experimental"
os.environ["OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"] = "SPAN_ONLY"
os.environ["ADK_DISABLE_LOAD_DOTENV"] = "1"
os.environ.setdefault("GOOGLE_CLOUD_PROJECT", "")
warnings.filterwarnings("ignore")
logging.disable(logging.WARNING)

from opentelemetry import trace as otel_trace  # noqa: E402
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter  # noqa: E402
from opentelemetry.sdk.resources import Resource  # noqa: E402
from opentelemetry.sdk.trace import TracerProvider  # noqa: E402
from opentelemetry.sdk.trace.export import BatchSpanProcessor  # noqa: E402

ENDPOINT, TAG = sys.argv[1], sys.argv[2]
PROVIDER = TracerProvider(resource=Resource.create({"service.name": f"baton-collect-adk-{TAG}"}))
PROVIDER.add_span_processor(BatchSpanProcessor(OTLPSpanExporter(endpoint=ENDPOINT)))
# google.adk.telemetry.tracing takes its tracer from the global provider (trace.get_tracer at
# import): set it before google.adk is imported.
otel_trace.set_tracer_provider(PROVIDER)

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts" / "fixtures"))
from adk_common import CALLS, fake  # noqa: E402  (imports google.adk)
from common import adk_content_msg  # noqa: E402
from google.adk.agents import LlmAgent  # noqa: E402
from google.adk.runners import Runner  # noqa: E402
from google.adk.sessions import InMemorySessionService  # noqa: E402
from google.adk.tools.agent_tool import AgentTool  # noqa: E402
from google.genai import types as gtypes  # noqa: E402

COORDINATOR, LOOKUP, BILLING = f"Coordinator_{TAG}", f"Lookup_{TAG}", f"Billing_{TAG}"
USER_TEXT = "I was double charged on invoice 88. Can I get a refund?"
LOOKUP_ARGS = {"request": "What charges are on invoice 88?"}


def build() -> LlmAgent:
    text, call = gtypes.Part, gtypes.FunctionCall
    lookup = LlmAgent(
        name=LOOKUP,
        description="Looks up invoices.",
        instruction="You look up invoices. Answer briefly.",
        model=fake(LOOKUP, [[text(text="Invoice 88 has two charges of $20; the second is a duplicate.")]]),
    )
    billing = LlmAgent(
        name=BILLING,
        description="Issues refunds.",
        instruction="You issue refunds for duplicate charges.",
        model=fake(BILLING, [[text(text="Refund of $20 issued for invoice 88.")]]),
    )
    return LlmAgent(
        name=COORDINATOR,
        description="Coordinates customer support.",
        instruction="You coordinate support. Look the invoice up, then transfer to billing.",
        model=fake(
            COORDINATOR,
            [
                [gtypes.Part(function_call=call(name=LOOKUP, args=LOOKUP_ARGS, id="call_lookup"))],
                [
                    text(text="A duplicate charge; transferring you to billing."),
                    gtypes.Part(function_call=call(name="transfer_to_agent", args={"agent_name": BILLING}, id="call_billing")),
                ],
            ],
        ),
        tools=[AgentTool(agent=lookup)],
        sub_agents=[billing],
    )


async def run() -> tuple[str | None, str | None]:
    sessions = InMemorySessionService()
    runner = Runner(agent=build(), app_name=f"support_{TAG}", session_service=sessions)
    session = await sessions.create_session(app_name=f"support_{TAG}", user_id="user-1")
    final = (None, None)
    async for ev in runner.run_async(
        user_id="user-1",
        session_id=session.id,
        new_message=gtypes.Content(role="user", parts=[gtypes.Part(text=USER_TEXT)]),
    ):
        if ev.is_final_response() and ev.content and any(p.text for p in ev.content.parts or []):
            final = ("".join(p.text for p in ev.content.parts if p.text), ev.author)
    return final


def transfers() -> list[dict[str, str]]:
    """The transfers the models asked for, in order, each checked to have run: a call of the
    AgentTool (named after its agent) is a delegation, transfer_to_agent a handoff."""
    out = []
    for i, c in enumerate(CALLS):
        for p in c["output_raw"].get("parts", []):
            fc = p.get("function_call")
            if not fc:
                continue
            kind, to = ("handoff", fc["args"]["agent_name"]) if fc["name"] == "transfer_to_agent" else ("delegation", fc["name"])
            assert any(x["agent"] == to for x in CALLS[i + 1 :]), f"{to} never ran"
            out.append({"kind": kind, "from": c["agent"], "to": to})
    return out


def main() -> None:
    final_output, last_agent = asyncio.run(run())
    PROVIDER.force_flush()
    PROVIDER.shutdown()
    requests = []
    for c in CALLS:
        contents = [adk_content_msg(x) for x in c["contents_raw"]]
        requests.append(
            {
                "agent": c["agent"],
                "model": c["model"],
                "system": c["system"],
                "tools": [t["name"] for t in c["tools"]],
                "contents": contents,
                "texts": [p["text"] for m in contents for p in m["parts"] if p["type"] == "text"],
            }
        )
    print(
        json.dumps(
            {
                "requests": requests,
                "final_output": final_output,
                "last_agent": last_agent,
                "transfers": transfers(),
            }
        )
    )


if __name__ == "__main__":
    main()

"""Runs a Strands Agents Swarm handoff (triage -> billing) with Strands' native OpenTelemetry,
exporting its spans with the real OTLP/HTTP protobuf exporter to `baton collect`.

    target/fixture-env-strands/bin/python tests/collect/send_strands.py http://127.0.0.1:PORT/v1/traces TAG

The endpoint may also come from $OTEL_EXPORTER_OTLP_TRACES_ENDPOINT (then TAG is the only argument,
or absent). Telemetry is set up the documented way: `StrandsTelemetry()` creates the SDK
TracerProvider and makes it the global one (Strands' tracer uses the global provider), then
`setup_otlp_exporter(endpoint=...)` adds a BatchSpanProcessor with
`opentelemetry.exporter.otlp.proto.http.trace_exporter.OTLPSpanExporter`. Default conventions
(no OTEL_SEMCONV_STABILITY_OPT_IN): content as span events, as in
tests/import/fixtures/otlp_strands_swarm.json.

Shape (as scripts/fixtures/strands_fixtures.py's swarm): `Swarm([triage TAG, billing TAG])`;
triage calls lookup_invoice, then the Swarm's handoff_to_agent tool (HANDOFF), billing calls
issue_refund and answers. TAG names the agents so that two senders at once can be told apart.
The models are a scripted subclass of `strands.models.Model` recording what Strands passed them.

Prints one JSON line: {"requests": [{agent, system, tools, contents, texts}], "final_output",
"last_agent", "transfers": [{kind, from, to}]} -- `contents` are the request's messages normalized
({role, parts: [{type: text|tool_call|tool_result, ...}]}, tool results in role 'user' as Strands
sends them), `texts` their text parts in order.
"""

from __future__ import annotations

import asyncio
import copy
import json
import logging
import os
import sys
import warnings
from typing import Any

warnings.filterwarnings("ignore")
logging.disable(logging.WARNING)

from strands import Agent, tool  # noqa: E402
from strands.models import Model  # noqa: E402
from strands.multiagent import Swarm  # noqa: E402
from strands.telemetry import StrandsTelemetry  # noqa: E402

USER = "I was double charged on invoice 88. Please refund the duplicate."
CALLS: list[dict[str, Any]] = []


class ScriptedModel(Model):
    """Records each request and streams a scripted reply: a turn is a list of ("text", str) /
    ("call", tool_name, args_dict, tool_use_id)."""

    def __init__(self, agent: str, script: list[list[tuple]]) -> None:
        self.agent, self.script, self.n = agent, script, 0
        self.config: dict[str, Any] = {"model_id": "scripted"}

    def update_config(self, **model_config: Any) -> None:
        self.config.update(model_config)

    def get_config(self) -> dict[str, Any]:
        return self.config

    async def structured_output(self, output_model, prompt, system_prompt=None, **kwargs):  # noqa: D102
        raise NotImplementedError
        yield  # pragma: no cover

    async def stream(self, messages, tool_specs=None, system_prompt=None, **kwargs):  # noqa: D102
        turn = self.script[self.n]
        self.n += 1
        CALLS.append(
            {
                "agent": self.agent,
                "system": system_prompt,
                "tools": [t["name"] for t in tool_specs or []],
                "messages": copy.deepcopy(list(messages)),
            }
        )
        yield {"messageStart": {"role": "assistant"}}
        for i, p in enumerate(turn):
            if p[0] == "text":
                yield {"contentBlockDelta": {"contentBlockIndex": i, "delta": {"text": p[1]}}}
            else:
                yield {"contentBlockStart": {"contentBlockIndex": i, "start": {"toolUse": {"name": p[1], "toolUseId": p[3]}}}}
                yield {"contentBlockDelta": {"contentBlockIndex": i, "delta": {"toolUse": {"input": json.dumps(p[2])}}}}
            yield {"contentBlockStop": {"contentBlockIndex": i}}
        yield {"messageStop": {"stopReason": "tool_use" if any(p[0] == "call" for p in turn) else "end_turn"}}
        yield {"metadata": {"usage": {"inputTokens": 10, "outputTokens": 5, "totalTokens": 15}, "metrics": {"latencyMs": 7}}}


@tool
def lookup_invoice(invoice_id: str) -> str:
    """Look up an invoice by id.

    Args:
        invoice_id: The invoice id.
    """
    return "invoice 88: two charges of $20 on 2025-01-02"


@tool
def issue_refund(invoice_id: str, amount: float) -> str:
    """Issue a refund for an invoice.

    Args:
        invoice_id: The invoice id.
        amount: Amount to refund in dollars.
    """
    return f"refund of ${amount:.0f} issued for invoice {invoice_id}"


def norm(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for m in messages:
        parts = []
        for b in m["content"]:
            if "text" in b:
                parts.append({"type": "text", "text": b["text"]})
            elif "toolUse" in b:
                tu = b["toolUse"]
                parts.append({"type": "tool_call", "id": tu["toolUseId"], "name": tu["name"], "arguments": tu["input"]})
            elif "toolResult" in b:
                tr = b["toolResult"]
                parts.append({"type": "tool_result", "id": tr["toolUseId"], "result": tr["content"]})
        out.append({"role": m["role"], "parts": parts})
    return out


async def app(tag: str) -> dict[str, Any]:
    triage_name, billing_name = f"triage {tag}", f"billing {tag}"
    triage = Agent(
        name=triage_name,
        description="Routes customer requests.",
        system_prompt="You are triage. Look up invoices and hand billing problems to billing.",
        model=ScriptedModel(
            triage_name,
            [
                [("call", "lookup_invoice", {"invoice_id": "88"}, "tooluse_t1")],
                [
                    ("text", "Invoice 88 shows a duplicate charge; handing you to billing."),
                    ("call", "handoff_to_agent", {"agent_name": billing_name, "message": "Invoice 88 has a duplicate $20 charge; please refund it.", "context": {"invoice_id": "88"}}, "tooluse_t2"),
                ],
                [("text", "Billing will take it from here.")],
            ],
        ),
        tools=[lookup_invoice],
        callback_handler=None,
    )
    billing = Agent(
        name=billing_name,
        description="Handles refunds and invoices.",
        system_prompt="You are billing. Issue refunds for duplicate charges.",
        model=ScriptedModel(
            billing_name,
            [
                [("call", "issue_refund", {"invoice_id": "88", "amount": 20}, "tooluse_b1")],
                [("text", "Refund of $20 issued for invoice 88.")],
            ],
        ),
        tools=[issue_refund],
        callback_handler=None,
    )
    result = await Swarm([triage, billing], entry_point=triage, max_handoffs=5, max_iterations=5).invoke_async(USER)
    history = [n.node_id for n in result.node_history]
    assert history == [triage_name, billing_name], history
    return {
        "final_output": str(result.results[billing_name].result),
        "last_agent": billing_name,
        "transfers": [{"kind": "handoff", "from": triage_name, "to": billing_name}],
    }


def main() -> None:
    args = sys.argv[1:]
    endpoint = args.pop(0) if args and "://" in args[0] else os.environ["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"]
    tag = args[0] if args else "A"
    os.environ.setdefault("OTEL_SERVICE_NAME", f"baton-collect-strands-{tag}")
    telemetry = StrandsTelemetry()  # SDK TracerProvider, set as the global one
    telemetry.setup_otlp_exporter(endpoint=endpoint)  # BatchSpanProcessor(OTLPSpanExporter) over HTTP/protobuf
    out = asyncio.run(app(tag))
    telemetry.tracer_provider.force_flush()
    telemetry.tracer_provider.shutdown()
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
    main()

"""Runs a LangGraph swarm (langgraph_swarm.create_swarm) traced by OpenInference's LangChain
instrumentation, exporting its spans with the real OTLP/HTTP protobuf exporter to `baton collect`.

    target/fixture-env-langgraph/bin/python tests/collect/send_langgraph.py http://127.0.0.1:PORT/v1/traces TAG

The app is the one of scripts/fixtures/langgraph_common.build_swarm (tests/import/fixtures/
otlp_langgraph_swarm.json): two `langchain.agents.create_agent` agents, `triage TAG` (tools
lookup_invoice and create_handoff_tool(agent_name="billing TAG") -> `transfer_to_billing_TAG`)
and `billing TAG` (tool issue_refund); triage looks up the invoice and hands off, billing refunds
and answers: a HANDOFF (Command(goto=billing, graph=Command.PARENT), billing keeps the
conversation). TAG names the agents so that two senders at once can be told apart.

The models are scripted subclasses of langchain-core's BaseChatModel that record what LangGraph
passed them (the ground truth). Offline, no keys. Venv: tests/import/requirements-langgraph.txt.

Prints one JSON line: {"requests": [{agent, system, tools, contents, texts}], "final_output",
"last_agent", "transfers": [{kind, from, to, tool}]} -- `contents` are the request's messages
without the system prompt, normalized ({role: user|assistant|tool, parts: [{type: text|tool_call|
tool_result, ...}]}), `texts` their text parts in order.
"""

from __future__ import annotations

import json
import sys
import warnings
from typing import Any

from langchain.agents import create_agent
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.tools import tool
from langchain_core.utils.function_calling import convert_to_openai_tool
from langgraph_swarm import create_handoff_tool, create_swarm
from openinference.instrumentation.langchain import LangChainInstrumentor
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor

warnings.filterwarnings("ignore")
REQUESTS: list[dict[str, Any]] = []
USER = "I was double charged on invoice 88."


def norm(m: BaseMessage) -> dict[str, Any]:
    if isinstance(m, ToolMessage):
        return {"role": "tool", "parts": [{"type": "tool_result", "id": m.tool_call_id, "name": m.name, "result": m.content}]}
    parts: list[dict[str, Any]] = [{"type": "text", "text": m.content}] if isinstance(m.content, str) and m.content else []
    if isinstance(m, AIMessage):
        parts += [{"type": "tool_call", "id": c["id"], "name": c["name"], "arguments": c["args"]} for c in m.tool_calls]
        return {"role": "assistant", "parts": parts}
    return {"role": "user" if isinstance(m, HumanMessage) else m.type, "parts": parts}


class ScriptedChatModel(BaseChatModel):
    """Records each request (system, messages, bound tools) and answers the next scripted turn."""

    agent: str
    script: list[dict[str, Any]]
    n: int = 0

    @property
    def _llm_type(self) -> str:
        return "scripted-fake"

    def bind_tools(self, tools, *, tool_choice=None, **kwargs):  # noqa: D102
        return self.bind(tools=[convert_to_openai_tool(t) for t in tools], **kwargs)

    def _generate(self, messages, stop=None, run_manager=None, **kwargs) -> ChatResult:
        turn = self.script[self.n]
        self.n += 1
        contents = [norm(m) for m in messages if not isinstance(m, SystemMessage)]
        REQUESTS.append(
            {
                "agent": self.agent,
                "system": "\n".join(str(m.content) for m in messages if isinstance(m, SystemMessage)),
                "tools": [t["function"]["name"] for t in kwargs.get("tools") or []],
                "contents": contents,
                "texts": [p["text"] for c in contents for p in c["parts"] if p["type"] == "text"],
            }
        )
        msg = AIMessage(
            content=turn.get("text", ""),
            tool_calls=[{"name": c[0], "args": c[1], "id": c[2], "type": "tool_call"} for c in turn.get("calls", [])],
        )
        return ChatResult(generations=[ChatGeneration(message=msg)])


@tool
def lookup_invoice(id: str) -> str:
    """Look up an invoice by id."""
    return "invoice 88: two charges of $20 on 2025-01-03"


@tool
def issue_refund(id: str, amount: float) -> str:
    """Refund an amount on an invoice."""
    return f"refund of ${amount:g} issued on invoice {id}"


def app(tag: str) -> dict[str, Any]:
    triage_name, billing_name = f"triage {tag}", f"billing {tag}"
    handoff = create_handoff_tool(agent_name=billing_name)  # tool name transfer_to_billing_<tag>
    triage = create_agent(
        ScriptedChatModel(
            agent=triage_name,
            script=[
                {"calls": [("lookup_invoice", {"id": "88"}, "call_t1")]},
                {"text": "Invoice 88 was charged twice; transferring you to billing.", "calls": [(handoff.name, {}, "call_t2")]},
            ],
        ),
        tools=[lookup_invoice, handoff],
        system_prompt="You are triage. Look up invoices, then transfer billing problems to billing.",
        name=triage_name,
    )
    billing = create_agent(
        ScriptedChatModel(
            agent=billing_name,
            script=[
                {"calls": [("issue_refund", {"id": "88", "amount": 20}, "call_b1")]},
                {"text": "I refunded the duplicate $20 charge on invoice 88."},
            ],
        ),
        tools=[issue_refund],
        system_prompt="You are billing. Refund duplicate charges.",
        name=billing_name,
    )
    graph = create_swarm([triage, billing], default_active_agent=triage_name).compile()
    out = graph.invoke({"messages": [{"role": "user", "content": USER}]})
    return {
        "final_output": out["messages"][-1].content,
        "last_agent": out["active_agent"],
        "transfers": [{"kind": "handoff", "from": triage_name, "to": billing_name, "tool": handoff.name}],
    }


def main(endpoint: str, tag: str) -> None:
    provider = TracerProvider(resource=Resource.create({"service.name": f"baton-collect-langgraph-{tag}"}))
    provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter(endpoint=endpoint)))
    LangChainInstrumentor().instrument(tracer_provider=provider)
    out = app(tag)
    provider.force_flush()
    provider.shutdown()
    print(json.dumps({"requests": REQUESTS, **out}))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])

#!/usr/bin/env python3
"""Write tests/import/fixtures/: traces recorded by the REAL frameworks, offline.

Every model is fake (no network, no keys), everything else is the framework's own code:
the OpenAI Agents SDK's runner, tracing and backend exporter; OpenInference's and the
OpenTelemetry contrib's instrumentors for that SDK; opentelemetry-util-genai's GenAI
span helper; the OpenTelemetry SDK's official OTLP/JSON encoder and file exporter; and
Google ADK's runner, session service and native OpenTelemetry telemetry. Next to each
real fixture an `<name>.expected.json` records the ground truth captured by the fake
model: which agent owned the conversation, every transfer, and the exact input the
receiving agent's model got on its first call after the transfer.

Setup, once (a venv of its own; target/pyenv, pinned for tests/fidelity, stays untouched):

    python3 -m venv target/fixture-env
    target/fixture-env/bin/pip install -r tests/import/requirements.txt

Run (from the repository root; rewrites tests/import/fixtures/ except its README.md):

    target/fixture-env/bin/python scripts/make_fixtures.py

Deterministic: the frameworks' own id/clock hooks are used (agents.set_trace_provider with a
seeded provider, an OpenTelemetry IdGenerator, google.adk.platform.{uuid,time} providers);
the OpenTelemetry SDK reads its clock from `opentelemetry.sdk.trace.time_ns`, which is
replaced by the same fake clock. Two runs produce byte-identical files.
"""

from __future__ import annotations

import asyncio
import copy
import io
import json
import logging
import os
import random
import sys
import warnings
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

# ----------------------------------------------------------------------------- environment
# Before any framework import: these are read at import or first use.
os.environ["OPENAI_AGENTS_DISABLE_TRACING"] = "0"
os.environ["OPENAI_API_KEY"] = "sk-offline-fixture"  # never sent anywhere: all HTTP is mocked
os.environ.pop("OPENAI_BASE_URL", None)
# opentelemetry-util-genai (used for otlp_genai.*) puts message content on spans only with these.
os.environ["OTEL_SEMCONV_STABILITY_OPT_IN"] = "gen_ai_latest_experimental"
os.environ["OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"] = "SPAN_ONLY"
os.environ["ADK_DISABLE_LOAD_DOTENV"] = "1"
os.environ.setdefault("GOOGLE_CLOUD_PROJECT", "")
warnings.filterwarnings("ignore")
logging.disable(logging.WARNING)

import httpx2  # noqa: E402  (the HTTP client openai==3.x uses)
import opentelemetry.sdk.trace as otel_sdk_trace  # noqa: E402
from openai import AsyncOpenAI  # noqa: E402
from opentelemetry import trace as otel_trace  # noqa: E402
from opentelemetry.exporter.otlp.json.common.trace_encoder import encode_spans  # noqa: E402
from opentelemetry.exporter.otlp.json.file import FileSpanExporter  # noqa: E402
from opentelemetry.sdk.resources import Resource  # noqa: E402
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider  # noqa: E402
from opentelemetry.sdk.trace.export import SimpleSpanProcessor  # noqa: E402
from opentelemetry.sdk.trace.export.in_memory_span_exporter import (  # noqa: E402
    InMemorySpanExporter,
)
from opentelemetry.sdk.trace.id_generator import IdGenerator  # noqa: E402

import agents  # noqa: E402
from agents import Agent, RunConfig, Runner, function_tool  # noqa: E402
from agents.items import ModelResponse  # noqa: E402
from agents.models.interface import Model  # noqa: E402
from agents.models.openai_chatcompletions import OpenAIChatCompletionsModel  # noqa: E402
from agents.models.openai_responses import OpenAIResponsesModel  # noqa: E402
from agents.tracing import TracingProcessor, set_trace_processors, set_trace_provider  # noqa: E402
from agents.tracing.processors import BackendSpanExporter  # noqa: E402
from agents.tracing.provider import DefaultTraceProvider  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "import" / "fixtures"


def pkg_version(name: str) -> str:
    from importlib.metadata import version

    return version(name)


VERSIONS = {
    n: pkg_version(n)
    for n in (
        "openai-agents",
        "openai",
        "google-adk",
        "google-genai",
        "opentelemetry-sdk",
        "opentelemetry-exporter-otlp-json-common",
        "opentelemetry-exporter-otlp-json-file",
        "opentelemetry-util-genai",
        "opentelemetry-semantic-conventions",
        "openinference-instrumentation-openai-agents",
        "openinference-semantic-conventions",
        "opentelemetry-instrumentation-openai-agents-v2",
    )
}

# ----------------------------------------------------------------------------- fake clock / ids

EPOCH = 1_735_689_600  # 2025-01-01T00:00:00Z


class FakeClock:
    """Every read advances 1 ms, so start < end and ordering is preserved."""

    def __init__(self) -> None:
        self.reset(0)

    def reset(self, offset_s: int) -> None:
        self._ms = (EPOCH + offset_s) * 1000

    def _tick(self) -> int:
        self._ms += 1
        return self._ms

    def ns(self) -> int:
        return self._tick() * 1_000_000

    def seconds(self) -> float:
        return self._tick() / 1000

    def iso(self) -> str:
        return datetime.fromtimestamp(self._tick() / 1000, tz=timezone.utc).isoformat()


CLOCK = FakeClock()
otel_sdk_trace.time_ns = CLOCK.ns  # the OTel SDK's span clock (start/end when not given)


class SeededIds(IdGenerator):
    def __init__(self, seed: int) -> None:
        self.reseed(seed)

    def reseed(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def generate_span_id(self) -> int:
        return self._rng.getrandbits(64) or 1

    def generate_trace_id(self) -> int:
        return self._rng.getrandbits(128) or 1


class SeededTraceProvider(DefaultTraceProvider):
    """The SDK's default provider with seeded ids and the fake clock (SDK-supported hook)."""

    def __init__(self) -> None:
        super().__init__()
        self.reseed(0)

    def reseed(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def time_iso(self) -> str:
        return CLOCK.iso()

    def gen_trace_id(self) -> str:
        return f"trace_{self._rng.getrandbits(128):032x}"

    def gen_span_id(self) -> str:
        return f"span_{self._rng.getrandbits(96):024x}"

    def gen_group_id(self) -> str:
        return f"group_{self._rng.getrandbits(96):024x}"


def otel_provider(service: str, seed: int) -> tuple[TracerProvider, InMemorySpanExporter, SeededIds]:
    ids = SeededIds(seed)
    provider = TracerProvider(
        # service.instance.id is otherwise a random uuid4 per process
        resource=Resource.create({"service.name": service, "service.instance.id": f"{service}-1"}),
        id_generator=ids,
    )
    exporter = InMemorySpanExporter()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    return provider, exporter, ids


# ----------------------------------------------------------------------------- output helpers


def write_json(name: str, obj: Any) -> None:
    (OUT / name).write_text(json.dumps(obj, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def expected_name(fixture: str) -> str:
    """foo.json -> foo.expected.json; foo.ingest.json -> foo.ingest.expected.json;
    foo.jsonl -> foo.jsonl.expected.json (so foo.json and foo.jsonl do not collide)."""
    base = fixture[: -len(".json")] if fixture.endswith(".json") else fixture
    return base + ".expected.json"


def write_jsonl(name: str, rows: list[Any]) -> None:
    text = "".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n" for r in rows)
    (OUT / name).write_text(text, encoding="utf-8")


def otlp_json(spans: list[ReadableSpan]) -> dict[str, Any]:
    """The official OTLP/JSON encoding (opentelemetry-exporter-otlp-json-common)."""
    return encode_spans(spans).to_dict()


def otlp_file_lines(spans: list[ReadableSpan]) -> str:
    """What the official OTLP/JSON FileSpanExporter writes: one export request per line.

    Exported one span at a time (as a SimpleSpanProcessor does), in end order: children
    come before their parents."""
    buf = io.StringIO()
    exporter = FileSpanExporter(stream=buf)
    for span in spans:
        exporter.export([span])
    return buf.getvalue()


# ----------------------------------------------------------------------------- message normalization
# Normalized message = {"role": ..., "parts": [...]}; parts:
#   {"type": "text", "text": str}
#   {"type": "tool_call", "id": str, "name": str, "arguments": <as the framework had it>}
#   {"type": "tool_result", "id": str, ["name": str,] "result": <as the framework had it>}
# Roles: OpenAI SDK items keep their role; function_call -> "assistant", function_call_output
# -> "tool". ADK Content keeps its role except "model" -> "assistant" (function responses stay
# in a "user" Content, which is what the model is sent).


def _text_of(content: Any) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    out = []
    for part in content:
        if isinstance(part, dict):
            if isinstance(part.get("text"), str):
                out.append(part["text"])
            elif "refusal" in part:
                out.append(str(part["refusal"]))
        else:
            t = getattr(part, "text", None)
            if isinstance(t, str):
                out.append(t)
    return "".join(out)


def _as_dict(item: Any) -> dict[str, Any]:
    if isinstance(item, dict):
        return item
    return item.model_dump(exclude_unset=True)


def sdk_item_raw(item: Any) -> dict[str, Any]:
    """An SDK input/output item reduced to the fields that carry meaning (as sdk_harness.py)."""
    d = _as_dict(item)
    t = d.get("type")
    if t == "function_call":
        return {"type": t, "name": d["name"], "arguments": d["arguments"], "call_id": d["call_id"]}
    if t == "function_call_output":
        out = d.get("output")
        return {"type": t, "call_id": d["call_id"], "output": out if isinstance(out, str) else _text_of(out)}
    if "role" in d and t in (None, "message"):
        return {"type": "message", "role": d["role"], "content": _text_of(d.get("content"))}
    raise TypeError(f"unhandled SDK item {d!r}")


def sdk_item_msg(raw: dict[str, Any]) -> dict[str, Any]:
    t = raw["type"]
    if t == "function_call":
        part = {"type": "tool_call", "id": raw["call_id"], "name": raw["name"], "arguments": raw["arguments"]}
        return {"role": "assistant", "parts": [part]}
    if t == "function_call_output":
        return {"role": "tool", "parts": [{"type": "tool_result", "id": raw["call_id"], "result": raw["output"]}]}
    return {"role": raw["role"], "parts": [{"type": "text", "text": raw["content"]}]}


def adk_content_msg(content: dict[str, Any]) -> dict[str, Any]:
    parts = []
    for p in content.get("parts") or []:
        if p.get("text") is not None:
            parts.append({"type": "text", "text": p["text"]})
        elif p.get("function_call"):
            fc = p["function_call"]
            parts.append({"type": "tool_call", "id": fc.get("id"), "name": fc["name"], "arguments": fc.get("args")})
        elif p.get("function_response"):
            fr = p["function_response"]
            parts.append({"type": "tool_result", "id": fr.get("id"), "name": fr["name"], "result": fr.get("response")})
        else:
            parts.append({"type": "other", "raw": p})
    role = content.get("role")
    return {"role": "assistant" if role == "model" else role, "parts": parts}


# ============================================================================= OpenAI Agents SDK

MODEL_NAME = "gpt-fake"
USAGE_RESPONSES = {
    "input_tokens": 0,
    "input_tokens_details": {"cached_tokens": 0},
    "output_tokens": 0,
    "output_tokens_details": {"reasoning_tokens": 0},
    "total_tokens": 0,
}


class ScriptedOpenAI:
    """An AsyncOpenAI client whose HTTP transport answers from a script (offline).

    Script entries are lists of ("text", str) / ("call", name, arguments, call_id)."""

    def __init__(self, agent: str, api: str, script: list[list[tuple]]) -> None:
        self.agent = agent
        self.api = api
        self.script = script
        self.requests: list[dict[str, Any]] = []
        self.client = AsyncOpenAI(
            api_key="sk-offline-fixture",
            base_url="http://model.offline.invalid/v1",
            http_client=httpx2.AsyncClient(transport=httpx2.MockTransport(self._handle)),
            max_retries=0,
        )

    def _handle(self, request: httpx2.Request) -> httpx2.Response:
        body = json.loads(request.content)
        n = len(self.requests)
        self.requests.append(body)
        if n >= len(self.script):
            return httpx2.Response(500, json={"error": {"message": f"{self.agent}: no scripted turn {n + 1}"}})
        turn = self.script[n]
        tag = f"{self.agent.lower()}_{n + 1}"
        if self.api == "responses":
            out = self._responses_body(tag, turn)
            # The real API echoes the request's instructions and tools in the Response.
            out["instructions"] = body.get("instructions")
            out["tools"] = body.get("tools") or []
            return httpx2.Response(200, json=out)
        return httpx2.Response(200, json=self._chat_body(tag, turn))

    @staticmethod
    def _responses_body(tag: str, turn: list[tuple]) -> dict[str, Any]:
        output = []
        for i, part in enumerate(turn):
            if part[0] == "text":
                output.append(
                    {
                        "type": "message",
                        "id": f"msg_{tag}_{i}",
                        "role": "assistant",
                        "status": "completed",
                        "content": [{"type": "output_text", "text": part[1], "annotations": []}],
                    }
                )
            else:
                _, name, args, call_id = part
                output.append(
                    {
                        "type": "function_call",
                        "id": f"fc_{tag}_{i}",
                        "call_id": call_id,
                        "name": name,
                        "arguments": args,
                        "status": "completed",
                    }
                )
        return {
            "id": f"resp_{tag}",
            "object": "response",
            "created_at": EPOCH,
            "model": MODEL_NAME,
            "status": "completed",
            "output": output,
            "parallel_tool_calls": True,
            "tool_choice": "auto",
            "tools": [],
            "usage": USAGE_RESPONSES,
        }

    @staticmethod
    def _chat_body(tag: str, turn: list[tuple]) -> dict[str, Any]:
        texts = [p[1] for p in turn if p[0] == "text"]
        calls = [
            {"id": p[3], "type": "function", "function": {"name": p[1], "arguments": p[2]}}
            for p in turn
            if p[0] == "call"
        ]
        message: dict[str, Any] = {"role": "assistant", "content": "".join(texts) if texts else None}
        if calls:
            message["tool_calls"] = calls
        return {
            "id": f"chatcmpl-{tag}",
            "object": "chat.completion",
            "created": EPOCH,
            "model": MODEL_NAME,
            "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if calls else "stop"}],
            "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
        }


class RecordingModel(Model):
    """A fake Model (agents.models.interface.Model): records exactly what the runner passes,
    then delegates to the SDK's real OpenAI model class (which opens the SDK's own response/
    generation span) talking to the scripted transport."""

    def __init__(self, agent: str, inner: Model, calls: list[dict[str, Any]], wire: ScriptedOpenAI) -> None:
        self.agent = agent
        self.inner = inner
        self.calls = calls
        self.wire = wire

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
        previous_response_id=None,
        conversation_id=None,
        prompt=None,
        **kwargs: Any,
    ) -> ModelResponse:
        raw_input = (
            [{"type": "message", "role": "user", "content": input}]
            if isinstance(input, str)
            else [sdk_item_raw(x) for x in copy.deepcopy(input)]
        )
        record: dict[str, Any] = {
            "agent": self.agent,
            "system": system_instructions,
            "tools": [t.name for t in tools] + [h.tool_name for h in handoffs],
            "input_raw": raw_input,
        }
        self.calls.append(record)
        n_before = len(self.wire.requests)
        response = await self.inner.get_response(
            system_instructions,
            input,
            model_settings,
            tools,
            output_schema,
            handoffs,
            tracing,
            previous_response_id=previous_response_id,
            conversation_id=conversation_id,
            prompt=prompt,
            **kwargs,
        )
        record["output_raw"] = [sdk_item_raw(x) for x in response.output]
        record["response_id"] = response.response_id
        record["wire_request"] = self.wire.requests[n_before]
        return response

    def stream_response(self, *args: Any, **kwargs: Any):  # pragma: no cover
        raise NotImplementedError


@function_tool
def lookup_invoice(id: str) -> str:
    """Look up an invoice by id."""
    return "invoice 88: two charges of $20"


def sdk_agent(name: str, api: str, script: list[list[tuple]], calls: list, **kw: Any) -> Agent:
    wire = ScriptedOpenAI(name, api, script)
    inner: Model
    if api == "responses":
        inner = OpenAIResponsesModel(model=MODEL_NAME, openai_client=wire.client)
    else:
        inner = OpenAIChatCompletionsModel(model=MODEL_NAME, openai_client=wire.client)
    return Agent(name=name, instructions=name.lower(), model=RecordingModel(name, inner, calls, wire), **kw)


def build_handoff(api: str, calls: list) -> tuple[Agent, str]:
    billing = sdk_agent("Billing", api, [[("text", "Refund issued.")]], calls)
    triage = sdk_agent(
        "Triage",
        api,
        [
            [("call", "lookup_invoice", '{"id":"88"}', "call_1")],
            [("text", "Routing you to billing."), ("call", "transfer_to_billing", "{}", "call_2")],
        ],
        calls,
        tools=[lookup_invoice],
        handoffs=[billing],  # default handoff(): full history, no input filter
    )
    return triage, "Hi, I was double charged on invoice 88."


def build_astool(api: str, calls: list) -> tuple[Agent, str]:
    technical = sdk_agent("Technical", api, [[("text", "Line 7 is fine.")]], calls)
    billing = sdk_agent(
        "Billing",
        api,
        [
            [("call", "ask_technical", '{"input":"check line 7"}', "call_t")],
            [("text", "Refund issued after check.")],
        ],
        calls,
        tools=[technical.as_tool(tool_name="ask_technical", tool_description="Ask technical support")],
    )
    return billing, "Refund me, and is line 7 ok?"


class ExportCapture(TracingProcessor):
    """A custom TracingProcessor that writes every FINISHED span and trace via `.export()`
    (`exported`: spans in end order, the trace object last, when it ends). It also queues
    items the way the SDK's own BatchTraceProcessor does (a trace when it starts, a span when
    it ends); `flush()` hands those to the SDK's real BackendSpanExporter, whose HTTP client
    is mocked to capture the ingest request body."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.queued: list[Any] = []
        self.exported: list[dict[str, Any]] = []

    def on_trace_start(self, trace) -> None:
        self.queued.append(trace)

    def on_trace_end(self, trace) -> None:
        self.exported.append(trace.export())

    def on_span_start(self, span) -> None:
        pass

    def on_span_end(self, span) -> None:
        self.queued.append(span)
        self.exported.append(span.export())

    def shutdown(self) -> None:
        pass

    def force_flush(self) -> None:
        pass

    def flush(self) -> dict[str, Any]:
        bodies: list[dict[str, Any]] = []

        def handle(request: httpx2.Request) -> httpx2.Response:
            bodies.append(json.loads(request.content))
            return httpx2.Response(200, json={})

        exporter = BackendSpanExporter(api_key="sk-offline-fixture")
        exporter._client = httpx2.Client(transport=httpx2.MockTransport(handle))
        exporter.export(self.queued)
        assert len(bodies) == 1, bodies
        return bodies[0]


# One SDK trace provider for the process; instrumentors register on it.
SDK_PROVIDER = SeededTraceProvider()
set_trace_provider(SDK_PROVIDER)
CAPTURE = ExportCapture()
set_trace_processors([CAPTURE])  # replaces the default OpenAI backend processor

# OpenInference (Arize) instrumentation of the SDK: real OTel spans with OpenInference attributes.
OI_PROVIDER, OI_SPANS, OI_IDS = otel_provider("baton-fixture-openinference", 0)
from openinference.instrumentation.openai_agents import OpenAIAgentsInstrumentor as OIInstrumentor  # noqa: E402

OIInstrumentor().instrument(tracer_provider=OI_PROVIDER, exclusive_processor=False)

# OpenTelemetry contrib instrumentation of the SDK (GenAI semantic conventions, "v2").
V2_PROVIDER, V2_SPANS, V2_IDS = otel_provider("baton-fixture-otel-contrib", 0)
from opentelemetry.instrumentation.openai_agents import (  # noqa: E402
    OpenAIAgentsInstrumentor as V2Instrumentor,
)

V2Instrumentor().instrument(tracer_provider=V2_PROVIDER, capture_message_content="span_only", capture_metrics=False)


async def run_sdk(kind: str, api: str, seed: int) -> dict[str, Any]:
    CLOCK.reset(seed * 1000)
    SDK_PROVIDER.reseed(seed)
    OI_IDS.reseed(seed * 100 + 1)
    V2_IDS.reseed(seed * 100 + 2)
    OI_SPANS.clear()
    V2_SPANS.clear()
    CAPTURE.reset()
    calls: list[dict[str, Any]] = []
    agent, user_text = (build_handoff if kind == "handoff" else build_astool)(api, calls)
    result = await Runner.run(
        agent,
        user_text,
        run_config=RunConfig(
            workflow_name=f"baton fixture {kind}",
            trace_id=f"trace_{random.Random(seed * 100 + 3).getrandbits(128):032x}",
            group_id="conversation-1",
            trace_include_sensitive_data=True,
        ),
    )
    body = CAPTURE.flush()
    return {
        "calls": calls,
        "final_output": result.final_output,
        "last_agent": result.last_agent.name,
        "ingest": body,
        "exported": list(CAPTURE.exported),
        "oi_spans": list(OI_SPANS.get_finished_spans()),
        "v2_spans": list(V2_SPANS.get_finished_spans()),
        "user_text": user_text,
    }


# ----------------------------------------------------------------------------- expected (SDK)


def call_summary(call: dict[str, Any]) -> dict[str, Any]:
    return {
        "agent": call["agent"],
        "system": call["system"],
        "tools": call["tools"],
        "messages": [sdk_item_msg(x) for x in call["input_raw"]],
        "output": [sdk_item_msg(x) for x in call["output_raw"]],
    }


def sdk_expected(kind: str, run: dict[str, Any], fixture: str, fmt: str, carries: dict[str, Any]) -> dict[str, Any]:
    calls = run["calls"]
    if kind == "handoff":
        agents_order = ["Triage", "Billing"]
        receiver = next(c for c in calls if c["agent"] == "Billing")
        transfers = [
            {
                "kind": "handoff",
                "from": "Triage",
                "to": "Billing",
                "tool": "transfer_to_billing",
                "call_id": "call_2",
                "tool_result": '{"assistant": "Billing"}',
                "history_mode": "default handoff(): full history, no input_filter, nest_handoff_history=False",
            }
        ]
    else:
        agents_order = ["Billing", "Technical", "Billing"]
        receiver = next(c for c in calls if c["agent"] == "Technical")
        transfers = [
            {
                "kind": "delegation",
                "from": "Billing",
                "to": "Technical",
                "tool": "ask_technical",
                "call_id": "call_t",
                "arguments": '{"input":"check line 7"}',
                "returns_to": "Billing",
                "tool_result": "Line 7 is fine.",
                "history_mode": "Agent.as_tool: the sub-agent's run input is only the tool's `input` argument",
            }
        ]
    transfers[0]["receiver_first_call"] = {
        "agent": receiver["agent"],
        "system": receiver["system"],
        "messages": [sdk_item_msg(x) for x in receiver["input_raw"]],
        "input_raw": receiver["input_raw"],
        "wire_request": receiver["wire_request"],
    }
    return {
        "fixture": fixture,
        "producer": {
            "framework": "openai-agents",
            "versions": {k: VERSIONS[k] for k in ("openai-agents", "openai")},
        },
        "format": fmt,
        "user_input": [run["user_text"]],
        "agents": agents_order,
        "transfers": transfers,
        "model_calls": [call_summary(c) for c in calls],
        "final_output": run["final_output"],
        "last_agent": run["last_agent"],
        "carries": carries,
        "varying_fields": [],
    }


SDK_CARRIES_RESPONSES = {
    "span_types": None,  # filled from the data
    "tree": "trace (object 'trace': id, workflow_name, group_id, metadata) > task span (custom, name 'task') > "
    "agent span per agent turn > turn span (custom, name 'turn', data.turn, data.agent_name) > response / "
    "function / handoff spans. as_tool: the sub-agent's whole run (its own task > agent > turn > response) "
    "nests under the parent's function span",
    "agent": "span_data {type:'agent', name, handoffs:[agent names], tools:[tool names], output_type}; no input/output",
    "response": "span_data {type:'response', response_id, usage} ONLY (usage is dropped in the .ingest.json "
    "body): no input messages, no output, no model name -- the SDK holds the Response and input in memory "
    "but ResponseSpanData.export() drops them even with trace_include_sensitive_data=True",
    "function": "span_data {type:'function', name, input (JSON string of the arguments), output (str), mcp_data}; "
    "no tool call_id",
    "handoff": "span_data {type:'handoff', from_agent, to_agent}; no call_id, no tool name, no transferred history",
    "not_recorded": [
        "message content of any model call: what an agent received is NOT in this format",
        "system instructions",
        "the user's input",
        "tool call ids (function and handoff spans have none)",
        "the final output (no response output is exported)",
    ],
}

SDK_CARRIES_CHAT = {
    "span_types": None,
    "tree": "as the Responses-model fixtures, with generation spans where they have response spans",
    "generation": "span_data {type:'generation', input:[Chat Completions messages: system first, assistant "
    "{content, tool_calls}, tool {tool_call_id, content}], output:[assistant message], model, model_config, "
    "usage}: the full converted request and reply (trace_include_sensitive_data=True)",
    "not_recorded": [
        "the SDK-level input items (generation.input is the Chat Completions conversion: the system prompt "
        "becomes the first message; a text item and the function_call items after it merge into one "
        "assistant message with tool_calls)",
        "tool call ids on function/handoff spans (they appear only inside generation input/output)",
    ],
}


def span_type_counts(items: list[dict[str, Any]]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for it in items:
        t = it["object"] if it.get("object") == "trace" else it["span_data"]["type"]
        counts[t] = counts.get(t, 0) + 1
    return counts


# ============================================================================= OTLP GenAI (util-genai)


def sdk_to_genai_messages(raw_items: list[dict[str, Any]]):
    """SDK input items -> GenAI semconv InputMessages (what an instrumentation would emit)."""
    from opentelemetry.util.genai.types import InputMessage, TextPart, ToolCallRequestPart, ToolCallResponsePart

    msgs = []
    for it in raw_items:
        if it["type"] == "function_call":
            part = ToolCallRequestPart(arguments=json.loads(it["arguments"] or "{}"), name=it["name"], id=it["call_id"])
            msgs.append(InputMessage(role="assistant", parts=[part]))
        elif it["type"] == "function_call_output":
            msgs.append(InputMessage(role="tool", parts=[ToolCallResponsePart(response=it["output"], id=it["call_id"])]))
        else:
            msgs.append(InputMessage(role=it["role"], parts=[TextPart(content=it["content"])]))
    return msgs


def sdk_output_to_genai(raw_items: list[dict[str, Any]]):
    from opentelemetry.util.genai.types import OutputMessage, TextPart, ToolCallRequestPart

    parts: list[Any] = []
    for it in raw_items:
        if it["type"] == "function_call":
            parts.append(ToolCallRequestPart(arguments=json.loads(it["arguments"] or "{}"), name=it["name"], id=it["call_id"]))
        else:
            parts.append(TextPart(content=it["content"]))
    has_call = any(it["type"] == "function_call" for it in raw_items)
    return [OutputMessage(role="assistant", parts=parts, finish_reason="tool_call" if has_call else "stop")]


def emit_genai(run: dict[str, Any], seed: int) -> tuple[list[ReadableSpan], list[dict[str, Any]]]:
    """Replays the recorded SDK handoff run through opentelemetry-util-genai's TelemetryHandler,
    the helper the official GenAI instrumentations use: one invoke_agent span per agent turn,
    a chat span per model call, an execute_tool span per tool call -- including the handoff
    tool call transfer_to_billing, with NO dedicated handoff span."""
    from opentelemetry.trace import set_span_in_context
    from opentelemetry.util.genai.handler import TelemetryHandler
    from opentelemetry.util.genai.types import TextPart

    CLOCK.reset(seed * 1000)
    provider, spans, _ = otel_provider("baton-fixture-genai-app", seed * 100 + 1)
    handler = TelemetryHandler(
        tracer_provider=provider,
        instrumentation_scope_name="baton.fixture.genai_app",
        instrumentation_scope_version="1.0.0",
    )
    calls = run["calls"]
    workflow = handler.workflow("support", conversation_id="conversation-1")
    wctx = set_span_in_context(workflow.span)
    i = 0
    while i < len(calls):
        agent_name = calls[i]["agent"]
        seg = []
        while i < len(calls) and calls[i]["agent"] == agent_name:
            seg.append(calls[i])
            i += 1
        agent = handler.invoke_local_agent(agent_name=agent_name, request_model=MODEL_NAME, context=wctx)
        agent.attributes["gen_ai.provider.name"] = "openai"
        actx = set_span_in_context(agent.span)
        for n, call in enumerate(seg):
            inf = handler.inference("openai", request_model=MODEL_NAME, operation_name="chat", context=actx)
            inf.input_messages = sdk_to_genai_messages(call["input_raw"])
            inf.system_instruction = [TextPart(content=call["system"])]
            inf.output_messages = sdk_output_to_genai(call["output_raw"])
            inf.response_id = call["response_id"]
            inf.response_model_name = MODEL_NAME
            inf.finish_reasons = ["tool_call" if any(o["type"] == "function_call" for o in call["output_raw"]) else "stop"]
            inf.input_tokens = 0
            inf.output_tokens = 0
            inf.stop()
            # Tools the model asked for, with their results as the next call (or handoff) saw them.
            later = [it for c in calls for it in c["input_raw"] if it["type"] == "function_call_output"]
            for out in call["output_raw"]:
                if out["type"] != "function_call":
                    continue
                result = next((x["output"] for x in later if x["call_id"] == out["call_id"]), None)
                tool = handler.tool(out["name"], tool_type="function", agent_name=agent_name, context=actx)
                tool.tool_call_id = out["call_id"]
                tool.arguments = out["arguments"]
                tool.tool_result = result
                tool.stop()
        agent.stop()
    workflow.stop()
    return list(spans.get_finished_spans()), calls


def legacy_system_spans(spans: list[ReadableSpan]) -> list[ReadableSpan]:
    """Same spans as an instrumentation on GenAI semconv < 1.37 would tag them: the provider is
    `gen_ai.system` (renamed to gen_ai.provider.name in 1.37)."""
    out = []
    for s in spans:
        attrs = dict(s.attributes or {})
        if "gen_ai.provider.name" in attrs:
            attrs["gen_ai.system"] = attrs.pop("gen_ai.provider.name")
        out.append(
            ReadableSpan(
                name=s.name,
                context=s.context,
                parent=s.parent,
                resource=s.resource,
                attributes=attrs,
                events=s.events,
                links=s.links,
                kind=s.kind,
                status=s.status,
                start_time=s.start_time,
                end_time=s.end_time,
                instrumentation_scope=s.instrumentation_scope,
            )
        )
    return out


# ============================================================================= Google ADK

from google.adk.agents import LlmAgent  # noqa: E402
from google.adk.agents.run_config import RunConfig as AdkRunConfig  # noqa: E402
from google.adk.events._internal_metadata import public_session  # noqa: E402
from google.adk.models.base_llm import BaseLlm  # noqa: E402
from google.adk.models.llm_request import LlmRequest  # noqa: E402
from google.adk.models.llm_response import LlmResponse  # noqa: E402
from google.adk.platform import time as adk_time  # noqa: E402
from google.adk.platform import uuid as adk_uuid  # noqa: E402
from google.adk.runners import Runner as AdkRunner  # noqa: E402
from google.adk.sessions import InMemorySessionService  # noqa: E402
from google.adk.telemetry.context import ContentCapturingMode, TelemetryConfig  # noqa: E402
from google.genai import types as gtypes  # noqa: E402

# ADK's tracer is the global one (trace.get_tracer at import): give it a seeded provider.
ADK_PROVIDER, ADK_SPANS, ADK_IDS = otel_provider("baton-fixture-adk", 0)
otel_trace.set_tracer_provider(ADK_PROVIDER)

ADK_CALLS: list[dict[str, Any]] = []


class FakeLlm(BaseLlm):
    """A google.adk BaseLlm that records each LlmRequest and answers from a script."""

    label: str = ""
    script: list = []
    n: int = 0

    async def generate_content_async(self, llm_request: LlmRequest, stream: bool = False):
        si = llm_request.config.system_instruction if llm_request.config else None
        ADK_CALLS.append(
            {
                "agent": self.label,
                "system": si if isinstance(si, str) or si is None else str(si),
                "tools": list(llm_request.tools_dict.keys()),
                "contents_raw": [c.model_dump(mode="json", exclude_none=True) for c in llm_request.contents],
            }
        )
        parts = self.script[self.n]
        self.n += 1
        ADK_CALLS[-1]["output_raw"] = gtypes.Content(role="model", parts=parts).model_dump(mode="json", exclude_none=True)
        yield LlmResponse(content=gtypes.Content(role="model", parts=parts))


def adk_lookup_invoice(id: str) -> str:
    """Look up an invoice by id."""
    return "invoice 88: two charges of $20"


adk_lookup_invoice.__name__ = "lookup_invoice"


def build_adk(include_contents: str) -> LlmAgent:
    fc = gtypes.FunctionCall
    billing = LlmAgent(
        name="billing",
        description="Handles billing questions and refunds.",
        instruction="You are billing. Resolve invoice problems.",
        model=FakeLlm(
            model="fake-billing",
            label="billing",
            script=[
                [gtypes.Part(function_call=fc(name="lookup_invoice", args={"id": "88"}, id="call_1"))],
                [gtypes.Part(text="Refund issued.")],
            ],
        ),
        tools=[adk_lookup_invoice],
        include_contents=include_contents,
    )
    return LlmAgent(
        name="triage",
        description="Routes customer requests.",
        instruction="You are triage. Route the customer to the right agent.",
        model=FakeLlm(
            model="fake-triage",
            label="triage",
            script=[
                [gtypes.Part(text="Sure - what can I help you with?")],
                [
                    gtypes.Part(text="Routing you to billing."),
                    gtypes.Part(function_call=fc(name="transfer_to_agent", args={"agent_name": "billing"}, id="call_2")),
                ]
            ],
        ),
        sub_agents=[billing],
    )


async def run_adk_inner(include_contents: str) -> dict[str, Any]:
    ADK_CALLS.clear()
    ADK_SPANS.clear()
    sessions = InMemorySessionService()
    root = build_adk(include_contents)
    runner = AdkRunner(agent=root, app_name="support", session_service=sessions)
    await sessions.create_session(app_name="support", user_id="user-1", session_id="session-1")
    # Two user turns: triage answers turn 1 itself, and transfers in turn 2 -- so billing's
    # include_contents ('default' vs 'none') decides whether it sees turn 1.
    user_texts = ["Hi, I have a question about my account.", "I was double charged on invoice 88."]
    telemetry = TelemetryConfig(
        genai_semconv_stability_opt_in="experimental",
        capture_message_content=ContentCapturingMode.SPAN_ONLY,
    )
    final = None
    for user_text in user_texts:
        async for ev in runner.run_async(
            user_id="user-1",
            session_id="session-1",
            new_message=gtypes.Content(role="user", parts=[gtypes.Part(text=user_text)]),
            run_config=AdkRunConfig(telemetry=telemetry),
        ):
            if ev.content and ev.content.parts and any(p.text for p in ev.content.parts) and ev.is_final_response():
                final = ("".join(p.text for p in ev.content.parts if p.text), ev.author)
    session = await sessions.get_session(app_name="support", user_id="user-1", session_id="session-1")
    return {
        "session": session,
        "calls": copy.deepcopy(ADK_CALLS),
        "final": final,
        "spans": list(ADK_SPANS.get_finished_spans()),
        "user_text": user_texts,
    }


def run_adk(include_contents: str, seed: int) -> dict[str, Any]:
    CLOCK.reset(seed * 1000)
    ADK_IDS.reseed(seed * 100 + 1)
    rng = random.Random(seed * 100 + 2)

    def new_uuid() -> str:
        return "%08x-%04x-4%03x-%04x-%012x" % (
            rng.getrandbits(32),
            rng.getrandbits(16),
            rng.getrandbits(12),
            0x8000 | rng.getrandbits(14),
            rng.getrandbits(48),
        )

    # ADK's own hooks for ids and time (context variables, copied into the run's tasks).
    adk_uuid.set_id_provider(new_uuid)
    adk_time.set_time_provider(CLOCK.seconds)
    try:
        return asyncio.run(run_adk_inner(include_contents))
    finally:
        adk_uuid.reset_id_provider()
        adk_time.reset_time_provider()


def adk_call_summary(call: dict[str, Any]) -> dict[str, Any]:
    return {
        "agent": call["agent"],
        "system": call["system"],
        "tools": call["tools"],
        "messages": [adk_content_msg(c) for c in call["contents_raw"]],
        "output": [adk_content_msg(call["output_raw"])],
    }


ADK_SESSION_CARRIES = {
    "where": "events[] in order; each event: author (agent name or 'user'), content {role, parts[]}, "
    "actions {state_delta, artifact_delta, transfer_to_agent?, ...}, invocation_id, id, timestamp, "
    "node_info.path (e.g. 'triage@1/billing@1')",
    "transfer": "the triage event whose function_response answers transfer_to_agent carries "
    "actions.transfer_to_agent = 'billing' (and the call's args {'agent_name': 'billing'})",
    "not_recorded": [
        "what any agent's LLM actually received: ADK rebuilds each request from session events at call "
        "time (other agents' turns become user-role 'For context:' text, include_contents='none' drops "
        "history) -- the session stores the events, never the request",
        "system instructions",
        "which events an agent could see (branch/include_contents are agent config, not in the file)",
    ],
}


def adk_expected(run: dict[str, Any], fixture: str, fmt: str, include_contents: str, carries: dict) -> dict[str, Any]:
    calls = run["calls"]
    receiver = next(c for c in calls if c["agent"] == "billing")
    return {
        "fixture": fixture,
        "producer": {"framework": "google-adk", "versions": {k: VERSIONS[k] for k in ("google-adk", "google-genai")}},
        "format": fmt,
        "user_input": run["user_text"],
        "agents": ["triage", "billing"],
        "transfers": [
            {
                "kind": "handoff",
                "from": "triage",
                "to": "billing",
                "tool": "transfer_to_agent",
                "call_id": "call_2",
                "arguments": {"agent_name": "billing"},
                "history_mode": f"billing.include_contents='{include_contents}'",
                "receiver_first_call": {
                    "agent": "billing",
                    "system": receiver["system"],
                    "messages": [adk_content_msg(c) for c in receiver["contents_raw"]],
                    "contents_raw": receiver["contents_raw"],
                },
            }
        ],
        "model_calls": [adk_call_summary(c) for c in calls],
        "final_output": run["final"][0] if run["final"] else None,
        "last_agent": run["final"][1] if run["final"] else None,
        "carries": carries,
        "varying_fields": [],
    }


# ============================================================================= file views
# What each fixture itself says the receiving agent's model got on its first call after the
# transfer, read back from the written file (a minimal reference reader), compared with the
# ground truth the fake model captured. Where a format does not carry it: available=False.


def _any_value(v: dict[str, Any]) -> Any:
    if "stringValue" in v:
        return v["stringValue"]
    if "intValue" in v:
        return int(v["intValue"])
    if "doubleValue" in v:
        return v["doubleValue"]
    if "boolValue" in v:
        return v["boolValue"]
    if "arrayValue" in v:
        return [_any_value(x) for x in v["arrayValue"].get("values", [])]
    if "kvlistValue" in v:
        return {kv["key"]: _any_value(kv["value"]) for kv in v["kvlistValue"].get("values", [])}
    return None


def read_otlp_spans(name: str) -> list[dict[str, Any]]:
    text = (OUT / name).read_text(encoding="utf-8")
    docs = [json.loads(line) for line in text.splitlines() if line.strip()] if name.endswith(".jsonl") else [json.loads(text)]
    spans = []
    for doc in docs:
        for rs in doc["resourceSpans"]:
            for ss in rs["scopeSpans"]:
                for sp in ss["spans"]:
                    spans.append(
                        {
                            "name": sp["name"],
                            "id": sp["spanId"],
                            "parent": sp.get("parentSpanId"),
                            "start": int(sp["startTimeUnixNano"]),
                            "attrs": {a["key"]: _any_value(a["value"]) for a in sp.get("attributes", [])},
                        }
                    )
    return spans


def _descendants(spans: list[dict[str, Any]], root: str) -> list[dict[str, Any]]:
    children: dict[str, list] = {}
    for sp in spans:
        children.setdefault(sp.get("parent") or "", []).append(sp)
    out, stack = [], [root]
    while stack:
        for c in children.get(stack.pop(), []):
            out.append(c)
            stack.append(c["id"])
    return out


def _first_llm_under(spans, is_agent, is_llm) -> dict[str, Any] | None:
    agents_ = sorted((s for s in spans if is_agent(s)), key=lambda s: s["start"])
    for a in agents_:
        llms = sorted((s for s in _descendants(spans, a["id"]) if is_llm(s)), key=lambda s: s["start"])
        if llms:
            return llms[0]
    return None


def genai_messages(text: str | None) -> list[dict[str, Any]]:
    msgs = []
    for m in json.loads(text or "[]"):
        parts = []
        for p in m.get("parts", []):
            t = p.get("type")
            if t == "text":
                parts.append({"type": "text", "text": p.get("content")})
            elif t == "tool_call":
                parts.append({"type": "tool_call", "id": p.get("id"), "name": p.get("name"), "arguments": p.get("arguments")})
            elif t == "tool_call_response":
                parts.append({"type": "tool_result", "id": p.get("id"), "result": p.get("response")})
            else:
                parts.append({"type": "other", "raw": p})
        msgs.append({"role": m.get("role"), "parts": parts})
    return msgs


def genai_system(text: str | None) -> str | None:
    if not text:
        return None
    return "".join(p.get("content", "") for p in json.loads(text) if p.get("type") == "text")


def oi_messages(attrs: dict[str, Any], prefix: str) -> tuple[str | None, list[dict[str, Any]]]:
    idx = sorted({int(k[len(prefix) + 1 :].split(".")[0]) for k in attrs if k.startswith(prefix + ".")})
    system, msgs = None, []
    for i in idx:
        base = f"{prefix}.{i}.message."
        role = attrs.get(base + "role")
        content = attrs.get(base + "content")
        if content is None:
            texts = [
                attrs[k]
                for k in sorted(attrs)
                if k.startswith(base + "contents.") and k.endswith(".message_content.text")
            ]
            content = "".join(texts) if texts else None
        if role == "system":
            system = content
            continue
        if role == "tool":
            msgs.append({"role": "tool", "parts": [{"type": "tool_result", "id": attrs.get(base + "tool_call_id"), "result": content}]})
            continue
        parts: list[dict[str, Any]] = []
        if content is not None:
            parts.append({"type": "text", "text": content})
        calls = sorted({int(k[len(base + "tool_calls.") :].split(".")[0]) for k in attrs if k.startswith(base + "tool_calls.")})
        for j in calls:
            tb = f"{base}tool_calls.{j}.tool_call."
            parts.append(
                {
                    "type": "tool_call",
                    "id": attrs.get(tb + "id"),
                    "name": attrs.get(tb + "function.name"),
                    "arguments": attrs.get(tb + "function.arguments"),
                }
            )
        msgs.append({"role": role, "parts": parts})
    return system, msgs


def chat_messages(items: list[dict[str, Any]]) -> tuple[str | None, list[dict[str, Any]]]:
    system, msgs = None, []
    for m in items:
        role = m.get("role")
        if role in ("system", "developer"):
            system = _text_of(m.get("content"))
        elif role == "tool":
            msgs.append({"role": "tool", "parts": [{"type": "tool_result", "id": m.get("tool_call_id"), "result": _text_of(m.get("content"))}]})
        else:
            parts: list[dict[str, Any]] = []
            if m.get("content"):
                parts.append({"type": "text", "text": _text_of(m.get("content"))})
            for c in m.get("tool_calls") or []:
                fn = c.get("function", {})
                parts.append({"type": "tool_call", "id": c.get("id"), "name": fn.get("name"), "arguments": fn.get("arguments")})
            msgs.append({"role": role, "parts": parts})
    return system, msgs


def _canon(msgs: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """Order-preserving (role, part) list; consecutive same-role messages merge (formats differ in
    whether a text + tool call is one message or two); JSON-string arguments are parsed."""
    out = []
    for m in msgs:
        for p in m["parts"]:
            p = dict(p)
            if p.get("type") == "tool_result":
                p.pop("name", None)
            if isinstance(p.get("arguments"), str):
                try:
                    p["arguments"] = json.loads(p["arguments"])
                except ValueError:
                    pass
            out.append((m["role"], json.dumps(p, sort_keys=True)))
    return out


def file_view(fixture: str, style: str, receiver: str, truth: dict[str, Any]) -> dict[str, Any]:
    system, msgs, where = None, None, None
    if style in ("genai", "adk_genai", "genai_v2"):
        spans = read_otlp_spans(fixture)
        op = "generate_content" if style == "adk_genai" else "chat"
        llm = _first_llm_under(
            spans,
            lambda s: s["attrs"].get("gen_ai.operation.name") == "invoke_agent" and s["attrs"].get("gen_ai.agent.name") == receiver,
            lambda s: s["attrs"].get("gen_ai.operation.name") == op,
        )
        if llm:
            msgs = genai_messages(llm["attrs"].get("gen_ai.input.messages"))
            system = genai_system(llm["attrs"].get("gen_ai.system_instructions"))
            where = f"gen_ai.input.messages of the first '{llm['name']}' span under invoke_agent {receiver}"
    elif style == "openinference":
        spans = read_otlp_spans(fixture)
        llm = _first_llm_under(
            spans,
            lambda s: s["attrs"].get("openinference.span.kind") == "AGENT" and s["attrs"].get("agent.name") == receiver,
            lambda s: s["attrs"].get("openinference.span.kind") == "LLM",
        )
        if llm:
            system, msgs = oi_messages(llm["attrs"], "llm.input_messages")
            where = f"llm.input_messages.* of the first LLM span under the AGENT span {receiver}"
    elif style == "sdk_generation":
        items = [json.loads(line) for line in (OUT / fixture).read_text(encoding="utf-8").splitlines()]
        spans = [
            {"id": it["id"], "parent": it["parent_id"], "start": it["started_at"], "data": it["span_data"]}
            for it in items
            if it["object"] == "trace.span"
        ]
        llm = _first_llm_under(
            spans,
            lambda s: s["data"]["type"] == "agent" and s["data"]["name"] == receiver,
            lambda s: s["data"]["type"] == "generation",
        )
        if llm:
            system, msgs = chat_messages(llm["data"]["input"])
            where = f"span_data.input of the first generation span under the agent span {receiver}"
    if msgs is None:
        return {"available": False}
    got, want = _canon(msgs), _canon(truth["messages"])
    diffs = []
    if system is not None and system != truth["system"]:
        diffs.append({"field": "system", "file": system, "truth": truth["system"]})
    for i in range(max(len(got), len(want))):
        g = got[i] if i < len(got) else None
        w = want[i] if i < len(want) else None
        if g != w:
            diffs.append({"part_index": i, "file": g and [g[0], json.loads(g[1])], "truth": w and [w[0], json.loads(w[1])]})
    return {
        "available": True,
        "where": where,
        "system": system,
        "messages": msgs,
        "matches_ground_truth": not diffs,
        "differences": diffs,
    }


# ============================================================================= edge cases


def write_edge_cases() -> None:
    (OUT / "edge_empty_array.json").write_text("[]\n", encoding="utf-8")
    good = (OUT / "openai_agents_handoff.jsonl").read_text(encoding="utf-8").splitlines()
    truncated = "\n".join(good[:3]) + "\n" + good[3][: len(good[3]) // 2]
    (OUT / "edge_truncated.jsonl").write_text(truncated, encoding="utf-8")  # no final newline
    otlp_line = (OUT / "otlp_genai.jsonl").read_text(encoding="utf-8").splitlines()[0]
    (OUT / "edge_mixed_formats.jsonl").write_text("\n".join(good[:2] + [otlp_line] + good[2:4]) + "\n", encoding="utf-8")
    write_json(
        "edge_missing_parent.json",
        [
            {
                "object": "trace.span",
                "id": "span_000000000000000000000001",
                "trace_id": "trace_00000000000000000000000000000001",
                "parent_id": "span_0000000000000000000000ff",
                "started_at": "2025-01-01T00:00:00.001000+00:00",
                "ended_at": "2025-01-01T00:00:00.009000+00:00",
                "span_data": {"type": "agent", "name": "Billing", "handoffs": [], "tools": [], "output_type": "str"},
                "error": None,
            },
            {
                "object": "trace.span",
                "id": "span_000000000000000000000002",
                "trace_id": "trace_00000000000000000000000000000001",
                "parent_id": "span_000000000000000000000001",
                "started_at": "2025-01-01T00:00:00.002000+00:00",
                "ended_at": "2025-01-01T00:00:00.003000+00:00",
                "span_data": {"type": "handoff", "from_agent": "Triage", "to_agent": "Billing"},
                "error": None,
            },
        ],
    )
    write_json(
        "edge_no_content.json",
        {
            "resourceSpans": [
                {
                    "resource": {"attributes": [{"key": "service.name", "value": {"stringValue": "edge"}}]},
                    "scopeSpans": [
                        {
                            "scope": {"name": "edge"},
                            "spans": [
                                {
                                    "traceId": "5b8efff798038103d269b633813fc60c",
                                    "spanId": "eee19b7ec3c1b174",
                                    "name": "chat gpt-fake",
                                    "kind": 3,
                                    "startTimeUnixNano": "1735689600001000000",
                                    "endTimeUnixNano": "1735689600002000000",
                                    "attributes": [
                                        {"key": "gen_ai.operation.name", "value": {"stringValue": "chat"}},
                                        {"key": "gen_ai.agent.name", "value": {"stringValue": "Billing"}},
                                    ],
                                    "status": {},
                                }
                            ],
                        }
                    ],
                }
            ]
        },
    )
    session = json.loads((OUT / "adk_session.json").read_text(encoding="utf-8"))
    ev = session["events"][1]
    ev["future_field"] = {"nested": [1, 2, 3]}
    ev["actions"]["escalate_to_human"] = True
    ev["content"]["parts"].append({"video_metadata": {"fps": 24}, "x_unknown_part": "?"})
    write_json("edge_adk_unknown_fields.json", session)
    # Invalid UTF-8 (0xff, a lone continuation byte 0x80, a truncated 3-byte sequence) inside a string.
    (OUT / "edge_non_utf8.jsonl").write_bytes(
        good[0].encode("utf-8")
        + b"\n"
        + b'{"object":"trace.span","id":"span_bad","trace_id":"trace_bad","parent_id":null,'
        b'"span_data":{"type":"function","name":"lookup\xff\x80_invoice","input":"\xe2\x82","output":"ok"}}\n'
    )
    depth = 100_000
    (OUT / "edge_deep_nesting.json").write_text(
        '{"data":' + "[" * depth + "]" * depth + "}\n", encoding="ascii"
    )


# ============================================================================= main


OI_CARRIES = {
    "where": "OTLP resourceSpans[].scopeSpans[].spans[] (scope openinference.instrumentation.openai_agents); "
    "openinference.span.kind AGENT|LLM|TOOL|CHAIN; LLM spans: llm.input_messages.<i>.message.{role, content | "
    "contents.<j>.message_content.{type,text}, tool_calls.<j>.tool_call.{id, function.name, "
    "function.arguments}, tool_call_id}, llm.output_messages.<i>..., input.value (JSON of the SDK input "
    "items), output.value (JSON of the whole Response), llm.model_name, llm.token_count.*; TOOL spans: "
    "tool.name, input.value, output.value, tool.description, tool.parameters; AGENT spans: agent.name, "
    "graph.node.id, graph.node.parent_id",
    "tree": "root AGENT span named after the workflow > CHAIN (task) > AGENT <name> > CHAIN 'turn' > LLM "
    "'response' / TOOL <tool> / TOOL 'handoff to <agent>'",
    "transfer": "handoff = TOOL span 'handoff to Billing' with input.value='Triage', output.value='Billing'; "
    "Billing's AGENT span has graph.node.parent_id='Triage'",
    "not_recorded": [
        "tool call ids on TOOL spans (only inside llm.*_messages tool_calls)",
        "messages on AGENT spans (only LLM spans carry them)",
        "llm.input_messages index 0 is the system prompt (from Response.instructions); the user's first "
        "message is index 1",
    ],
    "quirks": [
        "start/end times come from the SDK's ISO strings via float seconds: ...008999936 ns, not ...009000000",
        "llm.finish_reason is 'stop' even when the model called a tool",
        "a tool call whose arguments are '{}' gets no tool_call.function.arguments attribute (so the "
        "file view of transfer_to_billing has arguments null)",
    ],
}

V2_CARRIES = {
    "where": "OTLP (scope opentelemetry.instrumentation.openai_agents); gen_ai.operation.name invoke_agent | "
    "chat | execute_tool | agent_handoff | unknown (task/turn spans); both gen_ai.provider.name and "
    "gen_ai.system; gen_ai.input.messages / gen_ai.output.messages JSON strings",
    "transfer": "explicit span 'agent_handoff OpenAI Agent' with gen_ai.handoff.from_agent / "
    "gen_ai.handoff.to_agent",
    "not_recorded": [
        "LOSSY (instrumentation 0.1.0): chat spans' gen_ai.input.messages drop every function_call and "
        "function_call_output item and render assistant text as a Python dict string; a tool-call output is "
        "a Python repr in a text part; gen_ai.agent.name on chat/tool spans is the default 'OpenAI Agent', "
        "not the real agent (use the parent invoke_agent span)",
        "tool call ids (execute_tool spans have no gen_ai.tool.call.id)",
    ],
}

GENAI_CARRIES = {
    "where": "OTLP (scope baton.fixture.genai_app, schemaUrl 1.37.0); invoke_workflow 'support' root > "
    "invoke_agent <agent> (gen_ai.agent.name, gen_ai.provider.name) > chat <model> (gen_ai.input.messages, "
    "gen_ai.output.messages, gen_ai.system_instructions: JSON strings of [{role, parts:[{type:text, "
    "content} | {type:tool_call, id, name, arguments} | {type:tool_call_response, id, response}], name}]) "
    "and execute_tool <tool> (gen_ai.tool.name, gen_ai.tool.call.id, gen_ai.tool.call.arguments, "
    "gen_ai.tool.call.result, gen_ai.agent.name)",
    "transfer": "NO handoff span: Triage's second chat output has a tool_call transfer_to_billing, an "
    "execute_tool transfer_to_billing span (result {\"assistant\": \"Billing\"}) follows, and the next "
    "invoke_agent span is Billing -- the importer must infer the handoff",
    "not_recorded": [
        "the handoff as an event (inferred only)",
        "gen_ai.agent.name on chat spans (agent = parent invoke_agent span)",
        "tool definitions",
    ],
}

ADK_OTLP_CARRIES = {
    "where": "OTLP (scope gcp.vertex.agent 2.13.0); one trace per user turn: invoke_workflow <root agent> > "
    "invoke_agent <agent> > generate_content <model> (gen_ai.input.messages, gen_ai.output.messages, "
    "gen_ai.system_instructions, gen_ai.tool.definitions, gcp.vertex.agent.event_id/invocation_id) and "
    "execute_tool <tool> (gen_ai.tool.call.id/arguments/result, gen_ai.tool.type); all spans kind INTERNAL",
    "transfer": "execute_tool transfer_to_agent span (arguments {\"agent_name\": \"billing\"}, result "
    "{\"result\": null}) under invoke_agent triage, then a sibling invoke_agent billing -- no handoff span",
    "not_recorded": [
        "session events / actions.transfer_to_agent (only in the session file)",
    ],
    "quirks": [
        "gen_ai.input.messages has the 'For context:' rewritten user-role text, i.e. what billing's model "
        "really got (matches ground truth)",
        "finish_reason is \"\" in output messages",
        "content is on spans only with OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_latest_experimental (or "
        "TelemetryConfig(genai_semconv_stability_opt_in='experimental')) AND capture mode SPAN_ONLY/"
        "SPAN_AND_EVENT; otherwise generate_content spans carry no messages",
    ],
}


def finish(expected: dict[str, Any], style: str | None) -> None:
    t = expected["transfers"][0]
    if style is None:
        t["file_view"] = {"available": False}
    else:
        t["file_view"] = file_view(expected["fixture"], style, t["to"], t["receiver_first_call"])
    write_json(expected_name(expected["fixture"]), expected)


async def main_sdk() -> dict[str, Any]:
    runs = {}
    runs["handoff"] = await run_sdk("handoff", "responses", 1)
    runs["handoff_chat"] = await run_sdk("handoff", "chat", 2)
    runs["astool"] = await run_sdk("astool", "responses", 3)
    runs["astool_chat"] = await run_sdk("astool", "chat", 4)
    return runs


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for p in OUT.iterdir():
        if p.name != "README.md":
            p.unlink()

    # ---------------------------------------------------------------- (a) OpenAI Agents SDK
    runs = asyncio.run(main_sdk())
    jsonl_fmt = "JSON Lines, one OpenAI Agents SDK Span/Trace .export() dict per line (spans in end order, trace last)"
    for key, stem, model_class in (
        ("handoff", "openai_agents_handoff", "OpenAIResponsesModel"),
        ("handoff_chat", "openai_agents_handoff_chatcmpl", "OpenAIChatCompletionsModel"),
        ("astool", "openai_agents_astool", "OpenAIResponsesModel"),
        ("astool_chat", "openai_agents_astool_chatcmpl", "OpenAIChatCompletionsModel"),
    ):
        run = runs[key]
        kind = "handoff" if key.startswith("handoff") else "astool"
        chat = key.endswith("_chat")
        carries = copy.deepcopy(SDK_CARRIES_CHAT if chat else SDK_CARRIES_RESPONSES)
        carries["span_types"] = span_type_counts(run["exported"])
        carries["model_class"] = model_class
        write_jsonl(stem + ".jsonl", run["exported"])
        outputs = [(stem + ".jsonl", jsonl_fmt)]
        if key == "handoff":
            write_json(stem + ".json", run["exported"])
            write_json(stem + ".ingest.json", run["ingest"])
            outputs += [
                (stem + ".json", "JSON array of OpenAI Agents SDK Span/Trace .export() dicts (spans in end order, trace last)"),
                (stem + ".ingest.json", "OpenAI Agents SDK BackendSpanExporter request body {\"data\": [...]}: "
                 "trace first (queued at trace start), spans in end order; sanitized for the OpenAI ingest "
                 "API (response spans lose usage)"),
            ]
        for fixture, fmt in outputs:
            finish(sdk_expected(kind, run, fixture, fmt, carries), "sdk_generation" if chat else None)

    # ---------------------------------------------------------------- (c) OpenInference, same SDK run
    h = runs["handoff"]
    write_json("otlp_openinference.json", otlp_json(h["oi_spans"]))
    exp = sdk_expected("handoff", h, "otlp_openinference.json",
                       "OTLP/JSON: openinference-instrumentation-openai-agents on the openai_agents_handoff run", OI_CARRIES)
    exp["producer"]["instrumentation"] = {"openinference-instrumentation-openai-agents": VERSIONS["openinference-instrumentation-openai-agents"]}
    finish(exp, "openinference")

    # ---------------------------------------------------------------- OTel contrib GenAI instrumentation, same run
    write_json("otlp_genai_openai_agents.json", otlp_json(h["v2_spans"]))
    exp = sdk_expected("handoff", h, "otlp_genai_openai_agents.json",
                       "OTLP/JSON: opentelemetry-instrumentation-openai-agents-v2 on the openai_agents_handoff run", V2_CARRIES)
    exp["producer"]["instrumentation"] = {"opentelemetry-instrumentation-openai-agents-v2": VERSIONS["opentelemetry-instrumentation-openai-agents-v2"]}
    finish(exp, "genai_v2")

    # ---------------------------------------------------------------- (b) GenAI semconv app spans (util-genai)
    spans, _ = emit_genai(h, 5)
    write_json("otlp_genai.json", otlp_json(spans))
    (OUT / "otlp_genai.jsonl").write_text(otlp_file_lines(spans), encoding="utf-8")
    write_json("otlp_genai_legacy.json", otlp_json(legacy_system_spans(spans)))
    for name, fmt in (
        ("otlp_genai.json", "OTLP/JSON ExportTraceServiceRequest, GenAI semconv (gen_ai.provider.name)"),
        ("otlp_genai.jsonl", "OTLP/JSON file-exporter lines: one ExportTraceServiceRequest per line, one span each, end order"),
        ("otlp_genai_legacy.json", "OTLP/JSON, GenAI semconv with pre-1.37 gen_ai.system instead of gen_ai.provider.name"),
    ):
        exp = sdk_expected("handoff", h, name, fmt, GENAI_CARRIES)
        exp["producer"]["emitted_by"] = (
            f"opentelemetry-util-genai {VERSIONS['opentelemetry-util-genai']} TelemetryHandler replaying the "
            "recorded openai_agents_handoff run (same messages, ids, response ids)"
        )
        finish(exp, "genai")

    # ---------------------------------------------------------------- (d) Google ADK
    adk = run_adk("default", 6)
    sess = public_session(adk["session"])
    # `adk run --save_session` in google-adk 1.0.x wrote snake_case (model_dump_json(indent=2, exclude_none=True)).
    (OUT / "adk_session.json").write_text(sess.model_dump_json(indent=2, exclude_none=True) + "\n", encoding="utf-8")
    # `adk run --save_session` in later 1.x and 2.x (2.13.0: public_session(s).model_dump_json(indent=2,
    # exclude_none=True, by_alias=True)) and the API server's GET .../sessions/{id} (same fields, camelCase).
    (OUT / "adk_session.camel.json").write_text(
        sess.model_dump_json(indent=2, exclude_none=True, by_alias=True) + "\n", encoding="utf-8"
    )
    finish(adk_expected(adk, "adk_session.json", "ADK Session JSON, snake_case (google-adk 1.0 `adk run --save_session`)", "default", ADK_SESSION_CARRIES), None)
    finish(adk_expected(adk, "adk_session.camel.json", "ADK Session JSON, camelCase (`adk run --save_session` in 2.x; API server GET session)", "default", ADK_SESSION_CARRIES), None)
    write_json("otlp_adk_genai.json", otlp_json(adk["spans"]))
    finish(adk_expected(adk, "otlp_adk_genai.json", "OTLP/JSON of google-adk's native telemetry (experimental GenAI semconv, SPAN_ONLY content)", "default", ADK_OTLP_CARRIES), "adk_genai")
    adk_none = run_adk("none", 7)
    (OUT / "adk_session_none.json").write_text(
        public_session(adk_none["session"]).model_dump_json(indent=2, exclude_none=True) + "\n", encoding="utf-8"
    )
    finish(adk_expected(adk_none, "adk_session_none.json", "ADK Session JSON, snake_case; billing has include_contents='none'", "none", ADK_SESSION_CARRIES), None)

    # ---------------------------------------------------------------- (e) edge cases
    write_edge_cases()
    print(f"wrote {len(list(OUT.iterdir()))} files to {OUT.relative_to(ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    main()

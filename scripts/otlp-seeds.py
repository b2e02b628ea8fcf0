#!/usr/bin/env python3
"""OTLP/HTTP protobuf request bodies for the collector's fuzz target and for probing it by hand,
encoded here from the field numbers of opentelemetry-proto's trace.proto (no dependency).

  otlp-seeds.py seeds DIR      fuzz seeds for collect_request (first byte: 0 protobuf, 2 gzip)
  otlp-seeds.py deep N         one trace of N nested spans (agent and chat in turn), to stdout
                               (curl --data-binary @- -H 'content-type: application/x-protobuf')
"""
import gzip
import json
import os
import struct
import sys


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def field(num, payload):  # length-delimited
    return varint(num << 3 | 2) + varint(len(payload)) + payload


def fixed64(num, value):
    return varint(num << 3 | 1) + struct.pack("<Q", value)


def kv(key, value):
    any_value = field(1, value.encode())  # AnyValue.string_value
    return field(1, key.encode()) + field(2, any_value)


def span(trace_id, span_id, parent, name, start, end, attrs):
    out = field(1, trace_id) + field(2, span_id)
    if parent:
        out += field(4, parent)
    out += field(5, name.encode()) + fixed64(7, start) + fixed64(8, end)
    for k, v in attrs:
        out += field(9, kv(k, v))
    return out


def request(spans):
    scope_spans = b"".join(field(2, s) for s in spans)  # ScopeSpans.spans
    resource_spans = field(2, scope_spans)  # ResourceSpans.scope_spans
    return field(1, resource_spans)  # ExportTraceServiceRequest.resource_spans


def sid(k):
    return struct.pack(">Q", k + 1)


def msgs(role, text, call=None):
    parts = [{"type": "text", "content": text}]
    if call:
        parts.append({"type": "tool_call", "id": "call_1", "name": call, "arguments": {}})
    return json.dumps([{"role": role, "parts": parts}])


def handoff(tid=b"\x01" * 16):
    """Triage hands off to Billing (GenAI conventions): five spans."""
    t0 = 1_700_000_000_000_000_000
    op = "gen_ai.operation.name"
    return [
        span(tid, sid(0), None, "invoke_workflow support", t0, t0 + 100, [(op, "invoke_workflow")]),
        span(tid, sid(1), sid(0), "invoke_agent triage", t0 + 10, t0 + 30, [(op, "invoke_agent"), ("gen_ai.agent.name", "triage")]),
        span(tid, sid(2), sid(1), "chat", t0 + 20, t0 + 25, [(op, "chat"), ("gen_ai.input.messages", msgs("user", "I was double charged.")),
                                                           ("gen_ai.output.messages", msgs("assistant", "Routing you.", "transfer_to_billing"))]),
        span(tid, sid(3), sid(0), "invoke_agent billing", t0 + 40, t0 + 90, [(op, "invoke_agent"), ("gen_ai.agent.name", "billing")]),
        span(tid, sid(4), sid(3), "chat", t0 + 50, t0 + 60, [(op, "chat"), ("gen_ai.output.messages", msgs("assistant", "Refund issued."))]),
    ]


def deep(levels, tid=b"\x02" * 16):
    """A chain of `levels` spans, each inside the one before: agent and chat in turn."""
    t0 = 1_700_000_000_000_000_000
    out = []
    for k in range(levels):
        parent = sid(k - 1) if k else None
        if k % 2 == 0:
            attrs = [("gen_ai.operation.name", "invoke_agent"), ("gen_ai.agent.name", f"agent{k % 7}")]
        else:
            attrs = [("gen_ai.operation.name", "chat"), ("gen_ai.output.messages", msgs("assistant", f"step {k}", f"transfer_to_agent{(k + 1) % 7}"))]
        out.append(span(tid, sid(k), parent, "invoke_agent" if k % 2 == 0 else "chat", t0 + k, t0 + 2 * levels - k, attrs))
    return out


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "deep":
        sys.stdout.buffer.write(request(deep(int(sys.argv[2]))))
    elif len(sys.argv) == 3 and sys.argv[1] == "seeds":
        d = sys.argv[2]
        os.makedirs(d, exist_ok=True)
        bodies = {
            "handoff": request(handoff()),
            "deep-300": request(deep(300)),
            "rootless": request([span(b"\x03" * 16, sid(1), sid(99), "chat", 1, 2, [("gen_ai.operation.name", "chat")])]),
            "two-traces": request(handoff() + handoff(b"\x04" * 16)),
        }
        for name, body in bodies.items():
            with open(os.path.join(d, f"{name}.pb"), "wb") as f:
                f.write(b"\x00" + body)
            with open(os.path.join(d, f"{name}.pb.gz"), "wb") as f:
                f.write(b"\x02" + gzip.compress(body))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()

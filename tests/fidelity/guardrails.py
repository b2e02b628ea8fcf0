"""Guardrail semantics of the real OpenAI Agents SDK (openai-agents 0.24, pinned), with a fake model.

Each case runs Runner.run with a scripted model that records its calls, and prints ONE JSON
object: {"<case>": {"tripped": "input"|"output"|null, "guardrail": name|null,
"model_calls": [agent, ...], "final_output": str|null, "last_agent": str|null}}.
tests/it/guardrails.rs runs the same cases in Baton (tests/fidelity/guardrails.yaml) and compares.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys

os.environ.setdefault("OPENAI_AGENTS_DISABLE_TRACING", "1")
sys.path.insert(0, os.path.dirname(__file__))

from agents import (  # noqa: E402
    Agent,
    GuardrailFunctionOutput,
    InputGuardrailTripwireTriggered,
    OutputGuardrailTripwireTriggered,
    Runner,
    input_guardrail,
    output_guardrail,
)
from sdk_harness import Recorder, ScriptedModel, call, msg  # noqa: E402


def contains_guard(word: str, *, on: str, parallel: bool = True):
    if on == "input":

        @input_guardrail(name=f"no_{word}", run_in_parallel=parallel)
        async def g(ctx, agent, inp):
            text = inp if isinstance(inp, str) else json.dumps(inp)
            return GuardrailFunctionOutput(output_info=None, tripwire_triggered=word in text.lower())

        return g

    @output_guardrail(name=f"no_{word}")
    async def o(ctx, agent, out):
        return GuardrailFunctionOutput(output_info=None, tripwire_triggered=word in str(out).lower())

    return o


async def case(agents_of, user_input: str) -> dict:
    rec = Recorder()
    start = agents_of(rec)
    out = {"tripped": None, "guardrail": None, "final_output": None, "last_agent": None}
    try:
        r = await Runner.run(start, user_input)
        out["final_output"] = r.final_output
        out["last_agent"] = r.last_agent.name
    except InputGuardrailTripwireTriggered as e:
        out["tripped"], out["guardrail"] = "input", e.guardrail_result.guardrail.get_name()
    except OutputGuardrailTripwireTriggered as e:
        out["tripped"], out["guardrail"] = "output", e.guardrail_result.guardrail.get_name()
    out["model_calls"] = [c["agent"] for c in rec.calls]
    return out


def solo(guards_in=(), guards_out=(), answer="Here is your answer."):
    def build(rec):
        return Agent(
            name="Support",
            instructions="support",
            input_guardrails=list(guards_in),
            output_guardrails=list(guards_out),
            model=ScriptedModel("Support", [[msg(answer, "m1")]], rec),
        )

    return build


def handoff_pair(rec):
    # Billing has guardrails that would trip; as the receiver of a handoff its input guardrails
    # never run (only the starting agent's do), and Triage's output guardrail never runs (Billing
    # gives the final output).
    billing = Agent(
        name="Billing",
        instructions="billing",
        input_guardrails=[contains_guard("refund", on="input")],
        model=ScriptedModel("Billing", [[msg("Refund issued.", "m2")]], rec),
    )
    return Agent(
        name="Triage",
        instructions="triage",
        output_guardrails=[contains_guard("refund", on="output")],
        handoffs=[billing],
        model=ScriptedModel("Triage", [[call("transfer_to_billing", "{}", "c1")]], rec),
    )


async def main() -> None:
    results = {
        "blocking_input_trips": await case(solo([contains_guard("refund", on="input", parallel=False)]), "I want a refund"),
        "parallel_input_trips": await case(solo([contains_guard("refund", on="input", parallel=True)]), "I want a refund"),
        "input_passes": await case(solo([contains_guard("refund", on="input")]), "Where is my parcel?"),
        "output_trips": await case(solo(guards_out=[contains_guard("secret", on="output")], answer="The secret code is 42."), "Tell me"),
        "receiver_guardrails_do_not_run": await case(handoff_pair, "I want a refund"),
    }
    print(json.dumps(results, sort_keys=True))


asyncio.run(main())

"""Runs a module exported by `baton export --to openai-agents-py` in the real SDK with a fake
model per agent (ANSWER, the first argument after the module, is every agent's reply), on
INPUT, and prints {"tripped", "guardrail", "model_calls", "final_output"} as guardrails.py does.
"""

import asyncio
import importlib.util
import json
import os
import sys

os.environ.setdefault("OPENAI_AGENTS_DISABLE_TRACING", "1")
sys.path.insert(0, os.path.dirname(__file__))

from agents import InputGuardrailTripwireTriggered, OutputGuardrailTripwireTriggered  # noqa: E402
from sdk_harness import Recorder, ScriptedModel, msg  # noqa: E402

path, user_input, answer = sys.argv[1], sys.argv[2], sys.argv[3]
spec = importlib.util.spec_from_file_location("exported", path)
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)

rec = Recorder()
for a in mod.AGENTS:
    a.model = ScriptedModel(a.name, [[msg(answer, "m1")]], rec)


async def main():
    out = {"tripped": None, "guardrail": None, "final_output": None}
    try:
        r = await mod.run(user_input)
        out["final_output"] = r.final_output
    except InputGuardrailTripwireTriggered as e:
        out["tripped"], out["guardrail"] = "input", e.guardrail_result.guardrail.get_name()
    except OutputGuardrailTripwireTriggered as e:
        out["tripped"], out["guardrail"] = "output", e.guardrail_result.guardrail.get_name()
    out["model_calls"] = [c["agent"] for c in rec.calls]
    print(json.dumps(out))


asyncio.run(main())

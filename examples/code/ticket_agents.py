"""The ticket-reopen story (examples/ticket-reopen.yaml) as an OpenAI Agents SDK app.

Triage hands the ticket to Resolution; Resolution patches it behind a feature flag and hands it,
as structured fields (ticket, status), to Verification. Verification sees the flag off and,
not knowing that "resolved" here means "patched, pending manual rollout", reopens the ticket.

Read it into Baton with `baton import-code examples/code/ticket_agents.py`, or run it with
`python examples/code/ticket_agents.py` (needs OPENAI_API_KEY). The tools answer with the
topology's mock results, so nothing real is patched or reopened.

What the topology holds that the Agents SDK cannot say:
- the `fields` policy: `input_type` below makes the model hand over ticket and status, but the
  SDK still passes the whole conversation to Verification (Baton passes only the fields; that
  needs a custom input_filter, which Baton would then read as a custom policy);
- `acceptance: verify` on that handoff, the pinned fact `resolved-meaning` held by Resolution,
  the guards max_handoffs and on_revisit, and the scripted scenario `flagged-fix` are Baton's;
  only max_turns has an SDK equivalent (`Runner.run(..., max_turns=MAX_TURNS)` below).
"""

from agents import Agent, RunContextWrapper, function_tool, handoff
from pydantic import BaseModel

MAX_TURNS = 10


@function_tool
def patch_checkout(ticket: str) -> str:
    """Merge a fix for the checkout flow."""
    return "Patch merged behind feature flag FIX_4812 (flag is off; manual rollout pending)."


# In the topology `ticket` is not required here, so the schema is not strict.
@function_tool(strict_mode=False)
def check_flag(ticket: str = "") -> str:
    """Read a feature flag's state in production."""
    return "Feature flag FIX_4812 is OFF in production."


@function_tool
def reopen_ticket(ticket: str, reason: str) -> str:
    """Reopen a ticket with a reason."""
    return "Ticket 4812 reopened."


# What Resolution hands to Verification (no docstring: it would become the schema's description).
class ResolvedTicket(BaseModel):
    ticket: str
    status: str


async def on_resolved(ctx: RunContextWrapper, data: ResolvedTicket) -> None:
    """The handoff's structured input arrives here; the SDK requires a callback for input_type."""


triage = Agent(
    name="Triage",
    instructions=(
        "Classify the support ticket and hand it to the right owner immediately.\n"
        "Do not try to resolve it yourself.\n"
    ),
    model="gpt-4o-mini",
)

resolution = Agent(
    name="Resolution",
    instructions=(
        "You fix bugs. Ship every fix behind a feature flag; rollout is manual.\n"
        "When the fix is merged, mark the ticket resolved and hand it to verification.\n"
    ),
    model="gpt-4o",
    tools=[patch_checkout],
)

verification = Agent(
    name="Verification",
    instructions="Verify that resolved tickets are really fixed. If the fix is not live, reopen the ticket.\n",
    model="gpt-4o-mini",
    tools=[check_flag, reopen_ticket],
)

# Handoffs, wired once every agent exists.
triage.handoffs = [resolution]
resolution.handoffs = [
    handoff(
        verification,
        input_type=ResolvedTicket,
        on_handoff=on_resolved,
        tool_description_override="Hand a resolved ticket to verification.",
    ),
]


if __name__ == "__main__":
    import asyncio

    from agents import Runner

    result = asyncio.run(
        Runner.run(
            triage,
            "Ticket #4812: the checkout button does nothing on Safari. Customer-facing.",
            max_turns=MAX_TURNS,
        )
    )
    print(result.final_output)

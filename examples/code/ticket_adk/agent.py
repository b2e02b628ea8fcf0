"""The ticket-reopen story (examples/ticket-reopen.yaml) as a Google ADK agent folder.

Triage transfers the ticket to Resolution; Resolution patches it behind a feature flag and
transfers to Verification, which sees the flag off and reopens the ticket.

Read it into Baton with `baton import-code examples/code/ticket_adk`, or run it with
`adk run examples/code/ticket_adk` (ADK resolves "gpt-..." names to its own OpenAI model class,
which needs the openai package, `pip install google-adk[openai]`, and OPENAI_API_KEY). The tools
answer with the topology's mock results.

What the topology holds that ADK cannot say:
- ADK handoffs are `transfer_to_agent` calls along the sub-agent tree; a transfer carries the
  whole session, so the `fields` policy (only ticket and status cross) has no ADK equivalent,
  and a transfer has no description of its own: the model sees the target agent's
  `description`, so the handoff's description is Verification's description here;
- by default an ADK sub-agent may also transfer back to its parent; the topology's handoffs are
  one-way, so Resolution and Verification set disallow_transfer_to_parent=True (ADK then hands
  control back to the parent after their turn instead of offering a transfer);
- `acceptance: verify`, the pinned fact `resolved-meaning`, the guards (max_turns,
  max_handoffs, on_revisit) and the scripted scenario `flagged-fix` are Baton's.
"""

from google.adk.agents import LlmAgent


def patch_checkout(ticket: str) -> str:
    """Merge a fix for the checkout flow."""
    return "Patch merged behind feature flag FIX_4812 (flag is off; manual rollout pending)."


def check_flag(ticket: str = "") -> str:
    """Read a feature flag's state in production."""
    return "Feature flag FIX_4812 is OFF in production."


def reopen_ticket(ticket: str, reason: str) -> str:
    """Reopen a ticket with a reason."""
    return "Ticket 4812 reopened."


verification = LlmAgent(
    name="Verification",
    description="Hand a resolved ticket to verification.",
    instruction="Verify that resolved tickets are really fixed. If the fix is not live, reopen the ticket.\n",
    model="gpt-4o-mini",
    tools=[check_flag, reopen_ticket],
    disallow_transfer_to_parent=True,
)

resolution = LlmAgent(
    name="Resolution",
    instruction=(
        "You fix bugs. Ship every fix behind a feature flag; rollout is manual.\n"
        "When the fix is merged, mark the ticket resolved and hand it to verification.\n"
    ),
    model="gpt-4o",
    tools=[patch_checkout],
    sub_agents=[verification],
    disallow_transfer_to_parent=True,
)

triage = LlmAgent(
    name="Triage",
    instruction=(
        "Classify the support ticket and hand it to the right owner immediately.\n"
        "Do not try to resolve it yourself.\n"
    ),
    model="gpt-4o-mini",
    sub_agents=[resolution],
)

root_agent = triage

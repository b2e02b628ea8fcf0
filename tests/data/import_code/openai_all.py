"""Every OpenAI Agents SDK construct `baton import-code` reads, in one support-desk module.

Concierge is the entry: the only module-level agent no other agent points to. See README.md here
for the topology a person reads from this file. Nothing here runs an agent.
"""

from agents import (
    Agent,
    HandoffInputData,
    ModelSettings,
    OpenAIChatCompletionsModel,
    RunContextWrapper,
    WebSearchTool,
    function_tool,
    handoff,
)
from agents.extensions import handoff_filters
from openai import AsyncOpenAI
from pydantic import BaseModel


class RefundDecision(BaseModel):
    approved: bool
    amount: float
    note: str


class EscalationTicket(BaseModel):
    ticket_id: str
    severity: int
    summary: str


@function_tool
def lookup_order(order_id: str, include_items: bool = False) -> str:
    """Look up an order by its id.

    Args:
        order_id: The order id, for example "A-1001".
        include_items: Whether to list the order's items.
    """
    return f"Order {order_id}: shipped."


@function_tool
def refund_invoice(invoice_id: str, amount: float, reason: str) -> str:
    """Refund part or all of an invoice.

    Args:
        invoice_id: The invoice to refund.
        amount: The amount to refund, in euros.
        reason: Why the refund is made.
    """
    return f"Refunded {amount} on {invoice_id}."


def billing_instructions(ctx: RunContextWrapper, agent: Agent) -> str:
    return f"You are {agent.name}. Answer billing questions for the customer."


def redact_history(data: HandoffInputData) -> HandoffInputData:
    """A custom handoff input filter: the legal team sees no earlier turns."""
    return data.clone(input_history=(), pre_handoff_items=())


async def log_escalation(ctx: RunContextWrapper, ticket: EscalationTicket) -> None:
    print(f"escalated {ticket.ticket_id}")


researcher = Agent(
    name="Researcher",
    instructions="Answer factual questions about our products in two sentences.",
    model="gpt-4o-mini",
    tools=[WebSearchTool()],
)

billing = Agent(
    name="Billing",
    handoff_description="Invoices, charges and payment methods.",
    instructions=billing_instructions,
    model="litellm/anthropic/claude-3-5-sonnet-20240620",
    tools=[refund_invoice],
)

refunds = Agent(
    name="Refunds",
    instructions="Decide whether a refund is due and how much.",
    model=OpenAIChatCompletionsModel(model="gpt-4o", openai_client=AsyncOpenAI(api_key="unused-offline")),
    output_type=RefundDecision,
)

tech = Agent(
    name="Tech Support",
    instructions="Fix technical problems step by step.",
    model="gpt-4o",
)

legal = Agent(
    name="Legal",
    instructions="Answer questions about terms and privacy. Do not give legal advice.",
    model="gpt-4o",
)

escalation = Agent(
    name="Escalation",
    handoff_description="A human supervisor.",
    instructions="Summarize the ticket for the supervisor.",
    model="gpt-4o-mini",
)

concierge = Agent(
    name="Concierge",
    instructions="Greet the customer, find out what they need and route them.",
    model="gpt-4o-mini",
    model_settings=ModelSettings(temperature=0.2, max_tokens=800),
    tools=[
        lookup_order,
        WebSearchTool(),
        researcher.as_tool(tool_name="ask_researcher", tool_description="Ask the researcher a factual question."),
    ],
    handoffs=[
        billing,
        handoff(refunds, tool_name_override="escalate_refund", input_filter=handoff_filters.remove_all_tools),
        handoff(tech, nest_handoff_history=True),
        handoff(legal, input_filter=redact_history),
        handoff(
            escalation,
            input_type=EscalationTicket,
            on_handoff=log_escalation,
            tool_description_override="Escalate the ticket to a human supervisor.",
        ),
    ],
)

if __name__ == "__main__":
    import asyncio

    from agents import Runner

    print(asyncio.run(Runner.run(concierge, "My invoice is wrong.")).final_output)

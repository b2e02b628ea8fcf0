"""Every Google ADK construct `baton import-code` reads, as an ADK agent folder (`adk web` layout).

root_agent is Coordinator. See ../README.md for the topology a person reads from this file.
Nothing here runs an agent.
"""

from google.adk.agents import LlmAgent, LoopAgent, ParallelAgent, SequentialAgent
from google.adk.agents.readonly_context import ReadonlyContext
from google.adk.tools import exit_loop, google_search
from google.adk.tools.agent_tool import AgentTool
from google.genai import types
from pydantic import BaseModel


class Draft(BaseModel):
    subject: str
    body: str


def lookup_order(order_id: str, include_items: bool = False) -> dict:
    """Look up an order by its id.

    Args:
      order_id: The order id, for example "A-1001".
      include_items: Whether to list the order's items.
    """
    return {"order_id": order_id, "status": "shipped"}


def refund_invoice(invoice_id: str, amount: float, reason: str) -> dict:
    """Refund part or all of an invoice.

    Args:
      invoice_id: The invoice to refund.
      amount: The amount to refund, in euros.
      reason: Why the refund is made.
    """
    return {"invoice_id": invoice_id, "refunded": amount}


def billing_instruction(ctx: ReadonlyContext) -> str:
    return "Answer billing questions. The customer's tier is {tier}."


policy_expert = LlmAgent(
    name="policy_expert",
    description="Answers questions about the refund and privacy policies.",
    instruction="Quote the policy that answers the question, nothing else.",
    model="gemini-2.5-flash",
    include_contents="none",
    output_key="policy_answer",
)

billing = LlmAgent(
    name="billing",
    description="Invoices, charges and refunds.",
    instruction=billing_instruction,
    model="anthropic/claude-3-5-sonnet-20240620",
    generate_content_config=types.GenerateContentConfig(temperature=0.2, top_p=0.9, max_output_tokens=512),
    tools=[refund_invoice],
    disallow_transfer_to_parent=True,
)

tech = LlmAgent(
    name="tech",
    description="Technical problems.",
    instruction="Fix technical problems step by step. Search the web for error messages.",
    tools=[google_search],
    disallow_transfer_to_peers=True,
)

order_history = LlmAgent(
    name="order_history",
    instruction="Summarize the customer's last orders.",
    model="gemini-2.5-flash",
    tools=[lookup_order],
    output_key="orders",
)

ticket_history = LlmAgent(
    name="ticket_history",
    instruction="Summarize the customer's earlier tickets.",
    model="gemini-2.5-flash",
    include_contents="none",
    output_key="tickets",
)

gather = ParallelAgent(name="gather", sub_agents=[order_history, ticket_history])

drafter = LlmAgent(
    name="drafter",
    instruction="Draft a reply from {orders} and {tickets}.",
    model="gemini-2.5-flash",
    output_schema=Draft,
    output_key="draft",
)

critic = LlmAgent(
    name="critic",
    instruction="Review {draft}. If it is good, call exit_loop.",
    model="gemini-2.5-flash",
    tools=[exit_loop],
)

refine = LoopAgent(name="refine", max_iterations=3, sub_agents=[drafter, critic])

report_pipeline = SequentialAgent(
    name="report_pipeline",
    description="Writes the customer a summary of their account.",
    sub_agents=[gather, refine],
)

root_agent = LlmAgent(
    name="coordinator",
    description="Routes support requests.",
    instruction="Find out what the customer needs and transfer to the right agent.",
    model="gemini-2.5-flash",
    tools=[lookup_order, AgentTool(agent=policy_expert)],
    sub_agents=[billing, tech, report_pipeline],
)

"""A LangGraph swarm for `baton import-code` (langgraph-swarm 0.1.0, langchain 1.5.2): triage looks
invoices up and hands billing problems to billing; billing refunds, can hand back to triage, and
asks the researcher policy questions through a tool that runs the researcher agent."""

from langchain.agents import create_agent
from langchain.tools import tool
from langgraph_swarm import create_handoff_tool, create_swarm


@tool
def lookup_invoice(id: str) -> str:
    """Look up an invoice by id."""
    return "invoice 88: two charges of $20"


@tool
def issue_refund(id: str, amount: float) -> str:
    """Refund an amount on an invoice."""
    return f"refund of ${amount:g} issued on invoice {id}"


@tool
def search_docs(query: str) -> str:
    """Search the billing policy documents."""
    return "policy 4.2: duplicate charges are refunded in full within 5 days"


researcher = create_agent(
    "openai:gpt-4o-mini",
    tools=[search_docs],
    system_prompt="You are the researcher. Search the policy documents and report.",
    name="researcher",
)


@tool
def ask_researcher(question: str) -> str:
    """Ask the researcher agent a policy question."""
    result = researcher.invoke({"messages": [{"role": "user", "content": question}]})
    return result["messages"][-1].content


triage = create_agent(
    "openai:gpt-4o-mini",
    tools=[lookup_invoice, create_handoff_tool(agent_name="billing", description="Transfer billing problems to billing.")],
    system_prompt="You are triage. Look up invoices, then transfer billing problems to billing.",
    name="triage",
)

billing = create_agent(
    "anthropic:claude-sonnet-4-5",
    tools=[issue_refund, ask_researcher, create_handoff_tool(agent_name="triage")],
    system_prompt="You are billing. Refund duplicate charges; ask the researcher about policy.",
    name="billing",
)

app = create_swarm([triage, billing], default_active_agent="triage").compile()

if __name__ == "__main__":
    print(app.invoke({"messages": [{"role": "user", "content": "I was double charged on invoice 88."}]}))

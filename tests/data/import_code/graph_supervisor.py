"""A LangGraph supervisor for `baton import-code` (langgraph-supervisor 0.0.31): a supervisor
delegates to a research expert (`create_agent`) and a math expert (`create_react_agent`), and gets
each one's whole history back (`output_mode="full_history"`)."""

from langchain.agents import create_agent
from langchain.chat_models import init_chat_model
from langchain.tools import tool
from langgraph.prebuilt import create_react_agent
from langgraph_supervisor import create_supervisor


@tool
def web_search(query: str) -> str:
    """Search the web."""
    return "FAANG headcounts in 2024: ..."


def add(a: float, b: float) -> float:
    """Add two numbers."""
    return a + b


research_agent = create_agent(
    "openai:gpt-4o-mini",
    tools=[web_search],
    system_prompt="You are a world class researcher with access to web search. Do not do any math.",
    name="research_expert",
)

math_agent = create_react_agent(
    model="openai:gpt-4o-mini",
    tools=[add],
    prompt="You are a math expert. Always use one tool at a time.",
    name="math_expert",
)

workflow = create_supervisor(
    [research_agent, math_agent],
    model=init_chat_model("openai:gpt-4o", temperature=0),
    prompt="You are a team supervisor managing a research expert and a math expert.",
    output_mode="full_history",
)

app = workflow.compile()

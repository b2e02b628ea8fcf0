"""A hierarchical CrewAI crew for `baton import-code` (crewai 1.15.30): CrewAI's own manager
(built from `manager_llm`) runs the task and delegates to the researcher and the writer."""

from crewai import Agent, Crew, Process, Task
from crewai.tools import tool


@tool("search_docs")
def search_docs(query: str) -> str:
    """Search the product documentation."""
    return "Baton shows, at each transfer, what crossed and what was dropped."


researcher = Agent(
    role="Researcher",
    goal="Find facts in the docs",
    backstory="You read documentation closely.",
    tools=[search_docs],
    llm="gpt-4o-mini",
)
writer = Agent(role="Writer", goal="Write taglines", backstory="You write for developers.", llm="gpt-4o-mini")

tagline = Task(description="Write a launch tagline for Baton.", expected_output="One line.", name="tagline")

crew = Crew(agents=[researcher, writer], tasks=[tagline], process=Process.hierarchical, manager_llm="gpt-4o")

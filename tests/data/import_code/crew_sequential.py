"""A sequential CrewAI crew for `baton import-code` (crewai 1.15.30): the researcher searches the
docs, the writer turns the notes into a post and may delegate to the editor, the editor polishes."""

from crewai import Agent, Crew, Process, Task
from crewai.tools import tool


@tool("search_docs")
def search_docs(query: str) -> str:
    """Search the product documentation."""
    return "Baton shows, at each transfer, what crossed and what was dropped."


researcher = Agent(
    role="Researcher",
    goal="Find what the docs say about {topic}",
    backstory="You read documentation closely.",
    tools=[search_docs],
    llm="gpt-4o-mini",
)
writer = Agent(
    role="Writer",
    goal="Write a short, clear post",
    backstory="You write for developers.",
    llm="gpt-4o",
    allow_delegation=True,
)
editor = Agent(role="Editor", goal="Polish the post", backstory="You cut every needless word.", llm="gpt-4o-mini")

research = Task(description="Research {topic}.", expected_output="Five bullet points.", agent=researcher, name="research")
write = Task(description="Write a post from the notes.", expected_output="Three paragraphs.", agent=writer, name="write")
edit = Task(description="Edit the post.", expected_output="The final post.", agent=editor, name="edit", context=[write])

crew = Crew(agents=[researcher, writer, editor], tasks=[research, write, edit], process=Process.sequential)

if __name__ == "__main__":
    print(crew.kickoff(inputs={"topic": "handoffs"}))

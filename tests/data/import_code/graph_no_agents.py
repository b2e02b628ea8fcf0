"""A module that imports LangGraph and builds a graph, but no agent: one plain function node."""

from langgraph.graph import START, MessagesState, StateGraph


def echo(state: MessagesState) -> dict:
    return {"messages": state["messages"][-1:]}


builder = StateGraph(MessagesState)
builder.add_node("echo", echo)
builder.add_edge(START, "echo")
graph = builder.compile()

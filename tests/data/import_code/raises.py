"""A module that raises ValueError at import, on line 9."""

from agents import Agent

triage = Agent(name="Triage", instructions="Route the ticket.", model="gpt-4o-mini")


def load_settings():
    raise ValueError("missing setting SUPPORT_QUEUE")


SETTINGS = load_settings()

"""A module with a syntax error on line 6 (an unclosed parenthesis)."""

from agents import Agent

triage = Agent(name="Triage", instructions="Route the ticket.")
broken = Agent(name="Broken", instructions="never closed"

"""A module that imports a package nobody has installed (line 5)."""

from agents import Agent

import nonexistent_pkg_baton

triage = Agent(name="Triage", instructions=nonexistent_pkg_baton.PROMPT)

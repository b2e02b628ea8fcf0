"""Two module-level Agents SDK agents that nobody points to: the entry is ambiguous.

Sales hands off to Shared; Support hands off to Shared; neither Sales nor Support is the target
of anything, so both are candidate entries (the introspection script lists all three in
top_level; Baton's Rust side reports the ambiguity).
"""

from agents import Agent

shared = Agent(name="Shared", instructions="Answer account questions.", model="gpt-4o-mini")
sales = Agent(name="Sales", instructions="Sell the product.", model="gpt-4o-mini", handoffs=[shared])
support = Agent(name="Support", instructions="Help customers.", model="gpt-4o-mini", handoffs=[shared])

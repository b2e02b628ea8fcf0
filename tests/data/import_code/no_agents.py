"""A module that imports a framework but builds no agents."""

from agents import function_tool


@function_tool
def lookup_order(order_id: str) -> str:
    """Look up an order by its id."""
    return f"Order {order_id}: shipped."


GREETING = "Hello"

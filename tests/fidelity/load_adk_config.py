"""Loads an ADK Agent Config folder with ADK itself (`config_agent_utils.from_config`) and prints
its agent tree as JSON: for each agent, its name, class, sub-agents, tools, include_contents and
transfer flags. The ground truth for Baton's `--to adk-yaml` export.

    target/pyenv/bin/python tests/fidelity/load_adk_config.py FOLDER
"""

import json
import sys
from pathlib import Path

folder = Path(sys.argv[1]).resolve()
sys.path.insert(0, str(folder.parent))  # the folder is the package its tools are named from

from google.adk.agents import config_agent_utils  # noqa: E402
from google.adk.tools.agent_tool import AgentTool  # noqa: E402

root = config_agent_utils.from_config(str(folder / "root_agent.yaml"))
agents = {}


def walk(agent):
    if agent.name in agents:
        return
    tools = []
    for t in getattr(agent, "tools", []) or []:
        if isinstance(t, AgentTool):
            tools.append({"agent": t.agent.name})
            walk(t.agent)
        else:
            tools.append({"function": getattr(t, "name", None) or getattr(t, "__name__", None)})
    agents[agent.name] = {
        "class": type(agent).__name__,
        "sub_agents": [s.name for s in agent.sub_agents],
        "tools": tools,
        "include_contents": getattr(agent, "include_contents", None),
        "disallow_transfer_to_parent": getattr(agent, "disallow_transfer_to_parent", None),
        "disallow_transfer_to_peers": getattr(agent, "disallow_transfer_to_peers", None),
        "model": agent.model if isinstance(getattr(agent, "model", None), str) else None,
    }
    for s in agent.sub_agents:
        walk(s)


walk(root)
print(json.dumps({"root": root.name, "agents": agents}))

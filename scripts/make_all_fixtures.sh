#!/usr/bin/env bash
# Regenerates every real-framework fixture in tests/import/fixtures/, offline (fake models).
# Creates each venv under target/ when it is missing or its pinned requirements changed, then runs:
#   make_fixtures.py                  openai-agents / google-adk / OTel (empties the folder first!)
#   fixtures/openai_agents_otlp.py    rewrites the OpenInference / OTel-contrib expected files
#   fixtures/adk_workflow.py          ADK SequentialAgent + AgentTool session and OTLP
#   fixtures/adk_peers.py             ADK transfers to a sub-agent, a peer and back to the parent
#   fixtures/adk_api.py               the real `adk api_server` /run and /run_sse (127.0.0.1 only)
#   fixtures/adk1_session.py          google-adk 1.39.1 `adk run --save_session`  (own venv)
#   fixtures/pydantic_ai_fixtures.py  pydantic-ai OTel spans                 (own venv)
#   fixtures/autogen_swarm.py         AutoGen AgentChat Swarm                  (own venv)
#   fixtures/langgraph_fixtures.py    LangGraph swarm, supervisor, Command.PARENT, agent as tool (own venv)
#   fixtures/langgraph_langsmith.py   the LangGraph swarm through LangSmith's OTel export (same venv)
#   fixtures/crewai_fixtures.py       CrewAI sequential and hierarchical crews (own venv)
#   fixtures/strands_fixtures.py      Strands swarm, graph, agent as tool      (own venv)
#   fixtures/llama_index_fixtures.py  LlamaIndex AgentWorkflow handoff         (own venv)
#   fixtures/smolagents_fixtures.py   smolagents managed agents                (own venv)
#   fixtures/agent_framework_fixtures.py  Microsoft Agent Framework orchestrations (own venv)
#   fixtures/semantic_kernel_fixtures.py  Semantic Kernel orchestrations       (own venv)
# Output is byte-identical from run to run: `git diff tests/import/fixtures` after this shows
# what a framework changed.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

venv() { # venv <dir> <requirements file>: prints the venv's python
  local dir="$1" req="$2" stamp="$1/.baton-requirements"
  if [ ! -x "$dir/bin/python" ] || ! cmp -s "$req" "$stamp"; then
    mkdir -p "$(dirname "$dir")"
    python3 -m venv "$dir" >&2
    "$dir/bin/pip" install --quiet --disable-pip-version-check -r "$req" >&2
    cp "$req" "$stamp"
  fi
  echo "$dir/bin/python"
}

main_py="$(venv target/fixture-env tests/import/requirements.txt)"
pai_py="$(venv target/fixture-env-pydantic-ai tests/import/requirements-pydantic-ai.txt)"
ag_py="$(venv target/fixture-env-autogen tests/import/requirements-autogen.txt)"
adk1_py="$(venv target/fixture-env-adk1 tests/import/requirements-adk1.txt)"
fw_py() { venv "target/fixture-env-$1" "tests/import/requirements-$1.txt"; }

"$main_py" scripts/make_fixtures.py
"$main_py" scripts/fixtures/openai_agents_otlp.py
"$main_py" scripts/fixtures/adk_workflow.py
"$main_py" scripts/fixtures/adk_peers.py
"$main_py" scripts/fixtures/adk_api.py
"$adk1_py" scripts/fixtures/adk1_session.py
"$pai_py" scripts/fixtures/pydantic_ai_fixtures.py
"$ag_py" scripts/fixtures/autogen_swarm.py
for fw in langgraph crewai strands llama-index smolagents agent-framework semantic-kernel; do
  py="$(fw_py "$fw")"
  "$py" "scripts/fixtures/${fw//-/_}_fixtures.py"
done
"$(fw_py langgraph)" scripts/fixtures/langgraph_langsmith.py
echo "fixtures: $(ls tests/import/fixtures | wc -l) files in tests/import/fixtures" >&2

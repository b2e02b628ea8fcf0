#!/usr/bin/env bash
# Creates (once) a Python venv the tests use and prints its python path. With no argument: the
# venv of the real OpenAI Agents SDK and the collect senders, pinned by
# tests/fidelity/requirements.txt. With a framework name (langgraph, strands, ...): the venv
# target/fixture-env-<name> pinned by tests/import/requirements-<name>.txt. A venv is made again
# when its requirements file changed.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
if [ $# -ge 1 ]; then
  req="$root/tests/import/requirements-$1.txt"
  venv="$root/target/fixture-env-$1"
  [ -f "$req" ] || { echo "no requirements file $req" >&2; exit 2; }
else
  venv="${BATON_PYENV:-$root/target/pyenv}"
  req="$root/tests/fidelity/requirements.txt"
fi
stamp="$venv/.baton-requirements"
if [ ! -x "$venv/bin/python" ] || ! cmp -s "$req" "$stamp"; then
  mkdir -p "$(dirname "$venv")"
  python3 -m venv "$venv" >&2
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$req" >&2
  cp "$req" "$stamp"
fi
echo "$venv/bin/python"

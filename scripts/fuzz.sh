#!/usr/bin/env bash
# Runs every importer fuzz target for $1 seconds each (default 600), seeded with the import
# fixtures; crashes land in fuzz/artifacts/<target>/. Needs cargo-fuzz (cargo install cargo-fuzz);
# RUSTC_BOOTSTRAP lets the stable toolchain build libFuzzer's instrumentation (-s none).
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
secs="${1:-600}"
for t in import_openai_agents import_otlp import_adk; do
  mkdir -p "corpus/$t"
  case $t in
    import_openai_agents) cp -n ../tests/import/fixtures/openai_agents_*[^d].json* "corpus/$t/" 2>/dev/null || true ;;
    import_otlp) cp -n ../tests/import/fixtures/otlp_*[^d].json* "corpus/$t/" 2>/dev/null || true ;;
    import_adk) cp -n ../tests/import/fixtures/adk_*[^d].json "corpus/$t/" 2>/dev/null || true ;;
  esac
  rm -f corpus/$t/*.expected.json
  echo "== $t: ${secs}s"
  RUSTC_BOOTSTRAP=1 cargo fuzz run -s none "$t" "corpus/$t" -- -max_total_time="$secs" -max_len=65536 -rss_limit_mb=2048 2>&1 | tail -n 4
done

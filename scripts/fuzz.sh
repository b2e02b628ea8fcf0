#!/usr/bin/env bash
# Runs every fuzz target (the importers, auto-detection, the topology reader, the native trace
# loader) for $1 seconds each (default 600), seeded with the fixtures and examples; crashes land
# in fuzz/artifacts/<target>/. Writes fuzz/fuzz.log: target, seconds, runs, crashes.
# Needs cargo-fuzz (cargo install cargo-fuzz); RUSTC_BOOTSTRAP lets the stable toolchain build
# libFuzzer's instrumentation (-s none).
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
secs="${1:-600}"
log=fuzz.log
printf 'target\tseconds\truns\tcrashes\n' > "$log"
for t in import_openai_agents import_otlp import_adk import_auto topology_parse trace_load; do
  mkdir -p "corpus/$t"
  case $t in
    import_openai_agents) cp -n ../tests/import/fixtures/openai_agents_*[^d].json* "corpus/$t/" 2>/dev/null || true ;;
    import_otlp) cp -n ../tests/import/fixtures/otlp_*[^d].json* "corpus/$t/" 2>/dev/null || true ;;
    import_adk) cp -n ../tests/import/fixtures/adk_*[^d].json "corpus/$t/" 2>/dev/null || true ;;
    import_auto) cp -n ../tests/import/fixtures/*.json* "corpus/$t/" 2>/dev/null || true ;;
    topology_parse) cp -n ../examples/*.yaml ../tests/data/*.yaml "corpus/$t/" 2>/dev/null || true ;;
    trace_load) ../target/debug/baton run ../examples/ticket-reopen.yaml --out "corpus/$t/ticket-reopen.json" >/dev/null 2>&1 || true ;;
  esac
  rm -f corpus/$t/*.expected.json
  echo "== $t: ${secs}s"
  out="$(RUSTC_BOOTSTRAP=1 cargo fuzz run -s none "$t" "corpus/$t" -- -max_total_time="$secs" -max_len=65536 -rss_limit_mb=2048 2>&1 || true)"
  echo "$out" | tail -n 4
  runs="$(echo "$out" | grep -oE 'Done [0-9]+ runs' | grep -oE '[0-9]+' | tail -n 1)"
  crashes="$(find "artifacts/$t" -type f 2>/dev/null | wc -l)"
  printf '%s\t%s\t%s\t%s\n' "$t" "$secs" "${runs:-?}" "$crashes" >> "$log"
done
cat "$log"

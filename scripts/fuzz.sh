#!/usr/bin/env bash
# Runs every fuzz target (the importers, auto-detection, the topology reader, the native trace
# loader, `baton collect`'s request path) for $1 seconds each (default 600), seeded with the
# fixtures, examples and OTLP protobuf requests (scripts/otlp-seeds.py, which also generates deep
# chains: `scripts/otlp-seeds.py deep 20000`); crashes land in fuzz/artifacts/<target>/. Writes
# fuzz/fuzz.log: target, seconds, runs, crashes. `scripts/fuzz.sh SECONDS TARGET…` runs some.
# Needs cargo-fuzz (cargo install cargo-fuzz); RUSTC_BOOTSTRAP lets the stable toolchain build
# libFuzzer's instrumentation (-s none).
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
secs="${1:-600}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(import_openai_agents import_otlp import_adk import_auto topology_parse trace_load collect_request)
log=fuzz.log
printf 'target\tseconds\truns\tcrashes\n' > "$log"
for t in "${targets[@]}"; do
  mkdir -p "corpus/$t"
  case $t in
    import_openai_agents) cp -n ../tests/import/fixtures/openai_agents_*[^d].json* "corpus/$t/" 2>/dev/null || true ;;
    import_otlp) cp -n ../tests/import/fixtures/otlp_*[^d].json* "corpus/$t/" 2>/dev/null || true ;;
    import_adk) cp -n ../tests/import/fixtures/adk_*[^d].json "corpus/$t/" 2>/dev/null || true ;;
    import_auto) cp -n ../tests/import/fixtures/*.json* "corpus/$t/" 2>/dev/null || true ;;
    topology_parse) cp -n ../examples/*.yaml ../tests/data/*.yaml "corpus/$t/" 2>/dev/null || true ;;
    trace_load) ../target/debug/baton run ../examples/ticket-reopen.yaml --out "corpus/$t/ticket-reopen.json" >/dev/null 2>&1 || true ;;
    collect_request)
      # The first byte picks the encoding: 0 protobuf, 1 JSON (2 and 3: the same, gzipped).
      python3 ../scripts/otlp-seeds.py seeds "corpus/$t"
      for f in ../tests/import/fixtures/otlp_*[^d].json; do
        [ -e "$f" ] && { printf '\001'; cat "$f"; } > "corpus/$t/json-$(basename "$f")"
      done ;;
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
